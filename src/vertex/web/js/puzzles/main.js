// The puzzles page /puzzles and /puzzles/{id} (DESIGN §5b, §6): one puzzle at a time on the
// game's own board. The server sends the position as a table's view (its legal moves too)
// and judges every move; the page only keeps the line played so far (the player's moves
// and the computer's replies) and sends it whole with each move (POST …/attempt). The root
// carries `[data-puzzle="ID"]`, `data-game` and `data-status` (playing, solved, failed).
import { api } from "../shared/api.js";
import { announce, h, reducedMotion } from "../shared/dom.js";
import { errorText, loadErrors } from "../shared/errors.js";
import { mountHeader } from "../shared/header.js";
import { loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { remembered } from "../shared/store.js";
import { mountBoard } from "../table/board.js";
import { makeChoice } from "./choice.js";
import { streak } from "./streak.js";
import { gameName, goalText, themeName } from "./words.js";

// the games with puzzles, their boards and themes, as the server has them (the page names
// none)
const [offered] = await Promise.all([api.puzzleGames(), loadCatalogs("puzzles", "table")]);
const choice = makeChoice(offered, () => next());

const main = document.querySelector("main");

const ui = {
  puzzle: null,      // the server's puzzle view
  line: [],          // moves from the puzzle's position so far
  state: null,       // the state drawn
  status: "playing",
  message: "",       // the status line's key and values
  vars: {},
  hint: false,
  rating: null,      // a known player's puzzle rating
  refusal: null,
  board: null,
  boardGame: null,
  busy: false,
  showing: false,    // the solution is being shown
  error: null,
};

const el = {};
mountHeader();
build();
start();
onLangChange(() => { renderControls(); render(); });

function build() {
  el.title = h("h1", {});
  el.daily = h("button", { type: "button", class: "button", "data-action": "daily", onclick: () => daily() });
  el.controls = h("div", { class: "puzzle-controls card" }, ...choice.node, el.daily);
  el.goal = h("p", { class: "puzzle-goal", "data-puzzle-goal": "" });
  el.meta = h("p", { class: "puzzle-meta" });
  el.status = h("p", { class: "puzzle-status", role: "status", "data-puzzle-status": "" });
  el.scores = h("p", { class: "puzzle-scores" });
  el.refusal = h("p", { class: "puzzle-refusal", "data-refusal": "", hidden: true });
  el.boardHost = h("div", { class: "puzzle-board", id: "board" });
  el.hint = h("button", { type: "button", class: "button", "data-action": "hint", onclick: () => hint() });
  el.solution = h("button", { type: "button", class: "button", "data-action": "solution", onclick: () => showSolution() });
  el.retry = h("button", { type: "button", class: "button", "data-action": "retry", onclick: () => retry() });
  el.next = h("button", { type: "button", class: "button primary", "data-action": "next-puzzle", onclick: () => next() });
  el.permalink = h("a", { class: "puzzle-permalink", "data-permalink": "", href: "/puzzles" });
  el.actions = h("div", { class: "puzzle-actions" }, el.hint, el.solution, el.retry, el.next);
  el.score = h("p", { class: "puzzle-score" });
  el.steps = h("ol", { class: "puzzle-steps", "data-puzzle-solution": "", hidden: true });
  el.card = h("section", { class: "puzzle card", "aria-labelledby": "puzzle-goal-title" },
    h("h2", { id: "puzzle-goal-title", class: "sr-only" }),
    el.goal, el.meta, el.scores, el.status, el.refusal, el.boardHost, el.actions, el.steps,
    h("p", { class: "puzzle-links" }, el.permalink), el.score);
  main.replaceChildren(el.title, el.controls, el.card);
  renderControls();
}

function renderControls() {
  document.title = `${t("puzzles.title")} · Vertex`;
  el.title.textContent = t("puzzles.title");
  choice.render();
  el.daily.textContent = t("puzzles.daily");
  el.hint.textContent = t("puzzles.hint");
  el.solution.textContent = t("puzzles.solution");
  el.retry.textContent = t("puzzles.retry");
  el.next.textContent = t("puzzles.next");
  el.permalink.textContent = t("puzzles.permalink");
  el.card.querySelector("h2").textContent = t("puzzles.puzzle");
}

// ---- loading --------------------------------------------------------------------------------
async function start() {
  const m = location.pathname.match(/^\/puzzles\/([^/]+)$/);
  if (m) await show(() => api.puzzle(decodeURIComponent(m[1])), false);
  else await next(false);
}

async function next(push = true) {
  const after = ui.puzzle ? ui.puzzle.id : "";
  await show(() => api.puzzleNext(choice.game, choice.theme, after, choice.pool), push);
}

async function daily() {
  await show(() => api.puzzleDaily(choice.game, choice.pool), true);
}

async function show(fetcher, push) {
  main.setAttribute("aria-busy", "true");
  try {
    const puzzle = await fetcher();
    ui.error = null;
    await open(puzzle);
    const url = `/puzzles/${puzzle.id}`;
    if (location.pathname !== url) history[push ? "pushState" : "replaceState"](null, "", url);
  } catch (err) {
    await loadErrors();
    ui.error = err;
    renderError();
  } finally {
    main.removeAttribute("aria-busy");
  }
}

window.addEventListener("popstate", () => start());

async function open(puzzle) {
  ui.puzzle = puzzle;
  ui.line = [];
  ui.state = puzzle.state;
  ui.status = "playing";
  ui.hint = false;
  ui.refusal = null;
  ui.showing = false;
  ui.rating = puzzle.player_rating ?? null;
  setMessage("puzzles.status.start");
  choice.follow(puzzle);
  if (!ui.board || ui.boardGame !== puzzle.game) {
    el.boardHost.replaceChildren();
    const mounted = await mountBoard(el.boardHost, puzzle.state, {
      onMove: (move) => play(move),
      names: (seat) => (seat === puzzle.to_move ? t("puzzles.you") : t("puzzles.computer")),
    });
    ui.board = mounted.board;
    ui.boardGame = puzzle.game;
  }
  el.steps.hidden = true;
  el.steps.replaceChildren();
  render();
}

// ---- playing --------------------------------------------------------------------------------
function canMove() {
  return ui.status === "playing" && !ui.busy && !ui.showing;
}

async function play(move) {
  if (!canMove()) return;
  const puzzle = ui.puzzle;
  const line = [...ui.line, move];
  ui.busy = true;
  ui.refusal = null;
  render();
  try {
    const got = await api.puzzleAttempt(puzzle.id, line);
    if (ui.puzzle !== puzzle) return; // another puzzle meanwhile
    ui.line = [...line, ...(got.reply || [])];
    ui.state = got.state;
    ui.status = got.status;
    if (got.rating !== undefined) ui.rating = got.rating;
    if (got.status === "solved") {
      setMessage("puzzles.status.solved");
      if (!remembered.key()) streak.solved();
    } else if (got.status === "failed") {
      setMessage("puzzles.status.failed");
      if (!remembered.key()) streak.failed();
    } else if (got.reply && got.reply.length) {
      setMessage("puzzles.status.reply", { moves: got.reply.map((m) => ui.board.describeMove(m)).join(", ") });
    } else {
      setMessage("puzzles.status.again");
    }
    ui.busy = false;
    render(true);
    announce(statusText(), got.done);
  } catch (err) {
    ui.busy = false;
    await loadErrors();
    ui.refusal = err;
    render();
  }
}

function retry() {
  if (!ui.puzzle) return;
  open(ui.puzzle);
}

function hint() {
  ui.hint = true;
  setMessage("puzzles.status.hint");
  render();
}

async function showSolution() {
  const puzzle = ui.puzzle;
  if (!puzzle || ui.showing) return;
  ui.showing = true;
  if (ui.status === "playing" && !remembered.key()) streak.failed();
  try {
    // giving up counts as a failed attempt for a player with a key (once, like any attempt)
    const got = await api.puzzleGiveUp(puzzle.id);
    const solution = got.solution;
    if (got.rating !== undefined) ui.rating = got.rating;
    const { states } = await api.puzzlePositions(puzzle.id, solution);
    ui.status = ui.status === "solved" ? "solved" : "failed";
    setMessage("puzzles.status.showing");
    el.steps.replaceChildren(...solution.map((m, i) => h("li", {
      "data-step": String(i), text: ui.board.describeMove(m),
    })));
    el.steps.hidden = false;
    ui.state = puzzle.state;
    render();
    for (let i = 0; i < states.length; i++) {
      await wait(reducedMotion() ? 0 : 700);
      if (ui.puzzle !== puzzle) return;
      ui.state = states[i];
      el.steps.querySelectorAll("li").forEach((li, k) => li.toggleAttribute("data-current", k === i));
      render(true);
    }
    setMessage("puzzles.status.shown");
  } catch (err) {
    await loadErrors();
    ui.refusal = err;
  } finally {
    ui.showing = false;
    render();
  }
}

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- drawing --------------------------------------------------------------------------------
function setMessage(key, vars = {}) {
  ui.message = key;
  ui.vars = vars;
}

function statusText() {
  return ui.message ? t(ui.message, ui.vars) : "";
}

function render(animate = false) {
  const puzzle = ui.puzzle;
  if (!puzzle) return;
  main.dataset.puzzle = puzzle.id;
  main.dataset.game = puzzle.game;
  main.dataset.status = ui.status;
  el.goal.textContent = goalText(puzzle.goal);
  el.meta.replaceChildren(
    h("span", { text: t("puzzles.meta", { game: gameTitle(puzzle), rating: num(puzzle.rating, { useGrouping: false }) }) }),
    ...puzzle.themes.map((th) => h("span", { class: "tag", "data-theme": th, text: themeName(th) })));
  el.status.textContent = statusText();
  el.status.dataset.kind = ui.status;
  el.scores.replaceChildren(...scores(puzzle));
  el.scores.hidden = !el.scores.childNodes.length;
  if (ui.refusal) {
    el.refusal.hidden = false;
    el.refusal.dataset.code = ui.refusal.code || "";
    el.refusal.textContent = errorText(ui.refusal);
  } else {
    el.refusal.hidden = true;
    el.refusal.textContent = "";
  }
  if (ui.board) {
    ui.board.update(ui.state, {
      mySeat: puzzle.to_move, canMove: canMove(), pending: ui.busy ? ui.line.at(-1) : null,
      animate, confirmTouch: false,
    });
    markHint(puzzle);
  }
  el.hint.disabled = ui.status !== "playing" || ui.hint;
  el.retry.hidden = ui.status === "playing";
  el.permalink.href = `/puzzles/${puzzle.id}`;
  el.score.replaceChildren(scoreLine());
}

/** "Dots and Boxes · 4×4": the game and, where it has more than one, the board. */
function gameTitle(puzzle) {
  const board = choice.board(puzzle);
  return board ? `${gameName(puzzle.game)} · ${board}` : gameName(puzzle.game);
}

/** Cells held so far (the Dots family: the goal is a margin), the player's first. */
function scores(puzzle) {
  const got = ui.state && ui.state.scores;
  if (!got || puzzle.goal.kind !== "margin") return [];
  const me = puzzle.to_move;
  const other = got.length === 2 ? 1 - me : null;
  const out = [h("span", { "data-score": String(me), text: t("puzzles.score.you", { n: num(got[me]) }) })];
  if (other !== null) {
    out.push(" · ", h("span", { "data-score": String(other), text: t("puzzles.score.computer", { n: num(got[other]) }) }));
  }
  return out;
}

function markHint(puzzle) {
  for (const old of el.boardHost.querySelectorAll("[data-hint]")) old.removeAttribute("data-hint");
  if (!ui.hint) return;
  for (const where of puzzle.hint || []) {
    const sel = /^\d+$/.test(where) ? `[data-cell="${where}"]` : `[data-square="${where}"]`;
    for (const node of el.boardHost.querySelectorAll(sel)) node.setAttribute("data-hint", "true");
  }
}

function scoreLine() {
  if (remembered.key()) {
    const value = ui.rating === null ? "—" : num(ui.rating, { useGrouping: false });
    return h("span", { "data-puzzle-rating": ui.rating ?? "", text: t("puzzles.rating", { rating: value }) });
  }
  const s = streak.get();
  return h("span", { "data-streak": String(s.now), text: t("puzzles.streak", { n: num(s.now), best: num(s.best) }) });
}

function renderError() {
  const err = ui.error;
  main.dataset.status = "";
  el.status.textContent = "";
  el.refusal.hidden = false;
  el.refusal.dataset.code = err.code || "";
  el.refusal.textContent = errorText(err);
}
