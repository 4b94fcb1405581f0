// The 3-D table (three.js): every seat's tower on its base, lit and shaded, the ghost of the
// piece being aimed, seat labels, an orbiting camera, and the settles played back from the
// server's keyframes. It draws; it decides nothing (the server's poses are the truth).
import * as THREE from "three";
import { COLORS, seatInk } from "../../shared/seats.js";
import { onThemeChange } from "../../shared/theme.js";
import {
  MIN_SETTLE_S, TUMBLE_S, easeIn, keyframePose, lerpPose, settleDuration, settleKey, tumbled,
} from "./towers-anim.js";
import { BASE_HALF, CARD, PYRAMIDS, layout } from "./towers-geom.js";
import { baseObject, pieceObject, poseOf, setPose, shapeOf } from "./towers-pieces.js";

const FOV = 45;
// Home: from the front and a little to the left, high enough that the pieces of a level
// stand apart on screen instead of hiding behind each other.
const HOME = { azimuth: -0.35, elevation: 0.75, distance: 210 };
const LIMITS = { minElevation: 0.08, maxElevation: 1.45, minDistance: 120, maxDistance: 2600 };
const TABLE_COLOR = "#e4ddd0";
const SKY = "#d9e2ea";
const GHOST_BAD = "#c8102e";

/** Can this browser draw WebGL at all? (three.js throws later, less plainly.) */
export function webglAvailable() {
  try {
    const c = document.createElement("canvas");
    return Boolean(c.getContext("webgl2") || c.getContext("webgl"));
  } catch {
    return false;
  }
}

/**
 * The scene on `canvas`; seat labels go in `labels` (an element over the canvas).
 * Returns the view's handle: update(board, front, mySeat, animate), ghost, camera moves,
 * pick/project, and `onAnimation(fn)` (fn(running) when playback starts and ends).
 */
