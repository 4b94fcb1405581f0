// Motion for the 3-D view, as plain numbers in the server's frame (mm, quaternions w x y z):
// the server's keyframes of a settle played back (positions interpolated, rotations
// slerped over `times`), and the tumble a fallen tower makes afterwards — the server says the
// tower is down and its pieces go back to the supply; the tumble only shows it.
import { CARD, PYRAMIDS, tiltOf } from "./towers-geom.js";

/** A settle shorter than this (s) is stretched to it, so a 1 mm drop is seen at all. */
export const MIN_SETTLE_S = 0.45;
export const TUMBLE_S = 0.9;

/** A signature of a tower's last settle: a new one means a step moved this tower. */
export function settleKey(tower) {
  const kf = tower.keyframes;
  if (!kf || !kf.times || kf.times.length < 2) return `n${(tower.pieces || []).length}`;
  const last = kf.frames[kf.frames.length - 1] || [];
  return `${kf.times.length}:${kf.pieces.join(",")}:${JSON.stringify(last)}:${tower.standing}`;
}

/** How long (s, as played) the settle of `tower` lasts; 0 when there is none to play. */
export function settleDuration(tower) {
  const kf = tower.keyframes;
  if (!kf || !kf.times || kf.times.length < 2 || !kf.pieces.length) return 0;
  return Math.max(kf.times[kf.times.length - 1], MIN_SETTLE_S);
}

/** The pose [x, y, z, w, qx, qy, qz] of keyframe body `k` at played time `t` (s). */
export function keyframePose(kf, k, t) {
  const times = kf.times;
  const end = times[times.length - 1];
  const scale = end > 0 ? Math.max(1, MIN_SETTLE_S / end) : 1;
  const at = Math.min(end, Math.max(0, t / scale));
  let i = 0;
  while (i < times.length - 2 && times[i + 1] < at) i += 1;
  const t0 = times[i];
  const t1 = times[i + 1] ?? t0;
  const u = t1 > t0 ? (at - t0) / (t1 - t0) : 1;
  return lerpPose(kf.frames[i][k], kf.frames[Math.min(i + 1, times.length - 1)][k], u);
}

export function lerpPose(a, b, u) {
  const p = [0, 1, 2].map((j) => a[j] + (b[j] - a[j]) * u);
  return [...p, ...slerp(a.slice(3), b.slice(3), u)];
}

export function slerp(a, b, u) {
  let [aw, ax, ay, az] = a;
  const [bw, bx, by, bz] = b;
  let dot = aw * bw + ax * bx + ay * by + az * bz;
  if (dot < 0) { aw = -aw; ax = -ax; ay = -ay; az = -az; dot = -dot; }
  let s0;
  let s1;
  if (dot > 0.9995) {
    s0 = 1 - u;
    s1 = u;
  } else {
    const theta = Math.acos(dot);
    const sin = Math.sin(theta);
    s0 = Math.sin((1 - u) * theta) / sin;
    s1 = Math.sin(u * theta) / sin;
  }
  const q = [s0 * aw + s1 * bw, s0 * ax + s1 * bx, s0 * ay + s1 * by, s0 * az + s1 * bz];
  const n = Math.hypot(...q) || 1;
  return q.map((v) => v / n);
}

export function qmul(a, b) {
  const [aw, ax, ay, az] = a;
  const [bw, bx, by, bz] = b;
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

export function qaxis(axis, angle) {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}

export function rotate(q, v) {
  const [w, x, y, z] = q;
  const [vx, vy, vz] = v;
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

/** A small seeded random source, so a fallen tower lies the same way on every screen. */
function rand(seed) {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

/** Where the pieces of a fallen tower lie once it has tumbled: [pose per piece]. The tower
 * goes over the way it leant (or a seeded way), each piece landing as far out as it stood
 * high; pyramids lie on a face, cards flat. `poses` are the settled poses to start from. */
export function tumbled(kinds, poses, seat) {
  const r = rand(seat + 7);
  let lean = null;
  for (const p of poses) {
    if (tiltOf(p.slice(3)) > 3) {
      const up = rotate(p.slice(3), [0, 0, 1]);
      if (Math.hypot(up[0], up[1]) > 1e-6) { lean = Math.atan2(up[1], up[0]); break; }
    }
  }
  const way = lean ?? r() * 2 * Math.PI;
  let cards = 0;
  return kinds.map((kind, i) => {
    const p = poses[i];
    const out = 0.9 * p[2] + 10 * r();
    const side = (r() - 0.5) * 30;
    const x = p[0] + Math.cos(way) * out - Math.sin(way) * side;
    const y = p[1] + Math.sin(way) * out + Math.cos(way) * side;
    const yaw = qaxis([0, 0, 1], way + (r() - 0.5) * 1.2);
    if (kind === "card") {
      cards += 1;
      return [x, y, CARD.thickness / 2 + 0.4 * cards, ...qmul(qaxis([0, 0, 1], r() * 6.3), [1, 0, 0, 0])];
    }
    const { base, height } = PYRAMIDS[kind];
    const a = base / 2;
    // Over onto a face: the face normal (h, 0, a) turned to point straight down.
    const tip = qaxis([0, 1, 0], Math.PI / 2 + Math.atan2(a, height));
    const q = qmul(yaw, tip);
    const corners = [[a, a, 0], [a, -a, 0], [-a, a, 0], [-a, -a, 0], [0, 0, height]];
    const low = Math.min(...corners.map((c) => rotate(q, c)[2]));
    return [x, y, -low + 0.05 * i, ...q];
  });
}

/** Ease for the tumble: slow to start, then down (gravity-like). */
export function easeIn(u) {
  return u * u * (3 - 2 * u) * 0.4 + u * u * 0.6;
}
