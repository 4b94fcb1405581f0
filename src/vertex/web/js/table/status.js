// The lines above the board: whose turn it is, the open requests (a take-back request with
// its answer buttons, together and in view on a phone), what became of my own request, and
// the last refusal from the server (shown here and announced). A finished game has none of these to show: the
// table fetches this module once it has (js/table/main.js onDemand).
import { announce, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { amPlaying, clockOut, isMyTurn, isOver, turn } from "./model.js";
import { nameList, seatName } from "./text.js";

/** deps: {send(msg) -> Promise<ack>, fail(err)}: for answering a take-back request. */
export function createStatus(host, deps) {
  const turnLine = h("p", { class: "turn-line", "data-turn-line": true });
  const requests = h("p", { class: "requests-line", "data-requests": true });
  const accept = h("button", { type: "button", class: "primary", "data-action": "undo-accept" });
  const decline = h("button", { type: "button", "data-action": "undo-decline" });
  const question = h("p", { class: "undo-question" });
  const answer = h("div", { class: "undo-answer", role: "group", "data-undo-request": "", hidden: true },
    question, h("div", { class: "action-buttons" }, accept, decline));
  const note = h("p", { class: "notice", "data-undo-note": "", hidden: true });
  const clockNote = h("p", { class: "notice", "data-clock-note": "", hidden: true });
  const error = h("p", { class: "notice bad", "data-error": true, hidden: true });
  host.replaceChildren(turnLine, requests, answer, note, clockNote, error);
  answer.setAttribute("aria-labelledby", "undo-question");
  question.id = "undo-question";
  let noteKey = null; // {key, vars}: what became of my take-back request
  let clockKey = null; // {key, vars}: a move the computer made for a seat out of time
  let lastOut = null; // that seat, as the server's clock_plies say (model.js clockOut)
  let answering = false;
  async function reply(msg) {
    if (answering) return;
    answering = true;
    accept.disabled = decline.disabled = true;
    try {
      await deps.send(msg);
    } catch (err) {
      deps.fail(err);
    } finally {
      answering = false;
      accept.disabled = decline.disabled = false;
    }
  }
  accept.addEventListener("click", () => reply({ t: "undo-accept" }));
  decline.addEventListener("click", () => reply({ t: "undo-decline" }));
  let errorKey = null; // the error shown, to retranslate its lead on a language switch

  function who(view, n) {
    const swatch = h("span", { class: "swatch small", "aria-hidden": "true",
      text: seatSymbol(n, view.state.board) });
    swatch.style.background = seatColor(n);
    return [swatch, " ", seatName(view, n)];
  }

  return {
    render(model) {
      const view = model.view;
      const due = turn(model);
      const waitingFor = view.seats.filter((s) => s.kind === "human" && !s.name && !s.former).length;
      turnLine.classList.toggle("mine", isMyTurn(model));
      turnLine.hidden = isOver(model); // the result banner says it
      if (isOver(model)) {
        turnLine.replaceChildren();
      } else if (!view.started) {
        turnLine.replaceChildren(t("table.turn.waiting", { n: waitingFor }));
      } else if (isMyTurn(model)) {
        turnLine.replaceChildren(h("span", { class: "marker", "aria-hidden": "true", text: "▶" }),
          " ", h("strong", { text: t("table.turn.yours") }));
      } else if (due.length) {
        // The names carry their symbols, so the sentence is cut where the names go.
        const [before, after = ""] = t("table.turn.theirs", { names: "\u0000" }).split("\u0000");
        const names = due.flatMap((n, j) => (j ? [", ", ...who(view, n)] : who(view, n)));
        turnLine.replaceChildren(h("span", { class: "marker", "aria-hidden": "true", text: "▶" }),
          " ", before, ...names, after);
      } else {
        turnLine.replaceChildren();
      }

      const req = view.requests || {};
      const lines = [];
      const asker = req.undo ?? null;
      // a request I am asked to answer: the question with its buttons, nothing else
      const toAnswer = asker !== null && amPlaying(model) && asker !== model.mySeat
        && !(req.undo_accepts || []).includes(model.mySeat);
      answer.hidden = !toAnswer;
      if (toAnswer) {
        question.textContent = t("table.request.undo", { name: seatName(view, asker) });
        accept.textContent = t("table.action.undoAccept", { name: seatName(view, asker) });
        decline.textContent = t("table.action.undoDecline");
      } else if (asker !== null) {
        const agreed = (req.undo_accepts || []).includes(model.mySeat);
        lines.push(t(agreed ? "table.action.undoAccepted" : "table.request.undo", { name: seatName(view, asker) }));
      }
      note.hidden = !noteKey;
      note.textContent = noteKey ? t(noteKey.key, noteKey.vars) : "";
      // A seat's time ran out and the computer moved for it ([data-clock-out="N"]): said
      // until a player moves again, from the server's `clock_plies`, so a page opened
      // afterwards says it too (the live event's words, with the move, when we saw it).
      const out = clockOut(model);
      lastOut = out;
      if (out === null) clockKey = null;
      else if (!clockKey || clockKey.vars.seat !== out) {
        clockKey = { key: "table.say.timeOutComputer", vars: { name: seatName(view, out), seat: out } };
      }
      clockNote.hidden = !clockKey;
      clockNote.textContent = clockKey ? t(clockKey.key, clockKey.vars) : "";
      if (clockKey) clockNote.dataset.clockOut = String(clockKey.vars.seat);
      else delete clockNote.dataset.clockOut;
      if (req.end && req.end.length) {
        lines.push(t("table.request.end", { names: nameList(req.end.map((n) => seatName(view, n))) }));
      }
      requests.textContent = lines.join(" ");
      requests.hidden = lines.length === 0;
      if (errorKey) this.error(errorKey.lead, errorKey.message, false, errorKey.vars);
    },
    /** What became of my take-back request (declined, or the other moved on): shown until
     *  the next request, and announced. null clears it. */
    undoNote(key, vars = {}) {
      noteKey = key ? { key, vars } : null;
      note.hidden = !noteKey;
      note.textContent = noteKey ? t(key, vars) : "";
      if (noteKey) announce(note.textContent, true);
    },
    /** A clock ran out and the move was made for its seat: said at that moment, shown
     *  until the next move made by a player. null clears it. */
    clockNote(key, vars = {}) {
      if (key && vars.seat === undefined) vars.seat = lastOut; // (vars may word a move lazily)
      clockKey = key ? { key, vars } : null;
      clockNote.hidden = !clockKey;
      clockNote.textContent = clockKey ? t(key, vars) : "";
      if (clockKey && clockKey.vars.seat !== null) clockNote.dataset.clockOut = String(clockKey.vars.seat);
      else delete clockNote.dataset.clockOut;
      if (clockKey) announce(clockNote.textContent, true);
    },
    /** Show (and announce) a refusal: the words for it (`lead` with `vars`), and where the
     *  page has none of its own the server's reason after them. */
    error(lead, message, say = true, vars = {}) {
      errorKey = { lead, message, vars };
      const words = t(lead, vars);
      const text = message ? `${words} ${message}` : words;
      error.replaceChildren(h("strong", { text: words }), message ? ` ${message}` : "");
      error.hidden = false;
      if (say) announce(text, true);
    },
    clearError() {
      errorKey = null;
      error.hidden = true;
      error.replaceChildren();
    },
  };
}
