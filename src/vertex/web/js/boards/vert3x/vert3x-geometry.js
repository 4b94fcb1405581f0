// Where things are on a Vert3x board, worked out once from the server's `board` (dots with
// x, y; lines between dot names): every line's ends and direction, the lines at each dot, the
// rows of dots for the cursor, and each line's hit area. No DOM and no rules here: geometry.
//
// Hit areas are the "nearest line" partition of the board. Cut every face (a small triangle
// of three lines, or on GYØ a quarter of a unit square between its side and two half
// diagonals) from its incentre to its corners: each piece holds the points nearer to that
// side than to the face's other sides. A line's hit area is the pieces along it, so the
// pointer picks the nearest line by plain hit testing, and a GYØ square's two diagonals
// (which cross at its centre) are told apart everywhere except at the crossing point itself.

const EPS = 1e-6;

/** The model of `board` (state.board). */
export function buildModel(board) {
  const dots = board.dots.map((d, i) => ({ name: d.name, x: d.x, y: d.y, i, lines: [] }));
  const dotByName = new Map(dots.map((d) => [d.name, d]));
  const lines = board.lines.map((ln, i) => {
    const a = dotByName.get(ln.dots[0]);
    const b = dotByName.get(ln.dots[1]);
    return {
      name: ln.name, i, a, b,
      mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
      len: Math.hypot(b.x - a.x, b.y - a.y),
      regions: [],
    };
  });
  const byName = new Map(lines.map((ln) => [ln.name, ln]));
  const between = new Map();
  for (const ln of lines) {
    between.set(pairKey(ln.a.name, ln.b.name), ln);
    ln.a.lines.push({ line: ln, other: ln.b, angle: angleOf(ln.a, ln.b) });
    ln.b.lines.push({ line: ln, other: ln.a, angle: angleOf(ln.b, ln.a) });
  }
  const xs = dots.map((d) => d.x);
  const ys = dots.map((d) => d.y);
  const extent = {
    minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys),
  };
  const model = {
    kind: board.kind, dots, dotByName, lines, byName, between, extent,
    rows: rowsOf(dots),
    // the lattice's line directions, for the keyboard help (6 or 8 of them)
    directions: directionsOf(dots),
    signature: board.lines.map((ln) => ln.name).join(" "),
  };
  const faces = board.kind === "diagonal-grid" ? quarterFaces(model) : cliqueFaces(model);
  hitRegions(model, faces);
  return model;
}

function pairKey(p, q) {
  return p < q ? `${p} ${q}` : `${q} ${p}`;
}

/** The direction from dot p to dot q in degrees, anticlockwise on screen from "right". */
export function angleOf(p, q) {
  const deg = (Math.atan2(-(q.y - p.y), q.x - p.x) * 180) / Math.PI;
  return (deg + 360) % 360;
}

