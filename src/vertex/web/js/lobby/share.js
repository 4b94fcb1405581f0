// Share your version: a link that opens the new-table form with the same options, board and
// seats (`/?game=ID&options=…&seats=…`), and named versions kept in this browser. The link is
// only words for the form: when it is opened the form sends the options to the server's
// check like typed ones, so a link that no longer fits gets the server's reason at its field
// and nothing is made.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { versionWords } from "../shared/version-words.js";

/** Longest `options` text a link may carry: well above any real board. */
const MAX_LINK_CHARS = 400_000;
/** Longer options go after the # (never sent to the server, so no request line limit). */
const QUERY_CHARS = 6_000;
const MAX_SAVED = 20;
const NAME_CHARS = 40;
const STORE = "vertex.versions.";

// base64url of UTF-8 JSON: compact, and safe in a query string
function encode(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
}

/** Seats as a short text: h for a person, 1–5 for a computer of that level ("h,3"). */
function seatsText(seats) {
  return seats.map((v) => (v === "human" ? "h" : v.slice(3))).join(",");
}

function seatsOf(text) {
  if (!text) return null;
  const out = [];
  for (const part of text.split(",").slice(0, 6)) {
    if (part === "h") out.push("human");
    else if (/^[1-5]$/.test(part)) out.push(`ai-${part}`);
    else return null;
  }
  return out;
}

/** The link for `game` with these options and seats. */
export function shareLink(game, options, seats) {
  const url = new URL("/", location.href);
  url.searchParams.set("game", game);
  const packed = encode(options);
  const rest = new URLSearchParams({ options: packed, seats: seatsText(seats) });
  if (packed.length > QUERY_CHARS) url.hash = rest.toString();
  else for (const [k, v] of rest) url.searchParams.set(k, v);
  return url.href;
}

/** What the address asks the form to open with: {options, seats} or {broken: true}, or null
 * when it carries no options. */
export function sharedFromAddress(href = location.href) {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.slice(1));
  const params = hash.has("options") ? hash : url.searchParams;
  const raw = params.get("options");
  if (raw === null) return null;
  let options;
  try {
    if (raw.length > MAX_LINK_CHARS) throw new Error("too long");
    options = decode(raw);
  } catch {
    return { broken: true };
  }
  if (!options || typeof options !== "object" || Array.isArray(options)) return { broken: true };
  return { options, seats: seatsOf(params.get("seats")) };
}

// ---- saved versions ---------------------------------------------------------------------
function saved(game) {
  try {
    const list = JSON.parse(localStorage.getItem(STORE + game) || "[]");
    return Array.isArray(list) ? list.filter((v) => v && typeof v.name === "string") : [];
  } catch {
    return [];
  }
}

function keep(game, list) {
  try { localStorage.setItem(STORE + game, JSON.stringify(list.slice(0, MAX_SAVED))); } catch { /* storage off */ }
}

/**
 * The form's share group. `form` gives: game (its id), current() -> {options, seats} as the
 * person set them, and load({options, seats}) to fill the form again.
 */
export function shareGroup(form) {
  const game = form.game.id;
  const linkId = "share-link";
  const link = h("input", { type: "text", id: linkId, readonly: true, "data-share-link": "",
    "aria-describedby": `${linkId}-help` });
  const linkRow = h("div", { class: "field", hidden: true },
    h("label", { for: linkId, text: t("share.link") }), link,
    h("p", { class: "hint", id: `${linkId}-help`, text: t("share.link.help") }));
  const note = h("p", { class: "hint", "aria-live": "polite", "data-share-note": "" });
  const copy = h("button", { type: "button", hidden: true, text: t("share.copy"), onclick: async () => {
    link.select();
    try { await navigator.clipboard.writeText(link.value); note.textContent = t("share.copied"); } catch {
      document.execCommand?.("copy");
    }
  } });
  const make = h("button", { type: "button", "data-share-make": "", text: t("share.make"), onclick: () => {
    const { options, seats } = form.current();
    link.value = shareLink(game, options, seats);
    linkRow.hidden = false;
    copy.hidden = false;
    link.focus();
    link.select();
  } });

  const nameInput = h("input", { type: "text", id: "version-name", maxlength: NAME_CHARS,
    "data-version-name": "" });
  const pick = h("select", { id: "version-pick", "data-version-pick": "" });
  const drop = h("button", { type: "button", text: t("share.delete"), onclick: () => {
    const list = saved(game).filter((v) => v.name !== pick.value);
    keep(game, list);
    fillPick();
  } });
  const pickRow = h("div", { class: "field" },
    h("label", { for: "version-pick", text: t("share.pick") }), pick, drop);
  function fillPick() {
    const list = saved(game);
    pick.replaceChildren(h("option", { value: "", text: t("share.pick.none") }),
      ...list.map((v) => h("option", { value: v.name, text: v.name })));
    pickRow.hidden = list.length === 0;
  }
  pick.addEventListener("change", () => {
    const entry = saved(game).find((v) => v.name === pick.value);
    if (entry) form.load({ options: entry.options || {}, seats: entry.seats || null, saved: entry.name });
  });
  const save = h("button", { type: "button", "data-version-save": "", text: t("share.save"), onclick: () => {
    const name = nameInput.value.trim().slice(0, NAME_CHARS)
      || versionWords(game, form.current().inForce).slice(0, NAME_CHARS) || game;
    const { options, seats } = form.current();
    const list = [{ name, options, seats }, ...saved(game).filter((v) => v.name !== name)];
    keep(game, list);
    fillPick();
    note.textContent = t("share.saved", { name });
  } });
  fillPick();
  return h("fieldset", { class: "group share", "data-share": "" },
    h("legend", { text: t("share.heading") }),
    h("div", { class: "share-row" }, make, copy), linkRow,
    h("div", { class: "field" }, h("label", { for: "version-name", text: t("share.name") }), nameInput),
    h("div", { class: "share-row" }, save),
    pickRow, note);
}
