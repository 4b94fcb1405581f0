// The Dots-family boards' static drawing: a picture of a position (lobby cards, rules pages)
// and the pieces the live board (dots.js) draws with too; no events, catalog or menu.
import { s } from "../../shared/dom.js";
import { seatColor, seatInk, seatSymbol } from "../../shared/seats.js";
import { buildModel } from "./dots-geometry.js";
import { fmt, symbolShape } from "./dots-symbols.js";

const PAD = 0.5;           // board units around the outer dots

/** A static picture of `state` (lobby cards, rules pages): no hit areas, hidden from AT. */
export function renderPreview(state) {
  const board = state.board;
  const model = buildModel(board);
  const svg = s("svg", {
    class: "dots-svg dots-picture",
    viewBox: viewBox(model),
    "aria-hidden": "true",
    focusable: "false",
  });
  const vb = viewBox(model).split(" ").map(Number);
  // A preview is small: strokes sized for about 160 px across.
  setWidths(svg, Math.max(vb[2], vb[3]) / 160);
  const cells = s("g", { class: "dots-cells" });
  const lines = s("g", { class: "dots-lines" });
  const symbols = s("g", { class: "dots-symbols" });
  model.cells.forEach((c, i) => {
    const owner = board.cells[i].owner;
    const poly = s("polygon", { class: "dots-cell", points: points(c.pts) });
    if (owner !== null && owner !== undefined) {
      poly.style.fill = seatColor(owner);
      poly.classList.add("claimed");
      symbols.append(symbolFor(model, c, owner, board));
    }
    cells.append(poly);
  });
  model.lines.forEach((ln, i) => {
    const data = board.lines[i];
    if (data.drawn) lines.append(lineShape(ln, data.predrawn));
  });
  svg.append(cells, guides(model), lines, dotsGroup(model), symbols);
  return svg;
}

// -------------------------------------------------------------------- shared pieces

export function viewBox(model) {
  const e = model.extent;
  const pad = model.triangular ? PAD * 0.9 : PAD;
  return [e.minX - pad, e.minY - pad, e.maxX - e.minX + 2 * pad, e.maxY - e.minY + 2 * pad]
    .map(fmt).join(" ");
}

/** Stroke widths as CSS variables in board units, from the size of one screen pixel. */
export function setWidths(svg, upp) {
  const clamp = (lo, want, hi) => Math.max(lo * upp, Math.min(want, hi * upp));
  const vars = {
    "--dots-line": clamp(3, 0.075, 8),
    "--dots-border": clamp(5, 0.1, 10),
    "--dots-last": clamp(6, 0.13, 13),
    "--dots-dot": clamp(3.5, 0.075, 9),
    "--dots-ring": clamp(2.5, 0.04, 5),
    "--dots-focus": clamp(3.5, 0.06, 6),
    "--dots-px": upp,
  };
  for (const [name, v] of Object.entries(vars)) svg.style.setProperty(name, `${fmt4(v)}px`);
}

function fmt4(v) {
  return String(Math.round(v * 10000) / 10000);
}

export function points(pts) {
  return pts.map((p) => `${fmt(p.x)},${fmt(p.y)}`).join(" ");
}

export function ends(ln) {
  return { x1: fmt(ln.a.x), y1: fmt(ln.a.y), x2: fmt(ln.b.x), y2: fmt(ln.b.y) };
}

/** A drawn line; a border line is a double line (grey with a light core), not colour only. */
export function lineShape(ln, border) {
  if (!border) return s("line", { class: "dots-line", ...ends(ln), pathLength: 1 });
  return s("g", { class: "dots-border" },
    s("line", { class: "dots-border-outer", ...ends(ln) }),
    s("line", { class: "dots-border-core", ...ends(ln) }));
}

/** Every line as one faint path under the drawn ones: where lines can go (on a triangular
 * lattice the neighbours are not obvious from the dots alone). */
export function guides(model) {
  const d = model.lines
    .map((ln) => `M${fmt(ln.a.x)},${fmt(ln.a.y)}L${fmt(ln.b.x)},${fmt(ln.b.y)}`).join("");
  return s("path", { class: "dots-guides", d, "aria-hidden": "true" });
}

export function dotsGroup(model) {
  const g = s("g", { class: "dots-dots", "aria-hidden": "true" });
  for (const d of model.dots.values()) {
    g.append(s("circle", { class: "dots-dot", cx: fmt(d.x), cy: fmt(d.y), r: 0.07 }));
  }
  return g;
}

/** The owner's symbol in the middle of a cell (for triangles at the centre of the inscribed
 * circle, which is the centroid), sized to the cell. */
export function symbolFor(model, c, owner, board) {
  const size = model.triangular ? model.inradius * 0.62 : 0.27;
  const wrap = s("g", { class: "dots-symbol-wrap" });
  wrap.append(symbolShape(seatSymbol(owner, board), c.cx, c.cy, size, seatInk(owner)));
  return wrap;
}