function angleGap(a, b) {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** The line from `dot` whose direction is within 30° of `angle` (degrees), or null. */
export function lineToward(dot, angle) {
  let best = null;
  let gap = 30 - EPS;
  for (const entry of dot.lines) {
    const g = angleGap(entry.angle, angle);
    if (g < gap) { best = entry; gap = g; }
  }
  return best;
}

function directionsOf(dots) {
  const seen = new Set();
  for (const d of dots) for (const e of d.lines) seen.add(Math.round(e.angle));
  return seen;
}

function rowsOf(dots) {
  const rows = new Map();
  for (const d of dots) {
    const k = Math.round(d.y * 1000);
    if (!rows.has(k)) rows.set(k, []);
    rows.get(k).push(d);
  }
  return [...rows.entries()].sort((p, q) => p[0] - q[0]).map(([, row]) => {
    row.sort((p, q) => p.x - q.x);
    return row;
  });
}

/**
 * The dot the cursor goes to from `dot` for an arrow key (or Home/End), or null at the edge.
 * Up and down go to the nearest row that way, to the dot nearest `column` (the x the cursor
 * keeps while moving up and down, so a zig-zag lattice does not drift sideways).
 */
export function step(model, dot, key, column) {
  const rows = model.rows;
  const r = rows.findIndex((row) => row.includes(dot));
  const row = rows[r];
  const at = row.indexOf(dot);
  if (key === "ArrowLeft") return at > 0 ? row[at - 1] : null;
  if (key === "ArrowRight") return at < row.length - 1 ? row[at + 1] : null;
  if (key === "Home") return row[0] === dot ? null : row[0];
  if (key === "End") return row[row.length - 1] === dot ? null : row[row.length - 1];
  const next = key === "ArrowUp" ? rows[r - 1] : key === "ArrowDown" ? rows[r + 1] : null;
  if (!next) return null;
  const x = column ?? dot.x;
  let best = null;
  for (const d of next) {
    if (!best || Math.abs(d.x - x) < Math.abs(best.x - x) - EPS) best = d;
  }
  return best;
}

/** The dot nearest the middle of the board (where the cursor starts). */
export function centreDot(model) {
  const { minX, maxX, minY, maxY } = model.extent;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  let best = model.dots[0];
  for (const d of model.dots) {
    if (Math.hypot(d.x - cx, d.y - cy) < Math.hypot(best.x - cx, best.y - cy) - EPS) best = d;
  }
  return best;
}

// ---- faces and hit regions ------------------------------------------------------------

/** Faces of a board whose lines never cross: every three dots joined by three lines. */
function cliqueFaces(model) {
  const faces = [];
  for (const a of model.dots) {
    const near = a.lines.map((e) => e.other).filter((d) => d.i > a.i);
    for (let j = 0; j < near.length; j++) {
      for (let k = j + 1; k < near.length; k++) {
        const b = near[j];
        const c = near[k];
        const bc = model.between.get(pairKey(b.name, c.name));
        if (!bc) continue;
        faces.push({
          pts: [a, b, c],
          lines: [model.between.get(pairKey(a.name, b.name)), bc,
            model.between.get(pairKey(c.name, a.name))],
        });
      }
    }
  }
  return faces;
}

/** Faces of the GYØ grid: the four quarters of each unit square, cut by both diagonals. */
function quarterFaces(model) {
  const at = new Map(model.dots.map((d) => [`${Math.round(d.x)},${Math.round(d.y)}`, d]));
  const line = (p, q) => model.between.get(pairKey(p.name, q.name)) || null;
  const faces = [];
  for (const nw of model.dots) {
    const x = Math.round(nw.x);
    const y = Math.round(nw.y);
    const ne = at.get(`${x + 1},${y}`);
    const sw = at.get(`${x},${y + 1}`);
    const se = at.get(`${x + 1},${y + 1}`);
    if (!ne || !sw || !se) continue;
    const c = { x: x + 0.5, y: y + 0.5 };
    const fall = line(nw, se); // the diagonal from top-left to bottom-right
    const rise = line(sw, ne);
    for (const [p, q, side, toC, fromC] of [
      [nw, ne, line(nw, ne), rise, fall], // top: ne–c lies on the rising diagonal
      [ne, se, line(ne, se), fall, rise], // right
      [se, sw, line(se, sw), rise, fall], // bottom
      [sw, nw, line(sw, nw), fall, rise], // left
    ]) {
      faces.push({ pts: [p, q, c], lines: [side, toC, fromC] });
    }
  }
  return faces;
}

function incentre(p, q, r) {
  const a = Math.hypot(q.x - r.x, q.y - r.y);
  const b = Math.hypot(r.x - p.x, r.y - p.y);
  const c = Math.hypot(p.x - q.x, p.y - q.y);
  const s = a + b + c;
  return { x: (a * p.x + b * q.x + c * r.x) / s, y: (a * p.y + b * q.y + c * r.y) / s };
}

function mirror(pt, p, q) {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const t = ((pt.x - p.x) * dx + (pt.y - p.y) * dy) / (dx * dx + dy * dy);
  const fx = p.x + t * dx;
  const fy = p.y + t * dy;
  return { x: 2 * fx - pt.x, y: 2 * fy - pt.y };
}

function ptKey(p) {
  return `${Math.round(p.x * 1000)},${Math.round(p.y * 1000)}`;
}

/**
 * Each line's hit regions: one quadrilateral per stretch of it that faces meet along (the
 * whole line, or each half of a crossed GYØ diagonal), from one end through the incentres on
 * both sides. A stretch on the board's edge has a face on one side only: its region is
 * mirrored outwards, so the pointer may be a little off the board. The first region is the
 * one at the line's first dot.
 */
function hitRegions(model, faces) {
  const stretches = new Map(); // line name -> Map(segment key -> {p, q, apexes})
  for (const face of faces) {
    const [p0, p1, p2] = face.pts;
    const inc = incentre(p0, p1, p2);
    const edges = [[p0, p1], [p1, p2], [p2, p0]];
    edges.forEach(([p, q], k) => {
      const ln = face.lines[k];
      if (!ln) return;
      if (!stretches.has(ln.name)) stretches.set(ln.name, new Map());
      const segs = stretches.get(ln.name);
      const key = [ptKey(p), ptKey(q)].sort().join(" ");
      if (!segs.has(key)) segs.set(key, { p, q, apexes: [] });
      segs.get(key).apexes.push(inc);
    });
  }
  for (const ln of model.lines) {
    const segs = stretches.get(ln.name);
    if (!segs) {
      // a line with no face (a lone line of a custom board): a diamond around it
      const r = 0.3;
      const nx = -(ln.b.y - ln.a.y) / ln.len;
      const ny = (ln.b.x - ln.a.x) / ln.len;
      ln.regions = [[ln.a, { x: ln.mid.x + nx * r, y: ln.mid.y + ny * r }, ln.b,
        { x: ln.mid.x - nx * r, y: ln.mid.y - ny * r }]];
      continue;
    }
    const regions = [...segs.values()].map(({ p, q, apexes }) => {
      const other = apexes[1] || mirror(apexes[0], p, q);
      return [p, apexes[0], q, other];
    });
    const near = (reg) => Math.min(...reg.map((pt) => Math.hypot(pt.x - ln.a.x, pt.y - ln.a.y)));
    regions.sort((r1, r2) => near(r1) - near(r2));
    ln.regions = regions;
  }
}

/** A point at fraction f along line `ln` (from its first dot). */
export function along(ln, f) {
  return { x: ln.a.x + (ln.b.x - ln.a.x) * f, y: ln.a.y + (ln.b.y - ln.a.y) * f };
}

/** The incentre of a triangle of points: where its label goes (the roomiest spot inside). */
export function labelPoint(pts) {
  return incentre(pts[0], pts[1], pts[2]);
}

/** The radius of the largest circle inside the triangle: how big its label may be. */
export function inradius(pts) {
  const [p, q, r] = pts;
  const a = Math.hypot(q.x - r.x, q.y - r.y);
  const b = Math.hypot(r.x - p.x, r.y - p.y);
  const c = Math.hypot(p.x - q.x, p.y - q.y);
  const area = Math.abs((q.x - p.x) * (r.y - p.y) - (r.x - p.x) * (q.y - p.y)) / 2;
  return (2 * area) / (a + b + c);
}
