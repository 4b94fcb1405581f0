// The Juxtapose board's static picture (lobby cards, rules pages), drawn from the same pieces
// as the live board (juxtapose-draw.js): presentation attributes only, so it needs neither
// the board's sheet nor its catalog.
import { s } from "../../shared/dom.js";
import {
  CELL, MARGIN, SIZE, SQUARE_NAMES, centre, corner, frame, pyramid, squareFill, winLine,
} from "./juxtapose-draw.js";

/** A static picture of a position (lobby cards, rules pages): the board and its pyramids;
 * no hit areas, hidden from assistive technology (the page around it names it). */
export function renderPreview(state) {
  const board = (state && state.board) || { squares: [] };
  const svg = s("svg", {
    viewBox: `${MARGIN - 4} ${MARGIN - 4} ${SIZE * CELL + 8} ${SIZE * CELL + 8}`,
    class: "jx-preview", "aria-hidden": "true", focusable: "false",
  });
  for (const name of SQUARE_NAMES) {
    const { x, y } = corner(name);
    svg.append(s("rect", { x, y, width: CELL, height: CELL, fill: squareFill(name) }));
  }
  svg.append(frame());
  for (const line of board.winning_lines || []) svg.append(winLine(line));
  for (const q of board.squares || []) {
    if (!q.pyramid) continue;
    const c = centre(q.name);
    svg.append(pyramid(q.pyramid, c.x, c.y));
  }
  return svg;
}
