// A plain move form for games whose board is not drawn yet: type a move in the game's
// notation. It has the board interface (README), so the table treats it like any board.
// The server still checks every move; its refusal is shown like any other.
import { addSheet, h } from "../shared/dom.js";
import { loadCatalogs, t } from "../shared/i18n.js";

// Only tables that show this form fetch its words and its sheet.
await Promise.all([
  loadCatalogs("table-textboard"),
  addSheet(new URL("../../css/table-textboard.css", import.meta.url).href),
]);

const MAX_LISTED = 300; // offer the legal moves as suggestions when there are not too many

let forms = 0;

export function createBoard(host, { onMove }) {
  const n = ++forms;
  const input = h("input", {
    name: "move", id: `move-input-${n}`, autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", list: `move-list-${n}`, "aria-describedby": `move-help-${n}`,
  });
  const list = h("datalist", { id: `move-list-${n}` });
  const help = h("p", { class: "hint", id: `move-help-${n}` });
  const label = h("label", { for: input.id });
  const submit = h("button", { type: "submit", class: "primary", "data-move-submit": true });
  const last = h("p", { class: "last-move" });
  const intro = h("p", { class: "hint" });
  const form = h("form", { class: "text-board", "data-text-board": true },
    intro, last, h("div", { class: "field" }, label, h("div", { class: "row" }, input, submit), help),
    list);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const move = input.value.trim();
    if (!move || input.disabled) return;
    onMove(move);
  });
  host.replaceChildren(form);
  let shown = null; // the state drawn, to keep the typed text while nothing changed

  return {
    update(state, ctx) {
      intro.textContent = t("table.text.intro");
      label.textContent = t("table.text.label");
      submit.textContent = t("table.text.submit");
      const legal = Array.isArray(state.legal_moves) ? state.legal_moves : null;
      help.textContent = legal && legal.length
        ? t("table.text.help", { example: legal[0] })
        : t("table.text.helpFree");
      const lm = state.last_move;
      const shownMove = lm && lm.move !== null && lm.move !== undefined; // (a sealed move: no text)
      last.textContent = shownMove ? t("table.text.last", { move: lm.move }) : "";
      last.hidden = !shownMove;
      if (shown !== state) {
        if (shown && shown.ply !== state.ply) input.value = "";
        list.replaceChildren(...(legal && legal.length <= MAX_LISTED
          ? legal.map((m) => h("option", { value: m })) : []));
        shown = state;
      }
      input.disabled = !ctx.canMove;
      submit.disabled = !ctx.canMove;
      if (ctx.pending) input.value = ctx.pending;
      form.toggleAttribute("data-pending", Boolean(ctx.pending));
    },
    describeMove: (move) => move,
    focus: () => input.focus(),
    destroy: () => host.replaceChildren(),
  };
}
