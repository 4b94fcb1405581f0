// The Vert3x board designer of the new-table form (classic rules, shape=custom): a triangular
// lattice whose small triangles are painted in and out by click, drag or keyboard (arrows move
// a cell cursor, Space paints), starting from a preset shape; and the start-dot picker for
// connected play (a dot per seat, in the seat's colour and symbol, or "auto").
//
// This is drawing, not rules: the painted cells are written into the `cells` field in the
// board's own names (top row 1, leftmost column a), and the server's check of the options
// (one piece, how many cells, start dots on the board) is shown at the field as for typing.
import { h, s } from "../../shared/dom.js";
import { loadCatalogs, t } from "../../shared/i18n.js";
import { seatColor, seatSymbol } from "../../shared/seats.js";

await loadCatalogs("designer");

const SPACE = 17; // dots along each side of the painting area (the hexagon of side 8 fits)
const U = 24; // pixels a lattice step
const H = Math.sqrt(3) / 2;

const letters = (q) => {
  let out = "";
  for (let n = q + 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(97 + ((n - 1) % 26)) + out;
  return out;
};
const dotName = (q, r) => `${letters(q)}${r + 1}`;
const pos = (q, r) => [(q - r / 2) * U, r * H * U];

/** The small triangles of the painting area: {key, up, q, r, corners}. */
function lattice() {
  const out = [];
  for (let r = 0; r < SPACE - 1; r += 1) {
    for (let q = 0; q < SPACE - 1; q += 1) {
      out.push({ key: `u${q},${r}`, up: true, q, r, corners: [[q, r], [q + 1, r + 1], [q, r + 1]] });
      out.push({ key: `d${q},${r}`, up: false, q, r, corners: [[q, r], [q + 1, r], [q + 1, r + 1]] });
    }
  }
  return out;
}

/** The cells of a preset shape, placed in the painting area. */
function presetCells(kind, a, b) {
  const inside = (q, r) => {
    if (q < 0 || r < 0) return false;
    if (kind === "hexagon") return q <= 2 * a && r <= 2 * a && Math.abs(q - r) <= a;
    if (kind === "triangle") return r <= a && q <= r;
    return q <= a && r <= b; // parallelogram a × b
  };
  const keys = new Set();
  for (const cell of CELLS) {
    if (cell.corners.every(([q, r]) => inside(q - 1, r - 1))) keys.add(cell.key);
  }
  return keys;
}

const CELLS = lattice();
const BY_KEY = new Map(CELLS.map((c) => [c.key, c]));

/** The painted cells in the board's own names, and the counts, for `keys`. */
function describe(keys) {
  const cells = [...keys].map((k) => BY_KEY.get(k));
  const dots = new Set();
  const lines = new Set();
  let q0 = Infinity;
  let r0 = Infinity;
  for (const c of cells) {
    for (const [q, r] of c.corners) { dots.add(`${q},${r}`); q0 = Math.min(q0, q); r0 = Math.min(r0, r); }
    const [x, y, z] = c.corners.map(([q, r]) => `${q},${r}`);
    for (const pair of [[x, y], [y, z], [x, z]]) lines.add(pair.sort().join("|"));
  }
  const names = cells.map((c) => c.corners.map(([q, r]) => dotName(q - q0, r - r0)).join("-"));
  return { names, dots: dots.size, lines: lines.size, cells: cells.length, q0, r0 };
}

/** Cells typed in the field (board names) back to painting keys, placed at (1, 1). */
function keysOf(names) {
  const keys = new Set();
  for (const name of names) {
    const corners = name.split("-").map((d) => /^([a-z]+)(\d+)$/.exec(d));
    if (corners.length !== 3 || corners.some((m) => !m)) return null;
    const qr = corners.map((m) => [[...m[1]].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 96, 0) - 1 + 1, Number(m[2]) - 1 + 1]);
    const qs = qr.map(([q]) => q);
    const rs = qr.map(([, r]) => r);
    const top = Math.min(...rs);
    const left = Math.min(...qs);
    const up = rs.filter((r) => r === top).length === 1;
    const key = `${up ? "u" : "d"}${left},${top}`;
    if (!BY_KEY.has(key)) return null;
    keys.add(key);
  }
  return keys;
}

