// The display name, asked once (beside what was clicked) and remembered after.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { remembered } from "../shared/store.js";
import { player } from "../shared/player.js";

// 40 characters as the server counts them; `maxlength` counts UTF-16 units (lobby/form.js).
const NAME_MOST = 40 * 8;

/** The remembered name, or one asked for in a small form placed after `place` (the row that
 * holds `anchor`, what was clicked: the form takes a row of its own, never squeezed beside
 * the button); focus goes back to `anchor` when cancelled (resolves null). */
export function askName(anchor, place = anchor) {
  // a player sits under their name (the key goes with the seat request: shared/api.js)
  const known = (player()?.name || remembered.name()).trim();
  if (known) return Promise.resolve(known);
  document.querySelector("[data-name-ask]")?.remove();
  return new Promise((resolve) => {
    const input = h("input", { name: "display-name", id: "ask-name", maxlength: NAME_MOST,
      autocomplete: "nickname", required: true });
    const done = (value) => { form.remove(); anchor.focus?.(); resolve(value); };
    const form = h("form", { class: "name-ask", "data-name-ask": "",
      onsubmit: (ev) => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) { input.focus(); return; }
        remembered.setName(name);
        form.remove();
        resolve(name);
      },
      onkeydown: (ev) => { if (ev.key === "Escape") done(null); } },
    h("label", { for: "ask-name", text: t("place.name") }), input,
    h("button", { type: "submit", class: "primary", text: t("place.name.ok") }),
    h("button", { type: "button", onclick: () => done(null), text: t("place.name.cancel") }));
    place.after(form);
    input.focus();
  });
}
