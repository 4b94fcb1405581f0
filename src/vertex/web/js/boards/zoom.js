// Zooming a line board (js/boards/view.js draws the buttons and fetches this on first use):
// steps of the + / − buttons, fit, and a two-finger pinch around its midpoint. The SVG gets
// a width in pixels and its stage scrolls (the page does not).
const STEPS = [1, 1.5, 2, 3, 4, 6];
const MAX = STEPS[STEPS.length - 1];
const r = (v) => Math.round(v * 100) / 100;

export function createZoomer(stage, svg, buttons, contentWidth) {
  let k = 1;
  let fitWidth = 0;
  let pinched = null;

  function set(next, cx = 0.5, cy = 0.5) {
    next = Math.max(1, Math.min(MAX, next));
    if (k === 1 && next > 1) fitWidth = contentWidth();
    // keep the point under (cx, cy) of the stage where it is
    const keepX = (stage.scrollLeft + stage.clientWidth * cx) / (stage.scrollWidth || 1);
    const keepY = (stage.scrollTop + stage.clientHeight * cy) / (stage.scrollHeight || 1);
    k = next;
    const zoomed = k > 1 && fitWidth > 0;
    stage.classList.toggle("is-zoomed", zoomed);
    svg.style.width = zoomed ? `${Math.round(fitWidth * k)}px` : "";
    stage.dataset.scale = String(r(k));
    if (zoomed) {
      stage.scrollLeft = keepX * stage.scrollWidth - stage.clientWidth * cx;
      stage.scrollTop = keepY * stage.scrollHeight - stage.clientHeight * cy;
    }
    buttons.out.setAttribute("aria-disabled", String(k <= 1));
    buttons.fit.setAttribute("aria-disabled", String(k <= 1));
    buttons.in.setAttribute("aria-disabled", String(k >= MAX));
  }

  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  return {
    step(name) {
      if (name === "fit") set(1);
      else if (name === "in") set(STEPS.find((v) => v > k + 1e-6) ?? MAX);
      else set([...STEPS].reverse().find((v) => v < k - 1e-6) ?? 1);
    },
    /** Two touches ({clientX, clientY}); `start` on the first. */
    pinch(touches, start) {
      if (start || !pinched) {
        const box = stage.getBoundingClientRect();
        pinched = { d: spread(touches) || 1, k,
          cx: ((touches[0].clientX + touches[1].clientX) / 2 - box.left) / (box.width || 1),
          cy: ((touches[0].clientY + touches[1].clientY) / 2 - box.top) / (box.height || 1) };
        return;
      }
      set(pinched.k * (spread(touches) / pinched.d), pinched.cx, pinched.cy);
    },
  };
}
