// Verticality's small picture (lobby cards): a side view of little towers on a table at real
// proportions, the sizes the server sends (`board.sizes_mm`). No three.js: the 3-D view is the
// board module's, loaded only at a table.
import { s } from "../../shared/dom.js";

const PIECE_COLORS = ["#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
const CARD_DRAWN = 2.4; // a card is 0.3 mm thick: drawn thicker so it shows

/** A static SVG of a towers state (state.to_dict()). */
export function renderPreview(state) {
  const board = state.board;
  const sizes = board.sizes_mm;
  // One tower per seat in the example (at most three fit), each built to the same height: the
  // towers are empty at the start, so this is an illustration of where the game goes.
  const count = Math.max(1, Math.min(3, (board.towers || []).length || 1));
  const card = sizes.card.length;
  const gap = 14;
  const width = count * card + (count + 1) * gap;
  const tableY = 150;
  const svg = s("svg", { viewBox: `0 0 ${width} ${tableY + 14}`, class: "picture",
    "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { x: 0, y: tableY, width, height: 10, rx: 3, fill: "#8a5a33" }));
  for (let i = 0; i < count; i += 1) {
    const cx = gap + card / 2 + i * (card + gap);
    let floor = tableY;
    // Two finished levels (three pyramids and a card), then a level being built.
    ["L", "M", "S"].forEach((size, level) => {
      const { base, height } = sizes[size];
      const spots = level < 2 ? [-1, 0, 1] : [-1, 1];
      for (const [k, spot] of spots.entries()) {
        const x = cx + spot * (card / 2 - base / 2 - 4);
        const color = PIECE_COLORS[(i + level * 3 + k) % PIECE_COLORS.length];
        svg.append(s("path", {
          d: `M${x - base / 2} ${floor} L${x} ${floor - height} L${x + base / 2} ${floor} Z`,
          fill: color, stroke: "#1d232a", "stroke-width": 1.2, "stroke-linejoin": "round",
        }));
      }
      floor -= height;
      if (level < 2) {
        svg.append(s("rect", {
          x: cx - card / 2, y: floor - CARD_DRAWN, width: card, height: CARD_DRAWN,
          fill: "#fffdf7", stroke: "#1d232a", "stroke-width": 1,
        }));
        floor -= CARD_DRAWN;
      }
    });
  }
  return svg;
}
