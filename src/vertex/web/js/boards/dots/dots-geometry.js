// The shape of a Dots-family board, worked out once from the server's `board` (dots with x, y;
// lines; cells): where every line and cell lies, which rows and columns a player would call
// them, which side of a cell a line is, which cell lies next to which. Pure functions of the
// board's geometry: no DOM here, so the board and its tests share one idea of "where".

const EPS = 1e-6;

/** The model of `board` (state.board): {kind, dots, lines, cells, byName, extent, rows, cols}. */
export function buildModel(board) {
  const dots = new Map(board.dots.map((d) => [d.name, { name: d.name, x: d.x, y: d.y }]));
  const kind = board.kind;
  const triangular = kind === "triangle" || kind === "strip";

  const lines = board.lines.map((ln, index) => {
    const a = dots.get(ln.dots[0]);
    const b = dots.get(ln.dots[1]);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    return {
      index, name: ln.name, a, b, len,
      mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
      cells: [],           // indices of the cells this line is a side of
      where: null,         // {cell, side}: how a player names it (set below)
    };
  });
  const byName = new Map(lines.map((ln) => [ln.name, ln]));

  const cells = board.cells.map((c, index) => {
    const pts = c.dots.map((n) => dots.get(n));
    const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
    const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
    const top = Math.min(...pts.map((p) => p.y));
    const bottom = Math.max(...pts.map((p) => p.y));
    const left = Math.min(...pts.map((p) => p.x));
    // A triangle points up when its lone corner is above the other two.
    const up = triangular ? pts.filter((p) => Math.abs(p.y - top) < EPS).length === 1 : null;
    const sides = c.lines.map((name) => {
      const ln = byName.get(name);
      ln.cells.push(index);
      // The outward direction from the centre through the side's middle names the side.
      const ox = ln.mid.x - cx;
      const oy = ln.mid.y - cy;
      const ol = Math.hypot(ox, oy) || 1;
      return { line: name, nx: ox / ol, ny: oy / ol, name: sideName(ox / ol, oy / ol) };
    });
    return { index, pts, cx, cy, top, bottom, left, up, sides, row: 0, col: 0 };
  });

  // Rows from the cells' top edges, columns (square boards) from their left edges, so a
  // rhombus keeps the columns of the rectangle it is cut from.
  const rowKeys = cluster(cells.map((c) => c.top));
  const colKeys = cluster(cells.map((c) => c.left));
  for (const c of cells) {
    c.row = rowKeys.indexOf(key(c.top)) + 1;
    c.col = colKeys.indexOf(key(c.left)) + 1;
  }
  if (triangular) {
    // Triangles are counted along their row, left to right.
    const rows = new Map();
    for (const c of cells) {
      if (!rows.has(c.row)) rows.set(c.row, []);
      rows.get(c.row).push(c);
    }
    for (const row of rows.values()) {
      row.sort((p, q) => p.cx - q.cx);
      row.forEach((c, i) => { c.col = i + 1; });
    }
  }

  // A line is named after the cell it is the top (else left, right, bottom) side of.
  const rank = { top: 0, left: 1, right: 2, bottom: 3 };
  for (const ln of lines) {
    let best = null;
    for (const ci of ln.cells) {
      const side = cells[ci].sides.find((sd) => sd.line === ln.name);
      if (!best || rank[side.name] < rank[best.side]) best = { cell: ci, side: side.name };
    }
    ln.where = best;
  }

  const xs = board.dots.map((d) => d.x);
  const ys = board.dots.map((d) => d.y);
  const extent = {
    minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys),
  };
  // How far a line's hit area reaches towards a cell centre: short of it, so the middle of
  // every cell stays the cell's own (a click there is on the cell, not on a line).
  const inradius = triangular ? Math.sqrt(3) / 6 : 0.5;
  return {
    kind, triangular, dots, lines, cells, byName, extent, inradius,
    reach: triangular ? 0.75 * inradius : 0.75 * inradius,
    rows: rowKeys.length, cols: colKeys.length,
  };
}

function key(v) {
  return Math.round(v * 1000);
}

function cluster(values) {
  return [...new Set(values.map(key))].sort((a, b) => a - b);
}

/** The side a unit outward direction points to: top, bottom, left or right. */
function sideName(nx, ny) {
  // Steep directions are top/bottom; the slanted sides of triangles are left/right.
  if (ny < -0.9) return "top";
  if (ny > 0.9) return "bottom";
  return nx < 0 ? "left" : "right";
}

