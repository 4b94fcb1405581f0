// Mouse, touch and keys on the 3-D view. While you may aim: the ghost follows the pointer
// (or finger), a press-drag-release places it, the wheel or a two-finger twist turns it,
// arrows move it (1 mm, Shift 10 mm), Q/E turn it, Enter places. The camera: right-drag or
// one finger when not aiming orbits, pinch or Ctrl+wheel zooms, A/D W/S +/− and 0 by key.

/** A finger covers what it points at: on touch the ghost goes this far above it (px). */
export const TOUCH_LIFT_PX = 48;
const ORBIT_PER_PX = 0.008;
const TILT_PER_PX = 0.006;
const KEY_ORBIT = Math.PI / 12;
const KEY_TILT = 0.08;
/** PageUp/PageDown (R/F) and the ▲▼ buttons move the view this far (mm) up or down the tower. */
export const LIFT_MM = 80;

/**
 * hooks: {scene, canAim(), aimAt(x, y), turn(deg), nudge(dx, dy) (mm, in the view's own
 * right/away directions), place(), resetView(), interacted(kind)}
 */
export function attachInput(canvas, hooks) {
  const { scene } = hooks;
  const pointers = new Map();
  let mode = null; // "aim" | "orbit" | "gesture" | "done" (fingers lifting after a gesture)
  let gesture = null;

  const lift = (e) => (e.pointerType === "touch" ? TOUCH_LIFT_PX : 0);

  function aimFrom(e) {
    const at = scene.pick(e.clientX, e.clientY - lift(e));
    if (at) hooks.aimAt(at.x, at.y);
  }

  function twoFingers() {
    const [a, b] = [...pointers.values()];
    return {
      distance: Math.hypot(b.x - a.x, b.y - a.y) || 1,
      angle: Math.atan2(b.y - a.y, b.x - a.x),
      mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
    };
  }

  function down(e) {
    if (e.pointerType === "mouse" && e.button !== 0 && e.button !== 2 && e.button !== 1) return;
    canvas.focus({ preventScroll: true });
    try { canvas.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, type: e.pointerType });
    if (pointers.size === 1) {
      mode = e.button === 0 && hooks.canAim() ? "aim" : "orbit";
      if (mode === "aim") {
        hooks.interacted("pointer");
        aimFrom(e);
      }
    } else if (pointers.size === 2) {
      mode = "gesture"; // a second finger: no placing on this touch
      gesture = twoFingers();
    }
    e.preventDefault();
  }

  function move(e) {
    const p = pointers.get(e.pointerId);
    if (!p) {
      // hovering with a mouse: the ghost follows it
      if (e.pointerType === "mouse" && hooks.canAim()) aimFrom(e);
      return;
    }
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (mode === "aim") {
      aimFrom(e);
    } else if (mode === "orbit") {
      scene.orbitBy(-dx * ORBIT_PER_PX, dy * TILT_PER_PX);
    } else if (mode === "gesture" && pointers.size === 2) {
      const now = twoFingers();
      scene.zoomBy(gesture.distance / now.distance);
      let turn = now.angle - gesture.angle;
      if (turn > Math.PI) turn -= 2 * Math.PI;
      if (turn < -Math.PI) turn += 2 * Math.PI;
      if (hooks.canAim()) hooks.turn((-turn * 180) / Math.PI);
      else scene.orbitBy(-turn, 0);
      scene.orbitBy(0, (now.mid.y - gesture.mid.y) * TILT_PER_PX);
      gesture = now;
    }
  }

  function up(e) {
    if (!pointers.has(e.pointerId)) return;
    const placing = mode === "aim" && pointers.size === 1 && e.type === "pointerup";
    pointers.delete(e.pointerId);
    if (placing) {
      aimFrom(e);
      hooks.place("pointer");
    }
    if (!pointers.size) mode = null;
    else if (mode === "gesture") mode = "done";
  }

  function wheel(e) {
    e.preventDefault();
    const sign = Math.sign(e.deltaY) || 0;
    if (!e.ctrlKey && hooks.canAim()) hooks.turn(sign * (e.shiftKey ? 1 : 5));
    else scene.zoomBy(sign > 0 ? 1.1 : 1 / 1.1);
  }

  function key(e) {
    if (e.altKey || e.metaKey || (e.ctrlKey && e.key !== "Enter")) return;
    const step = e.shiftKey ? 10 : 1;
    const aiming = hooks.canAim();
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (arrows[k] && aiming) {
      hooks.interacted("key");
      hooks.nudge(arrows[k][0] * step, arrows[k][1] * step);
    } else if ((k === "q" || k === "e") && aiming) {
      hooks.interacted("key");
      hooks.turn((k === "q" ? 1 : -1) * (e.shiftKey ? 45 : 5));
    } else if (k === "Enter" && aiming) {
      hooks.interacted("key");
      hooks.place("key");
    } else if (k === "a" || k === "d") {
      scene.orbitBy(k === "a" ? KEY_ORBIT : -KEY_ORBIT, 0);
    } else if (k === "w" || k === "s") {
      scene.orbitBy(0, k === "w" ? KEY_TILT : -KEY_TILT);
    } else if (k === "+" || k === "=" || k === "-" || k === "_") {
      scene.zoomBy(k === "+" || k === "=" ? 1 / 1.15 : 1.15);
    } else if (k === "PageUp" || k === "PageDown" || k === "r" || k === "f") {
      scene.liftBy(k === "PageUp" || k === "r" ? LIFT_MM : -LIFT_MM);
    } else if (k === "0" || k === "Home") {
      hooks.resetView();
    } else {
      return;
    }
    e.preventDefault();
  }

  const menu = (e) => e.preventDefault();
  canvas.addEventListener("pointerdown", down);
  canvas.addEventListener("pointermove", move);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  canvas.addEventListener("wheel", wheel, { passive: false });
  canvas.addEventListener("keydown", key);
  canvas.addEventListener("contextmenu", menu);
  return () => {
    canvas.removeEventListener("pointerdown", down);
    canvas.removeEventListener("pointermove", move);
    canvas.removeEventListener("pointerup", up);
    canvas.removeEventListener("pointercancel", up);
    canvas.removeEventListener("wheel", wheel);
    canvas.removeEventListener("keydown", key);
    canvas.removeEventListener("contextmenu", menu);
  };
}
