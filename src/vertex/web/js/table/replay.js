// Replay on the table page: step through the game (buttons, ←/→, Home/End, the move list)
// while the same board shows the replayed position; closing shows the live game again.
// Positions come from the server (GET /api/tables/{id}/positions/{ply}), so the page still
// knows no rules. While replaying, the table keeps folding live events into everything but
// the board (it asks `active` before drawing the board). Fetched on the first press of
// the replay or analysis button, which js/table/replay-buttons.js draws and hands over.
import { api } from "../shared/api.js";
import { createAnalysis } from "./analysis.js";
import { addSheet, announce, h, reducedMotion } from "../shared/dom.js";
import { loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import {
  analysisFromStart, analysisOffered, replayOffered, showAnalysisButton,
} from "./replay-buttons.js";

// Its words and its sheet before anything is drawn (a control measured unstyled jumps).
await Promise.all([
  loadCatalogs("replay"),
  addSheet(new URL("../../css/replay.css", import.meta.url).href),
]);

// Screens where the step buttons are pinned to the bottom (as in replay.css).
const NARROW = "(max-width: 879px)";

/**
 * The replay and analysis controls in `host`, around the buttons js/table/replay-buttons.js drew.
 * deps: {
 *   id,                 // the table id
 *   model,              // the table's model ({view, mySeat}), read whenever needed
 *   board() -> board,   // the board instance the table drew (null before it exists)
 *   names(seat) -> string,
 *   redraw(),           // draw the live position on the board again (after closing)
 *   bar, openButton,    // the replay button ([data-action="replay"]) in its bar
 *   analysisHost, askButton, hint, // the analysis button ([data-action="analysis"])
 *   closedReason,       // why it is disabled, when it is ([data-analysis-closed])
 * }
 * Returns {active, render(), open(ply?), close(), ask(), destroy()}: call render() after
 * every change of the table; while `active` the table must not update the board.
 */
export function createReplay(host, deps) {
  const ids = `replay-${Math.random().toString(36).slice(2, 8)}`;
  const { analysisHost, bar, openButton } = deps;
  openButton.setAttribute("aria-controls", `${ids}-panel`);

  const heading = h("h2", { id: `${ids}-heading` });
  const step = (name, glyph) => h("button", {
    type: "button", class: "replay-step", "data-replay": name,
  }, h("span", { "aria-hidden": "true", text: glyph }));
  const first = step("first", "⇤");
  const back = step("back", "←");
  const forward = step("forward", "→");
  const last = step("last", "⇥");
  const quit = step("close", "✕"); // on phones the toolbar stays in view: it needs a way out
  const status = h("output", { class: "replay-status", "data-replay-status": "" }); // said by announce()
  const toolbar = h("div", { class: "replay-toolbar", role: "toolbar" },
    first, back, status, forward, last, quit);
  const moveLine = h("p", { class: "replay-move", "data-replay-move": "" });
  const scoresHead = h("h3", { class: "sr-only", id: `${ids}-scores` });
  const scores = h("ul", { class: "replay-scores", "aria-labelledby": scoresHead.id });
  const movesHead = h("h3", { id: `${ids}-moves` });
  const list = h("ol", { class: "replay-moves", "aria-labelledby": movesHead.id });
  const jsonLink = h("a", { href: `/api/tables/${encodeURIComponent(deps.id)}/record`,
    "data-record": "json", type: "application/json" });
  const textLink = h("a", { href: `/api/tables/${encodeURIComponent(deps.id)}/record?format=text`,
    "data-record": "text", type: "text/plain" });
  const recordLabel = h("span");
  const links = h("p", { class: "replay-links" }, recordLabel, " ", jsonLink, " · ", textLink);
  const keys = h("p", { class: "hint replay-keys" });
  const closeButton = h("button", { type: "button", class: "replay-close", "data-action": "replay-close" });
  const failure = h("p", { class: "replay-error", role: "alert", hidden: true });
  const panel = h("section", {
    class: "replay-panel", id: `${ids}-panel`, "data-replay": "", "aria-labelledby": heading.id, hidden: true,
  }, h("div", { class: "replay-head" }, heading, closeButton), toolbar, failure, moveLine,
  scoresHead, scores, movesHead, list, links, keys);
  host.insertBefore(panel, analysisHost);

  let active = false;
  let ply = 0;             // the position the board shows while replaying
  let want = null;         // the ply asked for last (answers for others are stale)
  let moves = [];          // the record's moves [{seat, move}]
  let livePly = null;      // the live position's ply, to notice take-backs
  let recordBusy = false;
  let recordDirty = false;
  let recordLoaded = false;
  const positions = new Map(); // ply -> {state, move}
  let moveButtons = [];

  const analysis = createAnalysis(analysisHost, {
    id: deps.id,
    button: deps.askButton,
    shown: () => shown(),
    offered: () => analysisOffered(view(), shown()),
    showButton: () => showAnalysisButton(deps.askButton, deps.closedReason, view(), shown()),
    board: () => deps.board(),
    names: (seat) => deps.names(seat),
  });

  // (presses of the replay and analysis buttons come through js/table/replay-buttons.js)
  closeButton.addEventListener("click", () => close());
  quit.addEventListener("click", () => close());
  first.addEventListener("click", () => go(0));
  // Steps count from the ply last asked for, not the one drawn: presses while a position
  // loads each take one more step instead of asking for the same one again.
  back.addEventListener("click", () => go(asked() - 1));
  forward.addEventListener("click", () => go(asked() + 1));
  last.addEventListener("click", () => go(plies()));
  list.addEventListener("click", (ev) => {
    const button = ev.target.closest("button[data-ply]");
    if (button) go(Number(button.dataset.ply));
  });
  const offLang = onLangChange(() => { label(); if (active) { fillList(); drawPanel(); } });

  function view() { return deps.model.view; }
  /** The ply being shown, or on its way. */
  function asked() { return want ?? ply; }
  function liveState() { return view() && view().state; }
  // The record's moves once known (it leaves out a simultaneous step's sealed moves until
  // the step resolves), else the live position's ply.
  function plies() {
    if (recordLoaded) return moves.length;
    return liveState() ? liveState().ply || 0 : 0;
  }

  /** The position on the board: the replayed one, else the live one. */
  function shown() {
    if (active) {
      const got = positions.get(ply);
      return got ? { ply, state: got.state } : null;
    }
    const st = liveState();
    return st ? { ply: st.ply || 0, state: st } : null;
  }

  function label() {
    heading.textContent = t("replay.heading");
    toolbar.setAttribute("aria-label", t("replay.steps"));
    for (const [b, key] of [[first, "replay.first"], [back, "replay.back"],
      [forward, "replay.forward"], [last, "replay.last"], [quit, "replay.close"]]) {
      b.setAttribute("aria-label", t(key));
      b.title = t(key);
    }
    scoresHead.textContent = t("replay.scores");
    movesHead.textContent = t("replay.moves");
    recordLabel.textContent = t("replay.record");
    jsonLink.textContent = t("replay.recordJson");
    textLink.textContent = t("replay.recordText");
    keys.textContent = t("replay.keys");
    closeButton.textContent = t("replay.close");
  }

  // ---- stepping ---------------------------------------------------------------------------
  function open(at) {
    if (active) return;
    active = true;
    panel.hidden = false;
    openButton.setAttribute("aria-expanded", "true");
    openButton.classList.add("is-open");
    document.addEventListener("keydown", onKey);
    const st = liveState();
    if (st) positions.set(st.ply || 0, { state: st, move: st.last_move || null });
    recordLoaded = false; // the game may have moved on since the last look
    syncRecord();
    const going = go(at ?? (st ? st.ply || 0 : 0));
    back.focus({ preventScroll: true });
    // On a narrow screen the panel sits below the board: bring the board into view (the
    // step buttons then stay at the bottom of the screen).
    const boardEl = document.getElementById("board");
    if (boardEl && window.matchMedia(NARROW).matches) {
      boardEl.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    return going;
  }

  /** The analysis button: for the position on the board, or, on a finished game's last
   * position (nothing left to play there), from the start of its replay. */
  async function ask() {
    if (analysisFromStart(view(), shown())) {
      await (active ? go(0) : open(0));
      if (!active || ply !== 0) return;
    }
    return analysis.ask();
  }

  function close() {
    if (!active) return;
    active = false;
    want = null;
    panel.hidden = true;
    delete panel.dataset.ply;
    openButton.setAttribute("aria-expanded", "false");
    openButton.classList.remove("is-open");
    document.removeEventListener("keydown", onKey);
    document.body.classList.remove("replaying");
    deps.redraw();
    analysis.render();
    if (deps.stepped) deps.stepped();
    openButton.focus();
    announce(t("replay.live"));
  }

  async function go(k) {
    if (!active) return;
    const target = Math.max(0, Math.min(plies(), Number(k) || 0));
    want = target;
    if (positions.has(target)) {
      draw(target);
      return;
    }
    status.replaceChildren(h("span", { "aria-hidden": "true", text: "…" }),
      h("span", { class: "sr-only", text: t("replay.loading") }));
    panel.setAttribute("aria-busy", "true");
    try {
      const got = await api.get(`/api/tables/${encodeURIComponent(deps.id)}/positions/${target}`);
      positions.set(target, { state: got.state, move: got.move });
      if (active && want === target) draw(target);
    } catch (err) {
      if (!active || want !== target) return;
      want = null; // the board still shows `ply`: steps count from there again
      panel.removeAttribute("aria-busy");
      failure.hidden = false;
      failure.textContent = t("replay.failed", { message: err.message });
      drawPanel();
    }
  }

  /** The board shows ply `k` (the same board instance, in no state to move). */
  function draw(k) {
    // One step forward plays the move as it happened (a Verticality settle or fall, at the
    // server's 30 keyframes a second); jumps and steps back just show the position.
    const forwardOne = k === ply + 1;
    ply = k;
    panel.removeAttribute("aria-busy");
    failure.hidden = true;
    const got = positions.get(k);
    const board = deps.board();
    if (board) {
      board.update(got.state, {
        mySeat: deps.model.mySeat ?? null, canMove: false, pending: null, animate: forwardOne, confirmTouch: false,
      });
    }
    document.body.classList.add("replaying");
    panel.dataset.ply = String(k);
    drawPanel();
    if (deps.stepped) deps.stepped();
    analysis.render();
    announce(positionText(k, got));
  }

  function onKey(ev) {
    if (!active || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const target = ev.target;
    if (target instanceof Element
      && target.closest("input, textarea, select, [contenteditable], [role='menu'], dialog")) return;
    const to = { ArrowLeft: asked() - 1, ArrowRight: asked() + 1, Home: 0, End: plies() }[ev.key];
    if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    } else if (to !== undefined) {
      ev.preventDefault();
      go(to);
    }
  }

  // ---- the panel --------------------------------------------------------------------------
  function symbolOf(seat) {
    const st = liveState();
    return seatSymbol(seat, st && st.board);
  }

  function swatch(seat) {
    const el = h("span", { class: "swatch", "aria-hidden": "true", text: symbolOf(seat) });
    el.style.background = seatColor(seat);
    return el;
  }

  function moveText(move) {
    if (!move) return t("replay.startPosition");
    if (move.seat === null || move.seat === undefined) return t("replay.agreed");
    return t("replay.moveBy", { name: deps.names(move.seat), symbol: symbolOf(move.seat), move: moveWords(move) });
  }

  /** A move in the board's words (its notation where the board has none). */
  function moveWords(move) {
    const board = deps.board();
    try {
      if (board && typeof board.describeMove === "function") return board.describeMove(move.move) || move.move;
    } catch { /* the move string is still readable */ }
    return move.move;
  }

  function positionText(k, got) {
    const n = plies();
    const where = k ? t("replay.at", { k, n }) : t("replay.atStart", { n });
    return k ? `${where}. ${moveText(got.move)}${byClockText(k)}` : where;
  }

  /** " (played by the computer: time ran out)" for such a move (the record says), else "". */
  function byClockText(k) {
    const m = k ? moves[k - 1] : null;
    return m && m.by === "clock" ? ` (${t("replay.byClock")})` : "";
  }

  function drawPanel() {
    const n = plies();
    // Short on screen ("3 / 12"), in full for assistive technology and as a tooltip.
    const full = ply ? t("replay.at", { k: ply, n }) : t("replay.atStart", { n });
    status.replaceChildren(h("span", { "aria-hidden": "true", text: `${num(ply)} / ${num(n)}` }),
      h("span", { class: "sr-only", text: full }));
    status.title = full;
    for (const [b, off] of [[first, ply <= 0], [back, ply <= 0], [forward, ply >= n], [last, ply >= n]]) {
      // aria-disabled, not disabled: a focused button keeps the focus at the ends
      b.setAttribute("aria-disabled", String(off));
    }
    const got = positions.get(ply);
    moveLine.replaceChildren();
    if (got) {
      const move = got.move;
      if (move && move.seat !== null && move.seat !== undefined) moveLine.append(swatch(move.seat), " ");
      moveLine.append(h("span", { text: ply ? `${ply}. ${moveText(move)}${byClockText(ply)}` : moveText(null) }));
      const st = got.state;
      // a game without points (view.scored false: Juxtapose) lists none
      scores.replaceChildren(...(deps.model.view.scored === false ? [] : st.scores || []).map((score, seat) => {
        const li = h("li", { "data-replay-score": seat, "data-value": score },
          swatch(seat), h("span", { text: t("replay.score", {
            name: deps.names(seat), symbol: symbolOf(seat), score: num(score),
          }) }));
        return li;
      }));
    }
    if (moveButtons.length !== n + 1) fillList();
    moveButtons.forEach((b, k) => {
      if (k === ply) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    });
    const current = moveButtons[ply];
    if (current) keepInView(current);
  }

  /** The move list: the start, then every move with its seat's symbol and name. */
  function fillList() {
    const n = plies();
    moveButtons = [];
    const items = [];
    for (let k = 0; k <= n; k++) {
      const move = k ? moves[k - 1] || (positions.get(k) || {}).move : null;
      const b = h("button", { type: "button", class: "replay-item", "data-ply": k });
      if (k === 0) {
        b.append(h("span", { class: "replay-num", text: "0" }), h("span", { text: t("replay.start") }));
      } else if (!move) {
        b.append(h("span", { class: "replay-num", text: String(k) }), h("span", { text: "…" }));
      } else if (move.seat === null || move.seat === undefined) {
        b.append(h("span", { class: "replay-num", text: String(k) }), h("span", { text: t("replay.agreed") }));
      } else {
        // named by what it shows (WCAG 2.5.3): the number, the name and the move, with the
        // move's words hidden for screen readers only where the board has other words for it
        const words = moveWords(move);
        b.append(h("span", { class: "replay-num", text: String(k) }), swatch(move.seat),
          h("span", { class: "replay-who", text: deps.names(move.seat) }),
          h("code", { class: "replay-code", text: move.move }),
          words === move.move ? null : h("span", { class: "sr-only", text: `, ${words}` }));
        if (move.by === "clock") {
          // the computer's move for a seat whose time ran out (the record says so)
          b.dataset.by = "clock";
          b.title = t("replay.byClock");
          b.append(h("span", { class: "replay-by", text: t("replay.byClockShort") }),
            h("span", { class: "sr-only", text: ` (${t("replay.byClock")})` }));
        }
      }
      moveButtons.push(b);
      items.push(h("li", {}, b));
    }
    list.replaceChildren(...items);
  }

  function keepInView(el) {
    const top = el.offsetTop; // the list is the buttons' offset parent (position: relative)
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + el.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + el.offsetHeight - list.clientHeight;
    }
  }

  /** The record's moves (for the list); fetched again when the live game moves on. */
  async function syncRecord() {
    if (recordBusy) { recordDirty = true; return; }
    recordBusy = true;
    try {
      do {
        recordDirty = false;
        const rec = await api.record(deps.id);
        moves = rec.moves.map((m) => ({ seat: m.seat, move: m.move, by: m.by || null }));
        recordLoaded = true;
      } while (recordDirty);
    } catch {
      /* the list keeps what it had; stepping still works */
    } finally {
      recordBusy = false;
    }
    if (active) {
      fillList();
      if (ply > plies()) go(plies());
      else drawPanel();
    }
  }

  /** After every change of the table (a live event, a seat, the language). */
  function render() {
    label();
    const st = liveState();
    const now = st ? st.ply || 0 : 0;
    if (livePly !== null && now < livePly) {
      // Moves were taken back: the positions after them are no longer this game's.
      positions.clear();
      moves = moves.slice(0, now);
      if (active && ply > now) go(now);
    }
    if (st && livePly !== now) positions.set(now, { state: st, move: st.last_move || null });
    const moved = livePly !== now;
    livePly = now;
    openButton.hidden = !replayOffered(view(), active);
    if (active && moved) syncRecord();
    if (active) drawPanel();
    analysis.render();
    // nothing to offer (a seated player at the start of a live game): no empty panel
    host.hidden = !active && openButton.hidden && !analysis.showing;
  }

  label();
  return {
    get active() { return active; },
    get ply() { return asked(); },
    show: (k) => (active ? go(k) : open(k)),
    render,
    open,
    close,
    ask,
    destroy() {
      if (active) close();
      offLang();
      analysis.destroy();
      bar.remove(); panel.remove(); analysisHost.remove();
    },
  };
}
