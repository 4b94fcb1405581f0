// The Juxtapose stash: the common pool of pyramids, a column per colour (small on top, large
// at the bottom) under how many of that colour are left. Compact, so on a phone the stash and
// the board fit on one screen together. One tab stop (a roving tabindex over its pyramids); the
// arrows move, Enter or Space picks. Its elements are kept between updates, so focus and a
// drag that starts on a pyramid survive a redraw.
import { h } from "../../shared/dom.js";
import { has, num, t } from "../../shared/i18n.js";
import { COLOURS, parsePyramid, pyramidIcon } from "./juxtapose-draw.js";

const ORDER = [...COLOURS].flatMap((c) => [1, 2, 3].map((k) => `${c}${k}`));

/**
 * opts: {label(p) -> accessible name of pyramid p, onPick(p) (Enter/Space), onEscape()}.
 * Returns {el, grid, update({stash, picked, pending, can}), focus(p), buttons()}.
 */
export function createStash(opts) {
  const title = h("h3", { class: "jx-stash-title" });
  const grid = h("div", { class: "jx-stash-grid", role: "toolbar" });
  const empty = h("p", { class: "jx-stash-empty", hidden: true });
  const el = h("section", { class: "jx-stash", "data-stash": "" }, title, grid, empty);

  const buttons = new Map();
  const holes = new Map();
  const rows = new Map();
  for (const colour of COLOURS) {
    const name = h("span", { class: "jx-stash-name" });
    const count = h("span", { class: "jx-stash-count" });
    const row = h("div", { class: "jx-stash-colour", role: "group", "data-colour": colour },
      h("span", { class: "jx-stash-label", "aria-hidden": "true" }, name, count));
    row.parts = { name, count };
    for (let k = 1; k <= 3; k++) {
      const p = `${colour}${k}`;
      buttons.set(p, h("button", { type: "button", class: "jx-slot jx-stash-piece", "data-pyramid": p, tabindex: -1 },
        pyramidIcon(p)));
      const hole = h("span", { class: "jx-slot jx-slot-empty", "aria-hidden": "true" });
      holes.set(p, hole);
      row.append(hole);
    }
    rows.set(colour, row);
    grid.append(row);
  }

  let present = new Set();
  let cursor = null;

  function setCursor(p) {
    cursor = p;
    for (const [q, b] of buttons) b.setAttribute("tabindex", q === p ? "0" : "-1");
  }

  function focus(p) {
    if (!present.has(p)) return;
    setCursor(p);
    buttons.get(p).focus();
  }

  /** The next pyramid left in a direction: left and right go to the nearest size of the next
   * colour that has one, up and down to the next size left in the same colour. */
  function step(p, dc, dr) {
    const { colour, size } = parsePyramid(p);
    if (dr) {
      for (let k = size + dr; k >= 1 && k <= 3; k += dr) {
        if (present.has(`${colour}${k}`)) return `${colour}${k}`;
      }
      return p;
    }
    for (let c = COLOURS.indexOf(colour) + dc; c >= 0 && c < COLOURS.length; c += dc) {
      for (const off of [0, -1, 1, -2, 2]) {
        const q = `${COLOURS[c]}${size + off}`;
        if (present.has(q)) return q;
      }
    }
    return p;
  }

  grid.addEventListener("keydown", (e) => {
    const btn = e.target.closest && e.target.closest("[data-pyramid]");
    if (!btn) return;
    const p = btn.dataset.pyramid;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[e.key]) {
      e.preventDefault();
      focus(step(p, ...steps[e.key]));
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      const list = ORDER.filter((q) => present.has(q));
      focus(e.key === "Home" ? list[0] : list[list.length - 1]);
    } else if (e.key === "Enter" || e.key === " ") {
      // handled here, not by the button's click: pointer clicks are the board's business
      e.preventDefault();
      opts.onPick(p);
    } else if (e.key === "Escape") {
      e.preventDefault();
      opts.onEscape();
    }
  });
  grid.addEventListener("focusin", (e) => {
    const btn = e.target.closest && e.target.closest("[data-pyramid]");
    if (btn) setCursor(btn.dataset.pyramid);
  });

  function update({ stash, picked, pending, can }) {
    present = new Set(stash);
    title.textContent = t("juxtapose.stash");
    grid.setAttribute("aria-label", t("juxtapose.stash.label"));
    for (const colour of COLOURS) {
      const row = rows.get(colour);
      const left = [1, 2, 3].filter((k) => present.has(`${colour}${k}`)).length;
      const count = t("juxtapose.stash.left", { n: num(left) });
      row.setAttribute("aria-label", t("juxtapose.stash.group", { colour: t(`juxtapose.Colour.${colour}`), left: count }));
      row.dataset.left = String(left);
      // a short heading where the language's word is too long for the column
      const head = has(`juxtapose.head.${colour}`) ? `juxtapose.head.${colour}` : `juxtapose.Colour.${colour}`;
      row.parts.name.textContent = t(head);
      // likewise the count: the full words stay in the column's accessible name
      row.parts.count.textContent = has("juxtapose.stash.left.short")
        ? t("juxtapose.stash.left.short", { n: num(left) })
        : count;
    }
    for (const p of ORDER) {
      const btn = buttons.get(p);
      const hole = holes.get(p);
      if (present.has(p)) {
        if (!btn.isConnected) hole.replaceWith(btn);
        btn.setAttribute("aria-label", t("juxtapose.stash.piece", { pyramid: opts.label(p), n: num(1) }));
        btn.setAttribute("aria-pressed", p === picked ? "true" : "false");
        btn.toggleAttribute("data-selected", p === picked);
        btn.toggleAttribute("data-pending", p === pending);
        if (can) btn.removeAttribute("aria-disabled");
        else btn.setAttribute("aria-disabled", "true");
      } else if (btn.isConnected) {
        btn.replaceWith(hole);
      }
    }
    if (!present.has(cursor)) cursor = ORDER.find((q) => present.has(q)) || null;
    setCursor(cursor);
    grid.hidden = present.size === 0;
    empty.hidden = present.size !== 0;
    empty.textContent = t("juxtapose.stash.empty");
  }

  return { el, grid, update, focus, cursor: () => cursor };
}
