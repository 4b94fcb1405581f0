// The table's confirmations (resign; let the computer play a seat, at which level) as modal
// <dialog>s, with their words (i18n/<lang>/table-dialog.json). Fetched on the first question
// (table/actions.js): a page that never asks carries neither.
import { addSheet, h } from "../shared/dom.js";
import { loadCatalogs, t } from "../shared/i18n.js";

await Promise.all([
  loadCatalogs("table-dialog"),
  addSheet(new URL("../../css/table-dialog.css", import.meta.url).href),
]);

/** A confirmation <dialog>; with `level`, it asks for a computer level (1-5) too.
 * ask() resolves with false (cancelled), true, or the chosen level. */
export function dialog(level = false) {
  const title = h("h2", { id: `dlg-${Math.random().toString(36).slice(2)}` });
  const text = h("p");
  const select = level
    ? h("select", { name: "level", id: `${title.id}-level` },
      ...[1, 2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === 2 })))
    : null;
  const selectLabel = level ? h("label", { for: select.id }) : null;
  const cancel = h("button", { type: "submit", value: "cancel" });
  const ok = h("button", { type: "submit", value: "ok", class: "danger", "data-confirm": true });
  const el = h("dialog", { "aria-labelledby": title.id, class: "table-dialog" },
    h("form", { method: "dialog" }, title, text,
      level ? h("div", { class: "field" }, selectLabel, select) : null,
      h("div", { class: "buttons" }, cancel, ok)));
  document.body.append(el);
  return {
    ask({ title: head, text: body, confirm }) {
      title.textContent = head;
      text.textContent = body;
      cancel.textContent = t("common.cancel");
      ok.textContent = confirm;
      if (level) {
        selectLabel.textContent = t("table.handOver.level");
        for (const o of select.options) o.textContent = t("common.level", { level: o.value });
      }
      el.returnValue = "";
      el.showModal();
      cancel.focus();
      return new Promise((resolve) => {
        el.addEventListener("close", () => {
          if (el.returnValue !== "ok") resolve(false);
          else resolve(level ? select.value : true);
        }, { once: true });
      });
    },
  };
}
