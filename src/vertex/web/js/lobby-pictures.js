// The small pictures on the game cards. Each game's own picture module draws its preview (the
// server's state of a small example game) — the board's static drawing only, not the whole
// interactive board (boards/index.js loadPreview); a kind without one (Verticality's towers:
// its module brings the 3-D view), or a module that fails, gets a simple drawing made here
// from the same state.
import { s } from "./dom.js";
import { loadPreview } from "./boards/index.js";
import { seatColor } from "./seats.js";

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
  if (board.kind === "towers") return towers(board);
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

// ---- Verticality: a little tower on a table ----
// Side view at real proportions (mm): large pyramids 25.4 × 44.45, medium 19.84 × 34.93,
// small 14.29 × 25.4; cards 88.9 long (drawn a little thicker than 0.3 mm so they show).
const PYRAMIDS = [[25.4, 44.45], [19.84, 34.93], [14.29, 25.4]];
const CARD = { w: 88.9, t: 2.4 };
const PIECE_COLORS = ["#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];

function towers(board) {
  // One tower per seat in the example (at most three fit), each built to the same height: the
  // towers are empty at the start, so this is an illustration of where the game goes.
  const count = Math.max(1, Math.min(3, (board.towers || []).length || 1));
  const gap = 14;
  const width = count * CARD.w + (count + 1) * gap;
  const tableY = 150;
  const svg = frame(width, tableY + 14);
  svg.append(s("rect", { x: 0, y: tableY, width, height: 10, rx: 3, fill: "#8a5a33" }));
  for (let i = 0; i < count; i += 1) {
    const cx = gap + CARD.w / 2 + i * (CARD.w + gap);
    let floor = tableY;
    // Two finished levels (three pyramids and a card), then a level being built.
    for (let level = 0; level < 3; level += 1) {
      const [base, height] = PYRAMIDS[level];
      const spots = level < 2 ? [-1, 0, 1] : [-1, 1];
      for (const [k, spot] of spots.entries()) {
        const x = cx + spot * (CARD.w / 2 - base / 2 - 4);
        const color = PIECE_COLORS[(i + level * 3 + k) % PIECE_COLORS.length];
        svg.append(s("path", {
          d: `M${x - base / 2} ${floor} L${x} ${floor - height} L${x + base / 2} ${floor} Z`,
          fill: color, stroke: "#1d232a", "stroke-width": 1.2, "stroke-linejoin": "round",
        }));
      }
      floor -= height;
      if (level < 2) {
        svg.append(s("rect", {
          x: cx - CARD.w / 2, y: floor - CARD.t, width: CARD.w, height: CARD.t,
          fill: "#fffdf7", stroke: "#1d232a", "stroke-width": 1,
        }));
        floor -= CARD.t;
      }
    }
  }
  return svg;
}

// ---- boards of squares (Juxtapose) ----
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
