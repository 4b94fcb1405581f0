// The key link, shown once (after a claim or a key replaced): `ORIGIN/#key=KEY` in a
// read-only field `[data-key-link]` with a copy button, and its QR code for a phone. The key
// is in the fragment, so opening the link sends it to no server; the QR code is made by this
// site's server from a POST body (`/key-qr.svg`: never a GET, so the key is in no URL, log
// or cache), with the same library (segno) that draws the table's share QR.
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { keyLink } from "./player.js";

/** The nodes that show `key`'s link to `name` (for a modal's body). */
export function keyLinkView(key, name) {
  const link = keyLink(key);
  const input = h("input", { id: "key-link", readonly: true, "data-key-link": "",
    spellcheck: "false", autocomplete: "off", value: link, "aria-describedby": "key-link-note" });
  input.value = link;
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "primary", "data-action": "copy-key-link",
    autofocus: true, text: t("me.key.copy") });
  copy.addEventListener("click", async () => {
    const ok = await copyText(input);
    copy.textContent = ok ? t("common.copied") : t("me.key.copyFailed");
    announce(copy.textContent);
    setTimeout(() => { copy.textContent = t("me.key.copy"); }, 2500);
  });
  const qr = h("img", { class: "qr", width: 164, height: 164, alt: t("me.key.qrAlt"),
    "data-key-qr": "" });
  const figure = h("figure", { class: "qr-figure", hidden: true }, qr,
    h("figcaption", { class: "hint", text: t("me.key.qrCaption") }));
  drawQr(link, qr, figure);
  return [
    h("p", { class: "key-lead", text: t("me.key.lead", { name }) }),
    h("p", { class: "notice", id: "key-link-note", text: t("me.key.private") }),
    h("label", { for: "key-link", text: t("me.key.label") }),
    h("div", { class: "key-row" }, input, copy),
    figure,
  ];
}

async function drawQr(text, img, figure) {
  try {
    const response = await fetch("/key-qr.svg", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text }),
      cache: "no-store",
      credentials: "same-origin",
    });
    if (!response.ok) return; // no code: the link alone still works
    const svg = await response.text();
    // a data: URL (the page's CSP allows data: images; not blob:), never cached anywhere
    img.src = `data:image/svg+xml,${encodeURIComponent(svg)}`;
    figure.hidden = false;
  } catch { /* offline: the link alone */ }
}

async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // no clipboard API (a page not served over https): the old way
    input.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}
