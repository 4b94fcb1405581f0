// The Vert3x board (RULES.md §2) for every rule set and shape: the triangular lattice
// (hexagon, triangle, parallelogram, custom), Trianguliche windows and the GYØ grid.
//
// Play: click or tap a line (touch: tap to preview, tap again to draw); with the keyboard the
// board is one tab stop, arrows move a dot cursor and the keys around S pick the line from
// the cursor dot in that direction (again, or Enter, draws it). Pointing at or focusing a
// line says whose it is or why it is closed — the server's reason (board.blocked); the
// page decides no rule and offers only lines in legal_moves.
import { coarsePointer, h, s } from "../../shared/dom.js";
import { loadCatalogs, onLangChange, t } from "../../shared/i18n.js";
import { seatColor, seatSymbol } from "../../shared/seats.js";
import * as draw from "./vert3x-draw.js";
import { buildModel, centreDot, lineToward, step } from "./vert3x-geometry.js";
import { ensureStyles } from "./vert3x-preview.js";
import { coordLayer, coordsOn, createZoom, withCoords } from "../view.js";
import {
  dotLabel, lineLabels, lineName, lineStatus, statusLines, triangleText,
} from "./vert3x-text.js";

export { renderPreview } from "./vert3x-preview.js"; // alone: boards/index.js loadPreview

// the board draws styled: its sheet has applied before the first board is made
await Promise.all([loadCatalogs("vert3x"), ensureStyles()]);

// Keys by position (KeyboardEvent.code, so any keyboard layout works): the eight around S,
// and the number pad, each a direction in degrees (0 = right, anticlockwise).
const KEY_ANGLES = {
  KeyD: 0, KeyE: 45, KeyW: 90, KeyQ: 135, KeyA: 180, KeyZ: 225, KeyX: 270, KeyC: 315,
  Numpad6: 0, Numpad9: 45, Numpad8: 90, Numpad7: 135, Numpad4: 180, Numpad1: 225,
  Numpad2: 270, Numpad3: 315,
};
// The help's key grid: key, direction, arrow.
const KEY_GRID = [
  ["Q", 135, "↖"], ["W", 90, "↑"], ["E", 45, "↗"],
  ["A", 180, "←"], null, ["D", 0, "→"],
  ["Z", 225, "↙"], ["X", 270, "↓"], ["C", 315, "↘"],
];
const MAX_STEP_PX = 110; // a lattice step at most this wide (fit: the whole board in view; zoom to read)

let boards = 0;

/** Lines are drawn here: on a touch screen a player may ask to confirm each (table/board.js). */
export const CONFIRMS_TOUCH = true;

