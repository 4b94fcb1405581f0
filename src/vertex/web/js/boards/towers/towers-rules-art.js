// Pictures of the rules pages that no board module draws: Verticality is a 3-D world, so its
// page shows the pyramid sizes, a two-level tower (side views at real proportions, in mm) and
// the faces of the pyramid die. Each picture is `(t, state) -> SVGElement`, `state` the
// game's example (its `board.sizes_mm` are the server's real sizes); words come from the
// rules-verticality catalog.
import { s } from "../../shared/dom.js";
import { num } from "../../shared/i18n.js";

const FILLS = { S: "#56B4E9", M: "#009E73", L: "#E69F00" };
const CARD_DRAWN = 1.2; // a card is 0.3 mm thick: drawn thicker to be seen
const INK = "#1d232a";
const MUTED = "#4f5963";
const K = "rules.verticality.art.";

function pyramid(sizes, size, x, y, scale = 1) {
  // Side view of an upright square pyramid: a triangle on its base, x = left, y = the floor.
  const { base, height } = sizes[size];
  const fill = FILLS[size];
  const b = base * scale;
  const top = y - height * scale;
  return s("path", {
    d: `M${r(x)} ${r(y)}L${r(x + b / 2)} ${r(top)}L${r(x + b)} ${r(y)}Z`,
    fill, stroke: INK, "stroke-width": 0.5, "stroke-linejoin": "round",
  });
}

function label(text, x, y, opts = {}) {
  return s("text", {
    x: r(x), y: r(y), "font-size": opts.size || 4, fill: opts.fill || INK,
    "text-anchor": opts.anchor || "middle", "font-family": "system-ui, sans-serif",
    "font-weight": opts.weight || null,
  }, text);
}

function svg(w, hgt, ...children) {
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w * 3, height: hgt * 3,
    class: "rules-drawing" }, ...children);
}

const r = (v) => Math.round(v * 100) / 100;

/** The three pyramid sizes side by side, at real proportions, with their sizes in mm. */
function sizes(t, state) {
  const real = state.board.sizes_mm;
  const gap = 14;
  const floor = 50;
  const parts = [];
  let x = 8;
  for (const size of ["S", "M", "L"]) {
    const p = real[size];
    parts.push(pyramid(real, size, x, floor));
    const mid = x + p.base / 2;
    parts.push(label(t(`${K}${size}`), mid, floor + 6, { weight: 700 }));
    parts.push(label(`${fmt(p.base)} × ${fmt(p.height)}`, mid, floor + 11, { size: 3.4, fill: MUTED }));
    x += p.base + gap;
  }
  parts.push(s("line", { x1: 2, y1: floor, x2: x - gap + 6, y2: floor, stroke: MUTED,
    "stroke-width": 0.5 }));
  return svg(x - gap + 8, floor + 14, ...parts);
}

/** A tower of two levels: three large pyramids and a card, then three medium and a card. */
function tower(t, state) {
  const real = state.board.sizes_mm;
  const card = real.card.length;
  const floor = 96;
  const left = 6;
  const parts = [s("rect", { x: 0, y: floor, width: 150, height: 3, fill: "#c9c4b8" })];
  let y = floor;
  const levels = [["L", 1], ["M", 2]];
  for (const [size, n] of levels) {
    const p = real[size];
    const row = p.base * 3;
    const start = left + (card - row) / 2;
    for (let i = 0; i < 3; i += 1) parts.push(pyramid(real, size, start + i * p.base, y));
    y -= p.height;
    parts.push(s("rect", { x: left, y: r(y - CARD_DRAWN), width: card, height: CARD_DRAWN,
      fill: "#ffffff", stroke: INK, "stroke-width": 0.5 }));
    parts.push(label(t(`${K}level`, { n }), left + card + 4, y + p.height / 2 + 1.5,
      { anchor: "start", size: 5.4 }));
    y -= CARD_DRAWN;
  }
  parts.push(label(t(`${K}card`), left + card / 2, y - 2.5, { size: 4.8, fill: MUTED }));
  return svg(150, floor + 4, ...parts);
}

/** The six faces of the pyramid die: one size, or two sizes meaning the third. */
function die(t, state) {
  const real = state.board.sizes_mm;
  const faces = [["S"], ["M"], ["L"], ["S", "M"], ["S", "L"], ["M", "L"]];
  const third = { SM: "L", SL: "M", ML: "S" };
  const side = 30;
  const gapX = 8;
  const rowH = 46;
  const parts = [];
  faces.forEach((face, i) => {
    const col = i % 3;
    const row = Math.floor(i / 3);
    const x = 4 + col * (side + gapX);
    const y = 4 + row * rowH;
    parts.push(s("rect", { x, y, width: side, height: side, rx: 4, fill: "#ffffff",
      stroke: INK, "stroke-width": 0.6 }));
    const scale = 0.5;
    const width = face.reduce((w, size) => w + real[size].base * scale, 0) + (face.length - 1) * 2;
    let px = x + (side - width) / 2;
    for (const size of face) {
      parts.push(pyramid(real, size, px, y + side - 4, scale));
      px += real[size].base * scale + 2;
    }
    const text = face.length === 1
      ? t(`${K}${face[0]}`)
      : `→ ${t(`${K}${third[face.join("")]}`)}`;
    parts.push(label(text, x + side / 2, y + side + 6, { size: 4.2 }));
  });
  return svg(4 + 3 * side + 2 * gapX + 4, 4 + 2 * rowH - 4, ...parts);
}

function fmt(mm) {
  return num(mm, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** The pictures by the id a rules layout gives them (`["fig", id]`). */
export const art = { sizes, tower, die };
