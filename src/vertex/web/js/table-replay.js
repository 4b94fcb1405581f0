// Replay and analysis on the table page, the part every table shows: the two buttons
// ([data-action="replay"], [data-action="analysis"]) and when they are offered. What they
// open (js/replay.js with js/analysis.js, their sheet and catalog, some 30 KB) is fetched on
// the first press of either, which it then carries out: most visitors never press one.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The replay is offered once there is a move to step back to (and while it is open). */
export function replayOffered(view, active) {
  return active || Boolean(view && view.state && view.state.ply);
}

/**
 * Analysis is offered for the position `shown` ({ply, state}: the board's, replayed or
 * live) when there is something left to play there, at a table whose game the server's
 * analysis covers (the view's `analysable`: the server's own rule), and never to a seated
 * player while their game runs (the server refuses them too).
 */
export function analysisOffered(view, mySeat, shown) {
  if (!view || !view.analysable) return false;
  // a finished board has nothing left to play (a resigned game's position still has)
  if (!shown || !shown.state || shown.state.is_over) return false;
  const seat = mySeat === null || mySeat === undefined ? null : view.seats[mySeat];
  return !(seat && seat.kind === "human" && !view.result);
}

/**
 * Fill `host` with the two buttons. deps: {id, model, board(), names(seat), redraw()}, as
 * js/replay.js takes them. Returns {active, render()}: call render() after every change of
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
  const buttons = {
    openButton, askButton, hint,
    bar: h("div", { class: "replay-bar" }, openButton),
    analysisHost: h("div", { class: "replay-analysis" }, askButton, hint),
  };
  host.append(buttons.bar, buttons.analysisHost);
  let panels = null; // js/replay.js's controller, from the first press on
  let loading = false;

  async function press(then) {
    if (loading) return; // the first press is fetching: it opens
    if (!panels) {
      loading = true;
      try {
        const mod = await import("./replay.js");
        panels = mod.createReplay(host, { ...deps, ...buttons });
      } catch (err) {
        console.error("replay could not be loaded", err);
        return;
      } finally {
        loading = false;
      }
      render();
    }
    then(panels);
  }
  openButton.addEventListener("click", () => press((p) => (p.active ? p.close() : p.open())));
  askButton.addEventListener("click", () => press((p) => p.ask()));

  function render() {
    openButton.textContent = t("table.replay.open");
    askButton.textContent = t("table.analysis.ask");
    hint.textContent = t("table.analysis.askHint");
    if (panels) {
      panels.render();
      return;
    }
    const view = deps.model.view;
    const st = view && view.state;
    openButton.hidden = !replayOffered(view, false);
    askButton.hidden = !analysisOffered(view, deps.model.mySeat, st && { ply: st.ply || 0, state: st });
    // nothing to offer (a seated player at the start of a live game): no empty panel
    host.hidden = openButton.hidden && askButton.hidden;
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
    live: () => { if (panels) panels.close(); },
    render,
  };
}
