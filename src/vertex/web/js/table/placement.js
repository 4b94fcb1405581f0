// Where the table's panels stand, by what the table needs first (issue 33):
// - while seats are free, the invitation (the share link and its QR code) comes before the
//   board, in the board's column: the first thing seen, on a phone as on a desktop;
// - on a wide screen a finished game's result stands at the top of the side column, beside
//   the board, so the board keeps its place and stays whole in view;
// - `data-stage` on the root (`waiting`, `playing`, `over`) lets the sheet arrange the rest
//   (on a phone, while playing, the seats with their scores and turn above the board).
import { isOver } from "./model.js";

const WIDE = window.matchMedia("(min-width: 880px)");

/** The stage of the table: seats still free, a game going on, or a finished game. */
export function stageOf(model) {
  if (isOver(model)) return "over";
  return model.view.seats.some((s) => s.kind === "human" && !s.name && !s.former) ? "waiting" : "playing";
}

/**
 * hosts: {main, column, side, links, linksBefore, result, resultBefore}: `result` goes
 * before `resultBefore` (its place in the column) or, on a wide screen once over, at the top
 * of `side`; `links` before `linksBefore` (its place in the side column) or, while inviting,
 * before `result` in the column.
 */
export function createPlacement(hosts) {
  const { main, column, side, links, linksBefore, result, resultBefore } = hosts;
  let stage = null;

  function put(el, parent, before) {
    if (el.parentNode === parent && (el.nextSibling === before || el === before)) return;
    const focused = el.contains(document.activeElement) ? document.activeElement : null;
    parent.insertBefore(el, before);
    if (focused && focused !== document.activeElement) focused.focus({ preventScroll: true });
  }

  function place() {
    if (stage === null) return;
    if (stage === "over" && WIDE.matches) put(result, side, side.firstChild);
    else put(result, column, resultBefore);
    // while inviting the result is in the column (there is none yet): the links go before it
    if (stage === "waiting") put(links, column, result);
    else put(links, side, linksBefore);
  }
  WIDE.addEventListener("change", place);

  return {
    render(model) {
      stage = stageOf(model);
      main.dataset.stage = stage;
      place();
    },
  };
}
