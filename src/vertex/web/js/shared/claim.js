// The player's dialogs (fetched on first use): claim a name (`form[data-claim-name]`), the
// key link shown once after it, a new key, sign out on this device, forget me. The key the
// server gives is kept at once (shared/player.js) and shown only in the dialog that follows.
import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText, loadErrors } from "./errors.js";
import { t } from "./i18n.js";
import { keyLinkView } from "./key-link.js";
import { confirmModal, openModal } from "./modal.js";
import { keepKey, player, signOut as forgetKeyHere } from "./player.js";
import { remembered } from "./store.js";

// 20 graphemes as the server counts them; `maxlength` counts UTF-16 units, and a grapheme
// may be several (the server gives the exact refusal)
const NAME_MOST = 20 * 8;

/**
 * Ask for a name and claim it (POST /api/players); then show the key link. Resolves with
 * the name, or null when cancelled. `suggest` fills the field (a guest's display name).
 */
export function claimName({ suggest = remembered.name(), returnTo = null } = {}) {
  const input = h("input", { id: "player-name", name: "player-name", autocomplete: "nickname",
    maxlength: NAME_MOST, required: true, autofocus: true, value: suggest,
    "aria-describedby": "player-name-help player-name-error" });
  input.value = suggest;
  const error = h("p", { class: "field-error", id: "player-name-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", text: t("me.claim.submit") });
  const cancel = h("button", { type: "button", text: t("common.cancel") });
  const form = h("form", { "data-claim-name": "", novalidate: true },
    h("p", { text: t("me.claim.lead") }),
    h("div", { class: "field" },
      h("label", { for: "player-name", text: t("me.claim.label") }), input,
      h("p", { class: "hint", id: "player-name-help", text: t("me.claim.help") }),
      error),
    h("div", { class: "modal-buttons" }, cancel, submit));
  const dialog = openModal({ title: t("me.claim.title"), content: [form], returnTo });
  cancel.addEventListener("click", () => dialog.close(""));
  let claimed = null;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    error.textContent = "";
    if (!name) {
      error.textContent = t("me.claim.empty");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const made = await api.claimName(name);
      claimed = made.name;
      keepKey(made.key, made.name);
      remembered.setName(made.name);
      dialog.setTitle(t("me.key.title"));
      dialog.replace(...keyLinkView(made.key, made.name), doneRow(dialog));
    } catch (err) {
      await loadErrors();
      error.textContent = errorText(err);
      input.setAttribute("aria-invalid", "true");
      submit.disabled = false;
      input.focus();
    }
  });
  return dialog.closed.then(() => claimed);
}

function doneRow(dialog) {
  return h("div", { class: "modal-buttons" },
    h("button", { type: "button", "data-action": "key-link-done", text: t("me.key.done"),
      onclick: () => dialog.close("done") }));
}

/** Show a key just given (a name claimed while sitting down). */
export function showKeyLink(key, name, returnTo = null) {
  const dialog = openModal({ title: t("me.key.title"), returnTo, content: [] });
  dialog.replace(...keyLinkView(key, name), doneRow(dialog));
  return dialog.closed;
}

/** A new key (POST /api/players/me/key): the old one stops at once, here and everywhere. */
export async function replaceKey(returnTo) {
  const who = player();
  const yes = await confirmModal({ title: t("me.newKey.title"),
    text: [t("me.newKey.text")], confirm: t("me.newKey.confirm") });
  if (!yes) return;
  try {
    const { key } = await api.replaceKey();
    keepKey(key, who.name);
    await showKeyLink(key, who.name, returnTo);
  } catch (err) {
    await failed(err, returnTo);
  }
}

/** Forget the key on this device only. */
export async function signOut(returnTo) {
  const who = player();
  const yes = await confirmModal({ title: t("me.signOut.title"),
    text: [t("me.signOut.text", { name: who.name })], confirm: t("me.signOut.confirm") });
  if (!yes) return;
  forgetKeyHere();
  returnTo()?.focus();
}

/** Forget the player on the server (DELETE /api/players/me): the name is freed, finished
 * games keep the seat as "former player". */
export async function forgetMe(returnTo) {
  const who = player();
  const yes = await confirmModal({ title: t("me.forget.title"),
    text: [t("me.forget.text", { name: who.name }), t("me.forget.text2")],
    confirm: t("me.forget.confirm"), danger: true });
  if (!yes) return;
  try {
    await api.forgetMe();
  } catch (err) {
    if (err.code !== "bad-key") { await failed(err, returnTo); return; }
  }
  forgetKeyHere();
  returnTo()?.focus();
}

async function failed(err, returnTo) {
  await loadErrors();
  const ok = h("button", { type: "button", autofocus: true, text: t("common.ok") });
  const dialog = openModal({ title: t("me.failed"), returnTo, content: [
    h("p", { role: "alert", text: errorText(err) }),
    h("div", { class: "modal-buttons" }, ok)] });
  ok.addEventListener("click", () => dialog.close(""));
}
