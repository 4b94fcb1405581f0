// A modal <dialog> for the player's questions and forms (claim a name, the key link,
// confirmations). The browser's own modal dialog keeps focus inside and closes on Escape;
// here: a labelled title, a close button, the focus put where asked on opening and given
// back to what opened it on closing (the opener may have been re-rendered meanwhile: then
// `returnTo()` finds its successor). Fetched on first use, with its sheet.
import { addSheet, h } from "./dom.js";
import { loadCatalogs, t } from "./i18n.js";

// the player's dialogs' words come with them (the header's own are few: me.json)
await Promise.all([
  addSheet(new URL("../../css/modal.css", import.meta.url).href),
  loadCatalogs("me-dialogs"),
]);

let made = 0;

/**
 * open({title, content: Node[], className, returnTo: () => Element | null}) → {el, body,
 * setTitle(text), close(value), closed: Promise<value>}. `content` fills the body; the first
 * element with `autofocus` (else the close button) takes the focus.
 */
export function openModal({ title, content = [], className = "", returnTo = null }) {
  const opener = document.activeElement;
  made += 1;
  const heading = h("h2", { id: `modal-title-${made}`, tabindex: "-1", text: title });
  const closeButton = h("button", { type: "button", class: "modal-close quiet",
    "aria-label": t("common.close"), text: "×", onclick: () => close("") });
  const body = h("div", { class: "modal-body" }, ...content);
  const el = h("dialog", { class: `modal ${className}`.trim(), "aria-labelledby": heading.id },
    h("div", { class: "modal-head" }, heading, closeButton), body);
  document.body.append(el);
  let result = "";
  let resolveClosed;
  const closed = new Promise((resolve) => { resolveClosed = resolve; });
  el.addEventListener("close", () => {
    el.remove();
    const back = (returnTo && returnTo()) || (opener && opener.isConnected ? opener : null);
    if (back && typeof back.focus === "function") back.focus();
    resolveClosed(result);
  }, { once: true });
  function close(value = "") {
    result = value;
    if (el.open) el.close();
  }
  el.showModal();
  focusFirst(body, closeButton);
  return {
    el,
    body,
    heading,
    setTitle(text) { heading.textContent = text; },
    close,
    closed,
    /** Replace the body (a form's next step) and put the focus in it. */
    replace(...nodes) {
      body.replaceChildren(...nodes);
      focusFirst(body, heading);
    },
  };
}

function focusFirst(body, fallback) {
  const target = body.querySelector("[autofocus]") || fallback;
  target.focus();
}

/** A yes/no question; resolves true when confirmed. `danger` marks a button that loses
 * something (forget me). */
export function confirmModal({ title, text, confirm, danger = false }) {
  const ok = h("button", { type: "button", class: danger ? "danger" : "primary",
    "data-confirm": "", text: confirm });
  const cancel = h("button", { type: "button", autofocus: true, text: t("common.cancel") });
  const dialog = openModal({ title, content: [
    ...[].concat(text).map((p) => h("p", { text: p })),
    h("div", { class: "modal-buttons" }, cancel, ok),
  ] });
  ok.addEventListener("click", () => dialog.close("ok"));
  cancel.addEventListener("click", () => dialog.close(""));
  return dialog.closed.then((v) => v === "ok");
}
