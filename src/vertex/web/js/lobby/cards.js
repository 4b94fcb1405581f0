// The game cards: one per game ([data-game="ID"] on the card) with its picture, name and a
// short summary as the button that opens its form, links to its rules and (a rated game) its
// leaderboards, and "Play now".
// Pictures are drawn once and kept across language switches.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { player } from "../shared/player.js";
import { picture } from "./pictures.js";
import { gameName, gameSummary } from "./words.js";

const pictures = new Map(); // game id -> Promise<SVGElement>

function pictureOf(game) {
  if (!pictures.has(game.id)) pictures.set(game.id, picture(game.preview || {}));
  return pictures.get(game.id);
}

/** Fill `host` with the cards; `chosen` is the game id whose form is open (or null). A player
 * also gets "Play rated" on a rated game's card (its first pool: the game's usual options). */
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
            ? h("button", { type: "button", class: "play-now play-rated", "data-action": "play-rated",
              "data-pool": game.pools[0].id, "aria-label": t("place.play-rated-of", { game: name }),
              onclick: (ev) => onPlayRated(game, game.pools[0], ev.currentTarget),
              text: t("place.play-rated") })
            : null))));
  }
  host.replaceChildren(list);
}

/** Mark which card's form is open. */
export function markChosen(host, chosen) {
  for (const card of host.querySelectorAll("[data-game]")) {
    card.querySelector(".game-choose")
      ?.setAttribute("aria-pressed", String(card.dataset.game === chosen));
  }
}
