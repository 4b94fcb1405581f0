// Drawing a Vert3x position in SVG: the lattice, drawn lines in each seat's colour AND dash
// pattern (so colour is never the only cue), scored triangles with their points, GYØ claims,
// start dots. Shared by the live board and the static preview; no events here.
import { s } from "../../shared/dom.js";
import { seatColor, seatInk, seatSymbol } from "../../shared/seats.js";
import { inradius, labelPoint } from "./vert3x-geometry.js";

/** SVG user units per lattice step. */
export const U = 100;
const PAD = 0.55; // lattice steps of margin around the dots (room for start marks)

// Dash patterns per seat, in a line's own length (pathLength = 100), each starting and ending
// on ink so a line visibly reaches both its dots: solid, dashes, dots, dash-dot, long-dot,
// short dashes.
const DASHES = [null, "16 12", "0 14.2857", "20 10 0 10", "40 10 0 10", "6 7.4286"];

/** The dash pattern of a seat's lines (null: solid). */
export function dashOf(seat) {
  return DASHES[seat % DASHES.length];
}

export function px(v) {
  return Math.round(v * U * 10) / 10;
}

export function pts(points) {
  return points.map((p) => `${px(p.x)},${px(p.y)}`).join(" ");
}

/** The viewBox of the model's dots plus a margin. */
export function viewBox(model) {
  const { minX, maxX, minY, maxY } = model.extent;
  const x = px(minX - PAD);
  const y = px(minY - PAD);
  return {
    x, y, w: px(maxX - minX + 2 * PAD), h: px(maxY - minY + 2 * PAD),
    across: maxX - minX + 2 * PAD,
  };
}

/** One line in a seat's colour and pattern. `extra` adds classes or attributes. */
export function inkLine(ln, seat, attrs = {}) {
  const dash = dashOf(seat);
  return s("line", {
    x1: px(ln.a.x), y1: px(ln.a.y), x2: px(ln.b.x), y2: px(ln.b.y),
    stroke: seatInk(seat),
    "stroke-width": 9, "stroke-linecap": "round",
    "stroke-dasharray": dash,
    pathLength: dash ? 100 : null,
    ...attrs,
    class: `v3x-ink${attrs.class ? ` ${attrs.class}` : ""}`,
  });
}

/** The faint lattice: every line, so the player sees where lines may go. */
export function gridLayer(model) {
  return model.lines.map((ln) => s("line", {
    class: "v3x-grid-line", "data-grid": ln.name, stroke: "#c9c4b8", "stroke-width": 3,
    x1: px(ln.a.x), y1: px(ln.a.y), x2: px(ln.b.x), y2: px(ln.b.y),
  }));
}

export function dotLayer(model) {
  return model.dots.map((d) => s("circle", {
    class: "v3x-dot", cx: px(d.x), cy: px(d.y), r: 6.5, fill: "#1d232a",
  }));
}

/** Start dots: a ring in the seat's colour with its symbol beside it. */
export function startMarks(model, board) {
  const out = [];
  (board.start || []).forEach((name, seat) => {
    const d = model.dotByName.get(name);
    if (!d) return;
    out.push(s("circle", {
      class: "v3x-start", cx: px(d.x), cy: px(d.y), r: 17, stroke: seatInk(seat),
      fill: "none", "stroke-width": 5,
      "stroke-dasharray": dashOf(seat) ? "8 6" : null,
      "data-start": seat,
    }));
    // the symbol sits outside the board when the dot is on its edge
    const cx = (model.extent.minX + model.extent.maxX) / 2;
    const cy = (model.extent.minY + model.extent.maxY) / 2;
    const dx = d.x - cx;
    const dy = d.y - cy;
    const len = Math.hypot(dx, dy) || 1;
    out.push(s("text", {
      class: "v3x-start-symbol", x: px(d.x + (dx / len) * 0.34), y: px(d.y + (dy / len) * 0.34),
      fill: seatInk(seat), "aria-hidden": "true", "font-size": 30, "text-anchor": "middle",
      "dominant-baseline": "central",
    }, seatSymbol(seat, board)));
  });
  return out;
}

/** GYØ claims: the quarter-squares each seat holds, shaded in its colour and fill pattern. */
export function claimLayer(board, fillOf) {
  return (board.claims || []).map((c) => s("polygon", {
    class: "v3x-claim",
    points: c.corners.map(([x, y]) => `${px(x)},${px(y)}`).join(" "),
    fill: fillOf(c.owner),
    "fill-opacity": fillOf === plainFill ? 0.3 : null,
    "data-claim": c.owner,
  }));
}

/** Scored triangles: shaded, or outlined where claimed units show who holds what. */
export function triangleLayer(model, board, fillOf) {
  const out = [];
  const shade = !(board.claims || []).length;
  (board.triangles || []).forEach((tri, k) => {
    const corners = tri.corners.map((n) => model.dotByName.get(n));
    out.push(s("polygon", {
      class: shade ? "v3x-tri" : "v3x-tri v3x-tri-outline",
      points: pts(corners),
      fill: shade ? fillOf(tri.owner) : "none",
      "fill-opacity": shade && fillOf === plainFill ? 0.3 : null,
      stroke: seatInk(tri.owner),
      "data-triangle": k, "data-owner": tri.owner,
    }));
  });
  return out;
}

/** The points of each scored triangle, written inside it. Triangles may nest or overlap
 * (a big one around small ones, a finished GYØ board is full of them), so each label takes
 * the spot nearest its triangle's centre whose box keeps clear of the labels already placed,
 * smallest triangles first (they have least room); where none is clear it is written smaller,
 * then beside its triangle. No two labels' boxes overlap. */
