// The seats' symbols drawn as SVG shapes (crisp at any size, centred exactly, the same in
// every font): Figures' cross, nought, plus, triangle, square and diamond, and the letters
// X / O of the other games mapped to the same cross and nought by shared/seats.js.
import { s } from "../../shared/dom.js";

// Each shape fits a circle of radius 1 around (0, 0); drawn as strokes.
const SHAPES = {
  "✕": () => [s("path", { d: "M-0.72,-0.72L0.72,0.72M0.72,-0.72L-0.72,0.72" })],
  "○": () => [s("circle", { r: 0.8 })],
  "＋": () => [s("path", { d: "M0,-0.95V0.95M-0.95,0H0.95" })],
  "△": () => [s("path", { d: "M0,-0.92L0.86,0.62H-0.86Z" })],
  "□": () => [s("rect", { x: -0.74, y: -0.74, width: 1.48, height: 1.48 })],
  "◇": () => [s("path", { d: "M0,-0.98L0.86,0L0,0.98L-0.86,0Z" })],
};
const ALIASES = { "+": "＋", "x": "✕", "X": "✕", "×": "✕", "O": "○", "o": "○" };

/**
 * A <g> showing `symbol` at (x, y), `size` its radius in board units, in colour `ink`.
 * Unknown symbols fall back to centred text.
 */
export function symbolShape(symbol, x, y, size, ink) {
  const known = SHAPES[ALIASES[symbol] || symbol];
  const g = s("g", {
    class: "dots-symbol",
    "data-symbol": symbol,
    transform: `translate(${fmt(x)} ${fmt(y)}) scale(${fmt(size)})`,
    stroke: ink,
    fill: "none",
    "stroke-width": fmt(0.26),
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
  });
  if (known) {
    g.append(...known());
  } else {
    g.append(s("text", {
      x: 0, y: 0, "font-size": 1.9, "font-weight": 600,
      "text-anchor": "middle", "dominant-baseline": "central",
      fill: ink, stroke: "none", text: symbol,
    }));
  }
  return g;
}

export function fmt(v) {
  return String(Math.round(v * 1000) / 1000);
}
