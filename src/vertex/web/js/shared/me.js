// The header's player part `[data-me]`: a guest sees "Claim a name"
// (`[data-action="claim-name"]`); a player sees their name (a link to their profile) and a
// menu: my profile, a new key, sign out on this device, forget me. The dialogs behind them
// (shared/claim.js, shared/modal.js) are fetched on first use.
import { h, s } from "./dom.js";
import { loadCatalogs, onLangChange, t } from "./i18n.js";
import { me, onPlayerChange, player, profileUrl } from "./player.js";

await loadCatalogs("me");

let menuCount = 0;
let closeMenu = () => {}; // the open menu's, if any

/** Fill `host` (in the header) and keep it current. */
export function mountMe(host) {
  const render = () => draw(host);
  document.addEventListener("click", (ev) => { if (!host.contains(ev.target)) closeMenu(); });
  host.addEventListener("focusout", (ev) => { if (!host.contains(ev.relatedTarget)) closeMenu(); });
  render();
  onPlayerChange(render);
  onLangChange(render);
  // the name as the server knows it (and a key it no longer knows is dropped there)
  me().catch(() => { /* offline: the name remembered stays */ });
}

function draw(host) {
  const who = player();
  const hadFocus = host.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
  host.classList.add("me");
  if (!who) {
    const slot = h("span", { "data-me": "" },
      // a phone shows the icon alone (the words stay its name: .me-label is visually hidden)
      h("button", { type: "button", class: "me-claim", "data-action": "claim-name",
        "data-focus-key": "claim", "aria-haspopup": "dialog", onclick: () => openClaim() },
      personIcon(), h("span", { class: "me-label", text: t("me.claim") })));
    host.replaceChildren(slot);
  } else {
    const name = who.name || "…";
    const id = `me-menu-${++menuCount}`;
    // no text of its own (the ▾, and on a phone the name's first letter, come from the
    // sheet), so `[data-me]`'s text is the name alone
    const toggle = h("button", { type: "button", class: "me-toggle", "data-action": "player-menu",
      "data-focus-key": "toggle", "aria-expanded": "false", "aria-controls": id,
      "data-initial": initial(name), "aria-label": t("me.menu.label", { name }) });
    const item = (attrs, text) => h("li", {}, h(attrs.href ? "a" : "button",
      { type: attrs.href ? null : "button", ...attrs, text }));
    const menu = h("ul", { id, class: "me-menu", hidden: true, role: "list" },
      h("li", { class: "me-menu-name", text: name }),
      item({ href: profileUrl(who.name || ""), "data-action": "my-profile" }, t("me.menu.profile")),
      item({ "data-action": "replace-key", onclick: () => act("replaceKey") }, t("me.menu.newKey")),
      item({ "data-action": "sign-out", onclick: () => act("signOut") }, t("me.menu.signOut")),
      item({ "data-action": "forget-me", class: "danger", onclick: () => act("forgetMe") },
        t("me.menu.forget")));
    const open = (on) => {
      menu.hidden = !on;
      toggle.setAttribute("aria-expanded", String(on));
    };
    toggle.addEventListener("click", () => {
      open(menu.hidden);
      if (!menu.hidden) menu.querySelector("a, button").focus();
    });
    // a disclosure, not an application menu: Tab moves through it; Escape or leaving it
    // closes it (Escape puts the focus back on its button)
    menu.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") { open(false); toggle.focus(); }
    });
    closeMenu = () => open(false);
    const act = async (what) => {
      open(false);
      const mod = await import("./claim.js");
      // after a sign-out the toggle is gone: the focus goes to "Claim a name" then
      await mod[what](() => host.querySelector("[data-focus-key=toggle], [data-focus-key=claim]"));
    };
    host.replaceChildren(
      h("span", { "data-me": who.name || "" },
        h("a", { class: "me-name", href: profileUrl(who.name || ""), "data-focus-key": "name",
          text: name }),
        toggle),
      menu);
  }
  if (hadFocus) host.querySelector(`[data-focus-key="${hadFocus}"]`)?.focus();
}

async function openClaim() {
  const mod = await import("./claim.js");
  mod.claimName({ returnTo: () => document.querySelector("[data-me] a, [data-me] button") });
}

/** The first letter of a name (a whole grapheme: an accent or an emoji stays whole). */
function initial(name) {
  try {
    const first = new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(name)[Symbol.iterator]().next();
    return first.done ? "?" : first.value.segment.toUpperCase();
  } catch {
    return name.slice(0, 1).toUpperCase() || "?";
  }
}

/** A person with a plus: "claim a name". */
function personIcon() {
  const svg = s("svg", { class: "me-icon", viewBox: "0 0 24 24", width: 22, height: 22,
    "aria-hidden": "true", focusable: "false" },
  s("circle", { cx: 9, cy: 8, r: 4, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  s("path", { d: "M2 21c0-4 3-7 7-7s7 3 7 7", fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  s("path", { d: "M19 7v6M16 10h6", stroke: "currentColor", "stroke-width": 2 }));
  return svg;
}