export function createScene(canvas, labels, { reducedMotion, ghostNote }) {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, powerPreference: "low-power" });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;

  const scene = new THREE.Scene();
  // the sky is the page's (--sky on the view behind the canvas): light or dark with the theme
  // (read when drawn: the view is in the page by then)
  let skyKnown = false;
  scene.background = new THREE.Color(SKY);
  scene.fog = new THREE.Fog(SKY, 1800, 4200);
  function paintSky() {
    const host = canvas.parentElement;
    if (skyKnown || !host || !host.isConnected) return;
    scene.background = new THREE.Color(getComputedStyle(host).backgroundColor || SKY);
    scene.fog.color = scene.background;
    // the table top too (--table): a dark table in the dark theme
    const probe = document.createElement("span");
    probe.style.color = "var(--table)";
    host.append(probe);
    const top = getComputedStyle(probe).color;
    probe.remove();
    if (top) table.material.color = new THREE.Color(top);
    skyKnown = true;
  }
  onThemeChange(() => { skyKnown = false; invalidate(); });
  const camera = new THREE.PerspectiveCamera(FOV, 1, 4, 6000);

  // A key light from the upper right and a dim fill from the left: the four faces of a
  // pyramid get four different shades, so its shape reads at a glance.
  scene.add(new THREE.HemisphereLight("#ffffff", "#8a7f6c", 1.1));
  const sun = new THREE.DirectionalLight("#ffffff", 2.8);
  sun.position.set(420, 620, 260);
  sun.castShadow = true;
  sun.shadow.mapSize.set(1024, 1024);
  sun.shadow.bias = -0.0004;
  sun.shadow.normalBias = 0.4;
  scene.add(sun, sun.target);
  const fill = new THREE.DirectionalLight("#ffffff", 0.45);
  fill.position.set(-400, 250, 300);
  scene.add(fill);

  const table = new THREE.Mesh(new THREE.CircleGeometry(2400, 64),
    new THREE.MeshStandardMaterial({ color: TABLE_COLOR, roughness: 0.95 }));
  table.rotation.x = -Math.PI / 2;
  table.receiveShadow = true;
  scene.add(table);

  const world = new THREE.Group();
  scene.add(world);

  let spots = [{ x: 0, z: 0 }];
  let seats = []; // per seat: {group, base, pieces: [obj], key, label, anim, height}
  let front = 0;
  let mine = null;
  const orbit = { ...HOME, target: new THREE.Vector3(0, 20, 0), goal: null };
  let homeTarget = new THREE.Vector3(0, 20, 0);
  let userMoved = false;
  let frame = 0;
  let animating = 0;
  let onAnim = () => {};
  let lastLabels = "";
  let fallsPlayed = 0;

  // ---- the ghost ---------------------------------------------------------------------------
  const ghost = {
    group: new THREE.Group(), kind: null, body: null, ring: null, state: null, note: null,
    material: new THREE.MeshStandardMaterial({ transparent: true, opacity: 0.5, depthWrite: false,
      side: THREE.DoubleSide, roughness: 0.5 }),
    edge: new THREE.LineBasicMaterial({ color: "#1d232a" }),
    ringMaterial: new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.55, depthWrite: false,
      side: THREE.DoubleSide }),
  };
  ghost.group.visible = false;
  world.add(ghost.group);

  function setGhostShape(kind) {
    if (ghost.kind === kind) return;
    ghost.kind = kind;
    if (ghost.body) ghost.group.remove(ghost.body);
    const shape = shapeOf(kind);
    ghost.body = new THREE.Group();
    ghost.body.add(new THREE.Mesh(shape.mesh, ghost.material), new THREE.LineSegments(shape.edges, ghost.edge));
    ghost.group.add(ghost.body);
  }

  // ---- layout and towers ---------------------------------------------------------------------
  function ensureSeats(n) {
    if (seats.length === n) return;
    for (const s of seats) { world.remove(s.group); s.label.remove(); }
    seats = [];
    for (let seat = 0; seat < n; seat += 1) {
      const group = new THREE.Group();
      group.add(baseObject(seat));
      world.add(group);
      const label = document.createElement("div");
      label.className = "towers-label";
      label.dataset.seat = String(seat);
      labels.append(label);
      seats.push({ group, pieces: [], key: null, label, anim: null, height: 0, kinds: [] });
    }
  }

  function place(n, frontSeat) {
    spots = layout(n, frontSeat);
    seats.forEach((s, seat) => s.group.position.set(spots[seat].x, 0, spots[seat].z));
    const xs = spots.map((p) => p.x);
    const zs = spots.map((p) => p.z);
    const span = Math.max(400, Math.max(...xs) - Math.min(...xs), Math.max(...zs) - Math.min(...zs)) + 500;
    const cam = sun.shadow.camera;
    cam.left = -span / 2; cam.right = span / 2; cam.top = span / 2; cam.bottom = -span / 2;
    cam.near = 10; cam.far = 2400;
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
    const cz = (Math.max(...zs) + Math.min(...zs)) / 2;
    sun.target.position.set(cx, 0, cz);
    sun.position.set(cx + 420, 620, cz + 260);
    cam.updateProjectionMatrix();
  }

  /** Rebuild the meshes of a tower for this set of pieces (kinds in order). */
  function buildPieces(s, seat, kinds) {
    for (const obj of s.pieces) s.group.remove(obj);
    s.pieces = kinds.map((kind) => {
      const obj = pieceObject(kind, seat);
      s.group.add(obj);
      return obj;
    });
    s.kinds = kinds;
  }

  function staticPoses(tower, seat) {
    const poses = tower.pieces.map(poseOf);
    if (tower.standing || !poses.length) return poses;
    return tumbled(tower.pieces.map((p) => p.kind), poses, seat);
  }

  /** Draw the board's towers; with `animate`, play what changed since the last draw. */
  function update(board, frontSeat, mySeat, animate, names) {
    const towers = board.towers || [];
    ensureSeats(towers.length);
    if (front !== frontSeat || spots.length !== towers.length) {
      front = frontSeat;
      place(towers.length, frontSeat);
    }
    mine = mySeat;
    towers.forEach((tower, seat) => {
      const s = seats[seat];
      const key = settleKey(tower);
      const changed = s.key !== null && s.key !== key;
      const first = s.key === null;
      s.key = key;
      s.height = tower.height_mm || 0;
      s.standing = tower.standing;
      const kf = tower.keyframes;
      // A slid card leaves the tower's pieces but is in the settle: it is drawn while it slides.
      const kinds = tower.pieces.map((p) => p.kind);
      const extra = kf && kf.pieces ? kf.pieces.filter((i) => i >= kinds.length) : [];
      const play = changed && animate && !reducedMotion() && (settleDuration(tower) > 0 || !tower.standing);
      if ((play || first || changed) && s.anim) {
        // a newer settle replaces the one still playing
        s.anim = null;
        animating -= 1;
      }
      if (play) {
        buildPieces(s, seat, [...kinds, ...extra.map(() => "card")]);
        s.anim = startAnimation(tower, seat, kinds.length, s.wasStanding !== false);
      } else if (first || changed || s.kinds.length !== kinds.length) {
        buildPieces(s, seat, kinds);
        staticPoses(tower, seat).forEach((pose, i) => setPose(s.pieces[i], pose));
      }
      s.wasStanding = tower.standing;
      s.cards = tower.standing ? tower.pieces.filter((p) => p.kind === "card") : [];
      labelFor(s, seat, tower, names);
    });
    const surface = mySeat !== null && towers[mySeat] ? towers[mySeat] : towers[frontSeat];
    const top = surface ? levelHeight(surface, board.level) : 0;
    // Look a little past my tower, so it stands in front and the others show behind it.
    const past = towers.length > 1 ? 60 : 0;
    homeTarget = new THREE.Vector3(spots[frontSeat].x, Math.max(20, top + 15), spots[frontSeat].z - past);
    // The view follows the top as the tower grows, unless the player moved it (⌂ follows again).
    if (!userMoved) orbit.goal = homeTarget.clone();
    if (animating) onAnim(true);
    invalidate();
  }

  function labelFor(s, seat, tower, names) {
    const name = names(seat);
    const text = `${name.symbol} ${name.name}`;
    if (s.label.dataset.text !== text || s.label.dataset.standing !== String(tower.standing)) {
      s.label.dataset.text = text;
      s.label.dataset.standing = String(tower.standing);
      s.label.textContent = text;
      s.label.classList.toggle("fallen", !tower.standing);
      s.label.classList.toggle("mine", seat === mine);
      s.label.style.setProperty("--seat", seatInk(seat));
    }
  }

  function levelHeight(tower, level) {
    const card = (tower.pieces || []).find((p) => p.kind === "card" && p.level === level - 1);
    return card ? card.position_mm[2] : 0;
  }

  // ---- playback --------------------------------------------------------------------------
  function startAnimation(tower, seat, kept, wasStanding) {
    const kf = tower.keyframes;
    const settle = settleDuration(tower);
    const settled = tower.pieces.map(poseOf);
    // Bodies the settle moved start where it started; the rest stand where they are.
    const index = new Map((kf && kf.pieces ? kf.pieces : []).map((body, k) => [body, k]));
    const endOf = (i) => (index.has(i) ? kf.frames[kf.frames.length - 1][index.get(i)] : settled[i]);
    const falls = !tower.standing && wasStanding;
    if (falls) fallsPlayed += 1;
    const finalSettled = tower.pieces.map((_, i) => endOf(i));
    const lying = falls ? tumbled(tower.pieces.map((p) => p.kind), finalSettled, seat) : null;
    animating += 1;
    const anim = {
      start: performance.now(), settle, tumble: falls ? TUMBLE_S : 0, kf, index, settled, lying,
      kept, wasStanding: tower.standing, falls,
    };
    anim.end = anim.settle + anim.tumble;
    return anim;
  }

  function stepAnimation(s, now) {
    const a = s.anim;
    const t = (now - a.start) / 1000;
    s.pieces.forEach((obj, i) => {
      let pose;
      if (t < a.settle && a.index.has(i)) pose = keyframePose(a.kf, a.index.get(i), t);
      else if (a.index.has(i)) pose = a.kf.frames[a.kf.frames.length - 1][a.index.get(i)];
      else pose = a.settled[i];
      if (i >= a.kept) {
        // the slid card: gone once it has slid
        obj.visible = t < Math.max(a.settle, MIN_SETTLE_S);
      } else if (a.lying && t >= a.settle) {
        pose = lerpPose(pose, a.lying[i], easeIn(Math.min(1, (t - a.settle) / a.tumble)));
      }
      if (pose) setPose(obj, pose);
    });
    if (t >= a.end) {
      s.anim = null;
      animating -= 1;
      if (a.kept < s.pieces.length) {
        for (const obj of s.pieces.slice(a.kept)) s.group.remove(obj);
        s.pieces = s.pieces.slice(0, a.kept);
        s.kinds = s.kinds.slice(0, a.kept);
      }
      if (a.lying) a.lying.forEach((pose, i) => setPose(s.pieces[i], pose));
      if (!animating) onAnim(false);
    }
  }

  // ---- the camera ----------------------------------------------------------------------------
  function placeCamera() {
    if (orbit.goal) {
      orbit.target.lerp(orbit.goal, reducedMotion() ? 1 : 0.2);
      if (orbit.target.distanceTo(orbit.goal) < 0.3) { orbit.target.copy(orbit.goal); orbit.goal = null; }
    }
    const { azimuth, elevation, distance, target } = orbit;
    camera.position.set(
      target.x + distance * Math.cos(elevation) * Math.sin(azimuth),
      target.y + distance * Math.sin(elevation),
      target.z + distance * Math.cos(elevation) * Math.cos(azimuth),
    );
    camera.lookAt(target);
  }

  /** The distance that shows the middle of a base (±80 mm: where towers stand) across the
   * canvas, with the other towers behind it. */
  function homeDistance() {
    const aspect = camera.aspect || 1.4;
    const half = Math.tan(((FOV / 2) * Math.PI) / 180);
    return Math.min(900, Math.max(HOME.distance, 80 / (half * Math.min(aspect, 1.6))));
  }

  function resetView() {
    userMoved = false;
    Object.assign(orbit, { azimuth: HOME.azimuth, elevation: HOME.elevation, distance: homeDistance() });
    orbit.goal = homeTarget.clone();
    invalidate();
  }

  /** Frame every tower at once (a bird's view of the table). */
  function tableView() {
    userMoved = true;
    const xs = spots.map((p) => p.x);
    const zs = spots.map((p) => p.z);
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
    const cz = (Math.max(...zs) + Math.min(...zs)) / 2;
    const radius = Math.max(...spots.map((p) => Math.hypot(p.x - cx, p.z - cz))) + BASE_HALF + 40;
    const half = Math.tan(((FOV / 2) * Math.PI) / 180) * Math.min(camera.aspect || 1.4, 1.2);
    Object.assign(orbit, { azimuth: 0, elevation: 0.85, distance: Math.min(LIMITS.maxDistance, radius / half) });
    orbit.goal = new THREE.Vector3(cx, 30, cz);
    invalidate();
  }

  function orbitBy(dAzimuth, dElevation) {
    userMoved = true;
    orbit.azimuth += dAzimuth;
    orbit.elevation = Math.min(LIMITS.maxElevation, Math.max(LIMITS.minElevation, orbit.elevation + dElevation));
    invalidate();
  }

  /** Look `dmm` higher (or lower) up the tower: the camera's target moves, between the table
   * and a little above the tallest tower. */
  function liftBy(dmm) {
    userMoved = true;
    const tallest = Math.max(0, ...seats.map((s) => s.height || 0));
    const from = orbit.goal || orbit.target;
    const y = Math.min(tallest + 40, Math.max(10, from.y + dmm));
    orbit.goal = new THREE.Vector3(from.x, y, from.z);
    invalidate();
  }

  function zoomBy(factor) {
    userMoved = true;
    orbit.distance = Math.min(LIMITS.maxDistance, Math.max(LIMITS.minDistance, orbit.distance * factor));
    invalidate();
  }

  // ---- ghost -------------------------------------------------------------------------------
  /**
   * g: null (no ghost) or {seat, piece, size, x, y, z, rot, sigma, state} with the aim in the
   * seat's frame (mm, degrees); state "aiming" | "refused" | "pending" | "placed".
   */
  function setGhost(g) {
    if (!g) {
      ghost.group.visible = false;
      ghost.note = null;
      if (ghostNote) ghostNote.hidden = true;
      invalidate();
      return;
    }
    ghost.note = g.note || null;
    ghost.at = { seat: g.seat, x: g.x, y: g.y, z: g.z + (g.piece === "card" ? 2 : PYRAMIDS[g.size].height + 4) };
    if (ghostNote) {
      ghostNote.textContent = g.note || "";
      ghostNote.dataset.state = g.state;
    }
    const kind = g.piece === "card" ? "card" : g.size;
    setGhostShape(kind);
    const spot = spots[g.seat] || spots[0];
    ghost.group.visible = true;
    ghost.group.position.set(spot.x + g.x, g.z, spot.z - g.y);
    ghost.body.rotation.set(0, (g.rot * Math.PI) / 180, 0);
    const colour = g.state === "refused" ? GHOST_BAD : COLORS[g.seat % COLORS.length];
    // A card ghost is a card (white) edged in the seat's colour; a pyramid one is coloured.
    ghost.material.color.set(kind === "card" && g.state !== "refused" ? "#ffffff" : colour);
    const held = g.state === "pending" || g.state === "placed";
    ghost.material.opacity = kind === "card" ? (held ? 0.6 : 0.35) : held ? 0.8 : 0.5;
    ghost.edge.color.set(g.state === "refused" ? GHOST_BAD : kind === "card" ? colour : "#1d232a");
    // The tremor: a band from the piece's outline out to 2σ, where the piece may land.
    const reach = kind === "card" ? Math.hypot(CARD.width, CARD.length) / 2 : PYRAMIDS[kind].base / Math.SQRT2;
    const key = `${kind}:${g.sigma.toFixed(2)}`;
    if (ghost.ringKey !== key) {
      if (ghost.ring) ghost.group.remove(ghost.ring);
      ghost.ring = null;
      if (g.sigma > 0) {
        const ringGeo = new THREE.RingGeometry(reach, reach + Math.max(0.8, 2 * g.sigma), 64);
        ringGeo.rotateX(-Math.PI / 2);
        ghost.ring = new THREE.Mesh(ringGeo, ghost.ringMaterial);
        ghost.ring.position.y = 0.4;
        ghost.group.add(ghost.ring);
      }
      ghost.ringKey = key;
    }
    ghost.ringMaterial.color.set(colour);
    ghost.state = g.state;
    invalidate();
  }

  // ---- picking and projecting ----------------------------------------------------------------
  const raycaster = new THREE.Raycaster();
  const ndc = new THREE.Vector2();
  let aimPlane = null; // {seat, z (mm), normal [x, y, z] in the server frame}

  /** The surface aims land on: the level's plane (server frame) of `seat`'s tower. */
  function setAimPlane(plane) { aimPlane = plane; }

  /** The aim (x, y in the aim seat's frame, mm) under the client point, or null. */
  function pick(clientX, clientY) {
    if (!aimPlane) return null;
    const rect = canvas.getBoundingClientRect();
    ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    placeCamera();
    camera.updateMatrixWorld();
    raycaster.setFromCamera(ndc, camera);
    const spot = spots[aimPlane.seat] || spots[0];
    const n = aimPlane.normal;
    const normal = new THREE.Vector3(n[0], n[2], -n[1]).normalize();
    const point = new THREE.Vector3(spot.x + aimPlane.point[0], aimPlane.point[2], spot.z - aimPlane.point[1]);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point);
    const hit = raycaster.ray.intersectPlane(plane, new THREE.Vector3());
    if (!hit) return null;
    return { x: hit.x - spot.x, y: -(hit.z - spot.z), z: hit.y };
  }

  /** Client coordinates of a point of `seat`'s tower (server frame, mm). */
  function project(seat, x, y, z) {
    placeCamera();
    camera.updateMatrixWorld();
    const spot = spots[seat] || spots[0];
    const v = new THREE.Vector3(spot.x + x, z, spot.z - y).project(camera);
    const rect = canvas.getBoundingClientRect();
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height, behind: v.z > 1 };
  }

  /** The camera's heading in quarter turns (0: looking along +y of the bases), so the arrow
   * keys move the ghost the way the screen shows. */
  function quarter() {
    return ((Math.round(orbit.azimuth / (Math.PI / 2)) % 4) + 4) % 4;
  }

  // ---- drawing -----------------------------------------------------------------------------
  function resize() {
    const w = canvas.clientWidth || 300;
    const h = canvas.clientHeight || 200;
    const size = renderer.getSize(new THREE.Vector2());
    if (size.x !== w || size.y !== h) {
      const wasHome = !userMoved;
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      if (wasHome) orbit.distance = homeDistance();
    }
  }

  function render() {
    frame = 0;
    resize();
    const now = performance.now();
    for (const s of seats) if (s.anim) stepAnimation(s, now);
    placeCamera();
    paintSky();
    renderer.render(scene, camera);
    placeLabels();
    if (animating || orbit.goal) invalidate();
  }

  function placeLabels() {
    const rect = canvas.getBoundingClientRect();
    const host = labels.getBoundingClientRect();
    let sig = "";
    seats.forEach((s, seat) => {
      const p = project(seat, 0, -BASE_HALF * 0.8, 0);
      const x = Math.round(p.x - host.left);
      const y = Math.round(p.y - host.top);
      const show = !p.behind && x > -40 && x < rect.width + 40 && y > -10 && y < rect.height + 10;
      sig += `${x},${y},${show};`;
      s.label.hidden = !show;
      s.label.style.transform = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
    });
    lastLabels = sig + placeLevelMarks(rect, host);
    if (ghostNote) {
      if (!ghost.note || !ghost.group.visible) {
        ghostNote.hidden = true;
      } else {
        const p = project(ghost.at.seat, ghost.at.x, ghost.at.y, ghost.at.z);
        ghostNote.hidden = p.behind;
        // Above the ghost, centred on it, but kept inside the view (a ghost near an edge of a
        // phone's narrow view would cut its note off).
        const w = ghostNote.offsetWidth;
        const hgt = ghostNote.offsetHeight;
        const left = rect.left - host.left;
        const top = rect.top - host.top;
        const x = Math.min(Math.max(p.x - host.left - w / 2, left + 4), left + rect.width - w - 4);
        const y = Math.max(p.y - host.top - hgt, top + 4);
        ghostNote.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      }
    }
  }

  // ---- level numbers beside the front tower ---------------------------------------------------
  const marks = []; // one element a level, made as levels are built
  const MARK_GAP_PX = 22; // numbers closer than this would overlap: show every 2nd, 5th, 10th
  // Beside a card, clear of its corners (mm). Worked out when used: the sizes come with the
  // first board, after the scene is made (a constant here was NaN and hid every number).
  const markOut = () => Math.hypot(CARD.width, CARD.length) / 2 + 10;
  const MARK_W_PX = 34; // a two-digit number's width, with its padding

  function placeLevelMarks(rect, host) {
    const s = seats[mine !== null && seats[mine] ? mine : front];
    const cards = s ? s.cards || [] : [];
    while (marks.length < cards.length) {
      const el = document.createElement("div");
      el.className = "towers-level";
      el.setAttribute("aria-hidden", "true"); // the panel says the levels in words
      labels.append(el);
      marks.push(el);
    }
    // Beside the tower on the screen: out along the camera's right, at each card's height.
    const seat = seats.indexOf(s);
    const rx = Math.cos(orbit.azimuth);
    const ry = Math.sin(orbit.azimuth);
    const out = markOut();
    const spotsOnScreen = cards.map((c) => {
      const [x, y, z] = c.position_mm;
      return project(seat, x + rx * out, y + ry * out, z);
    });
    // The closest two numbers in view decide (the view's perspective packs levels tighter
    // where they are further away).
    let every = 1;
    if (cards.length > 1) {
      const inView = (p) => p.y > rect.top && p.y < rect.bottom;
      const gaps = spotsOnScreen.slice(1).map((p, i) => [p, spotsOnScreen[i]])
        .filter(([a, b]) => inView(a) && inView(b)).map(([a, b]) => Math.abs(a.y - b.y));
      const span = Math.abs(spotsOnScreen[0].y - spotsOnScreen[spotsOnScreen.length - 1].y);
      const gap = gaps.length ? Math.min(...gaps) : span / (cards.length - 1);
      every = [1, 2, 5, 10].find((k) => gap * k >= MARK_GAP_PX) || 10;
    }
    let sig = `|${every}`;
    marks.forEach((el, i) => {
      const card = cards[i];
      const p = spotsOnScreen[i];
      const top = i === cards.length - 1;
      const show = Boolean(card) && !p.behind && (card.level % every === 0 || top)
        && p.y > rect.top + 10 && p.y < rect.bottom - 10 && p.x > rect.left;
      el.hidden = !show;
      if (!show) return;
      // Close up on a phone the spot beside the tower is past the view's right edge: the
      // number keeps to the edge, at its card's height.
      const x = Math.round(Math.min(p.x, rect.right - MARK_W_PX) - host.left);
      const y = Math.round(p.y - host.top);
      if (el.textContent !== String(card.level)) el.textContent = String(card.level);
      el.dataset.level = String(card.level);
      el.classList.toggle("top", top);
      el.style.transform = `translate(${x}px, ${y}px) translate(0, -50%)`;
      sig += `${card.level}:${x},${y};`;
    });
    return sig;
  }

  function invalidate() {
    if (!frame) frame = requestAnimationFrame(render);
  }

  const observer = new ResizeObserver(() => invalidate());
  observer.observe(canvas);

  return {
    update,
    setGhost,
    setAimPlane,
    pick,
    project,
    quarter,
    orbitBy,
    zoomBy,
    liftBy,
    resetView,
    tableView,
    get animating() { return animating > 0; },
    get fallsPlayed() { return fallsPlayed; },
    onAnimation(fn) { onAnim = fn; },
    renderNow() { cancelAnimationFrame(frame); render(); },
    invalidate,
    labelsKey: () => lastLabels,
    destroy() {
      observer.disconnect();
      cancelAnimationFrame(frame);
      renderer.dispose();
      labels.replaceChildren();
      marks.length = 0;
    },
  };
}
