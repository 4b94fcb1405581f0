// Juxtapose pictures: the 4×4 board and pyramids seen from above. Shared by the live board and
// the static preview, so everything here uses SVG presentation attributes and needs no sheet.
//
// A pyramid must read without colour and without hue: its size is its footprint (three
// clearly different squares) and its pips (1, 2, 3, as on real Looney pyramids); its colour
// is also its letter (R Y G B P) on a white disc at the apex. Dark outlines keep yellow
// visible on the light board.
import { s } from "../../shared/dom.js";

export const CELL = 100;           // one square, in user units
export const MARGIN = 26;          // room for the coordinates (a–d above, 1–4 on the left)
export const SIZE = 4;
export const SIDE = MARGIN + SIZE * CELL + 8;
export const COLOURS = "RYGBP";
export const COLUMNS = "abcd";

/** Base fills: the five Looney colours, chosen so each keeps its own lightness. */
export const FILLS = { R: "#d62828", Y: "#f4c400", G: "#2a9d4b", B: "#2f6fd0", P: "#8447b5" };
const INK = "#1d232a";
export const ACCENT = "#0b3954";
/** Half the footprint per size, against a square of 100: about the real 14 : 20 : 25 mm. */
const HALF = { 1: 22, 2: 31, 3: 41 };

export const SQUARE_NAMES = [];
for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) SQUARE_NAMES.push(`${COLUMNS[c]}${r + 1}`);

/** "b3" -> {x, y}: the top-left corner of that square in user units. */
export function corner(square) {
  const c = COLUMNS.indexOf(square[0]);
  const r = Number(square.slice(1)) - 1;
  return { x: MARGIN + c * CELL, y: MARGIN + r * CELL };
}

