// A refusal in the page's language, from the server's code and params alone (never its
// English message): the `errors` catalog has `error.<code>` and, where a code has several
// causes, `error.<code>.<why|problem>`, and for a refused move the game's rule,
// `error.illegal-move.<rule>` with the rule's numbers (tests/server/test_error_codes.py keeps
// them complete).

import { has, loadCatalogs, num, t } from "./i18n.js";

/** Fetch the errors catalog (with the first refusal: most visits never see one). */
export function loadErrors() {
  return loadCatalogs("errors");
}

/** The catalog key and values for `err` ({code, params, option}), or null if the catalog
 * has no words for its code. `label(option)` names an option in the page's words. */
export function errorWords(err, label = (option) => option) {
  const params = err.params || {};
  const reason = err.reason && typeof err.reason === "object" ? err.reason : {};
  const vars = { ...params, ...reason };
  if (err.option) vars.option = label(err.option);
  for (const [k, v] of Object.entries(vars)) {
    if (Array.isArray(v)) vars[k] = v.join(", ");
    // the local way, to the tenth the server decided by (1.1 mm, never "1 mm" for 1.04)
    else if (typeof v === "number") vars[k] = num(v, { maximumFractionDigits: 1, useGrouping: false });
  }
  // (players' refusals name their cause `reason`: bad-name, not-ratable)
  const sub = params.why || params.problem || reason.rule ||
    (typeof params.reason === "string" ? params.reason : null);
  if (sub && has(`error.${err.code}.${sub}`)) return { key: `error.${err.code}.${sub}`, vars };
  if (has(`error.${err.code}`)) return { key: `error.${err.code}`, vars };
  return null;
}

/** The refusal's text in the page's language; a code the catalog does not know (a newer
 * server's) says only that it was refused, never the server's English. */
export function errorText(err, label) {
  const words = errorWords(err, label);
  return words ? t(words.key, words.vars) : t("error.http-error");
}
