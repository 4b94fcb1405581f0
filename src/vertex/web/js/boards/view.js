// What the line boards (Dots family, Vert3x) share around their SVG: the coordinates where
// the server places them (board.axes: the notation's own letters and numbers) and zoom (+ /
// − / fit buttons and a two-finger pinch; the board scrolls inside its stage). The analysis'
// marks are js/boards/bests.js. Words: table.json (boards live on the table page).
import { addSheet, h, s } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { remembered } from "../shared/store.js";

await addSheet(new URL("../../css/board-view.css", import.meta.url).href);

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
 * The bar over a board: the coordinates switch ([data-action="coords"], aria-pressed;
 * `onCoords(on)` once saved) and the zoom buttons ([data-zoom="in|out|fit"]; the stage
 * carries data-scale). Fit (the default) is the whole board in view; zooming (buttons or a
 * two-finger pinch) is js/boards/zoom.js, fetched on first use. Also keeps `--board-px` (user
 * units per screen pixel) on the SVG, for sizes in pixels whatever the board's size.
 */
export function createZoom(stage, svg, onCoords) {
  const button = (name, glyph) => h("button", { type: "button", class: "board-zoom-step", "data-zoom": name,
    "aria-disabled": String(name !== "in") }, h("span", { "aria-hidden": "true", text: glyph }));
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
  stage.dataset.scale = "1";

  function contentWidth() {
    // the drawn board inside the SVG's box (a box limited by max-height letterboxes it)
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    return vb && vb.height ? Math.min(box.width, box.height * (vb.width / vb.height)) : box.width;
  }
  let zoom = null;
  let loading = null;
  const load = () => (loading ??= import("./zoom.js").then((mod) => {
    zoom = mod.createZoomer(stage, svg, buttons, contentWidth);
    return zoom;
  }));
  for (const name of Object.keys(buttons)) {
    buttons[name].addEventListener("click", () => load().then((z) => z.step(name)));
  }
  // two fingers pinch the board (one finger still draws); the page itself is not zoomed
  stage.addEventListener("touchstart", (e) => {
    if (e.touches.length !== 2) return;
    e.preventDefault();
    const touches = [...e.touches].map((p) => ({ clientX: p.clientX, clientY: p.clientY }));
    load().then((z) => z.pinch(touches, true));
  }, { passive: false });
  stage.addEventListener("touchmove", (e) => {
    if (e.touches.length !== 2 || !zoom) return;
    e.preventDefault();
    zoom.pinch(e.touches, false);
  }, { passive: false });

  function relabel() {
    group.setAttribute("aria-label", t("table.zoom.label"));
    coords.textContent = t("table.coords");
    for (const [name, b] of Object.entries(buttons)) {
      b.setAttribute("aria-label", t(`table.zoom.${name}`));
      b.title = t(`table.zoom.${name}`);
    }
  }
  const measure = () => {
    const vb = svg.viewBox.baseVal;
    const w = contentWidth();
    if (vb && vb.width && w) svg.style.setProperty("--board-px", `${r(vb.width / w * 1000) / 1000}px`);
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(svg);
  relabel();
  return {
    bar, relabel, measure,
    /** The switch shows whether they are on (hidden for a board that has none). */
    coordsShown(on, any = true) { coords.setAttribute("aria-pressed", String(on)); coords.hidden = !any; },
  };
}
