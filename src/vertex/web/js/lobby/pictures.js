// The small pictures on the game cards. Each game's own picture module draws its preview (the
// server's state of a small example game) — the board's static drawing only, not the whole
// interactive board (boards/index.js loadPreview); a board without one, or a module that
// fails, gets a simple drawing made here from the same state.
import { s } from "../shared/dom.js";
import { loadPreview } from "../boards/index.js";
import { seatColor } from "../shared/seats.js";

/** An SVG picture of `preview` (a state.to_dict()); never fails. */
export async function picture(preview) {
  try {
    const mod = await loadPreview(preview);
    if (mod && typeof mod.renderPreview === "function") {
      const svg = mod.renderPreview(preview);
      if (svg instanceof SVGElement) return svg;
    }
  } catch (err) {
    // A board module being broken must not break the lobby: draw our own picture instead.
    console.warn("board preview failed", err);
  }
  return fallback(preview);
}

export function fallback(preview) {
  const board = (preview && preview.board) || {};
  if (Array.isArray(board.squares)) return squares(board);
  if (Array.isArray(board.dots) && board.dots.every((d) => Number.isFinite(d.x))) return dots(board);
  return blank();
}

function frame(w, h) {
  return s("svg", { viewBox: `0 0 ${w} ${h}`, class: "picture", "aria-hidden": "true", focusable: "false" });
}

function blank() {
  const svg = frame(120, 80);
  svg.append(s("rect", { x: 10, y: 10, width: 100, height: 60, rx: 6, fill: "none", stroke: "#4f5963" }));
  return svg;
}

// ---- boards of squares ----
const PYRAMID_COLORS = { red: "#D55E00", yellow: "#E69F00", green: "#009E73", blue: "#0072B2", purple: "#9E4F82" };

function squares(board) {
  const n = board.size || Math.round(Math.sqrt(board.squares.length)) || 4;
  const cell = 30;
  const svg = frame(n * cell + 8, n * cell + 8);
  board.squares.forEach((sq, i) => {
    const x = 4 + (i % n) * cell;
    const y = 4 + Math.floor(i / n) * cell;
    svg.append(s("rect", {
      x, y, width: cell, height: cell, fill: (i + Math.floor(i / n)) % 2 ? "#ece7dc" : "#fffdf7",
      stroke: "#4f5963", "stroke-width": 0.8,
    }));
    if (sq.pyramid) {
      const r = 5 + 3 * (sq.size || 1);
      const cx = x + cell / 2;
      const cy = y + cell / 2 + r / 2;
      svg.append(s("path", {
        d: `M${cx - r} ${cy} L${cx} ${cy - 2 * r} L${cx + r} ${cy} Z`,
        fill: PYRAMID_COLORS[sq.colour] || "#4f5963", stroke: "#1d232a", "stroke-width": 0.8,
      }));
    }
  });
  return svg;
}

// ---- dots and lines (a plain drawing of any dot board) ----
function dots(board) {
  const xs = board.dots.map((d) => d.x);
  const ys = board.dots.map((d) => d.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const unit = 20;
  const pad = 8;
  const w = (Math.max(...xs) - minX) * unit + 2 * pad;
  const h = (Math.max(...ys) - minY) * unit + 2 * pad;
  const at = new Map(board.dots.map((d) => [d.name, [(d.x - minX) * unit + pad, (d.y - minY) * unit + pad]]));
  const svg = frame(w, h);
  for (const cell of board.cells || board.triangles || []) {
    const owner = cell.owner;
    const corners = (cell.dots || cell.corners || []).map((n) => at.get(n)).filter(Boolean);
    if (owner === null || owner === undefined || corners.length < 3) continue;
    svg.append(s("polygon", {
      points: corners.map((p) => p.join(",")).join(" "), fill: seatColor(owner), "fill-opacity": 0.35,
    }));
  }
  for (const line of board.lines || []) {
    const [a, b] = line.dots.map((n) => at.get(n));
    if (!a || !b) continue;
    const drawn = line.drawn || (line.owner !== null && line.owner !== undefined);
    svg.append(s("line", {
      x1: a[0], y1: a[1], x2: b[0], y2: b[1],
      stroke: drawn ? (Number.isInteger(line.owner) ? seatColor(line.owner) : "#1d232a") : "#c9c4b8",
      "stroke-width": drawn ? 2.5 : 1, "stroke-linecap": "round",
    }));
  }
  for (const [x, y] of at.values()) svg.append(s("circle", { cx: x, cy: y, r: 2.2, fill: "#1d232a" }));
  return svg;
}