/** The distance from point p to the segment of line `ln`. */
export function distanceToLine(p, ln) {
  const dx = ln.b.x - ln.a.x;
  const dy = ln.b.y - ln.a.y;
  const t = Math.max(0, Math.min(1, ((p.x - ln.a.x) * dx + (p.y - ln.a.y) * dy) / (ln.len ** 2)));
  return Math.hypot(p.x - (ln.a.x + t * dx), p.y - (ln.a.y + t * dy));
}

/** The nearest line to p among `names` (a Set), within `radius`, or null. */
export function nearestLine(model, p, names, radius) {
  let best = null;
  let bestD = radius;
  for (const name of names) {
    const ln = model.byName.get(name);
    if (!ln) continue;
    const d = distanceToLine(p, ln);
    if (d <= bestD) { best = ln; bestD = d; }
  }
  return best;
}

/** The cell containing p, or null. */
export function cellAt(model, p) {
  for (const c of model.cells) if (inside(p, c.pts)) return c;
  return null;
}

function inside(p, pts) {
  let hit = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i];
    const b = pts[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) {
      hit = !hit;
    }
  }
  return hit;
}

/**
 * The hit area of a line: a diamond from one end dot to the other, reaching `reach` to each
 * side (towards the cell centres, or outwards at the board's edge). Diamonds of neighbouring
 * lines do not overlap, so each line's middle is its own.
 */
export function hitPolygon(model, ln) {
  const r = model.reach;
  const nx = -(ln.b.y - ln.a.y) / ln.len;
  const ny = (ln.b.x - ln.a.x) / ln.len;
  return [
    ln.a,
    { x: ln.mid.x + nx * r, y: ln.mid.y + ny * r },
    ln.b,
    { x: ln.mid.x - nx * r, y: ln.mid.y - ny * r },
  ];
}

const DIRS = {
  ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 },
  ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 },
};

/** The cell next to `cell` in the arrow key's direction (same row or the next one), or null. */
export function neighbour(model, cell, arrow) {
  const d = DIRS[arrow];
  if (!d) return null;
  let best = null;
  let bestScore = Infinity;
  for (const c of model.cells) {
    if (c === cell) continue;
    if (d.x !== 0) {
      // Along the row: the next cell that way.
      if (c.row !== cell.row) continue;
      const ahead = (c.cx - cell.cx) * d.x;
      if (ahead <= EPS) continue;
      if (ahead < bestScore) { best = c; bestScore = ahead; }
    } else {
      // To the next row that way; prefer the cell across a shared side, then the nearest.
      if (c.row !== cell.row + d.y) continue;
      const shares = c.sides.some((sd) => cell.sides.some((o) => o.line === sd.line));
      const score = Math.abs(c.cx - cell.cx) - (shares ? 10 : 0);
      if (score < bestScore) { best = c; bestScore = score; }
    }
  }
  return best;
}

/**
 * The side of `cell` an arrow key names: {side} when one side faces that way, {choices}
 * when two face it equally (Up on an upward triangle), {} when none does.
 */
export function sideForArrow(cell, arrow) {
  const d = DIRS[arrow];
  if (!d) return {};
  const scored = cell.sides
    .map((sd) => ({ sd, dot: sd.nx * d.x + sd.ny * d.y }))
    .filter((x) => x.dot > 0.3)
    .sort((p, q) => q.dot - p.dot);
  if (!scored.length) return {};
  if (scored.length > 1 && scored[0].dot - scored[1].dot < 0.05) {
    return { choices: scored.filter((x) => scored[0].dot - x.dot < 0.05).map((x) => x.sd) };
  }
  return { side: scored[0].sd };
}

/** The cells line `name` closes in `board`: those it is a side of that now have an owner. */
export function closedBy(model, board, name) {
  const ln = model.byName.get(name);
  if (!ln) return [];
  return ln.cells.filter((ci) => board.cells[ci] && board.cells[ci].owner !== null);
}

/** Same board shape? (then an update can reuse the drawn elements) */
export function sameShape(model, board) {
  if (!model || model.kind !== board.kind) return false;
  if (model.lines.length !== board.lines.length || model.cells.length !== board.cells.length) {
    return false;
  }
  if (model.dots.size !== board.dots.length) return false;
  for (let i = 0; i < board.lines.length; i++) {
    if (model.lines[i].name !== board.lines[i].name) return false;
  }
  return true;
}
