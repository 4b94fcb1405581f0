// The analysis' best moves drawn on a line board (Dots family, Vert3x): fetched with the
// first answer (the analysis itself is fetched on demand); styles in css/replay.css.
import { s } from "../shared/dom.js";

const r = (v) => Math.round(v * 100) / 100;

/**
 * The best moves as marks over the board: a wide halo in the analysis colour (no seat's,
 * nor the cursor's), a dashed core and a numbered badge (the list's order), shape as well as
 * colour. `ends(move)` -> {a, b} in SVG units or null; `focus` the move pointed at in the list.
 */
export function bestMarks(moves, ends, focus) {
  const out = [];
  (moves || []).forEach((move, i) => {
    const ln = ends(move);
    if (!ln) return;
    const at = { x1: r(ln.a.x), y1: r(ln.a.y), x2: r(ln.b.x), y2: r(ln.b.y) };
    const cls = focus ? (focus === move ? " is-focus" : " is-dim") : "";
    out.push(s("g", { class: `board-best${cls}`, "data-best-move": move },
      s("line", { class: "board-best-halo", ...at }),
      s("line", { class: "board-best-core", ...at }),
      s("circle", { class: "board-best-badge", cx: r((ln.a.x + ln.b.x) / 2), cy: r((ln.a.y + ln.b.y) / 2) }),
      s("text", { x: r((ln.a.x + ln.b.x) / 2), y: r((ln.a.y + ln.b.y) / 2), text: String(i + 1) })));
  });
  return out;
}
