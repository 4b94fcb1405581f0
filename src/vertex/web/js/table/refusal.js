// The reason for the last refused move or aim, on any board, under the board: the page hook
// `[data-refusal]` (its text in the page's language, `data-code` the server's code). Boards
// hand their refusals here (`refuse(code, text)`); so does a move the server refused. Saying
// it aloud is the caller's: a board speaks its own words, the status line the server's.
import { h } from "../shared/dom.js";

export function createRefusal(host) {
  const line = h("p", { class: "refusal", "data-refusal": "", hidden: true });
  host.replaceChildren(line);
  return {
    show(code, text) {
      line.dataset.code = code || "refused";
      line.textContent = text;
      line.hidden = false;
    },
    clear() {
      if (line.hidden) return;
      line.hidden = true;
      line.textContent = "";
      delete line.dataset.code;
    },
  };
}
