// The site header every page shares: the name (a link to the lobby), the player (a name
// claimed, or the way to claim one: shared/me.js), the language switch and the theme (light,
// dark, or the system's).
import { h } from "./dom.js";
import { mountMe } from "./me.js";
import { watchTurns } from "./turns.js";
import { LANGS, lang, loadCatalogs, onLangChange, setLang, t, translate } from "./i18n.js";
import { wireSkipLink } from "./skip.js";
import { setTheme, THEMES, themeChoice } from "./theme.js";

await loadCatalogs("common");

export function mountHeader() {
  // The page's own markup (the skip link) is written in English: word it in the language in use.
  translate(document);
  wireSkipLink();
  const host = document.querySelector("[data-site-header]");
  if (!host) return;
  const buttons = LANGS.map((code) =>
    h("button", {
      type: "button",
      class: "lang",
      "data-lang": code,
      lang: code,
      "aria-pressed": String(code === lang()),
      onclick: () => setLang(code),
      // a narrow phone shows the short code (EN, IT, RU), a wider screen the name: the
      // accessible name holds both, so it contains the words shown (WCAG 2.5.3)
      "aria-label": `${t(`common.lang.${code}`)}, ${code.toUpperCase()}`,
    },
    h("span", { class: "lang-name", "aria-hidden": "true", text: t(`common.lang.${code}`) }),
    h("span", { class: "lang-code", "aria-hidden": "true", text: code.toUpperCase() })),
  );
  const me = h("div", { class: "me" });
  host.replaceChildren(
    h("a", { class: "brand", href: "/" },
      h("img", { src: iconUrl(), alt: "", width: 28, height: 28 }),
      h("span", { "data-i18n": "common.brand", text: t("common.brand") })),
    me,
    h("div", { class: "header-tools" },
      themeSwitch(),
      h("nav", { class: "langs", "aria-label": t("common.language"), "data-i18n-attr": "aria-label:common.language" },
        ...buttons)),
  );
  mountMe(me);
  watchTurns();
  onLangChange((now) => {
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.lang === now));
  });
}

function themeSwitch() {
  const select = h("select", { id: "theme", class: "theme", "data-theme-switch": "",
    onchange: (ev) => setTheme(ev.target.value) },
  THEMES.map((name) => h("option", { value: name, "data-i18n": `common.theme.${name}`,
    text: t(`common.theme.${name}`) })));
  select.value = themeChoice();
  return h("label", { class: "theme-row" },
    h("span", { class: "sr-only", "data-i18n": "common.theme", text: t("common.theme") }), select);
}

function iconUrl() {
  const link = document.querySelector('link[rel="icon"]');
  return link ? link.getAttribute("href") : "";
}
