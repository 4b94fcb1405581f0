// The game cards: one button per game ([data-game="ID"]) with its picture, name and a short
// summary, plus a link to its rules. Pictures are drawn once and kept across language switches.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { picture } from "./lobby-pictures.js";
import { gameName, gameSummary } from "./lobby-words.js";

const pictures = new Map(); // game id -> Promise<SVGElement>

function pictureOf(game) {
  if (!pictures.has(game.id)) pictures.set(game.id, picture(game.preview || {}));
  return pictures.get(game.id);
}

/** Fill `host` with the cards; `chosen` is the game id whose form is open (or null). */
export function renderCards(host, games, chosen, onChoose) {
  const list = h("ul", { class: "game-list", role: "list" });
  for (const game of games) {
    const frame = h("span", { class: "game-picture", "aria-hidden": "true" });
    pictureOf(game).then((svg) => frame.replaceChildren(svg));
    const name = gameName(game);
    list.append(h("li", { class: "game-card" },
      h("button", {
        type: "button", class: "game-choose", "data-game": game.id,
        "aria-pressed": String(game.id === chosen), "aria-controls": "new-table",
        onclick: () => onChoose(game.id),
      },
      frame,
      h("span", { class: "game-text" },
        h("span", { class: "game-name", text: name }),
        h("span", { class: "game-summary", text: gameSummary(game) }))),
      h("a", { class: "game-rules", href: `/rules/${encodeURIComponent(game.id)}`,
        "aria-label": t("lobby.rules-of", { game: name }), text: t("lobby.rules") })));
  }
  host.replaceChildren(list);
}

/** Mark which card's form is open. */
export function markChosen(host, chosen) {
  for (const b of host.querySelectorAll("[data-game]")) {
    b.setAttribute("aria-pressed", String(b.dataset.game === chosen));
  }
}
