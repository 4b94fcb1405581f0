// Languages: English, Italian, Russian. Every UI string comes from a catalog; each module
// owns its catalog, one JSON file a language (i18n/<lang>/<name>.json), and loads it with
// `await loadCatalogs("name")` before it draws. Only the language in use is fetched, so a
// page carries one language's words, not three. The language is the remembered choice,
// else the browser's, else English.

export const LANGS = ["en", "it", "ru"];
const KEY = "vertex.lang";
const catalogs = { en: {}, it: {}, ru: {} };
const listeners = new Set();
let current = pick();

function pick() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage may be off */ }
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

const BASE = new URL("../../i18n/", import.meta.url);
const wanted = new Set();
const fetched = new Map(); // "lang/name" -> Promise
let switches = 0;

function fetchCatalog(code, name) {
  const key = `${code}/${name}`;
  if (!fetched.has(key)) {
    const done = fetch(new URL(`${key}.json`, BASE))
      .then((r) => (r.ok ? r.json() : {}))
      .then((words) => { Object.assign(catalogs[code], words); })
      .catch(() => { fetched.delete(key); }); // offline: the next switch tries again
    fetched.set(key, done);
  }
  return fetched.get(key);
}

/** Load the named catalogs in the language in use (and remember them for a switch). */
export async function loadCatalogs(...names) {
  for (const name of names) wanted.add(name);
  await Promise.all(names.map((name) => fetchCatalog(current, name)));
}

/** Add a catalog given in code for all languages at once: {en: {...}, it: {...}, ru: {...}}
 * (for texts too long to split, such as a rules page's own). */
export function addCatalog(catalog) {
  for (const code of LANGS) Object.assign(catalogs[code], catalog[code] || {});
}

export function lang() {
  return current;
}

/** Switch language: fetch its catalogs, remember it, set <html lang>, retranslate the
 * page, tell listeners. */
export async function setLang(next) {
  if (!LANGS.includes(next)) return;
  const ask = ++switches;
  await Promise.all([...wanted].map((name) => fetchCatalog(next, name)));
  if (ask !== switches) return; // a later switch was asked meanwhile: it wins
  current = next;
  try { localStorage.setItem(KEY, next); } catch { /* storage may be off */ }
  document.documentElement.lang = next;
  translate(document);
  for (const fn of listeners) fn(next);
}

/** Call `fn(lang)` after every language switch; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * The text for `key` in the current language (falling back to English, then to the key),
 * with `{name}` placeholders filled from `vars`. A catalog value may be an object of plural
 * forms ({one, few, many, other}) chosen by `vars.n` with the language's plural rules.
 */
export function t(key, vars = {}) {
  let text = catalogs[current][key] ?? catalogs.en[key];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const form = new Intl.PluralRules(current).select(Number(vars.n ?? 0));
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Has the catalog a text for `key` (in any language)? */
export function has(key) {
  return key in catalogs[current] || key in catalogs.en;
}

/** A number in the current language's digits and separators. */
export function num(n, opts) {
  return new Intl.NumberFormat(current, opts).format(n);
}

/**
 * Translate static markup: `data-i18n="key"` sets the text; `data-i18n-attr="attr:key;..."`
 * sets attributes (aria-label, title, placeholder).
 */
export function translate(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

document.documentElement.lang = current;