/** "b3" -> its centre. */
export function centre(square) {
  const { x, y } = corner(square);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

/** "R3" -> {colour: "R", size: 3}. */
export function parsePyramid(name) {
  return { colour: name[0], size: Number(name[1]) };
}

function mix(hex, toward, amount) {
  const a = parseInt(hex.slice(1), 16);
  const b = parseInt(toward.slice(1), 16);
  const ch = (v, shift) => (v >> shift) & 255;
  const out = [16, 8, 0].map((sh) => Math.round(ch(a, sh) + (ch(b, sh) - ch(a, sh)) * amount));
  return `#${out.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * One pyramid seen from above, centred on (cx, cy): four faces lit from the top left, the
 * edges to the apex, pips on the lower face and the colour's letter at the apex.
 * `extra` adds attributes to the group (class, data-*).
 */
export function pyramid(name, cx, cy, extra = {}) {
  const { colour, size } = parsePyramid(name);
  const w = HALF[size] || HALF[1];
  const base = FILLS[colour] || "#888888";
  const tl = [cx - w, cy - w], tr = [cx + w, cy - w], br = [cx + w, cy + w], bl = [cx - w, cy + w];
  const apex = [cx, cy];
  const face = (a, b, fill) =>
    s("polygon", { points: [a, b, apex].map((p) => p.join(",")).join(" "), fill });
  const g = s("g", { ...extra, "data-piece": name },
    face(tl, tr, mix(base, "#ffffff", 0.3)),
    face(bl, tl, mix(base, "#ffffff", 0.12)),
    face(tr, br, mix(base, "#000000", 0.14)),
    face(br, bl, mix(base, "#000000", 0.3)),
    s("path", {
      d: `M${tl} L${br} M${tr} L${bl}`, stroke: INK, "stroke-width": 1.3, "stroke-opacity": 0.55,
      fill: "none",
    }),
    s("rect", {
      x: cx - w, y: cy - w, width: 2 * w, height: 2 * w, fill: "none",
      stroke: INK, "stroke-width": 2.6, "stroke-linejoin": "round", class: "jx-outline",
    }),
  );
  // Pips on the lower face, between the apex and the base edge, like the real pieces.
  const py = cy + w * 0.72;
  const gap = 8.5;
  for (let i = 0; i < size; i++) {
    const px = cx + (i - (size - 1) / 2) * gap;
    g.append(s("circle", { cx: px, cy: py, r: 2.9, fill: "#ffffff", stroke: INK, "stroke-width": 1.2 }));
  }
  const r = size === 1 ? 9.5 : 11;
  g.append(
    s("circle", { cx, cy, r, fill: "#ffffff", stroke: INK, "stroke-width": 1.6 }),
    s("text", {
      x: cx, y: cy + 0.5, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": size === 1 ? 12.5 : 14.5, "font-weight": 700, fill: INK,
      "font-family": "system-ui, sans-serif", "aria-hidden": "true",
    }, colour),
  );
  return g;
}

/** A small picture of one pyramid (for the stash), in its own 100×100 box. */
export function pyramidIcon(name, extra = {}) {
  return s("svg", { viewBox: "7 7 86 86", width: 44, height: 44, "aria-hidden": "true", focusable: "false", ...extra },
    pyramid(name, 50, 50));
}

/** The light and dark squares. */
export function squareFill(square) {
  const c = COLUMNS.indexOf(square[0]);
  const r = Number(square.slice(1)) - 1;
  return (r + c) % 2 ? "#e4dccb" : "#f5f1e8";
}

/** The coordinates around the board: columns a–d above, rows 1–4 on the left. */
export function coordinates() {
  const g = s("g", { class: "jx-coords", "aria-hidden": "true" });
  for (let i = 0; i < SIZE; i++) {
    g.append(
      s("text", {
        x: MARGIN + i * CELL + CELL / 2, y: MARGIN - 8, "text-anchor": "middle",
        "font-size": 16, fill: "#4f5963", "font-family": "system-ui, sans-serif",
      }, COLUMNS[i]),
      s("text", {
        x: MARGIN / 2, y: MARGIN + i * CELL + CELL / 2, "text-anchor": "middle",
        "dominant-baseline": "central", "font-size": 16, fill: "#4f5963",
        "font-family": "system-ui, sans-serif",
      }, String(i + 1)),
    );
  }
  return g;
}

/** The frame around the 16 squares. */
export function frame() {
  return s("rect", {
    x: MARGIN - 1.5, y: MARGIN - 1.5, width: SIZE * CELL + 3, height: SIZE * CELL + 3,
    fill: "none", stroke: "#5b5346", "stroke-width": 3, rx: 3, "pointer-events": "none",
  });
}

/** The winning line: a thick dark band with a gold core through the squares' centres,
 * drawn under the pyramids (it shows between them and past the line's ends). */
export function winLine(squares) {
  const pts = squares.map((sq) => { const c = centre(sq); return `${c.x},${c.y}`; }).join(" ");
  return s("g", { class: "jx-winline", "pointer-events": "none" },
    s("polyline", { points: pts, fill: "none", stroke: INK, "stroke-width": 22, "stroke-linecap": "round" }),
    s("polyline", { points: pts, fill: "none", stroke: "#ffd23f", "stroke-width": 11, "stroke-linecap": "round" }),
  );
}

// ---- marks on squares: shapes, so nothing rests on a tint alone ----------------------------
/** Four L-shaped corners: the last move's squares (a shape, not only a tint). */
export function brackets(x, y, colour) {
  const k = 22;
  const i = 5;
  const d = [
    `M${x + i},${y + i + k} V${y + i} H${x + i + k}`,
    `M${x + CELL - i - k},${y + i} H${x + CELL - i} V${y + i + k}`,
    `M${x + CELL - i},${y + CELL - i - k} V${y + CELL - i} H${x + CELL - i - k}`,
    `M${x + i + k},${y + CELL - i} H${x + i} V${y + CELL - i - k}`,
  ].join(" ");
  return s("path", { d, fill: "none", stroke: colour, "stroke-width": 5, "stroke-linecap": "square" });
}

/** Four solid corner triangles: a pyramid this selection may swap with. */
export function cornerTriangles(x, y) {
  const k = 24;
  const X = x + CELL;
  const Y = y + CELL;
  const d = `M${x},${y} h${k} L${x},${y + k} Z M${X},${y} v${k} L${X - k},${y} Z `
    + `M${X},${Y} h${-k} L${X},${Y - k} Z M${x},${Y} v${-k} L${x + k},${Y} Z`;
  return s("path", { d, fill: ACCENT, "fill-opacity": 0.85 });
}

/** An arrow between two squares' centres; a swap has heads at both ends. */
export function arrow(m, { colour, dashed }) {
  const a = centre(m.a);
  const b = centre(m.b);
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const at = (p, d) => ({ x: p.x + ux * d, y: p.y + uy * d });
  const both = m.kind === "swap";
  const tip2 = at(b, -24);
  const tip1 = at(a, 24);
  const from = both ? at(tip1, 12) : tip1;
  const to = at(tip2, -12);
  const head = (tip, dx, dy) => {
    const w = 11;
    const l = 18;
    const bx = tip.x - dx * l;
    const by = tip.y - dy * l;
    return `${tip.x},${tip.y} ${bx - dy * w},${by + dx * w} ${bx + dy * w},${by - dx * w}`;
  };
  const line = (stroke, width) => s("line", {
    x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke, "stroke-width": width,
    "stroke-linecap": "round", "stroke-dasharray": dashed ? "10 8" : null,
  });
  const g = s("g", { class: dashed ? "jx-arrow jx-arrow-pending" : "jx-arrow" },
    line("#ffffff", 11), line(colour, 6),
    s("polygon", { points: head(tip2, ux, uy), fill: colour, stroke: "#ffffff", "stroke-width": 2 }));
  if (both) g.append(s("polygon", { points: head(tip1, -ux, -uy), fill: colour, stroke: "#ffffff", "stroke-width": 2 }));
  return g;
}

/** The "may not slide" badge: a no-entry sign in the square's top-right corner. */
export function noSlideBadge(sq) {
  const { x, y } = corner(sq);
  return s("g", { class: "jx-badge", "data-badge": sq },
    s("circle", { cx: x + CELL - 14, cy: y + 14, r: 11.5, fill: "#ffffff", stroke: "#a34400", "stroke-width": 3.5 }),
    s("line", { x1: x + CELL - 21, y1: y + 21, x2: x + CELL - 7, y2: y + 7, stroke: "#a34400", "stroke-width": 3.5 }),
  );
}

export function badgeIcon() {
  return s("svg", { viewBox: "0 0 28 28", width: 22, height: 22, class: "jx-badge-icon", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 14, cy: 14, r: 11.5, fill: "#ffffff", stroke: "#a34400", "stroke-width": 3.5 }),
    s("line", { x1: 7, y1: 21, x2: 21, y2: 7, stroke: "#a34400", "stroke-width": 3.5 }));
}


// ---- the review's and the analysis' best moves (as the line boards' js/boards/bests.js) ----
const HL = "#f5c400"; // a highlighter's yellow under the page's ink: no seat's, no cursor's

/** Best move number `n` (1-based) drawn over the board: a swap or slide as a dashed ink arrow
 * on a yellow halo, a drop as its pyramid faded on a dashed ring; each with a numbered badge
 * (shape and number, not only colour). `m` is the parsed move; `cls` adds is-focus/is-dim. */
export function bestMark(move, m, n, cls) {
  const g = s("g", { class: `jx-best${cls}`, "data-best-move": move, opacity: cls === " is-dim" ? 0.35 : 1 });
  let at;
  if (m.kind === "drop") {
    const c = centre(m.a);
    g.append(
      s("circle", { cx: c.x, cy: c.y, r: 44, fill: HL, "fill-opacity": 0.45, stroke: INK, "stroke-width": 3, "stroke-dasharray": "8 6" }),
      pyramid(m.pyramid, c.x, c.y, { opacity: 0.6 }));
    at = { x: c.x + 30, y: c.y - 30 };
  } else {
    const a = centre(m.a);
    const b = centre(m.b);
    g.append(
      s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: HL, "stroke-opacity": cls === " is-focus" ? 0.9 : 0.6, "stroke-width": 26, "stroke-linecap": "round" }),
      arrow(m, { colour: INK, dashed: true }));
    at = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }
  g.append(
    s("circle", { cx: at.x, cy: at.y, r: 12, fill: INK, stroke: HL, "stroke-width": 3 }),
    s("text", {
      x: at.x, y: at.y + 0.5, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 14,
      "font-weight": 700, fill: "#ffffff", "font-family": "system-ui, sans-serif", "aria-hidden": "true",
    }, String(n)));
  return g;
}
