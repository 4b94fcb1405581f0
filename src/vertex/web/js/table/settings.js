// The table's settings as rows of a list: the options it was opened with (in the lobby's
// words, from the options' catalog), take-backs, analysis during play and the clock. Fetched the first time the
// settings are opened (js/table/info.js): closed, they show nothing.
import { h } from "../shared/dom.js";
import { has, loadCatalogs, num, t } from "../shared/i18n.js";
import { clockRule } from "./text.js";

await loadCatalogs("table-settings", "options");

function value(game, option, v) {
  if (v === true) return t("table.info.yes");
  if (v === false) return t("table.info.no");
  if (typeof v === "number") return num(v);
  if (Array.isArray(v)) return v.join(", ");
  if (v && typeof v === "object") return JSON.stringify(v);
  const key = `option.${game}.${option}.${v}`; // enum values in the lobby's words
  return has(key) ? t(key) : String(v);
}

/** The <dt>/<dd> pairs for `view`'s settings. */
export function settingsRows(view) {
  const rows = [];
  for (const [key, v] of Object.entries(view.options || {})) {
    const label = `option.${view.game}.${key}.label`;
    rows.push([has(label) ? t(label) : key, value(view.game, key, v)]);
  }
  const settings = view.settings || {};
  rows.push([t("table.info.undo"), t(settings.undo ? "table.info.yes" : "table.info.no")]);
  rows.push([t("table.info.analysis"), t(settings.analysis ? "table.info.yes" : "table.info.no")]);
  rows.push([t("table.info.clock"), settings.clock ? clockRule(settings.clock) : t("table.info.noClock")]);
  if (settings.clock) {
    rows.push([t("table.info.onTimeout"),
      t(settings.on_timeout === "lose" ? "table.info.timeoutLose" : "table.info.timeoutComputer")]);
  }
  return rows.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })]);
}
