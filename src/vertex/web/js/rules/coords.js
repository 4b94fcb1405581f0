// Coordinates around a board picture on the rules pages, so a caption that names `c3-d3` or
// `b4` can be found on the picture, and the notation section can be read off it. The board
// modules draw the pictures; this only adds labels beside them. Where the picture is not what
// it expects (the dots or squares cannot be found), it adds nothing: a picture without labels
// is better than labels in the wrong place.
import { s } from "../shared/dom.js";

const NAME = /^([a-z]+)(\d+)$/;
const INK = "#4f5963";

/** Add coordinate labels to `svg`, a board module's renderPreview(state). */
export function addCoordinates(svg, state) {
  const board = state && state.board;
  if (!board) return;
  if (Array.isArray(board.dots) && board.dots.length) dotLabels(svg, board.dots);
  else if (Array.isArray(board.squares) && board.squares.length) squareLabels(svg, board);
}

function viewBox(svg) {
  const vb = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  return vb.length === 4 && vb.every(Number.isFinite) ? vb : null;
}

function grow(svg, vb, left, top) {
  const [x, y, w, h] = vb;
  const nx = Math.min(x, left);
  const ny = Math.min(y, top);
  svg.setAttribute("viewBox", `${r(nx)} ${r(ny)} ${r(w + x - nx)} ${r(h + y - ny)}`);
}

function label(text, x, y, size, anchor = "middle") {
  return s("text", {
    x: r(x), y: r(y), "font-size": r(size), fill: INK, "text-anchor": anchor,
    "dominant-baseline": "central", "font-family": "system-ui, sans-serif",
    "font-weight": 600, stroke: "#ffffff", "stroke-width": r(size / 6),
    "paint-order": "stroke", class: "rules-coord",
  }, text);
}

/** Line games: the picture's dots are circles at the board's dot positions, in its own
 * scale. Square grids get column letters above and row numbers to the left; on triangular
 * lattices (where a letter's dots do not stand in one column) every dot gets its name. */
function dotLabels(svg, dots) {
  const vb = viewBox(svg);
  const circles = [...svg.querySelectorAll("circle.dots-dot, circle.v3x-dot")];
  if (!vb || circles.length !== dots.length) return;
  const fit = scale(dots, circles);
  if (!fit) return;
  const { k, ox, oy } = fit;
  const X = (x) => ox + x * k;
  const Y = (y) => oy + y * k;
  const parts = dots.map((d) => ({ ...d, m: NAME.exec(d.name) })).filter((d) => d.m);
  if (parts.length !== dots.length) return;
  const minX = Math.min(...dots.map((d) => d.x));
  const minY = Math.min(...dots.map((d) => d.y));
  const columns = new Map();
  const rows = new Map();
  let upright = true;
  for (const d of parts) {
    const [, letters, row] = d.m;
    if (columns.has(letters) && Math.abs(columns.get(letters) - d.x) > 1e-6) upright = false;
    columns.set(letters, d.x);
    rows.set(row, d.y);
  }
  const g = s("g", { class: "rules-coords", "aria-hidden": "true" });
  if (upright) {
    const size = 0.26 * k;
    for (const [letters, x] of columns) g.append(label(letters, X(x), Y(minY - 0.36), size));
    for (const [row, y] of rows) g.append(label(row, X(minX - 0.36), Y(y), size));
    grow(svg, vb, X(minX - 0.55), Y(minY - 0.55));
  } else {
    // Straight above each dot, between the lattice's lines at 60° and 120°, near the dot:
    // far from the middle of the cells, where the owners' symbols are drawn.
    const size = 0.18 * k;
    for (const d of parts) g.append(label(d.name, X(d.x), Y(d.y - 0.22), size));
    grow(svg, vb, X(minX - 0.5), Y(minY - 0.45));
  }
  svg.append(g);
}

/** The picture's scale and offset: circle = offset + dot · k (the same k both ways). */
function scale(dots, circles) {
  const cx = circles.map((c) => Number(c.getAttribute("cx")));
  const cy = circles.map((c) => Number(c.getAttribute("cy")));
  const xs = dots.map((d) => d.x);
  const ys = dots.map((d) => d.y);
  const span = Math.max(...xs) - Math.min(...xs) || Math.max(...ys) - Math.min(...ys);
  if (!span) return null;
  const k = Math.max(...xs) - Math.min(...xs)
    ? (Math.max(...cx) - Math.min(...cx)) / (Math.max(...xs) - Math.min(...xs))
    : (Math.max(...cy) - Math.min(...cy)) / (Math.max(...ys) - Math.min(...ys));
  if (!Number.isFinite(k) || k <= 0) return null;
  return { k, ox: Math.min(...cx) - Math.min(...xs) * k, oy: Math.min(...cy) - Math.min(...ys) * k };
}

/** Juxtapose: the picture's first rects are its squares, in board order (a1 … d4). */
function squareLabels(svg, board) {
  const vb = viewBox(svg);
  const n = board.size || Math.round(Math.sqrt(board.squares.length));
  const rects = [...svg.querySelectorAll(":scope > rect")].slice(0, n * n);
  if (!vb || rects.length !== n * n) return;
  const num = (el, a) => Number(el.getAttribute(a));
  const cell = num(rects[0], "width");
  const x0 = num(rects[0], "x");
  const y0 = num(rects[0], "y");
  // Check the guess: the last square sits n − 1 cells right of and below the first.
  const last = rects[n * n - 1];
  if (!cell || Math.abs(num(last, "x") - (x0 + (n - 1) * cell)) > 1e-6
    || Math.abs(num(last, "y") - (y0 + (n - 1) * cell)) > 1e-6) return;
  const size = 0.2 * cell;
  const g = s("g", { class: "rules-coords", "aria-hidden": "true" });
  for (let i = 0; i < n; i += 1) {
    g.append(label("abcdefgh"[i], x0 + (i + 0.5) * cell, y0 - 0.22 * cell, size));
    g.append(label(String(i + 1), x0 - 0.22 * cell, y0 + (i + 0.5) * cell, size));
  }
  grow(svg, vb, x0 - 0.4 * cell, y0 - 0.4 * cell);
  svg.append(g);
}

const r = (v) => Math.round(v * 1000) / 1000;
