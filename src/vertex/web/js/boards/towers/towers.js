// The Verticality table (RULES §4) in 3-D: every seat's tower on the table, the ghost of the
// piece you are aiming, the settles and falls played back from the server's keyframes, and
// an info panel beside it. Where the browser has no WebGL it says so and offers the aiming
// form alone. The page knows no rules: each aim goes to the server, which says whether it
// would stand (and why not); the server's physics decides what stands and what falls.
import { api } from "../../shared/api.js";
import { addSheet, h, reducedMotion } from "../../shared/dom.js";
import { loadCatalogs, num, onLangChange, t } from "../../shared/i18n.js";
import { COLORS, seatSymbol } from "../../shared/seats.js";
import { createAimer } from "./towers-aim.js";
import { happenings } from "./towers-events.js";
import { createForm } from "./towers-form.js";
import {
  STEPS_PER_LEVEL, aimText, apexOf, cardBelow, parseAim, pyramidsOf, startAim, useSizes,
} from "./towers-geom.js";
import { attachInput, LIFT_MM, TOUCH_LIFT_PX } from "./towers-input.js";
import { rememberTower } from "./towers-own.js";
import { createPanel, moveWords, stepWords } from "./towers-panel.js";
import { createScene, webglAvailable } from "./towers-scene.js";

// Only pages that show this board fetch its sheet, and the scene is sized once it applies.
await Promise.all([
  loadCatalogs("towers"),
  addSheet(new URL("../../../css/towers.css", import.meta.url).href),
]);

/** How long after its step began a release counts as hasty (RULES §4; the server decides). */
const CALM_AFTER_S = 2;

function nameOf(names, seat) {
  const n = typeof names === "function" ? names(seat) : names && names[seat];
  return n || t("common.seat", { n: seat + 1 });
}

