// Replay and analysis on the table page, the part every table shows: the two buttons
// ([data-action="replay"], [data-action="analysis"]) and when they are offered. What they
// open (js/table/replay.js with js/table/analysis.js, their sheet and catalog, some 30 KB) is
// fetched on the first press of either, which it then carries out: most visitors never press one.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/** The replay is offered once there is a move to step back to (and while it is open). */
export function replayOffered(view, active) {
  return active || Boolean(view && view.state && view.state.ply);
}

/**
 * Analysis is offered for the position `shown` ({ply, state}: the board's, replayed or
 * live) when the server's table view says the table offers it now (`view.analysis` null:
 * the server's own rule, server/table/analysable.py gate) and there is something left to play
 * there.
 */
export function analysisOffered(view, shown) {
  if (!view || view.analysis !== null) return false;
  // a finished board has nothing left to play (a resigned game's position still has)
  return Boolean(shown && shown.state && !shown.state.is_over);
}

/** A finished game whose board shows its last position (nothing left to play there): the
 * button stays, as the page promised during play, and opens the replay at the start with
 * perfect play for that position (js/table/replay.js ask()). */
export function analysisFromStart(view, shown) {
  return Boolean(view && view.analysis === null && view.result
    && shown && shown.state && shown.state.is_over && shown.state.ply);
}

/** A live game at a table set up without analysis during play: the button stays, disabled,
 * with the reason beside it (`[data-analysis-closed]`). */
export function analysisClosed(view) {
  return Boolean(view && view.analysis === "analysis-closed");
}

/** The review of the whole game (js/table/review.js) is offered for the games it covers
 * (`view.reviewable`) once a move was played, when the game is over or at a practice table
 * (analysis allowed during play): the server's rule, server/pages/review.py. */
export function reviewOffered(view) {
  if (!view || !view.reviewable || !view.state || !view.state.ply) return false;
  return Boolean(view.result || view.state.is_over || (view.settings && view.settings.analysis));
}

/** The analysis button as the table has it now: offered, closed (disabled, with its
 * reason shown) or absent (a game the analysis does not cover). */
export function showAnalysisButton(button, reason, view, shown) {
  const closed = analysisClosed(view);
  const fromStart = analysisFromStart(view, shown);
  button.hidden = !closed && !fromStart && !analysisOffered(view, shown);
  button.disabled = closed;
  reason.hidden = !closed;
  if (closed) button.setAttribute("aria-describedby", reason.id);
  else button.setAttribute("aria-describedby", "analysis-hint");
  const hint = button.parentElement && button.parentElement.querySelector("#analysis-hint");
  if (hint) hint.textContent = t(fromStart ? "table.analysis.askHintOver" : "table.analysis.askHint");
}

/**
 * Fill `host` with the two buttons. deps: {id, model, board(), names(seat), redraw()}, as
 * js/table/replay.js takes them. Returns {active, render()}: call render() after every change of
 * the table; while `active` (a replayed position on the board) the table must not draw the
 * board.
 */
export function createReplay(host, deps) {
  const openButton = h("button", {
    type: "button", class: "replay-open", "data-action": "replay", "aria-expanded": "false",
  });
  const askButton = h("button", {
    type: "button", class: "analysis-ask", "data-action": "analysis", "aria-describedby": "analysis-hint",
  });
  const hint = h("span", { id: "analysis-hint", class: "sr-only" });
  const reviewButton = h("button", { type: "button", class: "review-open", "data-action": "review" });
  const reviewHost = h("div", { class: "replay-review" }, reviewButton);
  const closedReason = h("p", {
    id: "analysis-closed", class: "hint analysis-closed", "data-analysis-closed": "", hidden: true,
  });
  const buttons = {
    openButton, askButton, hint, closedReason,
    bar: h("div", { class: "replay-bar" }, openButton),
    analysisHost: h("div", { class: "replay-analysis" }, askButton, hint, closedReason),
  };
  host.append(buttons.bar, buttons.analysisHost, reviewHost);
  let panels = null; // js/table/replay.js's controller, from the first press on
  let loading = false;
  let review = null; // js/table/review.js's panel, from the first press of its button on
  let reviewLoading = null;

  async function pressReview() {
    reviewLoading ??= import("./review.js").then((mod) => {
      review = mod.createReview(reviewHost, {
        id: deps.id, model: deps.model, board: deps.board, names: deps.names,
        show: (ply) => press((p) => p.show(ply)),
        replayPly: () => (panels && panels.active ? panels.ply : null),
      });
      reviewButton.setAttribute("aria-expanded", "true");
      return review;
    });
    try {
      (await reviewLoading).start();
    } catch (err) {
      console.error("review could not be loaded", err);
      reviewLoading = null;
    }
  }
  reviewButton.addEventListener("click", () => pressReview());

  async function press(then) {
    if (loading) return; // the first press is fetching: it opens
    if (!panels) {
      loading = true;
      try {
        const mod = await import("./replay.js");
        panels = mod.createReplay(host, {
          ...deps, ...buttons,
          stepped: () => { if (deps.stepped) deps.stepped(); if (review) review.stepped(); },
        });
      } catch (err) {
        console.error("replay could not be loaded", err);
        return;
      } finally {
        loading = false;
      }
      render();
    }
    return then(panels);
  }
  openButton.addEventListener("click", () => press((p) => (p.active ? p.close() : p.open())));
  askButton.addEventListener("click", () => press((p) => p.ask()));

  function render() {
    openButton.textContent = t("table.replay.open");
    askButton.textContent = t("table.analysis.ask");
    closedReason.textContent = t("table.analysis.closed");
    reviewButton.textContent = t("table.review.open");
    reviewButton.hidden = !reviewOffered(deps.model.view);
    if (review) review.render();
    if (panels) {
      panels.render();
      return;
    }
    const view = deps.model.view;
    const st = view && view.state;
    openButton.hidden = !replayOffered(view, false);
    showAnalysisButton(askButton, closedReason, view, st && { ply: st.ply || 0, state: st });
    // nothing to offer: no empty panel
    host.hidden = openButton.hidden && askButton.hidden && reviewButton.hidden;
    // A link to a game's replay (the Verticality bests board's) ends in #replay: open it once.
    if (!openButton.hidden && location.hash === "#replay") {
      history.replaceState(history.state, "", location.pathname + location.search);
      press((p) => p.open());
    }
  }

  render();
  return {
    get active() { return Boolean(panels && panels.active); },
    /** The ply shown while replaying (a peek from the move list), else null. */
    get peeking() { return panels && panels.active ? panels.ply : null; },
    peek: (ply) => press((p) => p.show(ply)),
    /** The review's progress from the table's socket ({t: "review", done, total}). */
    reviewProgress: (msg) => { if (review) review.progress(msg); },
    live: () => { if (panels) panels.close(); },
    render,
  };
}
