// What the line boards (Dots family, Vert3x) share around their SVG: the coordinates where
// the server places them (board.axes: the notation's own letters and numbers), zoom (+ / − /
// fit buttons and a two-finger pinch, the board scrolling inside its stage) and the
// analysis' best moves drawn on the board. Words: table.json (boards live on the table page).
import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { remembered } from "./store.js";

const r = (v) => Math.round(v * 100) / 100;

/** Are coordinates shown round a board with these `axes`? Saved per browser; on by default,
 * except on a phone-width screen for a board of more than 10 columns (GYØ 15×15: 22 px a
 * column at 360 px, the labels would crowd the board; zoom in, or switch them on). */
export function coordsOn(axes) {
  const crowded = !window.matchMedia("(min-width: 600px)").matches && (axes.columns || []).length > 10;
  return Boolean(remembered.setting("coords", !crowded));
}

const AXES = [["column", "columns"], ["row", "rows"]];
export const AWAY = 0.6; // at most this many lattice steps from the dot (board.css --away)

/** The labels of `axes` ({columns, rows}: [label, x, y] at a first dot; away: {column, row}
 * the outward step), board units times `k`. Each sits at its dot and is moved out by CSS
 * (a fixed number of pixels, at most AWAY steps), so a small board keeps them close. */
export function coordLayer(axes, k) {
  const g = s("g", { class: "board-coords", "aria-hidden": "true", "data-coords": "" });
  for (const [axis, key] of AXES) {
    const [dx, dy] = axes.away[axis];
    const part = s("g", { "data-axis": axis });
    part.style.setProperty("--dx", dx);
    part.style.setProperty("--dy", dy);
    for (const [label, x, y] of axes[key]) {
      part.append(s("text", { x: r(x * k), y: r(y * k), "data-coord": axis, text: label }));
    }
    g.append(part);
  }
  return g;
}

/** [x, y, w, h] grown to hold the labels of `axes` (each `half` steps each way). */
export function withCoords(vb, axes, k, half) {
  let [x0, y0, x1, y1] = [vb[0], vb[1], vb[0] + vb[2], vb[1] + vb[3]];
  for (const [axis, key] of AXES) {
    const [dx, dy] = axes.away[axis];
    for (const [, px, py] of axes[key]) {
      const x = px + dx * AWAY;
      const y = py + dy * AWAY;
      x0 = Math.min(x0, (x - half) * k); y0 = Math.min(y0, (y - half) * k);
      x1 = Math.max(x1, (x + half) * k); y1 = Math.max(y1, (y + half) * k);
    }
  }
  return [x0, y0, x1 - x0, y1 - y0].map(r);
}

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

const STEPS = [1, 1.5, 2, 3, 4, 6];

/**
 * Zoom for `svg` inside `stage` (which scrolls once the board is wider than it), and the
 * coordinates switch. Returns {bar, reset(), relabel()}: `bar` holds [data-action="coords"]
 * (aria-pressed; `onCoords(on)` after it is saved) and the +/−/fit buttons
 * ([data-zoom="in|out|fit"]; the stage carries data-zoom, the scale). Fit (the default) is
 * the whole board in view.
 */
