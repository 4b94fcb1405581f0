// The game cards: one per game ([data-game="ID"] on the card) with its picture, name and a
// short summary as the button that opens its form, links to its rules and (a rated game) its
// leaderboards, and "Play now".
// Pictures are drawn once and kept across language switches.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { player } from "../shared/player.js";
import { poolName, poolOptions } from "../shared/pools.js";
import { picture } from "./pictures.js";
import { gameName, gameSummary } from "./words.js";

const pictures = new Map(); // game id -> Promise<SVGElement>
const chosenPools = new Map(); // game id -> the pool id chosen for Play rated

function pictureOf(game) {
  if (!pictures.has(game.id)) pictures.set(game.id, picture(game.preview || {}));
  return pictures.get(game.id);
}

/** Fill `host` with the cards; `chosen` is the game id whose form is open (or null). A player
 * also gets "Play rated" on a rated game's card, in the pool they choose there. */
export function renderCards(host, games, chosen, onChoose, onPlayNow, onPlayRated = null) {
  const me = player();
  const list = h("ul", { class: "game-list", role: "list" });
  for (const game of games) {
    const frame = h("span", { class: "game-picture", "aria-hidden": "true" });
    pictureOf(game).then((svg) => frame.replaceChildren(svg));
    const name = gameName(game);
    list.append(h("li", { class: "game-card", "data-game": game.id },
      h("button", {
        type: "button", class: "game-choose",
        "aria-pressed": String(game.id === chosen), "aria-controls": "new-table",
        onclick: () => onChoose(game.id),
      },
      frame,
      h("span", { class: "game-text" },
        h("span", { class: "game-name", text: name }),
        h("span", { class: "game-summary", text: gameSummary(game) }))),
      h("div", { class: "game-foot" },
        h("span", { class: "game-links" },
          h("a", { class: "game-rules", href: `/rules/${encodeURIComponent(game.id)}`,
            "aria-label": t("lobby.rules-of", { game: name }), text: t("lobby.rules") }),
          // a rated game's leaderboards (the first pool's page links the others)
          game.pools && game.pools.length
            ? h("a", { class: "game-leaderboard", "data-leaderboard-link": game.pools[0].id,
              href: `/leaderboard/${encodeURIComponent(game.pools[0].id)}`,
              "aria-label": t("lobby.leaderboard-of", { game: name }), text: t("lobby.leaderboard") })
            : null),
        h("span", { class: "game-plays" },
          h("button", { type: "button", class: "play-now", "data-action": "play-now",
            "aria-label": t("place.play-now-of", { game: name }),
            onclick: (ev) => onPlayNow(game, ev.currentTarget), text: t("place.play-now") }),
          me && onPlayRated && game.pools && game.pools.length
            ? playRated(game, games, onPlayRated) : null))));
  }
  host.replaceChildren(list);
}

/** "Play rated" in the pool chosen (its id in `data-pool`); a game of several pools (RULES
 * §5: Dots and Boxes 3×3 and 5×5…) has a choice of them before it, kept across renders. */
function playRated(game, games, onPlayRated) {
  const pools = game.pools;
  let pool = pools.find((p) => p.id === chosenPools.get(game.id)) || pools[0];
  const label = () => t("place.play-rated-of", { game: poolName(games, pool.id) });
  const button = h("button", { type: "button", class: "play-now play-rated",
    "data-action": "play-rated", "data-pool": pool.id, "aria-label": label(),
    onclick: (ev) => onPlayRated(game, pool, ev.currentTarget), text: t("place.play-rated") });
  if (pools.length < 2) return button;
  const choice = h("select", { name: "rated-pool", class: "rated-pool", "data-rated-pool": game.id,
    "aria-label": t("place.rated-pool-of", { game: gameName(game) }),
    onchange: (ev) => {
      pool = pools.find((p) => p.id === ev.currentTarget.value) || pools[0];
      chosenPools.set(game.id, pool.id);
      button.dataset.pool = pool.id;
      button.setAttribute("aria-label", label());
    } },
  pools.map((p) => h("option", { value: p.id, text: poolWords(game, p) || poolName(games, p.id) })));
  choice.value = pool.id;
  return h("span", { class: "rated-choice" }, choice, button);
}

/** A pool among its game's others, in short: only the options in which they differ
 * ("5×5"; Figures' "Players 3"). */
function poolWords(game, pool) {
  const others = game.pools.filter((p) => p !== pool);
  const differ = Object.entries(pool.options || {}).filter(([name, value]) =>
    others.some((p) => JSON.stringify((p.options || {})[name]) !== JSON.stringify(value)));
  const options = Object.fromEntries(differ);
  if ("rows" in options || "cols" in options) { // the size says both
    options.rows = pool.options.rows;
    options.cols = pool.options.cols;
  }
  return poolOptions({ ...game, defaults: {} }, { ...pool, options });
}

/** Mark which card's form is open. */
export function markChosen(host, chosen) {
  for (const card of host.querySelectorAll("[data-game]")) {
    card.querySelector(".game-choose")
      ?.setAttribute("aria-pressed", String(card.dataset.game === chosen));
  }
}
