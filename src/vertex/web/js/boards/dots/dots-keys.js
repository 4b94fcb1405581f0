// Keyboard input on a Dots-family board (dots.js): the cells are one tab stop with a cursor.
// Arrows move it, Home/End go to the row's ends (with Ctrl the board's), Shift+arrow draws
// that side of the cell (or says why not), Enter, Space or the menu key open the cell's side
// menu, Escape drops a touch preview.
import { t } from "../../shared/i18n.js";
import { neighbour, sideForArrow } from "./dots-geometry.js";

/** Listen to the keys on `board.svg` (its cells). */
export function attachKeys(board) {
  board.svg.addEventListener("keydown", (e) => {
    const el = e.target.closest && e.target.closest("[data-cell]");
    if (!el || !board.model) return;
    const cell = board.model.cells[Number(el.dataset.cell)];
    const key = e.key;
    if (key.startsWith("Arrow") && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      if (e.shiftKey) drawSide(board, cell, key);
      else {
        const next = neighbour(board.model, cell, key);
        if (next) board.moveCursor(next.index, true);
      }
    } else if (key === "Home" || key === "End") {
      e.preventDefault();
      const row = e.ctrlKey ? board.model.cells : board.model.cells.filter((c) => c.row === cell.row);
      const sorted = [...row].sort((p, q) => p.row - q.row || p.cx - q.cx);
      const target = key === "Home" ? sorted[0] : sorted[sorted.length - 1];
      if (target) board.moveCursor(target.index, true);
    } else if (key === "Enter" || key === " " || key === "ContextMenu" || (key === "F10" && e.shiftKey)) {
      e.preventDefault();
      board.openMenuFor(cell.index);
    } else if (key === "Escape" && board.preview) {
      board.preview = null;
      board.syncOverlay();
    }
  });
}

/** Shift+arrow: draw the cell's side that way, or say which two are meant, or why not. */
function drawSide(board, cell, arrow) {
  const pick = sideForArrow(cell, arrow);
  if (pick.choices) {
    const [a, b] = pick.choices.map((sd) => `${t(`dots.side.${sd.name}`)} (${sd.line})`);
    board.say(t("dots.say.choices", { a, b }));
    return;
  }
  if (!pick.side) {
    board.say(t("dots.say.noSide"));
    return;
  }
  const sd = pick.side;
  const vars = {
    side: t(`dots.side.${sd.name}`), Side: t(`dots.Side.${sd.name}`), line: sd.line,
  };
  const why = board.why(sd.line);
  if (!why) {
    board.draw(sd.line);
    return;
  }
  let said;
  if (why.code === "drawn") said = t("dots.say.drawn", vars);
  else if (why.code === "not-your-turn" || why.code === "waiting") said = t("dots.say.wait");
  else said = t("dots.say.why", { line: sd.line, why: why.text });
  board.refuse(why, said);
}