export function createBoard(host, options = {}) {
  ensureStyles();
  const id = `v3x-${++boards}`;
  const onMove = options.onMove || (() => {});
  const say = options.announce || (() => {});

  // ---- the elements (the lattice parts are built per board geometry) ---------------------
  const svg = s("svg", {
    class: "v3x-board", role: "group", "aria-describedby": `${id}-help`, tabindex: "-1",
  });
  const defs = s("defs");
  const layer = {};
  // bottom to top; only the triangles' labels, the lines' hit areas and the dots are named
  // for screen readers (the rest is what those names describe)
  const spoken = new Set(["labels", "hits", "cursor"]);
  for (const name of ["grid", "coords", "claims", "tris", "marks", "under", "ink", "preview", "labels",
    "dots", "starts", "bests", "hits", "cursor"]) {
    layer[name] = s("g", {
      class: `v3x-layer v3x-layer-${name}`, "aria-hidden": spoken.has(name) ? null : "true",
    });
  }
  svg.append(defs, ...Object.values(layer));
  const tip = h("div", { class: "v3x-tip", "data-line-tip": true, hidden: true });
  const stage = h("div", { class: "v3x-stage board-stage" }, svg, tip);
  const zoom = createZoom(stage, svg, (on) => { coords = on; if (model) frame(state.board); });
  const status = h("div", { class: "v3x-status", "data-v3x-status": true });
  const legend = h("ul", { class: "v3x-legend", "data-v3x-legend": true });
  const help = h("div", { class: "v3x-help", id: `${id}-help`, "data-v3x-help": true });
  const root = h("div", { class: "v3x", "data-vert3x": true }, status, zoom.bar, stage, legend, help);
  host.replaceChildren(root);

  let model = null;
  let hitOf = new Map(); // line name -> its [data-line] element
  let partOf = new Map(); // line name -> the other half of a crossed diagonal
  let shown = new Map(); // line name -> what its hit area says now (to write only changes)
  let dotOf = new Map(); // dot name -> its focus target
  let state = null;
  let ctx = { mySeat: null, canMove: false, pending: null, animate: false, confirmTouch: false };
  let view = null; // the state read for this viewer (see read())
  let cursor = null; // the dot cursor
  let column = null; // the x the cursor keeps going up and down
  let target = null; // {line, how: "hover" | "focus" | "tap"}: the line pointed at
  let sent = null; // a line sent by onMove and not yet seen in an update
  let lastPointer = "mouse";
  let focused = false; // keyboard focus is inside the board
  let focusedLine = null; // the line keyboard focus is on
  let keyboard = false; // the last input was a key: show the cursor ring and focus casing
  let scored = new Map(); // move -> points its triangles scored (for describeMove)
  let lastPassed = "";
  let coords = null; // coordinates on or off (null: this browser's default)
  let best = null; // the analysis' best moves drawn ({moves, focus})

  function nameOf(seat) {
    const names = options.names;
    let name = null;
    if (typeof names === "function") name = names(seat);
    else if (names && typeof names === "object") name = names[seat];
    return name || t("vert3x.seat", { n: seat + 1 });
  }

  // ---- building the lattice ------------------------------------------------------------
  function build(board) {
    model = buildModel(board);
    // at most MAX_STEP_PX per step, so a small board is not drawn with huge dots and lines
    svg.style.maxWidth = `${Math.round(draw.viewBox(model).across * MAX_STEP_PX)}px`;
    layer.coords.replaceChildren(...(board.axes ? [coordLayer(board.axes, draw.U)] : []));
    frame(board);
    root.dataset.rules = board.rules || "";
    root.dataset.kind = board.kind || "";
    defs.replaceChildren(...draw.fillPatterns(id, Math.max(6, (board.symbols || []).length)));
    layer.grid.replaceChildren(...draw.gridLayer(model));
    layer.dots.replaceChildren(...draw.dotLayer(model));
    hitOf = new Map();
    partOf = new Map();
    shown = new Map();
    const hits = [];
    for (const ln of model.lines) {
      ln.regions.forEach((region, k) => {
        const el = s("polygon", { points: draw.pts(region), class: "v3x-hit" });
        if (k === 0) {
          el.setAttribute("data-line", ln.name);
          el.setAttribute("role", "button");
          el.setAttribute("tabindex", "-1");
          hitOf.set(ln.name, el);
        } else {
          // the other half of a crossed GYØ diagonal: the same line, not a second control
          el.setAttribute("data-line-part", ln.name);
          el.setAttribute("aria-hidden", "true");
          partOf.set(ln.name, el);
        }
        hits.push(el);
      });
    }
    layer.hits.replaceChildren(...hits);
    dotOf = new Map();
    layer.cursor.replaceChildren(...model.dots.map((d) => {
      const el = s("circle", {
        class: "v3x-cursor-target", cx: draw.px(d.x), cy: draw.px(d.y), r: 16,
        "data-dot": d.name, role: "button", tabindex: "-1",
      });
      dotOf.set(d.name, el);
      return el;
    }));
    cursor = null;
    target = null;
    focusedLine = null;
  }

  function frame(board) {
    const vb = draw.viewBox(model);
    const box = [vb.x, vb.y, vb.w, vb.h];
    const show = Boolean(board.axes && (coords ?? coordsOn(board.axes)));
    zoom.coordsShown(show, Boolean(board.axes));
    svg.setAttribute("viewBox", (show ? withCoords(box, board.axes, draw.U, 0.3) : box).join(" "));
    layer.coords.toggleAttribute("hidden", !show);
    zoom.measure();
  }

  function drawBests() {
    const want = best;
    if (!want || !model) { layer.bests.replaceChildren(); return; }
    // (an overrule "!a1-b1" is drawn on its line)
    const ends = (m) => model.byName.get(String(m).replace(/^!/, "")) || null;
    const scaled = (m) => {
      const ln = ends(m);
      return ln && { a: { x: ln.a.x * draw.U, y: ln.a.y * draw.U }, b: { x: ln.b.x * draw.U, y: ln.b.y * draw.U } };
    };
    import("../bests.js").then(({ bestMarks }) => {
      if (best === want) layer.bests.replaceChildren(...bestMarks(want.moves, scaled, want.focus));
    });
  }

  // ---- reading a state -----------------------------------------------------------------
  function read() {
    const board = state.board;
    const owners = new Map(board.lines.map((ln) => [ln.name, ln.owner]));
    const mover = state.to_move && state.to_move.length ? state.to_move[0] : null;
    return {
      owners,
      legal: new Set(state.legal_moves || []),
      blocked: board.blocked || {},
      mover,
      over: Boolean(state.is_over),
      mySeat: ctx.mySeat ?? null,
      canMove: Boolean(ctx.canMove) && !ctx.pending && !sent,
      pending: ctx.pending || sent,
      last: state.last_move && state.last_move.move,
      start: board.start,
      nameOf,
    };
  }

  function fill(seat) {
    return `url(#${id}-fill-${seat})`;
  }

  function render(previous) {
    const board = state.board;
    const drawn = model.lines.filter((ln) => {
      const o = view.owners.get(ln.name);
      return o !== null && o !== undefined;
    });
    const before = previous ? new Map(previous.board.lines.map((ln) => [ln.name, ln.owner])) : null;
    layer.claims.replaceChildren(...draw.claimLayer(board, fill));
    layer.tris.replaceChildren(...draw.triangleLayer(model, board, fill));
    layer.labels.replaceChildren(...draw.labelLayer(model, board, (tri) => triangleText(tri, view)));
    // the last move: a dark casing around the line (a shape, not only a colour)
    const last = view.last && model.byName.get(view.last);
    layer.marks.replaceChildren(...(last ? [
      s("line", { class: "v3x-last-casing", ...ends(last), "data-last-move": last.name }),
      s("line", { class: "v3x-last-core", ...ends(last) }),
    ] : []));
    layer.ink.replaceChildren(...drawn.map((ln) => {
      const owner = view.owners.get(ln.name);
      const fresh = ctx.animate && before && (before.get(ln.name) ?? null) === null;
      return draw.inkLine(ln, owner, { class: fresh ? "v3x-new" : null, "data-ink": ln.name });
    }));
    layer.starts.replaceChildren(...draw.startMarks(model, board));
    // hit areas: write only what changed (a big board has thousands of lines)
    const labels = lineLabels(model.lines, view);
    for (const ln of model.lines) {
      const owner = view.owners.get(ln.name);
      const isDrawn = owner !== null && owner !== undefined;
      const now = {
        owner: isDrawn ? String(owner) : null,
        playable: view.canMove
          && (isDrawn ? view.legal.has(`!${ln.name}`) : view.legal.has(ln.name)),
        label: labels.get(ln.name),
      };
      const was = shown.get(ln.name) || {};
      const el = hitOf.get(ln.name);
      if (now.owner !== was.owner) {
        el.toggleAttribute("data-drawn", isDrawn);
        if (isDrawn) el.setAttribute("data-owner", now.owner);
        else el.removeAttribute("data-owner");
      }
      if (now.playable !== was.playable) {
        el.toggleAttribute("data-playable", now.playable);
        const part = partOf.get(ln.name);
        if (part) part.toggleAttribute("data-playable", now.playable);
      }
      if (now.label !== was.label) el.setAttribute("aria-label", now.label);
      shown.set(ln.name, now);
    }
    for (const d of model.dots) {
      const label = dotLabel(d, view);
      const el = dotOf.get(d.name);
      if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
    }
    svg.setAttribute("aria-label", t("vert3x.board", {
      rules: t(`vert3x.rules.${board.rules}`), dots: model.dots.length, lines: model.lines.length,
    }));
    root.toggleAttribute("data-can-move", view.canMove);
    renderStatus();
    renderLegend();
    renderHelp();
    renderPreviewLayer();
  }

  function ends(ln) {
    return { x1: draw.px(ln.a.x), y1: draw.px(ln.a.y), x2: draw.px(ln.b.x), y2: draw.px(ln.b.y) };
  }

  function renderStatus() {
    const lines = statusLines(state.board, view);
    status.replaceChildren(...lines.map((ln) => h("p", { "data-v3x-note": ln.key }, ln.text)));
    status.hidden = lines.length === 0;
    const passed = lines.find((ln) => ln.key === "passed");
    const key = passed ? `${state.ply}:${passed.text}` : "";
    if (passed && key !== lastPassed) say(passed.text);
    lastPassed = key;
  }

  function renderLegend() {
    const n = state.seats || (state.board.symbols || []).length || 2;
    const items = [];
    for (let seat = 0; seat < n; seat++) {
      const sw = h("span", { class: "swatch", "aria-hidden": "true" }, seatSymbol(seat, state.board));
      sw.style.background = seatColor(seat);
      const sample = s("svg", { class: "v3x-sample", viewBox: "-8 -10 116 20", "aria-hidden": "true" },
        draw.inkLine({ a: { x: 0, y: 0 }, b: { x: 1, y: 0 } }, seat));
      items.push(h("li", { "data-legend": seat }, sw, h("span", { class: "v3x-legend-name" }, nameOf(seat)), sample));
    }
    legend.setAttribute("aria-label", t("vert3x.legend"));
    legend.replaceChildren(...items);
  }

  function renderHelp() {
    const keys = KEY_GRID.map((cell) => {
      if (!cell) return h("span", { class: "v3x-key v3x-key-centre", "aria-hidden": "true" }, "S");
      const [key, angle, arrow] = cell;
      const has = [...model.directions].some((a) => Math.min(Math.abs(a - angle), 360 - Math.abs(a - angle)) < 30);
      return h("kbd", { class: has ? "v3x-key" : "v3x-key v3x-key-off", "aria-hidden": has ? null : "true" },
        key, h("span", { class: "v3x-arrow", "aria-hidden": "true" }, arrow));
    });
    help.replaceChildren(
      h("h3", { class: "v3x-help-title" }, t("vert3x.help.title")),
      h("div", { class: "v3x-help-body" },
        h("div", { class: "v3x-keys keys-help", role: "img", "aria-label": t("vert3x.help.grid") }, ...keys),
        h("div", { class: "v3x-help-text" },
          h("p", {}, t(pointerHelp())),
          h("p", { class: "keys-help" }, t("vert3x.help.keys")),
          h("p", { class: "keys-help" }, t("vert3x.help.dirs")))),
    );
  }

  function pointerHelp() {
    if (!coarsePointer()) return "vert3x.help.mouse";
    return ctx.confirmTouch ? "vert3x.help.touch" : "vert3x.help.tap";
  }

  // ---- the preview layer: pending line, the line pointed at, the cursor ------------------
  function renderPreviewLayer() {
    const out = [];
    const under = []; // below the drawn lines: casings must not hide a line's own pattern
    const pend = view.pending && model.byName.get(view.pending);
    if (pend && (view.owners.get(pend.name) ?? null) === null && view.mySeat !== null) {
      out.push(s("line", { class: "v3x-pending-casing", ...ends(pend) }));
      out.push(draw.inkLine(pend, view.mySeat, { class: "v3x-pending", "data-pending": pend.name }));
    }
    if (focusedLine && keyboard) {
      under.push(s("line", { class: "v3x-focus-casing", ...ends(focusedLine) }));
    }
    const ln = target && target.line;
    if (ln) {
      const st = lineStatus(ln, view);
      if (st.overrule) {
        out.push(draw.inkLine(ln, view.mySeat, { class: "v3x-ghost", "data-ghost": ln.name }));
      } else if (st.drawn) {
        under.push(s("line", { class: "v3x-hover-drawn", ...ends(ln) }));
      } else if (st.playable) {
        out.push(draw.inkLine(ln, view.mySeat, { class: "v3x-ghost", "data-ghost": ln.name }));
      } else if (view.pending !== ln.name) {
        out.push(s("line", { class: "v3x-closed", ...ends(ln), "data-closed": ln.name }));
        const m = ln.mid;
        out.push(s("g", { class: "v3x-no", transform: `translate(${draw.px(m.x)} ${draw.px(m.y)})` },
          s("circle", { r: 13 }), s("path", { d: "M-9,-9 L9,9" })));
      }
      showTip(ln, st);
    } else {
      hideTip();
    }
    if (focused && keyboard && cursor) {
      out.push(s("circle", { class: "v3x-cursor-ring", cx: draw.px(cursor.x), cy: draw.px(cursor.y), r: 22 }));
    }
    layer.preview.replaceChildren(...out);
    layer.under.replaceChildren(...under);
  }

  function showTip(ln, st) {
    tip.replaceChildren(
      h("strong", {}, lineName(ln)),
      h("span", { class: st.closed ? "v3x-tip-why" : "v3x-tip-state" }, st.text),
    );
    tip.dataset.tipLine = ln.name;
    tip.toggleAttribute("data-closed", st.closed);
    tip.hidden = false;
    placeTip(ln);
  }

  function hideTip() {
    tip.hidden = true;
    delete tip.dataset.tipLine;
  }

  function placeTip(ln) {
    const m = svg.getScreenCTM();
    if (!m) return;
    const box = stage.getBoundingClientRect();
    const pt = (p) => {
      const q = new DOMPoint(draw.px(p.x), draw.px(p.y)).matrixTransform(m);
      return { x: q.x - box.left + stage.scrollLeft, y: q.y - box.top };
    };
    const a = pt(ln.a);
    const b = pt(ln.b);
    const top = Math.min(a.y, b.y);
    const bottom = Math.max(a.y, b.y);
    const mid = (a.x + b.x) / 2;
    const w = tip.offsetWidth;
    const hgt = tip.offsetHeight;
    const left = Math.max(stage.scrollLeft + 4,
      Math.min(mid - w / 2, stage.scrollLeft + stage.clientWidth - w - 4));
    // above the line, else below it, always inside the stage (which scrolls, so it clips)
    let y = top - hgt - 14;
    if (y < 0) y = bottom + 14;
    if (y + hgt > stage.clientHeight) y = Math.max(0, Math.min(top - hgt - 14, stage.clientHeight - hgt));
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(y)}px`;
  }

  function setTarget(ln, how) {
    const same = target && ln && target.line === ln && target.how === how;
    target = ln ? { line: ln, how } : null;
    if (!same) renderPreviewLayer();
  }

  // ---- acting --------------------------------------------------------------------------
  function tryDraw(ln, how) {
    const st = lineStatus(ln, view);
    if (!st.playable) {
      setTarget(ln, how === "key" ? "focus" : "tap");
      say(`${lineName(ln)}: ${st.text}`);
      return false;
    }
    sent = ln.name;
    view = read();
    renderPreviewLayer();
    onMove(st.overrule ? `!${ln.name}` : ln.name);
    return true;
  }

  function lineOfEvent(e) {
    const el = e.target.closest && e.target.closest("[data-line], [data-line-part]");
    if (!el) return null;
    return model.byName.get(el.dataset.line || el.dataset.linePart) || null;
  }

  function svgPoint(e) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const q = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: q.x / draw.U, y: q.y / draw.U };
  }

  function nearerEnd(ln, e) {
    const p = svgPoint(e);
    if (!p) return ln.a;
    return Math.hypot(p.x - ln.a.x, p.y - ln.a.y) <= Math.hypot(p.x - ln.b.x, p.y - ln.b.y)
      ? ln.a : ln.b;
  }

  svg.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType || "mouse";
    keyboard = false;
  });
  // a click must not move keyboard focus onto the line (no focus casing for mouse players)
  layer.hits.addEventListener("mousedown", (e) => e.preventDefault());
  layer.hits.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch" || !model || !state) return;
    const ln = lineOfEvent(e);
    if (ln) setTarget(ln, "hover");
  });
  layer.hits.addEventListener("pointerleave", () => {
    if (target && target.how === "hover") setTarget(focusedLine, "focus");
  });
  layer.hits.addEventListener("click", (e) => {
    if (!model || !state) return;
    const ln = lineOfEvent(e);
    if (!ln) return;
    setCursor(nearerEnd(ln, e), false);
    const touch = (e.pointerType || lastPointer) === "touch";
    const st = lineStatus(ln, view);
    if (touch && ctx.confirmTouch && st.playable
      && !(target && target.line === ln && target.how === "tap")) {
      setTarget(ln, "tap"); // the first tap previews the line
      return;
    }
    if (tryDraw(ln, "pointer")) setTarget(null);
  });

  function setCursor(dot, focus) {
    if (!dot) return;
    if (cursor && dotOf.get(cursor.name)) dotOf.get(cursor.name).setAttribute("tabindex", "-1");
    cursor = dot;
    const el = dotOf.get(dot.name);
    el.setAttribute("tabindex", "0");
    if (focus) el.focus();
    renderPreviewLayer();
  }

  function focusLine(ln) {
    const el = hitOf.get(ln.name);
    if (el) el.focus();
  }

  svg.addEventListener("focusin", (e) => {
    focused = true;
    // tabbing in is keyboard use too (the Tab key went to the element before)
    if (e.target.matches && e.target.matches(":focus-visible")) keyboard = true;
    const name = e.target.dataset && e.target.dataset.line;
    if (name) {
      focusedLine = model.byName.get(name);
      setTarget(focusedLine, "focus");
      return;
    }
    focusedLine = null;
    const dot = e.target.dataset && e.target.dataset.dot && model.dotByName.get(e.target.dataset.dot);
    if (dot && dot !== cursor) setCursor(dot, false);
    if (target && target.how === "focus") target = null;
    renderPreviewLayer();
  });
  svg.addEventListener("focusout", (e) => {
    if (e.relatedTarget && svg.contains(e.relatedTarget)) return;
    focused = false;
    focusedLine = null;
    if (target && target.how === "focus") target = null;
    renderPreviewLayer();
  });

  svg.addEventListener("keydown", (e) => {
    if (!model || !state || e.ctrlKey || e.altKey || e.metaKey) return;
    if (!keyboard) { keyboard = true; renderPreviewLayer(); }
    if (!cursor) setCursor(startDot(), false);
    const onLine = e.target.dataset && e.target.dataset.line
      ? model.byName.get(e.target.dataset.line) : null;
    if (["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      if (column === null || e.key === "ArrowLeft" || e.key === "ArrowRight") column = cursor.x;
      const next = step(model, cursor, e.key, column);
      if (!next) { say(t("vert3x.edge")); return; }
      if (e.key !== "ArrowUp" && e.key !== "ArrowDown") column = next.x;
      setCursor(next, true);
      return;
    }
    if (e.code in KEY_ANGLES && !e.shiftKey) {
      e.preventDefault();
      const entry = lineToward(cursor, KEY_ANGLES[e.code]);
      if (!entry) { say(t("vert3x.noLine", { dot: cursor.name })); return; }
      if (onLine === entry.line) keyDraw(entry.line);
      else focusLine(entry.line);
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (onLine) keyDraw(onLine);
      else say(dotLabel(cursor, view));
      return;
    }
    if (e.key === "Escape" && onLine) {
      e.preventDefault();
      setCursor(cursor, true);
    }
  });

  function keyDraw(ln) {
    const from = cursor;
    if (tryDraw(ln, "key")) {
      // go on from the line's far end: the natural next move when lines must connect
      setCursor(ln.a === from ? ln.b : ln.a, true);
    }
  }

  function startDot() {
    const start = state.board.start;
    const mine = start && ctx.mySeat !== null ? start[ctx.mySeat] : null;
    return (mine && model.dotByName.get(mine)) || centreDot(model);
  }

  const offLang = onLangChange(() => {
    zoom.relabel();
    if (state) { view = read(); render(null); }
  });
  const onResize = () => { if (target) placeTip(target.line); };
  window.addEventListener("resize", onResize);

  return {
    update(next, nextCtx = {}) {
      const previous = state;
      state = next;
      ctx = { ...ctx, ...nextCtx };
      if (!model || model.signature !== state.board.lines.map((ln) => ln.name).join(" ")) {
        build(state.board);
        drawBests();
      }
      if (!previous || previous.ply !== state.ply || !ctx.pending) sent = null;
      view = read();
      if (!cursor) setCursor(startDot(), false);
      if (target && target.how === "tap" && !ctx.canMove) target = null;
      noteScored(previous);
      render(previous);
    },
    describeMove(move) {
      const line = /^(!?)([a-z]+\d+)-([a-z]+\d+)$/.exec(String(move));
      if (!line) return String(move); // not a line (the end by agreement)
      const [, taken, a, b] = line;
      if (taken) return t("vert3x.moveOverrule", { a, b });
      const points = scored.get(move);
      if (points) {
        return t("vert3x.moveScored", { a, b, points: t("vert3x.points", { n: points }) });
      }
      return t("vert3x.move", { a, b });
    },
    highlight(moves, focus = null) {
      best = moves ? { moves, focus } : null;
      drawBests();
    },
    showCoords(on) {
      coords = Boolean(on);
      if (model) frame(state.board);
    },
    focus() {
      if (!model) return;
      setCursor(cursor || startDot(), true);
    },
    destroy() {
      offLang();
      window.removeEventListener("resize", onResize);
      host.replaceChildren();
    },
  };

  function noteScored(previous) {
    const lm = state.last_move;
    if (!lm || !previous) return;
    const was = (previous.board.triangles || []).length;
    const now = state.board.triangles || [];
    if (now.length > was && state.ply === previous.ply + 1) {
      scored.set(lm.move, now.slice(was).reduce((sum, tri) => sum + tri.points, 0));
    }
  }
}
