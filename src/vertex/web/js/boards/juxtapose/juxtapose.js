// The Juxtapose board (RULES §3): a 4×4 board of pyramids seen from above and the common
// stash. Drops, swaps and slides by mouse, touch (tap or drag) and keyboard. The board knows
// no rules: it offers only the moves in `legal_moves`, and when a player tries a slide the
// server lists in `board.blocked` it shows the reason the server names.
import { addSheet, h, s, reducedMotion } from "../../shared/dom.js";
import { has, loadCatalogs, num, onLangChange, t } from "../../shared/i18n.js";
import {
  ACCENT, CELL, SIDE, SIZE, SQUARE_NAMES, arrow, badgeIcon, bestMark, brackets, centre,
  coordinates, corner, cornerTriangles, frame, noSlideBadge, parsePyramid, pyramid, pyramidIcon,
  squareFill, winLine,
} from "./juxtapose-draw.js";
import { indexMoves, moveSquares, parseMove } from "./juxtapose-moves.js";
import { createStash } from "./juxtapose-stash.js";

export { renderPreview } from "./juxtapose-preview.js"; // alone: boards/index.js loadPreview

// Only pages that show this board fetch its sheet; the board draws once it applies (drawn
// unstyled, the board jumped when the sheet came: a phone lost the board's top).
await Promise.all([
  loadCatalogs("juxtapose"),
  addSheet(new URL("../../../css/juxtapose.css", import.meta.url).href),
]);

const DRAG_START_PX = 6;
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** "R3" -> "large red pyramid" in the current language. */
export function pyramidLabel(name) {
  const { colour, size } = parsePyramid(name);
  return t("juxtapose.pyramid", {
    size: t(`juxtapose.size.${size}`), colour: t(`juxtapose.colour.${colour}`),
  });
}

/** Messages may begin with a pyramid's name ("small red pyramid: …"): start them upper-case;
 * a square's name stays as written. */
function sentence(text) {
  if (!text || /^[a-d][1-4]\b/.test(text)) return text;
  return text[0].toLocaleUpperCase() + text.slice(1);
}

function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? "" : value);
}

