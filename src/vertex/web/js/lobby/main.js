// The lobby `/`: your tables, the listed tables live (waiting, playing, finished), every
// game as a card (with Play now), and the new-table form for the one chosen.
// `/?game=ID` opens that game's form (the address follows the choice, so a reload keeps it).
import { api } from "../shared/api.js";
import { h, reducedMotion } from "../shared/dom.js";
import { mountHeader } from "../shared/header.js";
import { loadCatalogs, onLangChange, t } from "../shared/i18n.js";
import { alertSettings } from "../shared/alerts.js";
import { markChosen, renderCards } from "./cards.js";
import { LobbySocket } from "./live.js";
import { MyTables } from "./mine.js";
import { LobbyPlace } from "./place.js";
import { Seating } from "./playnow.js";
import { onPlayerChange } from "../shared/player.js";

await loadCatalogs("lobby");

const main = document.querySelector("[data-lobby]");
let games = [];
let chosen = null;
let form = null;

const intro = h("div", { class: "intro" });
const cards = h("section", { class: "games", "aria-labelledby": "games-heading" });
const formHost = h("section", { class: "new-table card", id: "new-table", hidden: true });
const layout = h("div", { class: "lobby-layout" }, cards, formHost);
const mineHost = h("div");
const seatingHost = h("div");
const placeHost = h("div");
const alertsHost = h("div");
const startHeading = h("h2", { class: "start-heading" });
let place = null;
let mine = null;
let seating = null;
let arranged = false;

/** Once, on the lobby's first list: tables listed now come before the games. Decided once,
 * so later changes never move the cards from under a finger. */
function arrange() {
  if (arranged || !place.model) return;
  arranged = true;
  if (!place.quiet) main.insertBefore(placeHost, startHeading);
}
const socket = new LobbySocket({
  list: (model, change) => {
    if (!place) return;
    place.update(model, change);
    arrange();
  },
  mine: (entries, missing) => mine && mine.update(entries, missing),
  status: () => {},
});

function renderIntro() {
  document.title = t("lobby.title");
  startHeading.textContent = t("place.start");
  intro.replaceChildren(
    h("h1", { text: t("lobby.heading") }),
    h("p", { class: "lead", text: t("lobby.intro") }));
}

function renderGames() {
  const heading = h("h2", { id: "games-heading", class: "sr-only", text: t("lobby.games") });
  const list = h("div");
  renderCards(list, games, chosen, choose, (game, button) => seating.playNow(game, button),
    (game, pool, button) => seating.playRated(game, pool, button));
  cards.replaceChildren(heading, list);
}

/** Open the form for game `id`. The form (js/lobby/form.js, its fields and the options'
 * catalog) is fetched when a game is first chosen: the cards alone need none of it. */
async function choose(id, { focus = true, shared = null } = {}) {
  const game = games.find((g) => g.id === id);
  if (!game) return;
  chosen = id;
  markChosen(cards, id);
  const url = new URL(location.href);
  url.searchParams.set("game", id);
  if (!shared) {
    url.searchParams.delete("options");
    url.searchParams.delete("seats");
    url.hash = "";
  }
  history.replaceState(null, "", url);
  let NewTableForm;
  try {
    ({ NewTableForm } = await import("./form.js"));
  } catch (err) {
    formHost.hidden = false;
    formHost.replaceChildren(h("p", { class: "notice bad", role: "alert",
      text: t("lobby.load-failed", { message: err.message }) }));
    return;
  }
  if (chosen !== id) return; // another game was chosen while the form was on its way
  if (form) form.destroy();
  formHost.hidden = false;
  layout.classList.add("has-form");
  form = new NewTableForm(formHost, game, shared);
  if (focus) {
    // On a phone the form is below the cards: bring it up and start there. On a wide screen
    // it sits beside them, already in view: no jump.
    const top = formHost.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) {
      formHost.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    form.focusHeading();
  }
}

async function load() {
  main.replaceChildren(intro, h("p", { class: "hint", "aria-live": "polite", text: t("lobby.loading") }));
  try {
    games = await api.games();
  } catch (err) {
    const retry = h("button", { type: "button", onclick: load, text: t("lobby.retry") });
    main.replaceChildren(intro,
      h("p", { class: "notice bad", role: "alert" },
        t("lobby.load-failed", { message: err.message }), " ", retry));
    return;
  }
  // The games first, the tables listed after them until the first list says there are some
  // (arrange()): a newcomer on a quiet evening sees the games, not three empty sections.
  main.replaceChildren(intro, mineHost, seatingHost, startHeading, layout, placeHost, alertsHost);
  arranged = false;
  mine = new MyTables(mineHost, games, socket);
  seating = new Seating(seatingHost, games, mine);
  place = new LobbyPlace(placeHost, games, {
    onSit: (entry, button) => seating.sit(entry, button),
    onFilter: (game) => socket.filter(game),
  });
  alertsHost.replaceChildren(alertSettings());
  socket.start();
  renderGames();
  const wanted = new URL(location.href).searchParams.get("game");
  if (wanted) {
    const { sharedFromAddress } = await import("./share.js");
    // An address that names a game (the rules page's "play", a shared version, a reload)
    // opens its form in view: on a phone it is below all the cards.
    choose(wanted, { focus: true, shared: sharedFromAddress() });
  }
}

mountHeader();
renderIntro();
onLangChange(() => {
  renderIntro();
  if (!games.length) return;
  renderGames();
  if (form) form.render();
  if (place) place.render();
  if (mine) mine.render();
  alertsHost.replaceChildren(alertSettings());
});
// a name claimed (or signed out) while the form is open: its name field and rated switch
// and the cards ("Play rated" is a player's)
onPlayerChange(() => {
  if (form) form.render();
  if (games.length) renderGames();
});
load();
