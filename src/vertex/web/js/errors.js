// A refusal in the page's language, from the server's code and params alone (never its
// English message): the `errors` catalog has `error.<code>` and, where a code has several
// causes, `error.<code>.<why|problem>` (tests/server/test_error_codes.py keeps them complete).

import { has, loadCatalogs, t } from "./i18n.js";

/** Fetch the errors catalog (with the first refusal: most visits never see one). */
export function loadErrors() {
  return loadCatalogs("errors");
}

/** The catalog key and values for `err` ({code, params, option}), or null if the catalog
 * has no words for its code. `label(option)` names an option in the page's words. */
export function errorWords(err, label = (option) => option) {
  const params = err.params || {};
  const vars = { ...params };
  if (err.option) vars.option = label(err.option);
  for (const [k, v] of Object.entries(vars)) if (Array.isArray(v)) vars[k] = v.join(", ");
  const sub = params.why || params.problem;
  if (sub && has(`error.${err.code}.${sub}`)) return { key: `error.${err.code}.${sub}`, vars };
  if (has(`error.${err.code}`)) return { key: `error.${err.code}`, vars };
  return null;
}

/** The refusal's text in the page's language (the server's message only for a code the
 * catalog does not know yet). */
export function errorText(err, label) {
  const words = errorWords(err, label);
  return words ? t(words.key, words.vars) : String(err.message || err.code || "");
}
