// The result banner of a finished game: who won, the scores, why it ended, and the way to
// the rematch once there is one; and the result said aloud when a game ends. Fetched, with
// its words and sheet, once the table has a result.
import { addSheet, announce, h } from "../shared/dom.js";
import { loadCatalogs, num, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { endingSentences } from "./ending.js";
import { nameList, seatName } from "./text.js";
import { changeData, changeText } from "../shared/ratings.js";

await Promise.all([
  loadCatalogs("table-result"),
  addSheet(new URL("../../css/table-result.css", import.meta.url).href),
]);

/** The headline of a finished game: who won, and why it ended. */
function resultHeadline(view) {
  const result = view.result;
  const names = (seats) => nameList(seats.map((n) => seatName(view, n)));
  const winners = result.winners || [];
  if (result.reason === "expired") return t("table.result.expired");
  if (result.reason === "cancelled") return t("table.result.cancelled");
  let who;
  if (winners.length === 0) who = t("table.result.nobody");
  else if (winners.length === view.seats.length && winners.length > 1) who = t("table.result.draw");
  else if (winners.length === 1) who = t("table.result.wins", { name: names(winners) });
  else who = t("table.result.share", { names: names(winners) });
  return who;
}

/** Why the game ended, in sentences. */
function resultReason(view) {
  return endingSentences(view).join(" ");
}

/** deps: {board() -> the board}, whose `resultWords(view, mySeat)` may give a game's own
 * headline and a note for a game without a winner (Verticality solo: the height reached and
 * the personal best). */
export function createResult(host, deps = {}) {
  host.hidden = true;
  const own = (view, mine) => {
    const board = deps.board && deps.board();
    const words = board && typeof board.resultWords === "function" ? board.resultWords(view, mine) : null;
    return words || { headline: null, note: null };
  };
  return {
    render(model) {
      const view = model.view;
      if (!view.result) {
        host.hidden = true;
        host.removeAttribute("data-result");
        host.replaceChildren();
        return;
      }
      const result = view.result;
      host.hidden = false;
      host.dataset.result = result.reason;
      host.dataset.ending = view.state.ending?.code || "";
      host.dataset.winners = (result.winners || []).join(",");
      // a table called off before its first move (cancelled, expired) played no game: no
      // scores to list (nor a seat nobody took)
      const played = Boolean(view.state.ply) && result.reason !== "cancelled";
      const scores = played ? view.state.scores || [] : [];
      const mine = model.mySeat;
      let tone = "neutral";
      const words = ["expired", "cancelled"].includes(result.reason) ? { headline: null, note: null }
        : own(view, mine);
      if (mine !== null && !["expired", "cancelled"].includes(result.reason) && !words.headline) {
        tone = (result.winners || []).includes(mine) ? "won" : "lost";
      }
      host.className = `result-banner ${tone}`;
      host.replaceChildren(...[
        h("h2", { text: words.headline || resultHeadline(view) }),
        // a seat whose time ran out lost the game: said here ([data-clock-out="N"])
        h("p", { class: "result-reason", text: resultReason(view),
          "data-clock-out": result.reason === "timeout" ? result.seat : null }),
        words.note,
        scores.length
          ? h("ul", { class: "result-scores", "aria-label": t("table.result.scores") },
            ...view.seats.map((_, n) => {
              const swatch = h("span", { class: "swatch small", "aria-hidden": "true",
                text: seatSymbol(n, view.state.board) });
              swatch.style.background = seatColor(n);
              // a draw (every seat among the winners) is said in the headline: no badges
              const all = (result.winners || []).length === view.seats.length && view.seats.length > 1;
              const won = !all && (result.winners || []).includes(n);
              return h("li", { class: won ? "won" : "" }, swatch,
                h("span", { text: seatName(view, n) }),
                view.scored === false ? null : h("strong", { text: num(scores[n] ?? 0) }),
                won ? h("span", { class: "badge", text: t("table.result.winner") }) : null);
            }))
          : null,
        ratingChanges(view),
        view.rematch
          ? h("p", { class: "rematch-link" },
            h("a", { class: "button primary", href: `/tables/${encodeURIComponent(view.rematch)}`,
              "data-rematch-link": view.rematch,
              // a spectator is not taken along with the players: the way to watch on
              text: t(mine === null ? "table.result.watchNext" : "table.result.rematchLink") }))
          : null,
      ].filter(Boolean));
    },
    /** Say the result aloud (a game that just ended, live). */
    say(model) {
      const words = own(model.view, model.mySeat);
      const note = words.note ? ` ${words.note.textContent}` : "";
      announce(`${words.headline || resultHeadline(model.view)} ${resultReason(model.view)}${note}`, true);
    },
  };
}

/** A rated table's result: each seat's rating before → after and the change,
 * `[data-rating-change="N"]` (N the seat) whose text is the change: "+12", "−8" (a real minus
 * sign), "±0"; its `data-change` says the same in ASCII ("+12", "-8", "+0"). An aborted rated
 * table (ended before every seat moved) is unrated, and says so. */
function ratingChanges(view) {
  const result = view.result;
  if (!view.rated) return null;
  if (result.aborted || !Array.isArray(result.ratings) || !result.ratings.length) {
    return result.aborted ? h("p", { class: "hint", "data-unrated": "", text: t("table.result.unrated") }) : null;
  }
  const rows = [...result.ratings].sort((a, b) => a.seat - b.seat).map((r) => {
    const delta = r.after - r.before;
    const swatch = h("span", { class: "swatch small", "aria-hidden": "true",
      text: seatSymbol(r.seat, view.state.board) });
    swatch.style.background = seatColor(r.seat);
    return h("li", {}, swatch,
      h("span", { text: seatName(view, r.seat) }),
      h("span", { class: "rating-move", text: t("table.result.ratingMove", {
        before: num(r.before, { useGrouping: false }), after: num(r.after, { useGrouping: false }) }) }),
      h("strong", { class: `rating-change ${delta > 0 ? "up" : delta < 0 ? "down" : ""}`.trim(),
        "data-rating-change": r.seat, "data-change": changeData(delta), text: changeText(delta) }));
  });
  return h("div", { class: "result-ratings" },
    h("h3", { text: t("table.result.ratings") }),
    h("ul", { class: "result-scores", "aria-label": t("table.result.ratings") }, ...rows));
}