export function mountDesigner(form) {
  let keys = new Set();
  let lastWritten = null; // the cells text we wrote (so our own writes are not read back)
  let cursor = CELLS.find((c) => c.key === "u4,4");
  let painting = null; // true: painting in, false: out, while the pointer is down
  let seat = 0; // the seat whose start dot a click on the preview sets
  let start = null; // dot names per seat, or null for auto
  const cellEls = new Map();

  const svg = s("svg", {
    class: "designer-grid", role: "application", tabindex: "0", "data-designer": "",
    viewBox: `${-(SPACE / 2) * U - 4} -4 ${SPACE * 1.5 * U + 8} ${(SPACE - 1) * H * U + 8}`,
  });
  for (const c of CELLS) {
    const pts = c.corners.map(([q, r]) => pos(q, r).join(",")).join(" ");
    const el = s("polygon", { points: pts, class: "designer-cell", "data-cell": c.key });
    cellEls.set(c.key, el);
    svg.append(el);
  }
  const ring = s("polygon", { class: "designer-cursor", "data-designer-cursor": "" });
  svg.append(ring);
  const counts = h("p", { class: "designer-counts", "aria-live": "polite", "data-designer-counts": "" });
  const cursorNote = h("p", { class: "sr-only", "aria-live": "polite" });
  const shapeSel = h("select", { id: "designer-shape" },
    ["hexagon", "triangle", "parallelogram"].map((k) => h("option", { value: k, text: t(`designer.${k}`) })));
  // every fixed word of the panels, set again on each update: a language switch redraws the
  // form, and the panels with it, in the new language
  const worded = []; // [element, key, attribute or null]
  const word = (el, key, attr = null) => { worded.push([el, key, attr]); return el; };
  for (const opt of shapeSel.options) word(opt, `designer.${opt.value}`);
  const sizeA = h("input", { type: "number", id: "designer-a", min: 1, max: 8, value: 2, inputmode: "numeric" });
  const sizeB = h("input", { type: "number", id: "designer-b", min: 1, max: 12, value: 2, inputmode: "numeric" });
  const bRow = h("span", { class: "designer-b" }, word(h("label", { for: "designer-b", text: t("designer.height") }), "designer.height"), sizeB);
  shapeSel.addEventListener("change", () => { bRow.hidden = shapeSel.value !== "parallelogram"; });
  bRow.hidden = true;
  const fromShape = word(h("button", { type: "button", "data-designer-from": "", text: t("designer.from"), onclick: () => {
    const a = Math.max(1, Math.min(16, Number(sizeA.value) || 1));
    const b = Math.max(1, Math.min(16, Number(sizeB.value) || 1));
    keys = presetCells(shapeSel.value, a, b);
    changed();
  } }), "designer.from");
  const clear = word(h("button", { type: "button", text: t("designer.clear"), onclick: () => { keys = new Set(); changed(); } }), "designer.clear");
  // the triangles the server says are cut off from the rest (a board in pieces), in words
  const strayNote = h("p", { class: "designer-stray-note", "data-designer-stray": "", hidden: true });
  const designer = h("div", { class: "designer", "data-designer-panel": "" },
    word(h("p", { class: "hint", id: "designer-help", text: t("designer.help") }), "designer.help"),
    h("div", { class: "designer-tools" },
      word(h("label", { for: "designer-shape", text: t("designer.start-shape") }), "designer.start-shape"), shapeSel,
      word(h("label", { for: "designer-a", text: t("designer.size") }), "designer.size"), sizeA, bRow, fromShape, clear),
    h("div", { class: "designer-stage" }, svg), counts, strayNote, cursorNote);
  svg.setAttribute("aria-describedby", "designer-help");
  svg.setAttribute("aria-label", t("designer.label"));

  // ---- the start-dot picker ----
  const pickSvg = s("svg", { class: "designer-dots", role: "group", "data-start-picker": "" });
  const seatRow = h("div", { class: "designer-seats", role: "radiogroup" });
  const auto = word(h("button", { type: "button", "data-start-auto": "", text: t("designer.auto"), onclick: () => {
    start = null;
    form.setOption("start", []);
  } }), "designer.auto");
  const picker = h("div", { class: "designer start-picker", "data-start-panel": "" },
    word(h("p", { class: "hint", text: t("designer.start-help") }), "designer.start-help"), seatRow,
    h("div", { class: "designer-stage" }, pickSvg), auto);

  function reword() {
    for (const [el, key, attr] of worded) {
      const text = t(key);
      if (attr) el.setAttribute(attr, text);
      else if (el.textContent !== text) el.textContent = text;
    }
  }

  /** Mark the painted triangles the server's refusal lists as cut off (its `stray` cells, in
   *  the board's names): drawn apart (a hatch and a dashed outline, not colour alone) and
   *  counted in words. */
  function markStray() {
    const p = form.problem;
    const names = p && p.option === "cells" && Array.isArray(p.params && p.params.stray) ? p.params.stray : [];
    const d = describe(keys);
    const byName = new Map(d.names.map((name, i) => [name, [...keys][i]]));
    const stray = new Set(names.map((n) => byName.get(n)).filter(Boolean));
    for (const [k, el] of cellEls) el.toggleAttribute("data-stray", stray.has(k));
    strayNote.hidden = !stray.size;
    strayNote.textContent = stray.size ? t("designer.stray", { n: stray.size }) : "";
  }

  function paint(cell, on) {
    if (on) keys.add(cell.key); else keys.delete(cell.key);
  }

  function changed() {
    const d = describe(keys);
    lastWritten = d.names.join(" ");
    form.setOption("cells", d.names);
    draw();
  }

  function draw() {
    for (const [k, el] of cellEls) el.toggleAttribute("data-in", keys.has(k));
    ring.setAttribute("points", cursor.corners.map(([q, r]) => pos(q, r).join(",")).join(" "));
    const d = describe(keys);
    counts.textContent = t("designer.counts", { cells: d.cells, dots: d.dots, lines: d.lines });
    const at = t(keys.has(cursor.key) ? "designer.cursor-in" : "designer.cursor-out",
      { row: cursor.r + 1, n: 2 * cursor.q + (cursor.up ? 1 : 2) });
    svg.setAttribute("aria-label", `${t("designer.label")}. ${at}. ${counts.textContent}`);
    cursorNote.textContent = at;
  }

  const cellOf = (ev) => {
    const el = ev.target.closest && ev.target.closest("[data-cell]");
    return el ? BY_KEY.get(el.dataset.cell) : null;
  };
  svg.addEventListener("pointerdown", (ev) => {
    const cell = cellOf(ev);
    if (!cell) return;
    ev.preventDefault();
    painting = !keys.has(cell.key);
    cursor = cell;
    paint(cell, painting);
    draw();
  });
  svg.addEventListener("pointermove", (ev) => {
    if (painting === null) return;
    // a touch keeps its first target: find the cell under the finger instead
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const cell = under && under.dataset && under.dataset.cell ? BY_KEY.get(under.dataset.cell) : null;
    if (cell && keys.has(cell.key) !== painting) { paint(cell, painting); cursor = cell; draw(); }
  });
  const endPaint = () => { if (painting !== null) { painting = null; changed(); } };
  svg.addEventListener("pointerup", endPaint);
  svg.addEventListener("pointerleave", endPaint);
  svg.addEventListener("keydown", (ev) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (step) {
      ev.preventDefault();
      // left/right walk the row's triangles (up, down, up…); up/down change rows
      let { q, r, up } = cursor;
      if (step[0] === 1) { if (up) up = false; else { up = true; q += 1; } }
      if (step[0] === -1) { if (!up) up = true; else { up = false; q -= 1; } }
      r += step[1];
      const next = BY_KEY.get(`${up ? "u" : "d"}${q},${r}`);
      if (next) cursor = next;
      draw();
      return;
    }
    if (ev.key === " " || ev.key === "Enter") {
      ev.preventDefault();
      paint(cursor, !keys.has(cursor.key));
      changed();
    }
  });

  function drawPicker(values) {
    const board = boardDots(values, keys);
    const n = Number(values.players) || 2;
    start = Array.isArray(values.start) ? [...values.start] : null;
    seat = Math.min(seat, n - 1);
    seatRow.replaceChildren(...Array.from({ length: n }, (_, i) => {
      const b = h("button", { type: "button", role: "radio", "aria-checked": String(i === seat),
        class: "designer-seat", "data-start-seat": String(i),
        onclick: () => { seat = i; drawPicker(form.values()); } },
      h("span", { class: "swatch", "aria-hidden": "true", text: seatSymbol(i) }),
      ` ${t("designer.seat", { n: i + 1, dot: start && start[i] ? start[i] : t("designer.auto-dot") })}`);
      b.querySelector(".swatch").style.background = seatColor(i);
      return b;
    }));
    if (!board.length) { pickSvg.replaceChildren(); return; }
    const xs = board.map((d) => d.x);
    const ys = board.map((d) => d.y);
    const x0 = Math.min(...xs) - U;
    const y0 = Math.min(...ys) - U;
    pickSvg.setAttribute("viewBox", `${x0} ${y0} ${Math.max(...xs) - x0 + U} ${Math.max(...ys) - y0 + U}`);
    // drawn at about the painting area's scale: a small board stays small
    pickSvg.style.maxWidth = `${Math.min(420, Math.round((Math.max(...xs) - x0 + U) * 1.6))}px`;
    pickSvg.replaceChildren(...board.map((d) => {
      const owner = start ? start.indexOf(d.name) : -1;
      const g = s("g", { class: "designer-dot", "data-dot": d.name, role: "button", tabindex: "0",
        "aria-label": owner >= 0 ? t("designer.dot-of", { dot: d.name, n: owner + 1 }) : t("designer.dot", { dot: d.name }) },
      s("circle", { cx: d.x, cy: d.y, r: owner >= 0 ? 10 : 5, fill: owner >= 0 ? seatColor(owner) : "currentColor" }));
      if (owner >= 0) {
        g.append(s("text", { x: d.x, y: d.y + 4, "text-anchor": "middle", class: "designer-dot-symbol" }, seatSymbol(owner)));
      }
      const choose = () => {
        const next = start && start.length === n ? [...start] : Array.from({ length: n }, (_, i) => (start && start[i]) || "");
        const other = next.indexOf(d.name);
        if (other >= 0) next[other] = "";
        next[seat] = d.name;
        if (seat < n - 1 && next.some((v) => !v)) seat = next.findIndex((v) => !v);
        form.setOption("start", next.filter(Boolean).length === n ? next : next.filter(Boolean));
      };
      g.addEventListener("click", choose);
      g.addEventListener("keydown", (ev) => { if (ev.key === " " || ev.key === "Enter") { ev.preventDefault(); choose(); } });
      return g;
    }));
  }

  return {
    /** The form's options changed (or it was drawn again): place and fill the panels. */
    update(values, shown) {
      reword();
      const cellsW = form.widgets.cells;
      const startW = form.widgets.start;
      const custom = values.rules === "classic" && values.shape === "custom" && shown.has("cells");
      if (cellsW) {
        if (designer.parentNode !== cellsW.el) cellsW.el.append(designer);
        designer.hidden = !custom;
        const typed = cellsW.control.value.trim();
        if (custom && typed !== lastWritten) {
          const back = keysOf(typed.split(/[\s,;]+/).filter(Boolean));
          if (back) { keys = back; lastWritten = typed; }
        }
        draw();
        markStray();
      }
      const classic = values.rules === "classic" && values.connected && shown.has("start");
      if (startW) {
        if (picker.parentNode !== startW.el) startW.el.append(picker);
        picker.hidden = !classic;
        if (classic) drawPicker(values);
      }
    },
  };
}

/** The dots of the board the options describe (classic shapes, or the painted cells), in the
 * board's own names, with drawing positions. */
function boardDots(values, keys) {
  const out = new Map();
  const add = (q, r) => { const [x, y] = pos(q, r); out.set(dotName(q, r), { name: dotName(q, r), x, y }); };
  if (values.shape === "custom") {
    const d = describe(keys);
    for (const k of keys) for (const [q, r] of BY_KEY.get(k).corners) add(q - d.q0, r - d.r0);
  } else if (values.shape === "triangle") {
    for (let r = 0; r <= values.size; r += 1) for (let q = 0; q <= r; q += 1) add(q, r);
  } else if (values.shape === "parallelogram") {
    for (let r = 0; r <= values.height; r += 1) for (let q = 0; q <= values.width; q += 1) add(q, r);
  } else {
    const R = values.radius || 3;
    for (let r = 0; r <= 2 * R; r += 1) for (let q = 0; q <= 2 * R; q += 1) if (Math.abs(q - r) <= R) add(q, r);
  }
  return [...out.values()];
}
