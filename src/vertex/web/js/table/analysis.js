// "What would perfect play do?" for the position on the board: the server's exact value and
// best moves (or the level-5 computer's estimate), shown in words and on the `[data-analysis]`
// hook (data-value, data-best, or data-estimate). Offered where the table view says the
// server answers (js/table/replay-buttons.js analysisOffered): a live game's analysis only at a
// table set up with it; elsewhere the button is disabled with the reason (the server
// refuses too).
import { api, ApiError } from "../shared/api.js";
import { h } from "../shared/dom.js";
import { errorText as refusalText, loadErrors } from "../shared/errors.js";
import { has, loadCatalogs, onLangChange, t } from "../shared/i18n.js";

await loadCatalogs("replay");

/**
 * The analysis output in `host`, after its button (drawn by js/table/replay-buttons.js, which
 * hands its presses to ask()).
 * deps: {
 *   id,                       // the table id
 *   button,                   // the [data-action="analysis"] button
 *   shown() -> {ply, state},  // the position the board shows now (replayed or live)
 *   offered() -> boolean,     // may that position be analysed here (analysisOffered)
 *   showButton(),             // show, disable or hide the button as the table has it
 *   board() -> board | null,  // to describe (and, if it can, highlight) moves
 *   names(seat) -> string,
 * }
 */
export function createAnalysis(host, deps) {
  const { button } = deps;
  const out = h("div", { class: "analysis", "data-analysis": "", "aria-live": "polite", hidden: true });
  host.append(out);

  let result = null;   // {ply, body} or {ply, error}
  let asking = null;   // the ply being asked about
  let highlighted = false;

  const offLang = onLangChange(() => draw());

  async function ask() {
    const shown = deps.shown();
    if (!shown || !deps.offered()) return;
    const ply = shown.ply;
    asking = ply;
    result = null;
    draw();
    let reply;
    try {
      reply = { ply, body: await api.post(`/api/tables/${encodeURIComponent(deps.id)}/analysis`, { ply }) };
    } catch (err) {
      reply = { ply, error: err instanceof ApiError ? err : new ApiError("offline", String(err)) };
      // the refusal in our words, from its code (never the server's English)
      await loadErrors().catch(() => {});
    }
    if (asking !== ply) return; // the board moved on meanwhile: a stale answer
    asking = null;
    result = reply;
    draw();
  }

  function describe(move) {
    const board = deps.board();
    try {
      return board && typeof board.describeMove === "function" ? board.describeMove(move) : move;
    } catch {
      return move;
    }
  }

  /** "wins by 3 boxes": the margin in the game's own word for what a seat claims (the
   * board view's `unit`, from the server), else in cells. */
  function marginWords(key, vars) {
    const shown = deps.shown();
    const unit = shown && shown.state && shown.state.board ? shown.state.board.unit : null;
    return t(unit && has(`${key}.${unit}`) ? `${key}.${unit}` : key, vars);
  }

  function setHighlight(moves, focus = null) {
    const board = deps.board();
    if (board && typeof board.highlight === "function") {
      board.highlight(moves, focus);
      highlighted = Boolean(moves);
    }
  }

  function clearAttrs() {
    for (const a of ["value", "best", "estimate", "ply", "state", "error"]) delete out.dataset[a];
  }

  /** Draw the output for the current result (or nothing). */
  function draw() {
    clearAttrs();
    if (asking !== null) {
      out.hidden = false;
      out.dataset.state = "pending";
      out.setAttribute("aria-busy", "true");
      out.replaceChildren(h("p", { class: "analysis-pending", text: t("analysis.thinking") }));
      if (highlighted) setHighlight(null);
      return;
    }
    out.removeAttribute("aria-busy");
    if (!result) {
      out.hidden = true;
      out.replaceChildren();
      if (highlighted) setHighlight(null);
      return;
    }
    out.hidden = false;
    out.dataset.ply = String(result.ply);
    const where = h("p", { class: "analysis-where",
      text: result.ply ? t("analysis.position", { k: result.ply }) : t("analysis.positionStart") });
    const head = h("h3", { text: t("analysis.heading") });
    if (result.error) {
      out.dataset.state = "error";
      out.dataset.error = result.error.code;
      out.replaceChildren(head, h("p", { class: "analysis-error", role: "alert", text: errorText(result.error) }));
      return;
    }
    const r = result.body;
    const name = deps.names(r.seat);
    if (r.exact) {
      out.dataset.state = "exact";
      out.dataset.value = r.value;
      out.dataset.best = r.best.join(" ");
      const n = r.margin;
      const words = r.outcome === "draw" ? t("analysis.draw", { name })
        : marginWords(r.outcome === "win" ? "analysis.win" : "analysis.loss", { name, n });
      // pointing at (or focusing) an entry singles its move out on the board
      const list = h("ul", { class: "analysis-best" },
        ...r.best.map((m) => h("li", { tabindex: "0", "data-best-entry": m,
          onmouseenter: () => setHighlight(r.best, m), onfocus: () => setHighlight(r.best, m),
          onmouseleave: () => setHighlight(r.best), onblur: () => setHighlight(r.best) },
        h("code", { title: describe(m), text: m }),
        h("span", { class: "sr-only", text: ` (${describe(m)})` }))));
      out.replaceChildren(head, where,
        h("p", { class: "analysis-value" },
          h("strong", { class: "analysis-number", text: r.value }), " ", words),
        r.best.length ? h("p", { text: t("analysis.best", { n: r.best.length }) }) : "",
        r.best.length ? list : "");
      setHighlight(r.best);
    } else {
      out.dataset.state = "estimate";
      out.dataset.estimate = r.estimate;
      out.replaceChildren(head, where,
        h("p", { class: "analysis-estimate" },
          h("strong", { text: t("analysis.estimate", { move: describe(r.estimate) }) })),
        h("p", { class: "hint", text: t("analysis.estimateWhy") }));
      setHighlight([r.estimate]);
    }
  }

  function errorText(err) {
    switch (err.code) {
      case "position-over": return t("analysis.over");
      case "rate-limited": return t("analysis.rate");
      case "not-analysable": return t("analysis.unsupported");
      case "busy": case "analysis-timeout": return t("analysis.busy");
      case "analysis-closed": return t("analysis.closed");
      case "offline": return t("common.offline");
      default: return t("analysis.failed", { message: refusalText(err) });
    }
  }

  /** After every change of the table or of the position shown. */
  function render() {
    const show = deps.offered();
    deps.showButton();
    const shown = deps.shown();
    const ply = shown ? shown.ply : null;
    // An answer belongs to one position: another position on the board drops it.
    if (!show || (result && result.ply !== ply) || (asking !== null && asking !== ply)) {
      if (result || asking !== null) {
        result = null;
        asking = null;
        draw();
      }
    }
  }

  return {
    render,
    ask,
    /** Is anything of it on show (the button or an answer)? */
    get showing() { return !button.hidden || !out.hidden; },
    destroy() { offLang(); setHighlight(null); out.remove(); },
  };
}