export function createBoard(host, options) {
  const sendAim = options.sendAim;
  const announce = options.announce || (() => {});
  const name = (seat) => nameOf(options.names, seat);

  const canvas = h("canvas", { class: "towers-canvas", "data-view3d": true, role: "img", tabindex: "0",
    "aria-describedby": "towers-desc-now" });
  const labels = h("div", { class: "towers-labels", "aria-hidden": "true" });
  const ghostNote = h("div", { class: "towers-ghost-note", "aria-hidden": "true", hidden: true });
  const controls = h("div", { class: "towers-controls", role: "group" });
  const view = h("div", { class: "towers-view" }, canvas, labels, ghostNote);
  const helpList = h("ul");
  const helpSummary = h("summary");
  const help = h("details", { class: "towers-help", "data-towers-help": true, open: true }, helpSummary, helpList);
  const notice = h("p", { class: "notice towers-no3d", "data-no-webgl": true, role: "note" });
  const liveDesc = h("p", { class: "sr-only", id: "towers-desc-now" });

  let scene = null;
  if (webglAvailable()) {
    try {
      scene = createScene(canvas, labels, { reducedMotion, ghostNote });
    } catch (err) {
      console.error("the 3-D view could not start", err);
      scene = null;
    }
  }

  const aimer = createAimer({ send: (move) => sendAim(move), changed: () => drawAim() });
  const panel = createPanel({ onStop: () => stopBuilding(), onSuggested: () => toSuggestion(),
    onPlace: () => place("form") });
  const form = createForm({
    aim: (piece, x, y, rot) => {
      lastInput = "form";
      if (piece !== aimer.piece || x !== aimer.x || y !== aimer.y || rot !== aimer.rot) moved = true;
      aimer.piece = piece;
      aimer.aim(x, y, rot, true);
    },
    check: () => { lastInput = "form"; checkAndSay(); },
    place: () => place("form"),
  }, { open: !scene });

  // On a phone the panel comes straight after the view, the help last.
  const root = h("div", { class: scene ? "towers" : "towers no-3d" }, h("div", { class: "towers-grid" },
    // Without 3-D the form takes the view's place.
    h("div", { class: "towers-stage" }, scene ? view : notice, scene ? controls : form.el),
    h("div", { class: "towers-side" }, panel.el, scene ? form.el : null, liveDesc),
    scene ? help : null));
  host.replaceChildren(root);

  let state = null;
  let ctx = null;
  let board = null;
  let canAim = false;
  let stepKey = null;
  let stepStarted = performance.now();
  let sent = null; // {key, text}: my piece of this step, as I sent it
  let lastInput = "pointer";
  let spokenReason = "";
  let bestsFor = null;
  let hasteTimer = 0;
  let clockTimer = 0;
  let falls = 0;
  // The game's suggested aim for my piece of this step ({key, x, y, rot}), and whether I
  // moved the aim since the step began (then a late suggestion does not take it away).
  let suggestion = null;
  let asked = null;
  let moved = false;
  let myBests = null; // my personal-best rows (best first), once loaded
  const bestNote = h("p", { class: "result-best", "data-result-best": true, hidden: true });

  // ---- the camera buttons --------------------------------------------------------------------
  const button = (action, text, fn) => {
    const b = h("button", { type: "button", class: "towers-tool", "data-view-action": action,
      onclick: () => { fn(); } }, h("span", { "aria-hidden": "true", text }));
    controls.append(b);
    return b;
  };
  const tools = scene ? {
    left: button("left", "⟲", () => scene.orbitBy(Math.PI / 8, 0)),
    right: button("right", "⟳", () => scene.orbitBy(-Math.PI / 8, 0)),
    zoomIn: button("zoom-in", "+", () => scene.zoomBy(1 / 1.2)),
    zoomOut: button("zoom-out", "−", () => scene.zoomBy(1.2)),
    up: button("up", "▲", () => scene.liftBy(LIFT_MM)),
    down: button("down", "▼", () => scene.liftBy(-LIFT_MM)),
    table: button("table", "▦", () => scene.tableView()),
    reset: button("reset", "⌂", () => scene.resetView()),
  } : {};

  if (scene) {
    scene.onAnimation((running) => {
      canvas.toggleAttribute("data-animating", running);
      if (running) canvas.dataset.animations = String(Number(canvas.dataset.animations || 0) + 1);
      if (!running) canvas.dataset.fallsPlayed = String(scene.fallsPlayed);
    });
    attachInput(canvas, {
      scene,
      canAim: () => canAim,
      aimAt: (x, y) => { moved = true; aimer.aim(x, y); },
      turn: (deg) => { moved = true; aimer.aim(aimer.x, aimer.y, aimer.rot + deg); },
      nudge: (right, away) => {
        // The arrows follow the screen: turn them by the camera's quarter turn.
        const q = scene.quarter();
        const [c, s] = [[1, 0], [0, 1], [-1, 0], [0, -1]][q];
        moved = true;
        aimer.aim(aimer.x + right * c - away * s, aimer.y + right * s + away * c);
      },
      place: (source) => place(source),
      resetView: () => scene.resetView(),
      interacted: (kind) => { lastInput = kind; },
    });
    // A test or a tool can ask where on screen an aim (mm on my base) is: [x, y] client px.
    canvas.aimPoint = (x, y, pointerType = "mouse") => {
      const seat = ctx && ctx.mySeat !== null ? ctx.mySeat : 0;
      const z = board ? aimHeight(board, seat, x, y) : 0;
      const p = scene.project(seat, x, y, z);
      return { x: p.x, y: p.y + (pointerType === "touch" ? TOUCH_LIFT_PX : 0) };
    };
  }

  // ---- what the level's surface is -----------------------------------------------------------
  /** The plane aims land on for `seat` now (server frame): the top of the card below, the
   * table, or for the card the height of the level's pyramid tips. */
  function aimPlane(b, seat) {
    const tower = b.towers[seat];
    if (!tower) return { seat, point: [0, 0, 0], normal: [0, 0, 1] };
    if (b.step === STEPS_PER_LEVEL - 1) {
      const tips = pyramidsOf(tower, b.level).map(apexOf);
      const top = tips.length ? Math.max(...tips.map((p) => p[2])) : 0;
      return { seat, point: [0, 0, top + 0.3], normal: [0, 0, 1] };
    }
    const card = cardBelow(tower, b.level);
    if (!card) return { seat, point: [0, 0, 0], normal: [0, 0, 1] };
    const [w, x, y, z] = card.quaternion;
    const normal = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
    const [px, py, pz] = card.position_mm;
    return { seat, point: [px + normal[0] * 0.15, py + normal[1] * 0.15, pz + normal[2] * 0.15], normal };
  }

  function aimHeight(b, seat, x, y) {
    const { point, normal } = aimPlane(b, seat);
    if (Math.abs(normal[2]) < 1e-6) return point[2];
    return point[2] - (normal[0] * (x - point[0]) + normal[1] * (y - point[1])) / normal[2];
  }

  // ---- drawing the aim -----------------------------------------------------------------------
  function hasteNow() {
    return Math.max(0, 1 - (performance.now() - stepStarted) / 1000 / CALM_AFTER_S);
  }

  function ghostNoteText() {
    if (aimer.status === "pending") return t("towers.aim.placing");
    if (aimer.status === "placed") return t("towers.aim.placed");
    // The server's reason, to its first colon ("touching rule", "aiming into a lower
    // level"…); the panel beside the view has all of it.
    if (aimer.status === "refused") return `✕ ${aimer.reason.split(": ")[0].slice(0, 80)}`;
    if (aimer.status === "ok" && aimer.snap) return t("towers.aim.snapped");
    return "";
  }

  function drawAim() {
    if (!board || !ctx) return;
    const seat = ctx.mySeat;
    const showing = seat !== null && (canAim || aimer.status === "pending" || aimer.status === "placed");
    const sizeWord = board.step === STEPS_PER_LEVEL - 1 ? t("towers.piece.card")
      : t("towers.piece.sized", { size: t(`towers.size.${board.die.size}`) });
    const mine = suggestion && suggestion.key === aimer.key ? suggestion : null;
    panel.setFeedback(aimer, showing, sizeWord, canAim ? mine : null);
    root.dataset.suggested = mine && canAim ? aimText({ piece: aimer.piece, ...mine }) : "";
    form.show(aimer, canAim);
    canvas.dataset.aim = showing ? aimer.text() : "";
    canvas.dataset.aimState = showing ? aimer.status : "idle";
    if (aimer.status === "refused" && aimer.reason !== spokenReason && lastInput !== "pointer") {
      spokenReason = aimer.reason;
      announce(t("towers.say.refused", { reason: aimer.reason }), false);
    }
    if (aimer.status !== "refused") spokenReason = "";
    // the page's refusal line ([data-refusal]) says the aim's reason while it stands
    if (options.refuse && showing && aimer.status === "refused") {
      options.refuse((aimer.refusal && aimer.refusal.reason && aimer.refusal.reason.rule) || "illegal-move", aimer.reason);
    } else if (options.refuse && aimer.status === "ok") options.refuse(null);
    if (!scene) return;
    if (!showing) {
      scene.setGhost(null);
      return;
    }
    // an aim the server snapped against its neighbour is drawn where it will go
    const at = aimer.status === "ok" && aimer.snap ? aimer.snap : aimer;
    scene.setGhost({
      seat, piece: aimer.piece, size: board.die.size, x: at.x, y: at.y, rot: at.rot,
      z: aimHeight(board, seat, at.x, at.y) + (aimer.piece === "card" ? 0.3 : 0),
      sigma: canAim ? board.tremor_mm * (1 + hasteNow()) : 0,
      state: aimer.status, note: ghostNoteText(),
    });
  }

  // ---- placing -------------------------------------------------------------------------------
  async function place(source) {
    if (!canAim || !ctx) return;
    lastInput = source;
    const key = stepKey;
    const text = aimer.text();
    const answer = await aimer.checkNow();
    if (key !== stepKey || !canAim || text !== aimer.text()) return;
    if (!answer.ok) {
      spokenReason = answer.reason;
      announce(t("towers.say.refused", { reason: answer.reason }), false);
      form.say(t("towers.say.refused", { reason: answer.reason }));
      return;
    }
    // the aim as the server checked it (snapped against its neighbour where it was short)
    const move = answer.aim || text;
    sent = { key, text: move };
    form.say("");
    options.onMove(move);
  }

  async function checkAndSay() {
    const answer = await aimer.checkNow();
    const text = answer.ok ? t("towers.aim.okAt", { where: t("towers.aim.where",
      { x: num(aimer.x), y: num(aimer.y), rot: num(aimer.rot) }) }) : t("towers.say.refused", { reason: answer.reason });
    form.say(text);
    announce(text, false);
  }

  // ---- the game's suggestion ---------------------------------------------------------------
  /** Ask the server where the game would put my piece now; the aim starts there unless I
   * have moved it already. */
  function askSuggestion() {
    if (!options.suggestAim || !canAim || asked === aimer.key) return;
    const key = aimer.key;
    const piece = aimer.piece;
    asked = key;
    Promise.resolve().then(() => options.suggestAim()).then((answer) => {
      const p = parseAim(answer && answer.aim);
      if (!p || p.piece !== piece || key !== aimer.key) return;
      suggestion = { key, x: p.x, y: p.y, rot: p.rot };
      if (!moved && canAim) aimer.aim(p.x, p.y, p.rot, true);
      else drawAim();
    }, () => { if (asked === key) asked = null; });
  }

  function toSuggestion() {
    if (!suggestion || suggestion.key !== aimer.key || !canAim) return;
    lastInput = "form";
    aimer.aim(suggestion.x, suggestion.y, suggestion.rot, true);
  }

  function stopBuilding() {
    if (ctx && ctx.canMove) options.onMove("stop");
  }

  // ---- the board interface -----------------------------------------------------------------
  function update(nextState, nextCtx) {
    const prev = board;
    state = nextState;
    ctx = nextCtx;
    board = state.board;
    useSizes(board);
    const seat = ctx.mySeat;
    const due = board.due || [];
    const placed = board.placed || [];
    const myTower = seat !== null ? board.towers[seat] : null;
    canAim = Boolean(ctx.canMove && seat !== null && due.includes(seat) && !placed.includes(seat)
      && !state.is_over && myTower && myTower.standing);
    const key = `${board.step_number}:${board.level}:${board.step}`;
    if (key !== stepKey) {
      stepKey = key;
      stepStarted = performance.now();
    }
    const piece = board.step === STEPS_PER_LEVEL - 1 ? "card" : "pyramid";
    if (seat !== null && myTower) {
      if (aimer.begin(`${key}:${seat}`, piece, startAim(myTower, board.level, board.step))) moved = false;
    }
    if (ctx.pending) {
      const p = parseAim(ctx.pending);
      if (p && p.piece !== "stop") Object.assign(aimer, { x: p.x, y: p.y, rot: p.rot, piece: p.piece });
      aimer.setStatus("pending");
    } else if (seat !== null && placed.includes(seat)) {
      const mine = sent && sent.key === key ? parseAim(sent.text) : null;
      if (mine) Object.assign(aimer, { x: mine.x, y: mine.y, rot: mine.rot, piece: mine.piece });
      aimer.setStatus(mine ? "placed" : "idle");
    } else if (canAim && (aimer.status === "pending" || aimer.status === "placed" || aimer.status === "idle")) {
      aimer.setStatus("aiming"); // a refused move: aim again
    } else if (!canAim && aimer.status !== "idle") {
      aimer.setStatus("idle");
    }

    if (scene) {
      scene.update(board, seat !== null ? seat : 0, seat, Boolean(ctx.animate),
        (s) => ({ name: name(s), symbol: seatSymbol(s, board) }));
      if (seat !== null) scene.setAimPlane(aimPlane(board, seat));
    }
    const list = happenings(prev, board, name);
    if (list.length) {
      panel.addHappenings(list);
      falls += list.filter((e) => e.kind === "fell").length;
      if (ctx.animate) announce(list.map((e) => e.text).join(" "), false);
    }
    renderPanel();
    drawAim();
    askSuggestion();
    canvas.dataset.level = String(board.level);
    canvas.dataset.step = String(board.step);
    canvas.dataset.falls = String(falls);
    canvas.setAttribute("aria-label", t("towers.canvas.label", { n: board.towers.length }));
    liveDesc.textContent = [...panel.el.querySelectorAll("[data-tower]")].map((li) => li.textContent).join(". ");
    keepTicking();
    loadBests();
  }

  function renderPanel() {
    if (!board) return;
    panel.render({
      board, state, mySeat: ctx.mySeat, name, symbol: (s) => seatSymbol(s, board),
      colour: (s) => COLORS[s % COLORS.length],
      due: board.due || [], placed: board.placed || [], canAim, pending: ctx.pending,
      secondsLeft,
    });
  }

  /** Seconds left on the step clock: mine while I owe a piece, else the first due seat's. */
  function secondsLeft() {
    if (!board || board.step_seconds <= 0 || state.is_over) return null;
    const waiting = (board.due || []).filter((s) => !(board.placed || []).includes(s));
    if (!waiting.length) return null;
    const seat = waiting.includes(ctx.mySeat) ? ctx.mySeat : waiting[0];
    if (Array.isArray(ctx.clocks) && typeof ctx.clocks[seat] === "number") {
      const since = typeof ctx.clocksAt === "number" ? (performance.now() - ctx.clocksAt) / 1000 : 0;
      return Math.max(0, ctx.clocks[seat] - since);
    }
    return Math.max(0, board.step_seconds - (performance.now() - stepStarted) / 1000);
  }

  /** The clock and the haste ring move on their own between updates. */
  function keepTicking() {
    clearInterval(clockTimer);
    clockTimer = board.step_seconds > 0 && !state.is_over ? setInterval(() => panel.tick(), 250) : 0;
    clearInterval(hasteTimer);
    if (scene && canAim && board.tremor_mm > 0 && hasteNow() > 0 && !reducedMotion()) {
      hasteTimer = setInterval(() => {
        drawAim();
        if (hasteNow() <= 0) clearInterval(hasteTimer);
      }, 150);
    }
  }

  /** Solo and building on: my personal best and the top list (server: /api/verticality/bests);
   * a finished solo tower of mine is also remembered as this browser's best. */
  function loadBests() {
    if (!(state.seats === 1 || board.build_on)) return;
    keepOwnBest();
    const me = ctx.mySeat !== null ? name(ctx.mySeat) : null;
    const over = ended();
    const key = `${me}:${over}`;
    if (bestsFor === key) return;
    bestsFor = key;
    const fetchBoth = () => Promise.all([
      api.get("/api/verticality/bests"),
      me ? api.get(`/api/verticality/bests?name=${encodeURIComponent(me)}`) : Promise.resolve(null),
    ]).then(([top, mine]) => {
      panel.setBests(top.bests, mine ? mine.bests : null);
      myBests = mine ? mine.bests : null;
      sayBest();
    }, () => {});
    fetchBoth();
    // The result is kept just after the last event goes out: ask again a moment later.
    if (over) setTimeout(fetchBoth, 1500);
  }

  /** The game is over in play, or the table ended it (a resignation: the game's own state
   * does not know). */
  function ended() {
    return Boolean(state.is_over || ctx.over);
  }

  function keepOwnBest() {
    const seat = ctx.mySeat;
    if (!ended() || seat === null || seat === undefined || !board.result) return;
    const solo = state.seats === 1 || (board.building_on && board.winner === seat);
    if (!solo) return;
    const table = decodeURIComponent(location.pathname.replace(/^\/tables\//, "").split("/")[0]);
    rememberTower({ levels: board.result.levels[seat], height_mm: board.result.height_mm[seat],
      table, at: Date.now() / 1000 });
  }

  /** Under a finished solo game's result: my personal best, or that this tower is it. */
  function sayBest() {
    const table = decodeURIComponent(location.pathname.replace(/^\/tables\//, "").split("/")[0]);
    const best = myBests && myBests[0];
    bestNote.hidden = !best;
    if (!best) return;
    const words = { n: best.levels, height: num(best.height_mm, { maximumFractionDigits: 1 }) };
    bestNote.textContent = best.table === table ? t("towers.best.new", words) : t("towers.best.yours", words);
  }

  function relabel() {
    helpSummary.textContent = t("towers.help.summary");
    helpList.replaceChildren(...["first", "pointer", "touch", "keys", "camera", "tremor", "server"]
      .map((k) => h("li", { class: k === "keys" || k === "pointer" ? "keys-help" : null,
        text: t(`towers.help.${k}`) })));
    notice.textContent = t("towers.noWebgl");
    controls.setAttribute("aria-label", t("towers.view.controls"));
    for (const [k, b] of Object.entries(tools)) {
      b.setAttribute("aria-label", t(`towers.view.${k}`));
      b.title = t(`towers.view.${k}`);
    }
    form.label();
  }
  relabel();
  const offLang = onLangChange(() => {
    relabel();
    bestsFor = null;
    if (state) update(state, { ...ctx, animate: false });
  });

  return {
    update,
    /** The result banner's words for a solo game, which has no winner (js/table/result.js):
     * the height reached, and my personal best under it. */
    resultWords(view, mySeat) {
      const b = view.state && view.state.board;
      if (!b || !b.result || view.seats.length !== 1) return null;
      const height = num(b.result.height_mm[0], { maximumFractionDigits: 1 });
      sayBest();
      return {
        headline: t(mySeat === 0 ? "towers.result.soloMine" : "towers.result.solo",
          { name: name(0), n: b.result.levels[0], height }),
        note: mySeat === 0 ? bestNote : null,
      };
    },
    /** A move in words for the move list: "card at (0, −10.4) mm, turned 0°". */
    moveWords(move) {
      return moveWords(parseAim(move));
    },
    describeMove(move) {
      const aim = parseAim(move);
      if (!aim) return t("towers.move.sealed");
      if (aim.piece === "stop") return t("towers.move.stop");
      return t(aim.piece === "card" ? "towers.move.card" : "towers.move.pyramid",
        { x: num(aim.x), y: num(aim.y), rot: num(aim.rot) });
    },
    focus() {
      if (scene) canvas.focus();
      else form.focus();
    },
    destroy() {
      offLang();
      clearInterval(clockTimer);
      clearInterval(hasteTimer);
      aimer.stop();
      if (scene) scene.destroy();
      host.replaceChildren();
    },
  };
}

export { stepWords };
export { renderPreview } from "./towers-preview.js"; // alone: boards/index.js loadPreview
