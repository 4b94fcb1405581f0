// A rules page's lesson (Dots and Boxes, Dots and Triangles): a few steps on the real board,
// each a puzzle the server picked and judges with the solver (GET /api/lessons/{game}, then
// the puzzle routes). The page offers only the moves the server lists and shows, after each
// step, the sentence of why. Hooks: `[data-lesson="GAME"]` with `data-step` (the step shown)
// and `data-status` (playing, solved, failed); `[data-lesson-step="K"]` in the step list.
import { api } from "../shared/api.js";
import { announce, h } from "../shared/dom.js";
import { errorText, loadErrors } from "../shared/errors.js";
import { loadCatalogs, onLangChange, t } from "../shared/i18n.js";
import { mountBoard } from "../table/board.js";

await loadCatalogs("lessons", "table");

export async function mountLesson(host, game) {
  const data = await api.get(`/api/lessons/${encodeURIComponent(game)}`);
  const steps = data.steps || [];
  const done = new Set();
  const ui = { k: 0, line: [], state: null, status: "playing", board: null, busy: false, error: null };
  const root = h("div", { class: "lesson", "data-lesson": game });
  const list = h("ol", { class: "lesson-steps" });
  const task = h("p", { class: "lesson-task" });
  const status = h("p", { class: "lesson-status", role: "status" });
  const boardHost = h("div", { class: "lesson-board" });
  const retry = h("button", { type: "button", class: "button", "data-action": "lesson-retry", hidden: true, text: t("lessons.retry"), onclick: () => open(ui.k) });
  const next = h("button", { type: "button", class: "button primary", "data-action": "lesson-next", text: t("lessons.next"), onclick: () => open(ui.k + 1) });
  // the buttons are worded from the start: the board loads before the first render
  root.append(h("p", { class: "lesson-intro", text: t("lessons.intro") }), list, task, status, boardHost, h("p", { class: "lesson-actions" }, retry, next));
  host.replaceChildren(root);

  const key = (k, part) => `lessons.${game}.${steps[k].step}.${part}`;

  async function open(k) {
    ui.k = Math.max(0, Math.min(k, steps.length - 1));
    ui.line = [];
    ui.status = "playing";
    ui.error = null;
    const puzzle = steps[ui.k].puzzle;
    ui.state = puzzle.state;
    if (!ui.board) {
      const mounted = await mountBoard(boardHost, puzzle.state, {
        onMove: (move) => play(move),
        names: (seat) => (seat === puzzle.to_move ? t("lessons.you") : t("lessons.computer")),
      });
      ui.board = mounted.board;
    }
    render();
  }

  async function play(move) {
    if (ui.status !== "playing" || ui.busy) return;
    const puzzle = steps[ui.k].puzzle;
    const line = [...ui.line, move];
    ui.busy = true;
    try {
      const got = await api.puzzleAttempt(puzzle.id, line);
      ui.line = [...line, ...(got.reply || [])];
      ui.state = got.state;
      ui.status = got.status;
      if (got.status === "solved") done.add(ui.k);
      ui.error = null;
    } catch (err) {
      await loadErrors();
      ui.error = err;
    }
    ui.busy = false;
    render(true);
    if (ui.status !== "playing") announce(status.textContent, true);
  }

  function render(animate = false) {
    const puzzle = steps[ui.k].puzzle;
    root.dataset.step = String(ui.k);
    root.dataset.status = ui.status;
    root.querySelector(".lesson-intro").textContent = t("lessons.intro");
    list.replaceChildren(...steps.map((s, k) => h("li", {
      "data-lesson-step": String(k),
      "aria-current": k === ui.k ? "step" : null,
      class: done.has(k) ? "done" : null,
    }, h("button", { type: "button", class: "linkish", onclick: () => open(k),
      text: `${done.has(k) ? "✓ " : ""}${t(`lessons.step.${s.step}`)}` }))));
    task.textContent = t(key(ui.k, "task"));
    if (ui.error) status.textContent = errorText(ui.error);
    else if (ui.status === "solved") status.textContent = `✓ ${t("lessons.right")} ${t(key(ui.k, "why"))}`;
    else if (ui.status === "failed") status.textContent = `✗ ${t("lessons.wrong")} ${t(key(ui.k, "why"))}`;
    else status.textContent = t("lessons.play");
    ui.board.update(ui.state, { mySeat: puzzle.to_move, canMove: ui.status === "playing" && !ui.busy, animate, confirmTouch: false });
    retry.textContent = t("lessons.retry");
    next.textContent = t("lessons.next");
    retry.hidden = ui.status === "playing";
    next.hidden = ui.k >= steps.length - 1;
  }

  onLangChange(() => { if (ui.board) render(); });
  if (steps.length) await open(0);
}
