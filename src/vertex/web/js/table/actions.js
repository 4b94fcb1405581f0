// A player's table actions: take back a move, end by agreement, let the computer play,
// resign (or, before the first move, cancel the table), rematch. Answering another's
// take-back request is with the request itself, above the board (js/table/status.js). Spectators get none (the server would refuse them anyway). What the
// buttons offer follows the server's open requests; the server decides everything.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { amPlaying, canEndByAgreement, isOver } from "./model.js";
import { seatName } from "./text.js";

/**
 * deps: {send(msg) -> Promise<ack>, fail(err), rematched(tableId)}
 */
export function createActions(host, deps) {
  const heading = h("h2", { id: "actions-heading" });
  const undo = h("button", { type: "button", "data-action": "undo" });
  const end = h("button", { type: "button", "data-action": "end" });
  const handOver = h("button", { type: "button", "data-action": "hand-over", "data-seat": "" });
  const resign = h("button", { type: "button", class: "danger", "data-action": "resign" });
  const cancel = h("button", { type: "button", class: "danger", "data-action": "cancel" });
  const rematch = h("button", { type: "button", class: "primary", "data-action": "rematch" });
  const buttons = h("div", { class: "action-buttons" }, rematch, undo, end, handOver, resign, cancel);
  host.replaceChildren(heading, buttons);
  host.setAttribute("aria-labelledby", heading.id);

  let dialogs = null; // {resign, handOver}: made on the first question (table/dialog.js)
  let model = null;
  const busy = new Set();

  async function run(button, msg) {
    if (busy.has(button)) return null;
    busy.add(button);
    button.disabled = true;
    try {
      return await deps.send(msg);
    } catch (err) {
      deps.fail(err);
      return null;
    } finally {
      busy.delete(button);
      if (model) render(model);
    }
  }

  undo.addEventListener("click", () => run(undo, { t: "undo-request" }));
  end.addEventListener("click", () => {
    const agreed = (model.view.requests && model.view.requests.end) || [];
    run(end, { t: agreed.length ? "end-accept" : "end-request" });
  });
  /** The confirmation dialogs and their words are fetched when first asked for: most
   * games end without anyone resigning or handing a seat over. */
  async function confirmations() {
    dialogs ??= import("./dialog.js").then(
      (mod) => ({ resign: mod.dialog(), handOver: mod.dialog(true) }),
      (err) => { dialogs = null; throw err; }, // the next press tries again
    );
    try {
      return await dialogs;
    } catch (err) {
      deps.fail(err);
      return null;
    }
  }

  resign.addEventListener("click", async () => {
    const asked = await confirmations();
    if (!asked) return;
    const ok = await asked.resign.ask({
      title: t("table.resign.title"), text: t("table.resign.text"), confirm: t("table.resign.confirm"),
    });
    if (ok) run(resign, { t: "resign" });
  });
  cancel.addEventListener("click", async () => {
    const asked = await confirmations();
    if (!asked) return;
    const ok = await asked.resign.ask({
      title: t("table.cancel.title"), text: t("table.cancel.text"), confirm: t("table.cancel.confirm"),
    });
    if (ok) run(cancel, { t: "cancel" });
  });
  rematch.addEventListener("click", async () => {
    const ack = await run(rematch, { t: "rematch" });
    if (ack && ack.table) deps.rematched(ack.table);
  });

  /** Let the computer play seat `n` (ours when n is our seat): asks for the level first. */
  async function handOverSeat(n, button) {
    const mine = n === model.mySeat;
    const name = seatName(model.view, n);
    const free = !model.view.seats[n].name;
    const asked = await confirmations();
    if (!asked) return;
    const level = await asked.handOver.ask({
      title: mine ? t("table.handOver.titleMine")
        : free ? t("table.handOver.titleFree", { n: n + 1 }) : t("table.handOver.titleOther", { name }),
      text: mine ? t("table.handOver.textMine") : t("table.handOver.textOther"),
      confirm: t("table.handOver.confirm"),
    });
    if (level) run(button || handOver, { t: "hand-over", seat: n, level: Number(level) });
  }
  handOver.addEventListener("click", () => handOverSeat(model.mySeat, handOver));

  function render(m) {
    model = m;
    const view = m.view;
    const playing = amPlaying(m);
    host.hidden = !playing;
    // Spectators get no controls at all (not just hidden ones).
    if (!playing) {
      host.replaceChildren();
      return;
    }
    if (!host.contains(buttons)) host.replaceChildren(heading, buttons);
    heading.textContent = t("table.actions.heading");
    const over = isOver(m);
    const running = view.started && !over;
    const req = view.requests || { undo: null, undo_accepts: [], end: [] };

    const noGame = over && ["expired", "cancelled"].includes(view.result.reason);
    rematch.hidden = !over || Boolean(view.rematch) || noGame;
    rematch.textContent = t("table.action.rematch");

    // "take back" only with a move of mine to take back (the server's `undoable`), and my
    // own request while it is open; another's request is answered where it is shown
    const open = req.undo !== null && req.undo !== undefined;
    const mine = (req.undoable || []).includes(m.mySeat);
    undo.hidden = !(running && view.settings && view.settings.undo && (open ? req.undo === m.mySeat : mine));
    if (open) set(undo, t("table.action.undoAsked"), true);
    else set(undo, t("table.action.undo"), false);

    end.hidden = !(running && canEndByAgreement(m));
    const agreed = req.end || [];
    if (agreed.includes(m.mySeat)) set(end, t("table.action.endAsked"), true);
    else if (agreed.length) set(end, t("table.action.endAccept"), false);
    else set(end, t("table.action.end"), false);

    // before the first move there is no game to resign or hand over: the table is called off
    const unplayed = !over && !(view.state && view.state.ply);
    handOver.hidden = over || !view.started;
    handOver.dataset.seat = String(m.mySeat);
    set(handOver, t("table.action.handOver"), false);
    resign.hidden = over || unplayed;
    set(resign, t("table.action.resign"), false);
    cancel.hidden = !unplayed;
    set(cancel, t("table.action.cancel"), false);
    for (const b of busy) b.disabled = true;
    // Only what can be done now is in the page (a hook present = an action offered);
    // the list is touched only when it changes, so the focused button keeps its focus.
    const offered = [rematch, undo, end, handOver, resign, cancel].filter((b) => !b.hidden);
    const now = [...buttons.children];
    if (offered.length !== now.length || offered.some((b, i) => b !== now[i])) {
      buttons.replaceChildren(...offered);
    }
    // nothing to do (a table called off, a game over with its rematch made): no empty card
    host.hidden = offered.length === 0;
  }

  return { render, handOverSeat: (n) => handOverSeat(n, null) };
}

function set(button, text, disabled) {
  button.textContent = text;
  button.disabled = disabled;
}
