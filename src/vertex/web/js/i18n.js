// Languages: English, Italian, Russian. Every UI string comes from a catalog; each module
// owns its catalog (js/i18n/<module>.js: {en: {...}, it: {...}, ru: {...}}) and adds it here.
// The language is the remembered choice, else the browser's, else English.

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

/** Add a module's catalog: {en: {key: text}, it: {...}, ru: {...}}. */
export function addCatalog(catalog) {
  for (const lang of LANGS) Object.assign(catalogs[lang], catalog[lang] || {});
}

export function lang() {
  return current;
}

/** Switch language, remember it, set <html lang>, retranslate the page, tell listeners. */
export function setLang(next) {
  if (!LANGS.includes(next)) return;
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