export function createBoard(host, options = {}) {
  const onMove = options.onMove || (() => {});
  const say = options.announce || (() => {});

  let state = null;
  let board = null;
  let ctx = { mySeat: null, canMove: false, pending: null, animate: false, confirmTouch: false };
  let content = new Map();        // square -> pyramid name or null
  let legal = indexMoves([]);
  let sel = null;                 // {from: "stash", pyramid} | {from: "board", square}
  let preview = null;             // a move a touch shows before a second tap plays it
  let message = null;             // {key, vars, reason?}: the line under the board
  let cursor = "a1";              // the square holding the board's tab stop
  let lastPly = null;
  let placed = new Map();         // pyramid -> square as last drawn (for the animations)
  let drag = null;
  let best = null;                // {moves, focus}: the review's or analysis' best moves drawn

  // ---- the widget ------------------------------------------------------------------------
  const svg = s("svg", { class: "jx-board", viewBox: `0 0 ${SIDE} ${SIDE}`, role: "grid" });
  const squaresLayer = s("g", { class: "jx-squares" });
  // the winning line runs under the pyramids so their letters stay readable
  const underlay = s("g", { class: "jx-underlay", "pointer-events": "none" });
  const piecesLayer = s("g", { class: "jx-pieces", "pointer-events": "none" });
  const overlay = s("g", { class: "jx-overlay", "pointer-events": "none" });
  const bestsLayer = s("g", { class: "jx-bests", "data-bests": "", "pointer-events": "none" });
  svg.append(coordinates(), squaresLayer, frame(), underlay, piecesLayer, overlay, bestsLayer);

  const squareEls = new Map();
  for (let r = 0; r < SIZE; r++) {
    const row = s("g", { role: "row" });
    for (let c = 0; c < SIZE; c++) {
      const name = SQUARE_NAMES[r * SIZE + c];
      const { x, y } = corner(name);
      const marks = s("g", { class: "jx-marks" });
      const el = s("g", { class: "jx-sq", role: "gridcell", "data-square": name, tabindex: -1 },
        s("rect", { class: "jx-bg", x, y, width: CELL, height: CELL, fill: squareFill(name) }),
        marks,
        s("rect", {
          class: "jx-focus", x: x + 3.5, y: y + 3.5, width: CELL - 7, height: CELL - 7, rx: 4,
          fill: "none",
        }));
      el.marks = marks;
      squareEls.set(name, el);
      row.append(el);
    }
    squaresLayer.append(row);
  }

  const stash = createStash({
    label: pyramidLabel,
    onPick: (p) => {
      if (!pickStash(p)) return;
      // on to the board: the cursor's square if the pyramid may go there, else the first that may
      const allowed = targets();
      focusSquare(allowed.has(cursor) ? cursor : (allowed.keys().next().value || cursor));
    },
    onEscape: cancel,
  });
  const phaseEl = h("p", { class: "jx-phase", "data-phase": "" });
  const resultEl = h("p", { class: "jx-result", "data-board-result": "", hidden: true });
  const markEl = h("p", { class: "jx-mark", hidden: true });
  const messageEl = h("p", { class: "jx-message", "data-board-message": "" });
  const keysEl = h("section", { class: "jx-keys keys-help", "data-keys-help": "" });
  const root = h("div", { class: "jx" },
    h("div", { class: "jx-layout" },
      h("div", { class: "jx-main" },
        phaseEl, resultEl, h("div", { class: "jx-board-wrap" }, svg), messageEl, markEl),
      h("div", { class: "jx-side" }, stash.el, keysEl)));
  host.replaceChildren(root);

  // ---- what the state offers -----------------------------------------------------------------
  const contentOf = (sq) => content.get(sq) || null;
  const mayNotSlide = () => new Set((board && board.may_not_slide) || []);
  const isPlayer = () => ctx.mySeat !== null && ctx.mySeat !== undefined;

  function targets() {
    if (!sel) return new Map();
    if (sel.from === "stash") return legal.fromStash.get(sel.pyramid) || new Map();
    return legal.fromSquare.get(sel.square) || new Map();
  }

  function selectable(sq) {
    return Boolean(contentOf(sq) && legal.fromSquare.has(sq));
  }

  // ---- choosing --------------------------------------------------------------------------------
  function setMessage(key, vars = {}, { assertive = false, reason = "" } = {}) {
    message = key ? { key, vars, reason } : null;
    drawMessage();
    if (key) say(sentence(t(key, vars)), assertive);
  }

  /** Why nothing happens when it is not this player's move (spectators are left alone). */
  function refuse() {
    if (!isPlayer()) return false;
    if (state && state.is_over) setMessage("juxtapose.hint.over");
    else if (ctx.pending) setMessage("juxtapose.hint.pending");
    else setMessage("juxtapose.hint.notTurn");
    return false;
  }

  /** Pick (or put back) a stash pyramid; true when one is picked now. */
  function pickStash(p) {
    if (!state || !ctx.canMove) return refuse();
    preview = null;
    if (sel && sel.from === "stash" && sel.pyramid === p) {
      sel = null;
      draw();
      setMessage("juxtapose.hint.cancelled");
      return false;
    }
    sel = { from: "stash", pyramid: p };
    draw();
    setMessage("juxtapose.hint.picked", { pyramid: pyramidLabel(p) });
    return true;
  }

  function selectSquare(sq) {
    sel = { from: "board", square: sq };
    preview = null;
    draw();
    const key = mayNotSlide().has(sq) ? "juxtapose.hint.selectedMovedLast" : "juxtapose.hint.selected";
    setMessage(key, { square: sq, pyramid: pyramidLabel(contentOf(sq)) });
  }

  function cancel() {
    if (!sel && !preview) return;
    sel = null;
    preview = null;
    draw();
    setMessage("juxtapose.hint.cancelled");
  }

  function play(move) {
    sel = null;
    preview = null;
    message = null;
    draw();
    onMove(move);
  }

  /** A square was chosen: by click, tap, Enter/Space or the end of a drag (`how`). */
  function activate(sq, how) {
    if (!state) return;
    if (!ctx.canMove) { refuse(); return; }
    const here = contentOf(sq);
    if (!sel) {
      if (board.phase === "drop") setMessage(here ? "juxtapose.hint.dropPhase" : "juxtapose.hint.stashFirst");
      else if (selectable(sq)) selectSquare(sq);
      else setMessage("juxtapose.hint.pickFirst");
      return;
    }
    const move = targets().get(sq);
    if (move) {
      if (how === "touch" && ctx.confirmTouch && preview !== move) {
        preview = move;
        draw();
        setMessage("juxtapose.hint.confirm", { square: sq });
        return;
      }
      play(move);
      return;
    }
    if (sel.from === "stash") {
      setMessage(here ? "juxtapose.hint.taken" : "juxtapose.hint.notTarget",
        { square: sq, from: pyramidLabel(sel.pyramid) });
      return;
    }
    if (sel.square === sq) { cancel(); return; }
    const reason = board.blocked && board.blocked[`${sel.square}>${sq}`];
    if (reason) {
      const key = has(`juxtapose.blocked.${reason}`) ? `juxtapose.blocked.${reason}` : "juxtapose.blocked.other";
      setMessage(key, { square: sel.square, to: sq, pyramid: pyramidLabel(contentOf(sel.square)) },
        { assertive: true, reason });
      return;
    }
    if (selectable(sq)) selectSquare(sq);
    else setMessage("juxtapose.hint.notTarget", { square: sq, from: sel.square });
  }

  // ---- keyboard: the board is one tab stop, the arrows move over its 16 squares -------------
  function focusSquare(sq) {
    cursor = sq;
    for (const [name, el] of squareEls) el.setAttribute("tabindex", name === sq ? "0" : "-1");
    squareEls.get(sq).focus();
  }

  function stepSquare(sq, dc, dr) {
    const i = SQUARE_NAMES.indexOf(sq);
    const r = Math.min(SIZE - 1, Math.max(0, Math.floor(i / SIZE) + dr));
    const c = Math.min(SIZE - 1, Math.max(0, (i % SIZE) + dc));
    return SQUARE_NAMES[r * SIZE + c];
  }

  svg.addEventListener("keydown", (e) => {
    const el = e.target.closest && e.target.closest("[data-square]");
    if (!el) return;
    const sq = el.dataset.square;
    if (STEPS[e.key]) {
      e.preventDefault();
      focusSquare(stepSquare(sq, ...STEPS[e.key]));
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      const d = e.key === "Home" ? -SIZE : SIZE;
      focusSquare(stepSquare(sq, d, e.ctrlKey ? d : 0));
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate(sq, "key");
    } else if (e.key === "Escape" && (sel || preview)) {
      e.preventDefault();
      const back = sel && sel.from === "stash" ? sel.pyramid : null;
      cancel();
      if (back) stash.focus(back);
    }
  });
  svg.addEventListener("focusin", (e) => {
    const el = e.target.closest && e.target.closest("[data-square]");
    if (!el || el.dataset.square === cursor) return;
    cursor = el.dataset.square;
    for (const [name, other] of squareEls) other.setAttribute("tabindex", name === cursor ? "0" : "-1");
  });

  // ---- pointer: click, tap or drag, alike for mouse, pen and touch --------------------------
  function pointerSource(target) {
    const btn = target.closest && target.closest("[data-pyramid]");
    if (btn && stash.el.contains(btn)) return { from: "stash", pyramid: btn.dataset.pyramid, el: btn };
    const sq = target.closest && target.closest("[data-square]");
    if (sq && svg.contains(sq)) return { from: "board", square: sq.dataset.square, el: sq };
    return null;
  }

  function draggable(src) {
    if (!ctx.canMove) return false;
    return src.from === "stash" ? legal.fromStash.has(src.pyramid) : selectable(src.square);
  }

  function squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const sq = el && el.closest && el.closest("[data-square]");
    return sq && svg.contains(sq) ? sq.dataset.square : null;
  }

  function onPointerDown(e) {
    if (e.button !== 0 || drag) return;
    const src = pointerSource(e.target);
    if (!src) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, src, type: e.pointerType, active: false, ghost: null, hover: null };
    // the page-wide listeners see the pointer wherever it goes until it is released
    window.addEventListener("pointermove", onPointerMove);
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerCancel);
    if (draggable(src)) {
      try { src.el.setPointerCapture(e.pointerId); } catch { /* the pointer is gone already */ }
    }
  }

  function startDrag() {
    drag.active = true;
    const { src } = drag;
    sel = src.from === "stash" ? { from: "stash", pyramid: src.pyramid } : { from: "board", square: src.square };
    preview = null;
    const name = src.from === "stash" ? src.pyramid : contentOf(src.square);
    const px = Math.round(CELL * (svg.getBoundingClientRect().width / SIDE));
    drag.ghost = h("div", { class: "jx-ghost", "aria-hidden": "true" }, pyramidIcon(name));
    drag.ghost.style.width = `${px}px`;
    drag.ghost.style.height = `${px}px`;
    document.body.append(drag.ghost);
    draw();
  }

  function onPointerMove(e) {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.active) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_START_PX || !draggable(drag.src)) return;
      startDrag();
    }
    e.preventDefault();
    const half = drag.ghost.offsetWidth / 2;
    drag.ghost.style.left = `${e.clientX - half}px`;
    drag.ghost.style.top = `${e.clientY - half}px`;
    const over = squareAt(e.clientX, e.clientY);
    if (over !== drag.hover) {
      if (drag.hover) squareEls.get(drag.hover).removeAttribute("data-hover");
      drag.hover = over;
      if (over) squareEls.get(over).setAttribute("data-hover", "");
    }
  }

  function endDrag() {
    window.removeEventListener("pointermove", onPointerMove);
    window.removeEventListener("pointerup", onPointerUp);
    window.removeEventListener("pointercancel", onPointerCancel);
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.hover) squareEls.get(drag.hover).removeAttribute("data-hover");
    drag = null;
  }

  function onPointerUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { src, active, type } = drag;
    endDrag();
    if (active) {
      const over = squareAt(e.clientX, e.clientY);
      if (over && !(src.from === "board" && over === src.square)) activate(over, "drag");
      else draw();
    } else if (src.from === "stash") {
      pickStash(src.pyramid);
    } else {
      activate(src.square, type === "touch" ? "touch" : "pointer");
    }
  }

  function onPointerCancel(e) {
    if (!drag || e.pointerId !== drag.id) return;
    endDrag();
    draw();
  }

  for (const el of [svg, stash.grid]) {
    el.addEventListener("pointerdown", onPointerDown);
    el.addEventListener("contextmenu", (e) => { if (drag) e.preventDefault(); });
  }

  // ---- drawing ---------------------------------------------------------------------------------
  function draw() {
    if (!state) return;
    root.toggleAttribute("data-can-move", Boolean(ctx.canMove));
    root.toggleAttribute("data-can-drag", Boolean(ctx.canMove && board.phase === "drop"));
    root.dataset.phase = board.phase;
    svg.setAttribute("aria-label", t("juxtapose.board"));
    drawSquares();
    drawPieces();
    drawOverlay();
    drawBests();
    const pend = parseMove(ctx.pending);
    stash.update({
      stash: board.stash || [],
      picked: sel && sel.from === "stash" ? sel.pyramid : null,
      pending: pend && pend.kind === "drop" ? pend.pyramid : null,
      can: Boolean(ctx.canMove),
    });
    drawStatus();
    drawMessage();
  }

  function drawSquares() {
    const tg = targets();
    const f = {
      blocked: mayNotSlide(),
      last: moveSquares(state.last_move && state.last_move.move),
      pending: moveSquares(ctx.pending),
      preview: moveSquares(preview),
      win: new Set((board.winning_lines || []).flat()),
    };
    for (const [sq, el] of squareEls) {
      const p = contentOf(sq);
      const { x, y } = corner(sq);
      const picked = Boolean(sel && sel.from === "board" && sel.square === sq);
      const move = tg.get(sq);
      setAttr(el, "data-content", p);
      setAttr(el, "data-selected", picked);
      setAttr(el, "data-target", Boolean(move));
      setAttr(el, "data-last", f.last.has(sq));
      setAttr(el, "data-pending", f.pending.has(sq));
      setAttr(el, "data-win", f.win.has(sq));
      setAttr(el, "data-moved-last", f.blocked.has(sq));
      el.setAttribute("aria-selected", picked ? "true" : "false");
      el.setAttribute("tabindex", sq === cursor ? "0" : "-1");

      const marks = [];
      if (f.win.has(sq)) {
        marks.push(s("rect", { x: x + 2.5, y: y + 2.5, width: CELL - 5, height: CELL - 5, fill: "#fff2b3", stroke: "#8f6100", "stroke-width": 5 }));
      } else if (f.last.has(sq)) {
        marks.push(s("rect", { x, y, width: CELL, height: CELL, fill: "#f3dd8f" }));
      }
      if (picked) {
        marks.push(s("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, fill: "#cfe3f5", stroke: ACCENT, "stroke-width": 6, rx: 3 }));
      }
      if (f.last.has(sq)) marks.push(brackets(x, y, "#7a5200"));
      if (move && p) marks.push(cornerTriangles(x, y));
      if (move && !p) {
        marks.push(s("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 14, fill: ACCENT, "fill-opacity": 0.8, stroke: "#ffffff", "stroke-width": 2 }));
      }
      if (f.pending.has(sq) || f.preview.has(sq)) {
        marks.push(s("rect", {
          x: x + 8, y: y + 8, width: CELL - 16, height: CELL - 16, fill: "none", rx: 3,
          stroke: f.pending.has(sq) ? "#a34400" : ACCENT, "stroke-width": 4, "stroke-dasharray": "9 6",
        }));
      }
      el.marks.replaceChildren(...marks);
      el.setAttribute("aria-label", squareLabel(sq, picked, move, f));
    }
  }

  function squareLabel(sq, picked, move, f) {
    const p = contentOf(sq);
    const parts = [p
      ? t("juxtapose.square.full", { square: sq, pyramid: pyramidLabel(p) })
      : t("juxtapose.square.empty", { square: sq })];
    if (picked) parts.push(t("juxtapose.state.selected"));
    if (move) parts.push(t(`juxtapose.state.${parseMove(move).kind}`));
    if (f.blocked.has(sq)) parts.push(t("juxtapose.state.movedLast"));
    if (f.last.has(sq)) parts.push(t("juxtapose.state.last"));
    if (f.pending.has(sq)) parts.push(t("juxtapose.state.pending"));
    if (f.win.has(sq)) parts.push(t("juxtapose.state.win"));
    for (const n of bestsAt(sq)) parts.push(t("juxtapose.state.best", { n: num(n) }));
    return parts.join(", ");
  }

  /** Pieces are redrawn each time; those that changed square glide there from where they
   * were (FLIP), a dropped one settles in. No motion on a first draw, a snapshot or when
   * the person asks for less. */
  function drawPieces() {
    const animate = ctx.animate && !reducedMotion() && lastPly !== null;
    const now = new Map();
    const nodes = [];
    const gliding = [];
    for (const [sq, p] of content) {
      if (!p) continue;
      now.set(p, sq);
      const c = centre(sq);
      const g = pyramid(p, c.x, c.y, { class: "jx-piece" });
      const before = placed.get(p);
      if (animate && before && before !== sq) {
        const b = centre(before);
        g.style.transform = `translate(${b.x - c.x}px, ${b.y - c.y}px)`;
        gliding.push(g);
      } else if (animate && !before) {
        g.classList.add("jx-drop-in");
      }
      nodes.push(g);
    }
    piecesLayer.replaceChildren(...nodes);
    placed = now;
    if (gliding.length) {
      piecesLayer.getBoundingClientRect(); // commit the start positions first
      for (const g of gliding) {
        g.classList.add("jx-moving");
        g.style.transform = "";
      }
    }
  }

  function drawOverlay() {
    const parts = [];
    const last = parseMove(state.last_move && state.last_move.move);
    if (last && last.kind !== "drop") parts.push(arrow(last, { colour: "#7a5200", dashed: false }));
    underlay.replaceChildren(...(board.winning_lines || []).map(winLine));
    if (!state.is_over) for (const sq of mayNotSlide()) parts.push(noSlideBadge(sq));
    for (const [move, kind] of [[ctx.pending, "pending"], [preview, "preview"]]) {
      const m = parseMove(move);
      if (!m) continue;
      if (m.kind === "drop") {
        const c = centre(m.a);
        parts.push(pyramid(m.pyramid, c.x, c.y, { class: `jx-ghost-piece jx-${kind}`, opacity: 0.55 }));
      } else {
        parts.push(arrow(m, { colour: kind === "pending" ? "#a34400" : ACCENT, dashed: true }));
      }
    }
    overlay.replaceChildren(...parts);
  }

  function drawBests() {
    const moves = best ? best.moves : [];
    const cls = (move) => (best && best.focus ? (best.focus === move ? " is-focus" : " is-dim") : "");
    bestsLayer.replaceChildren(...moves.map((move, i) => {
      const m = parseMove(move);
      return m ? bestMark(move, m, i + 1, cls(move)) : null;
    }).filter(Boolean));
  }

  /** The numbers (1-based) of the best moves drawn that touch `sq`. */
  function bestsAt(sq) {
    if (!best) return [];
    return best.moves.flatMap((move, i) => (moveSquares(move).has(sq) ? [i + 1] : []));
  }

  function drawStatus() {
    phaseEl.dataset.phase = board.phase;
    // a game won while dropping has no phase left to tell of: the result line says it all
    phaseEl.hidden = Boolean(state && state.is_over && board.phase === "drop");
    phaseEl.textContent = board.phase === "drop"
      ? t("juxtapose.phase.drop", { n: (board.stash || []).length })
      // the move to make now, counted from 1 (slide_moves is how many were made); the last
      // one made once the game is over
      : t("juxtapose.phase.slide", { n: num(Math.max(1, Math.min(board.slide_moves + (state && state.is_over ? 0 : 1),
        board.move_limit))), limit: num(board.move_limit) });
    const lines = board.winning_lines || [];
    let result = "";
    if (lines.length) result = lines.map((l) => t("juxtapose.win", { squares: l.join(" – ") })).join(" ");
    else if (board.draw === "repetition") result = t("juxtapose.draw.repetition");
    else if (board.draw) result = t("juxtapose.draw.limit", { limit: num(board.move_limit) });
    resultEl.hidden = !result;
    resultEl.textContent = result;
    resultEl.dataset.draw = board.draw || "";
    const marked = [...mayNotSlide()];
    markEl.hidden = !marked.length || state.is_over;
    markEl.replaceChildren(badgeIcon(), h("span", {}, t("juxtapose.mark", { squares: marked.join(", ") })));
    keysEl.replaceChildren(
      h("h3", {}, t("juxtapose.keys")),
      h("dl", {}, ...["tab", "arrows", "enter", "escape"].flatMap((k) => [
        h("dt", {}, h("kbd", {}, t(`juxtapose.key.${k}`))),
        h("dd", {}, t(`juxtapose.keys.${k}`)),
      ])));
  }

  function drawMessage() {
    let text = "";
    if (message) text = sentence(t(message.key, message.vars));
    else if (ctx.pending) text = t("juxtapose.hint.pending");
    else if (state && !state.is_over && ctx.canMove) {
      text = t(board.phase === "drop" ? "juxtapose.hint.pick" : "juxtapose.hint.slide");
    }
    messageEl.textContent = text;
    messageEl.dataset.reason = (message && message.reason) || "";
  }

  // ---- the interface ---------------------------------------------------------------------------
  const stopLang = onLangChange(() => draw());

  return {
    update(next, nextCtx = {}) {
      state = next;
      ctx = { ...ctx, ...nextCtx };
      board = next.board;
      content = new Map(board.squares.map((q) => [q.name, q.pyramid]));
      legal = indexMoves(ctx.canMove ? next.legal_moves : []);
      if (next.ply !== lastPly) {
        // a new position: a choice made in the old one means nothing here
        sel = null;
        preview = null;
        message = null;
      }
      if (sel && sel.from === "stash" && !legal.fromStash.has(sel.pyramid)) sel = null;
      if (sel && sel.from === "board" && !selectable(sel.square)) sel = null;
      if (preview && !(next.legal_moves || []).includes(preview)) preview = null;
      draw();
      lastPly = next.ply;
    },
    describeMove(move) {
      const m = parseMove(move);
      if (!m) return "";
      if (m.kind === "drop") return t("juxtapose.move.drop", { pyramid: pyramidLabel(m.pyramid), square: m.a });
      if (m.kind === "swap") return t("juxtapose.move.swap", { a: m.a, b: m.b });
      const p = contentOf(m.b) || contentOf(m.a);
      return t("juxtapose.move.slide", { pyramid: p ? pyramidLabel(p) : "", from: m.a, to: m.b });
    },
    /** The best moves drawn on the board (null: none); `focus` the one pointed at. */
    highlight(moves, focus = null) {
      best = moves && moves.length ? { moves, focus } : null;
      if (state) draw();
    },
    focus() {
      squareEls.get(cursor).focus();
    },
    destroy() {
      endDrag();
      stopLang();
      host.replaceChildren();
    },
  };
}
