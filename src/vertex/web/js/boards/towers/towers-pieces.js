// The table's objects for three.js (towers-scene.js): pyramids, cards and the seats' bases,
// their shapes made once and their materials once per seat, and the server's poses (z up,
// millimetres) turned into the view's frame (y up).
import * as THREE from "three";
import { COLORS, seatInk } from "../../shared/seats.js";
import { BASE_HALF, CARD, PYRAMIDS } from "./towers-geom.js";

// ---- server frame (z up, mm) to the view (y up) --------------------------------------------
function toPosition(p, out) { return out.set(p[0], p[2], -p[1]); }
function toQuaternion(q, out) { return out.set(q[1], q[3], -q[2], q[0]); }

export function poseOf(piece) { return [...piece.position_mm, ...piece.quaternion]; }

// ---- shapes, made once ---------------------------------------------------------------------
const shapes = new Map();

/** A hollow square pyramid (open base, both sides shaded), base on y = 0. */
function pyramidShape(size) {
  const key = `p${size}`;
  if (!shapes.has(key)) {
    const { base, height } = PYRAMIDS[size];
    const g = new THREE.ConeGeometry(base / Math.SQRT2, height, 4, 1, true, Math.PI / 4);
    g.translate(0, height / 2, 0);
    g.computeVertexNormals();
    const flat = g.toNonIndexed();
    flat.computeVertexNormals(); // faceted: each face its own normal, so edges read clearly
    shapes.set(key, { mesh: flat, edges: new THREE.EdgesGeometry(flat, 20) });
  }
  return shapes.get(key);
}

function cardShape() {
  if (!shapes.has("card")) {
    // Drawn a little thicker than 0.3 mm so its edge shows; the pose is the server's.
    const g = new THREE.BoxGeometry(CARD.width, Math.max(CARD.thickness, 0.6), CARD.length);
    shapes.set("card", { mesh: g, edges: new THREE.EdgesGeometry(g) });
  }
  return shapes.get("card");
}

export function shapeOf(kind) { return kind === "card" ? cardShape() : pyramidShape(kind); }

// ---- materials per seat --------------------------------------------------------------------
const materials = new Map();
function materialsFor(seat) {
  if (!materials.has(seat)) {
    const colour = COLORS[seat % COLORS.length];
    const ink = seatInk(seat);
    materials.set(seat, {
      pyramid: new THREE.MeshStandardMaterial({ color: colour, roughness: 0.45, metalness: 0.05,
        side: THREE.DoubleSide }),
      card: new THREE.MeshStandardMaterial({ color: "#fbf8f0", roughness: 0.8 }),
      pyramidEdge: new THREE.LineBasicMaterial({ color: ink }),
      cardEdge: new THREE.LineBasicMaterial({ color: colour }),
      mat: new THREE.MeshStandardMaterial({ color: colour, roughness: 1, transparent: true,
        opacity: 0.14, depthWrite: false }),
      matEdge: new THREE.LineBasicMaterial({ color: colour, transparent: true, opacity: 0.7 }),
    });
  }
  return materials.get(seat);
}

export function pieceObject(kind, seat) {
  const m = materialsFor(seat);
  const shape = shapeOf(kind);
  const mesh = new THREE.Mesh(shape.mesh, kind === "card" ? m.card : m.pyramid);
  mesh.castShadow = true;
  mesh.receiveShadow = true;
  const group = new THREE.Group();
  group.add(mesh, new THREE.LineSegments(shape.edges, kind === "card" ? m.cardEdge : m.pyramidEdge));
  return group;
}

export function setPose(obj, pose) {
  toPosition(pose, obj.position);
  toQuaternion(pose.slice(3), obj.quaternion);
}

/** A base: a rounded square on the table in the seat's colour, where its tower stands. */
export function baseObject(seat) {
  const m = materialsFor(seat);
  const r = 18;
  const s = BASE_HALF;
  const shape = new THREE.Shape();
  shape.moveTo(-s + r, -s);
  shape.lineTo(s - r, -s); shape.quadraticCurveTo(s, -s, s, -s + r);
  shape.lineTo(s, s - r); shape.quadraticCurveTo(s, s, s - r, s);
  shape.lineTo(-s + r, s); shape.quadraticCurveTo(-s, s, -s, s - r);
  shape.lineTo(-s, -s + r); shape.quadraticCurveTo(-s, -s, -s + r, -s);
  const g = new THREE.ShapeGeometry(shape, 6);
  g.rotateX(-Math.PI / 2);
  const mesh = new THREE.Mesh(g, m.mat);
  mesh.position.y = 0.2;
  mesh.receiveShadow = true;
  const outline = new THREE.LineLoop(
    new THREE.BufferGeometry().setFromPoints(shape.getPoints(6).map((p) => new THREE.Vector3(p.x, 0.3, -p.y))),
    m.matEdge);
  const group = new THREE.Group();
  group.add(mesh, outline);
  return group;
}