export function createZoom(stage, svg, onCoords) {
  let k = 1;
  let fitWidth = 0;
  const button = (name, glyph) => h("button", { type: "button", class: "board-zoom-step", "data-zoom": name },
    h("span", { "aria-hidden": "true", text: glyph }));
  const buttons = { in: button("in", "+"), out: button("out", "−"), fit: button("fit", "⤢") };
  const coords = h("button", { type: "button", class: "board-coords-switch", "data-action": "coords",
    "aria-pressed": "false", hidden: true });
  coords.addEventListener("click", () => {
    const on = coords.getAttribute("aria-pressed") !== "true";
    remembered.setSetting("coords", on);
    coords.setAttribute("aria-pressed", String(on));
    onCoords(on);
  });
  const group = h("div", { class: "board-zoom-steps", role: "group" }, buttons.out, buttons.in, buttons.fit);
  const bar = h("div", { class: "board-zoom" }, coords, group);
  stage.dataset.zoom = "1";

  function contentWidth() {
    // the drawn board inside the SVG's box (a box limited by max-height letterboxes it)
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    return vb && vb.height ? Math.min(box.width, box.height * (vb.width / vb.height)) : box.width;
  }

  function set(next, cx = 0.5, cy = 0.5) {
    next = Math.max(STEPS[0], Math.min(STEPS[STEPS.length - 1], next));
    if (k === 1 && next > 1) fitWidth = contentWidth();
    const keepX = (stage.scrollLeft + stage.clientWidth * cx) / (stage.scrollWidth || 1);
    const keepY = (stage.scrollTop + stage.clientHeight * cy) / (stage.scrollHeight || 1);
    k = next;
    const zoomed = k > 1 && fitWidth > 0;
    stage.classList.toggle("is-zoomed", zoomed);
    svg.style.width = zoomed ? `${Math.round(fitWidth * k)}px` : "";
    stage.dataset.zoom = String(r(k));
    if (zoomed) {
      stage.scrollLeft = keepX * stage.scrollWidth - stage.clientWidth * cx;
      stage.scrollTop = keepY * stage.scrollHeight - stage.clientHeight * cy;
    }
    buttons.out.setAttribute("aria-disabled", String(k <= 1));
    buttons.fit.setAttribute("aria-disabled", String(k <= 1));
    buttons.in.setAttribute("aria-disabled", String(k >= STEPS[STEPS.length - 1]));
  }
  const stepFrom = (dir) => (dir > 0 ? STEPS.find((v) => v > k + 1e-6) : [...STEPS].reverse().find((v) => v < k - 1e-6));
  buttons.in.addEventListener("click", () => set(stepFrom(1) ?? k));
  buttons.out.addEventListener("click", () => set(stepFrom(-1) ?? 1));
  buttons.fit.addEventListener("click", () => set(1));

  // Two fingers pinch (one finger still draws, and pans once zoomed in): the page itself
  // is not zoomed, the board is.
  let pinch = null;
  const spread = (e) => Math.hypot(e.touches[0].clientX - e.touches[1].clientX,
    e.touches[0].clientY - e.touches[1].clientY);
  stage.addEventListener("touchstart", (e) => {
    if (e.touches.length !== 2) return;
    e.preventDefault();
    const box = stage.getBoundingClientRect();
    pinch = { d: spread(e), k,
      cx: ((e.touches[0].clientX + e.touches[1].clientX) / 2 - box.left) / (box.width || 1),
      cy: ((e.touches[0].clientY + e.touches[1].clientY) / 2 - box.top) / (box.height || 1) };
  }, { passive: false });
  stage.addEventListener("touchmove", (e) => {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    set(pinch.k * (spread(e) / (pinch.d || 1)), pinch.cx, pinch.cy);
  }, { passive: false });
  stage.addEventListener("touchend", (e) => { if (e.touches.length < 2) pinch = null; });

  function relabel() {
    group.setAttribute("aria-label", t("table.zoom.label"));
    coords.textContent = t("table.coords");
    for (const [name, b] of Object.entries(buttons)) {
      b.setAttribute("aria-label", t(`table.zoom.${name}`));
      b.title = t(`table.zoom.${name}`);
    }
  }
  // user units per screen pixel, for sizes in pixels (the labels' type) on any board size
  const measure = () => {
    const vb = svg.viewBox.baseVal;
    const w = contentWidth();
    if (vb && vb.width && w) svg.style.setProperty("--board-px", `${r(vb.width / w * 1000) / 1000}px`);
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(svg);
  relabel();
  set(1);
  return {
    bar, relabel, measure, reset: () => set(1),
    /** The switch shows whether they are on (hidden for a board that has none). */
    coordsShown(on, any = true) { coords.setAttribute("aria-pressed", String(on)); coords.hidden = !any; },
  };
}
