// Verticality's pieces and table layout as plain numbers (no three.js here): real sizes in
// millimetres (RULES §4), where each seat's base sits on the shared table, and the text of
// aims. The server's frame is z-up with x to the right and y away from the player; the 3-D
// view is y-up, so a point (x, y, z) of a tower is drawn at (ox + x, z, oz − y).

// The pieces' sizes (mm) are the server's (`board.sizes_mm`): `useSizes(board)` fills these
// before anything is drawn, so the page holds no measure of its own.
export const PYRAMIDS = {}; // S, M, L -> {base, height}
export const CARD = {}; // {width, length, thickness}

/** Take the piece sizes of a towers board view (`board.sizes_mm`). */
export function useSizes(board) {
  const sizes = board && board.sizes_mm;
  if (!sizes) return;
  for (const [kind, size] of Object.entries(sizes)) {
    if (kind === "card") Object.assign(CARD, size);
    else PYRAMIDS[kind] = { base: size.base, height: size.height };
  }
}
/** Aims farther than this from a base's centre (mm) are off the table area (notation.py). */
export const BASE_HALF = 150;
export const STEPS_PER_LEVEL = 4;

/** Where each seat's base centre is on the table (world x, z in mm): the seat in front
 * (`front`: mine, or seat 0 for a spectator) nearest the viewer, the others round a circle
 * far enough apart that no two bases overlap. */
export function layout(n, front) {
  if (n <= 1) return [{ x: 0, z: 0 }];
  const radius = Math.max(210, (BASE_HALF + 25) / Math.sin(Math.PI / n));
  const out = [];
  for (let seat = 0; seat < n; seat += 1) {
    const k = (seat - front + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    out.push({ x: Math.round(radius * Math.cos(angle)), z: Math.round(radius * Math.sin(angle)) });
  }
  // Put the front seat at the origin, so the camera's home is the same at every table.
  const f = out[front];
  return out.map((p) => ({ x: p.x - f.x, z: p.z - f.z }));
}

/** A number as the notation writes it: at most two decimals, no "-0". */
export function fmt(v) {
  const text = (Math.round(v * 100) / 100).toFixed(2).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

export function normRot(rot) {
  const r = ((rot % 360) + 360) % 360;
  return Math.round(r * 100) / 100 >= 360 ? 0 : Math.round(r * 100) / 100;
}

export function clampAim(v) {
  return Math.max(-BASE_HALF, Math.min(BASE_HALF, v));
}

/** The move string of an aim {piece, x, y, rot}. */
export function aimText(aim) {
  return `${aim.piece} x=${fmt(aim.x)} y=${fmt(aim.y)} rot=${fmt(normRot(aim.rot))}`;
}

/** An aim string read back: {piece, x, y, rot} (or "stop": {piece: "stop"}); null if not one. */
export function parseAim(text) {
  if (typeof text !== "string") return null;
  const words = text.trim().split(/\s+/);
  const piece = (words[0] || "").toLowerCase();
  if (piece === "stop") return { piece };
  if (piece !== "pyramid" && piece !== "card") return null;
  const out = { piece, x: NaN, y: NaN, rot: 0, haste: 0 };
  for (const word of words.slice(1)) {
    const [key, raw] = word.split("=");
    const value = Number(raw);
    if (["x", "y", "rot", "haste"].includes(key) && Number.isFinite(value)) out[key] = value;
  }
  return Number.isFinite(out.x) && Number.isFinite(out.y) ? out : null;
}

/** Heading (degrees) of a pose's x axis about the vertical; q = [w, x, y, z] (server frame). */
export function yawOf(q) {
  const [w, x, y, z] = q;
  const ax = 1 - 2 * (y * y + z * z);
  const ay = 2 * (x * y + w * z);
  return (Math.atan2(ay, ax) * 180) / Math.PI;
}

/** Tilt (degrees) of a pose's up axis from the vertical. */
export function tiltOf(q) {
  const [, x, y] = q;
  const up = 1 - 2 * (x * x + y * y);
  return (Math.acos(Math.max(-1, Math.min(1, up))) * 180) / Math.PI;
}

/** The top card of a tower under `level` (the surface the level stands on), or null. */
export function cardBelow(tower, level) {
  return (tower.pieces || []).find((p) => p.kind === "card" && p.level === level - 1) || null;
}

/** The pyramids of a tower's `level`. */
export function pyramidsOf(tower, level) {
  return (tower.pieces || []).filter((p) => p.kind !== "card" && p.level === level);
}

/** Apex of a pyramid piece (server frame, mm). */
export function apexOf(piece) {
  const h = PYRAMIDS[piece.kind].height;
  const [w, x, y, z] = piece.quaternion;
  // The piece's z axis in the world: the third column of its rotation.
  const ux = 2 * (x * z + w * y);
  const uy = 2 * (y * z - w * x);
  const uz = 1 - 2 * (x * x + y * y);
  const [px, py, pz] = piece.position_mm;
  return [px + ux * h, py + uy * h, pz + uz * h];
}

/** Where the aim starts for the step: the centre of the level's surface (the card below, or
 * the base), or for a card the middle of the level's pyramid tips. Geometry, not advice. */
export function startAim(tower, level, step) {
  if (step === STEPS_PER_LEVEL - 1) {
    const tips = pyramidsOf(tower, level).map(apexOf);
    if (tips.length) {
      const x = tips.reduce((a, p) => a + p[0], 0) / tips.length;
      const y = tips.reduce((a, p) => a + p[1], 0) / tips.length;
      const below = cardBelow(tower, level);
      return { x: round1(x), y: round1(y), rot: below ? round1(normRot(yawOf(below.quaternion))) : 0 };
    }
  }
  const below = cardBelow(tower, level);
  if (!below) return { x: 0, y: 0, rot: 0 };
  const [x, y] = below.position_mm;
  return { x: round1(x), y: round1(y), rot: round1(normRot(yawOf(below.quaternion))) };
}

export function round1(v) {
  return Math.round(v * 10) / 10 + 0;
}
