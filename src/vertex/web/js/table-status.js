// The lines above the board: whose turn it is, the open requests, and the last refusal from
// the server (shown here and announced). A finished game has none of these to show: the
// table fetches this module once it has (js/table.js onDemand).
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { seatColor, seatSymbol } from "./seats.js";
import { isMyTurn, isOver, turn } from "./table-model.js";
import { nameList, seatName } from "./table-text.js";

export function createStatus(host) {
  const turnLine = h("p", { class: "turn-line", "data-turn-line": true });
  const requests = h("p", { class: "requests-line", "data-requests": true });
  const error = h("p", { class: "notice bad", "data-error": true, hidden: true });
  host.replaceChildren(turnLine, requests, error);
  let errorKey = null; // the error shown, to retranslate its lead on a language switch

  function who(view, n) {
    const swatch = h("span", { class: "swatch small", "aria-hidden": "true",
      text: seatSymbol(n, view.state.board) });
    swatch.style.background = seatColor(n);
    return [swatch, " ", seatName(view, n)];
  }

  return {
    render(model) {
      const view = model.view;
      const due = turn(model);
      const waitingFor = view.seats.filter((s) => s.kind === "human" && !s.name).length;
      turnLine.classList.toggle("mine", isMyTurn(model));
      turnLine.hidden = isOver(model); // the result banner says it
      if (isOver(model)) {
        turnLine.replaceChildren();
      } else if (!view.started) {
        turnLine.replaceChildren(t("table.turn.waiting", { n: waitingFor }));
      } else if (isMyTurn(model)) {
        turnLine.replaceChildren(h("span", { class: "marker", "aria-hidden": "true", text: "▶" }),
          " ", h("strong", { text: t("table.turn.yours") }));
      } else if (due.length) {
        // The names carry their symbols, so the sentence is cut where the names go.
        const [before, after = ""] = t("table.turn.theirs", { names: "\u0000" }).split("\u0000");
        const names = due.flatMap((n, j) => (j ? [", ", ...who(view, n)] : who(view, n)));
        turnLine.replaceChildren(h("span", { class: "marker", "aria-hidden": "true", text: "▶" }),
          " ", before, ...names, after);
      } else {
        turnLine.replaceChildren();
      }

      const req = view.requests || {};
      const lines = [];
      if (req.undo !== null && req.undo !== undefined) {
        lines.push(t("table.request.undo", { name: seatName(view, req.undo) }));
      }
      if (req.end && req.end.length) {
        lines.push(t("table.request.end", { names: nameList(req.end.map((n) => seatName(view, n))) }));
      }
      requests.textContent = lines.join(" ");
      requests.hidden = lines.length === 0;
      if (errorKey) this.error(errorKey.lead, errorKey.message, false, errorKey.vars);
    },
    /** Show (and announce) a refusal: the words for it (`lead` with `vars`), and where the
     *  page has none of its own the server's reason after them. */
    error(lead, message, say = true, vars = {}) {
      errorKey = { lead, message, vars };
      const words = t(lead, vars);
      const text = message ? `${words} ${message}` : words;
      error.replaceChildren(h("strong", { text: words }), message ? ` ${message}` : "");
      error.hidden = false;
      if (say) announce(text, true);
    },
    clearError() {
      errorKey = null;
      error.hidden = true;
      error.replaceChildren();
    },
  };
}
