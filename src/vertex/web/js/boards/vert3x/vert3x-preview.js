// The Vert3x board's static picture (lobby cards, rules pages), drawn from the same pieces
// as the live board (vert3x-draw.js), without its events, texts or catalog.
import { addSheet, s } from "../../shared/dom.js";
import {
  claimLayer, dotLayer, gridLayer, inkLine, plainFill, startMarks, triangleLayer, viewBox,
} from "./vert3x-draw.js";
import { buildModel } from "./vert3x-geometry.js";

/** Load the board's style sheet once, next to this module (only pages with a Vert3x board or
 * picture pay); resolves when it applies (the board awaits it, so it never draws unstyled). */
export function ensureStyles() {
  return addSheet(new URL("../../../css/vert3x.css", import.meta.url).href);
}

/** A small static picture of a position (lobby cards, rules pages): drawn thicker, since it
 * is shown small. */
export function renderPreview(state) {
  ensureStyles();
  const board = state.board;
  const model = buildModel(board);
  const vb = viewBox(model);
  const owners = new Map(board.lines.map((ln) => [ln.name, ln.owner]));
  const drawn = model.lines.filter((ln) => owners.get(ln.name) !== null
    && owners.get(ln.name) !== undefined);
  const thick = (el, width) => { el.setAttribute("stroke-width", width); return el; };
  const dots = dotLayer(model);
  for (const d of dots) d.setAttribute("r", 9);
  return s("svg", {
    class: "v3x-picture", viewBox: `${vb.x} ${vb.y} ${vb.w} ${vb.h}`, role: "img",
    "data-vert3x-preview": board.rules,
  },
  s("g", { class: "v3x-grid" }, gridLayer(model).map((el) => thick(el, 4))),
  s("g", {}, claimLayer(board, plainFill)),
  s("g", {}, triangleLayer(model, board, plainFill)),
  s("g", {}, drawn.map((ln) => thick(inkLine(ln, owners.get(ln.name)), 15))),
  s("g", {}, dots),
  s("g", {}, startMarks(model, board)));
}