export function labelLayer(model, board, title) {
  const tris = (board.triangles || []).map((tri, k) => {
    const corners = tri.corners.map((n) => model.dotByName.get(n));
    return { tri, k, corners, r: inradius(corners), area: area(corners) };
  });
  tris.sort((p, q) => p.area - q.area || p.r - q.r || p.k - q.k);
  const placed = []; // boxes {x0, y0, x1, y1} in user units
  const out = tris.map(({ tri, k, corners, r }) => {
    const text = formatPoints(tri.points);
    const spot = findSpot(corners, r, text, placed);
    const at = spot || { x: px(labelPoint(corners).x), y: px(labelPoint(corners).y), size: MIN_LABEL };
    if (spot) placed.push(boxAt(at.x, at.y, at.size, text));
    const el = s("text", {
      class: "v3x-points", x: at.x, y: at.y, "font-size": at.size,
      fill: seatInk(tri.owner), "data-points": k, "data-owner": tri.owner,
      "aria-hidden": title ? "true" : null,
      // no room anywhere near: the number is not drawn over another (the group still says it)
      visibility: spot ? null : "hidden",
    }, text);
    if (!title) return { k, el };
    // the number is for the eye; the group says it in words
    return { k, el: s("g", { role: "img", "aria-label": title(tri) }, el) };
  });
  // in the order they were scored, for screen readers
  return out.sort((p, q) => p.k - q.k).map((o) => o.el);
}

const MIN_LABEL = 16; // the smallest label, in user units (a lattice step is U)
const GAP = 3; // user units kept between two labels' boxes

/** The box a label of `text` at `size` takes around (x, y) (centred both ways), a little
 * wider than the widest digits drawn bold, so boxes that keep apart here do on screen. */
function boxAt(x, y, size, text) {
  const w = size * (0.74 * text.length + 0.06);
  const h = size * 1.2;
  return { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
}

function clearOf(box, placed) {
  return placed.every((q) => box.x1 + GAP <= q.x0 || q.x1 + GAP <= box.x0
    || box.y1 + GAP <= q.y0 || q.y1 + GAP <= box.y0);
}

/** Where the label goes: {x, y, size} (user units), or null where nothing near is clear. */
function findSpot(corners, r, text, placed) {
  const inc = labelPoint(corners);
  const base = Math.max(18, Math.min(r * U * 1.15, 60));
  const inside = spotsInside(corners, inc);
  const sizes = [base, base * 0.8, base * 0.64, MIN_LABEL].filter((v, i, a) => v >= MIN_LABEL && a.indexOf(v) === i);
  for (const size of sizes) {
    for (const p of inside) {
      const x = px(p.x);
      const y = px(p.y);
      if (clearOf(boxAt(x, y, size, text), placed)) return { x, y, size: Math.round(size) };
    }
  }
  // beside the triangle: rings around its centre, a quarter step apart
  for (let ring = 1; ring <= 8; ring += 1) {
    const d = ring * 0.25;
    const n = 8 * ring;
    for (let i = 0; i < n; i += 1) {
      const x = px(inc.x + d * Math.cos((2 * Math.PI * i) / n));
      const y = px(inc.y + d * Math.sin((2 * Math.PI * i) / n));
      if (clearOf(boxAt(x, y, MIN_LABEL, text), placed)) return { x, y, size: MIN_LABEL };
    }
  }
  return null;
}

/** Points inside the triangle on a barycentric grid, nearest its incentre first. */
function spotsInside(corners, inc) {
  const [a, b, c] = corners;
  const N = 10;
  const out = [inc];
  for (let i = 1; i < N; i += 1) {
    for (let j = 1; i + j < N; j += 1) {
      const u = i / N;
      const v = j / N;
      const w = 1 - u - v;
      out.push({ x: a.x * u + b.x * v + c.x * w, y: a.y * u + b.y * v + c.y * w });
    }
  }
  const d = (p) => Math.hypot(p.x - inc.x, p.y - inc.y);
  return out.sort((p, q) => d(p) - d(q));
}

function area([a, b, c]) {
  return Math.abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2;
}

function formatPoints(p) {
  return Number.isInteger(p) ? String(p) : p.toFixed(1);
}

/** The plain fill of a seat (the preview; the live board adds hatching). */
export function plainFill(seat) {
  return seatColor(seat);
}

/** Per-seat fill patterns (colour plus a hatch per seat, so shading is not colour alone). */
export function fillPatterns(prefix, seats) {
  const out = [];
  for (let seat = 0; seat < seats; seat++) {
    const colour = seatColor(seat);
    const marks = hatch(seat, seatInk(seat));
    out.push(s("pattern", {
      id: `${prefix}-fill-${seat}`, patternUnits: "userSpaceOnUse", width: 24, height: 24,
    }, s("rect", { width: 24, height: 24, fill: colour, "fill-opacity": 0.26 }), ...marks));
  }
  return out;
}

function hatch(seat, ink) {
  const a = { stroke: ink, "stroke-opacity": 0.45, "stroke-width": 2.5 };
  switch (seat % 6) {
    case 1: return [s("path", { d: "M-6,6 L6,-6 M0,24 L24,0 M18,30 L30,18", ...a })];
    case 2: return [s("circle", { cx: 12, cy: 12, r: 3, fill: ink, "fill-opacity": 0.45 })];
    case 3: return [s("path", { d: "M0,0 L24,24 M24,0 L0,24", ...a })];
    case 4: return [s("path", { d: "M0,12 L24,12", ...a })];
    case 5: return [s("path", { d: "M12,0 L12,24", ...a })];
    default: return [];
  }
}
