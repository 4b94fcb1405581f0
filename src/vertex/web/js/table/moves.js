// The live move list beside the board while a game goes on: every move in the notation,
// the last one marked, each a button that peeks at the position after it (the replay's
// stepping shows it on the same board, js/table/replay.js) while live moves keep arriving; "back
// to the game" ends the peek. Fetched, with its words and sheet, once the game has a move
// (js/table/main.js onDemand).
import { api } from "../shared/api.js";
import { addSheet, h } from "../shared/dom.js";
import { loadCatalogs, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { byClock } from "./model.js";

await Promise.all([
  loadCatalogs("table-moves"),
  addSheet(new URL("../../css/table-moves.css", import.meta.url).href),
]);

/** A move in the board's own words for the list, or null (the board has none for it). */
function readable(board, move) {
  if (!board || typeof board.moveWords !== "function" || move === null || move === undefined) return null;
  return board.moveWords(move) || null;
}

/**
 * deps: {id, board() -> board, names(seat), peek(ply), live(), peeking() -> ply | null}.
 * Returns {render(model)}.
 */
export function createMoves(host, deps) {
  const heading = h("h2", { id: "moves-heading" });
  const list = h("ol", { class: "moves-list", "data-move-list": "", "aria-labelledby": heading.id });
  const where = h("span", { class: "moves-peek-text" });
  const back = h("button", { type: "button", class: "primary", "data-action": "live" });
  const peekBar = h("p", { class: "moves-peek", role: "status", hidden: true }, where, " ", back);
  host.replaceChildren(heading, peekBar, list);
  back.addEventListener("click", () => deps.live());
  list.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-move-ply]");
    if (b) deps.peek(Number(b.dataset.movePly));
  });

  let moves = [];      // [{seat, move}] of the game so far
  let fetching = null;
  let model = null;

  function sync(m) {
    const st = m.view && m.view.state;
    const ply = (st && st.ply) || 0;
    if (ply < moves.length) moves = moves.slice(0, ply); // moves were taken back
    const last = st && st.last_move;
    if (ply === moves.length + 1 && last && last.move !== undefined) moves.push({ seat: last.seat, move: last.move });
    else if (ply !== moves.length && !fetching) {
      // more than one move since the last look (a reload, a gap): the record says which
      fetching = api.record(deps.id).then((rec) => {
        moves = rec.moves.map((mv) => ({ seat: mv.seat, move: mv.move }));
      }, () => {}).finally(() => { fetching = null; if (model) draw(); });
    }
  }

  function entry(mv, k) {
    const b = h("button", { type: "button", class: "moves-item", "data-move-ply": k, "data-move": mv.move ?? "" });
    const said = mv.move === null || mv.move === undefined ? "…" : mv.move;
    if (mv.seat !== null && mv.seat !== undefined) {
      const sw = h("span", { class: "swatch", "aria-hidden": "true", text: seatSymbol(mv.seat, model.view.state.board) });
      sw.style.background = seatColor(mv.seat);
      // a board that words its moves for reading (Verticality's aims) shows the words, the
      // notation in the tooltip; the others show the notation, which reads well enough
      let shown = null;
      try { shown = readable(deps.board(), mv.move); } catch { /* the notation reads too */ }
      let words = said;
      try { words = deps.board().describeMove(mv.move); } catch { /* the notation reads too */ }
      // named by what it shows, the player and the move in words around it for screen
      // readers (WCAG 2.5.3: the accessible name contains the visible text)
      const after = words === (shown || said) ? "" : `, ${words}`;
      b.append(h("span", { class: "moves-num", text: `${k}.` }), sw,
        h("span", { class: "sr-only", text: ` ${deps.names(mv.seat)}: ` }),
        shown ? h("span", { class: "moves-words", title: said, text: shown }) : h("code", { text: said }),
        h("span", { class: "sr-only", text: `${after}. ${t("table.moves.show")}` }));
    } else {
      b.append(h("span", { class: "moves-num", text: `${k}.` }), h("code", { text: said }));
    }
    return h("li", {}, b);
  }

  function draw() {
    heading.textContent = t("table.moves.heading");
    back.textContent = t("table.moves.live");
    const peek = deps.peeking();
    const had = document.activeElement && list.contains(document.activeElement)
      ? document.activeElement.dataset.movePly : null; // keep a keyboard player's place
    list.replaceChildren(...moves.map((mv, i) => entry(mv, i + 1)));
    const items = list.querySelectorAll("button[data-move-ply]");
    const mark = peek ?? moves.length;
    items.forEach((b) => {
      const k = Number(b.dataset.movePly);
      if (k === moves.length) b.classList.add("is-last");
      if (byClock(model.view, k)) markClock(b);
      if (k === mark) b.setAttribute("aria-current", peek === null ? "true" : "step");
    });
    peekBar.hidden = peek === null;
    if (peek === null) delete list.dataset.peek;
    else list.dataset.peek = String(peek);
    where.textContent = peek === null ? "" : t(peek ? "table.moves.peek" : "table.moves.peekStart", { k: peek });
    if (had) list.querySelector(`[data-move-ply="${had}"]`)?.focus({ preventScroll: true });
    const current = items[mark - 1];
    if (current) list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight + current.offsetHeight);
  }

  return {
    render(m) {
      model = m;
      sync(m);
      host.hidden = moves.length === 0 && !fetching;
      draw();
    },
  };
}

/** The computer's move for a seat whose time ran out (the server's clock_plies): said on the
 * entry, in its accessible name too (`data-by="clock"`). */
function markClock(b) {
  b.dataset.by = "clock";
  b.title = t("table.moves.byClock");
  b.append(h("span", { class: "moves-by" }, t("table.moves.byClockShort"),
    h("span", { class: "sr-only", text: ` (${t("table.moves.byClock")})` })));
  const label = b.getAttribute("aria-label"); // a name of its own leaves the span out
  if (label) b.setAttribute("aria-label", `${label} (${t("table.moves.byClock")})`);
}
