// The table's heading and its settings: the game's name, a link to its rules, and the options
// it was opened with — listed by js/table/settings.js, fetched when the settings are first
// opened (closed, they show nothing).
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { gameName } from "./text.js";

export function createInfo(titleHost, detailsHost) {
  const title = h("h1", { class: "table-title" });
  const rules = h("a", { class: "rules-link" });
  // the version played, in words (js/shared/version-words.js, fetched with its catalog)
  const words = h("p", { class: "table-version", "data-version-words": "", hidden: true });
  titleHost.replaceChildren(title, rules, words);
  let say = null;
  const summary = h("summary");
  const list = h("dl", { class: "options" });
  const details = h("details", {}, summary, list);
  detailsHost.replaceChildren(details);
  let rows = null; // settingsRows(view), once fetched
  let view = null;

  details.addEventListener("toggle", () => {
    if (!details.open || rows) return;
    import("./settings.js").then((mod) => {
      rows = mod.settingsRows;
      list.replaceChildren(...rows(view));
    }, (err) => console.error("the table settings could not be loaded", err));
  });

  /** The version words' module and the game's words, loaded (a no-op once they are): the
   * page waits for them before its first frame, so the line does not push the board down a
   * moment after it is drawn (a click aimed just then would miss its line). */
  const prepare = (view) => import("../shared/version-words.js").then(async (mod) => {
    await mod.loadVersionWords(view.game, Boolean(view.version_words));
    say = mod.versionWords;
  });

  return {
    prepare,
    render(model) {
      view = model.view;
      title.textContent = gameName(view);
      rules.textContent = t("table.info.rules");
      rules.href = `/rules/${encodeURIComponent(view.game)}`;
      summary.textContent = t("table.info.heading");
      if (rows) list.replaceChildren(...rows(view));
      const show = () => {
        const text = say(view.game, view.options);
        words.textContent = text;
        words.hidden = !text;
      };
      if (say) show();
      else prepare(view).then(show, (err) => console.error("the version words could not be loaded", err));
    },
  };
}
