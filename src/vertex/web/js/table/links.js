// The two links of a table: the share link (anyone may watch or take a free seat; with a
// QR code for a phone at the same table) and the private seat link, shown only to the
// seat's holder, folded away so it is not left on screen.
import { announce, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

let fields = 0;

function linkField(attr, copyKey) {
  const id = `link-${++fields}`;
  const label = h("label", { for: id });
  const input = h("input", { id, readonly: true, [attr]: true, spellcheck: "false" });
  const copy = h("button", { type: "button", class: "copy" });
  copy.addEventListener("click", async () => {
    const ok = await copyText(input);
    copy.textContent = ok ? t("common.copied") : t("table.links.copyFailed");
    announce(copy.textContent);
    setTimeout(() => { copy.textContent = t(copyKey); }, 2500);
  });
  input.addEventListener("focus", () => input.select());
  return { label, input, copy, row: h("div", { class: "row" }, input, copy), copyKey };
}

async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // No clipboard API (a page not served over https): the old way.
    input.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}

export function createLinks(host, tableId) {
  const heading = h("h2", { id: "links-heading" });
  const share = linkField("data-share-link", "table.links.copyShare");
  const shareHint = h("p", { class: "hint" });
  const qr = h("img", {
    class: "qr", src: `/tables/${encodeURIComponent(tableId)}/qr.svg`, width: 148, height: 148,
    "data-qr": true, loading: "lazy",
  });
  const qrCaption = h("figcaption", { class: "hint" });
  const qrFigure = h("figure", { class: "qr-figure" }, qr, qrCaption);
  // A site with no public address set gives no code: no empty frame either.
  qr.addEventListener("error", () => { qrFigure.hidden = true; });
  const seat = linkField("data-seat-link", "table.links.copySeat");
  const seatNote = h("p", { class: "hint private-note" });
  const seatSummary = h("summary");
  const seatBox = h("details", { class: "seat-link" }, seatSummary, seatNote, seat.label, seat.row);
  host.replaceChildren(heading,
    share.label, share.row, shareHint,
    qrFigure,
    seatBox);
  host.setAttribute("aria-labelledby", heading.id);
  share.input.value = `${location.origin}/tables/${tableId}`;

  return {
    render(model, token) {
      heading.textContent = t("table.links.heading");
      share.label.textContent = t("table.links.share");
      shareHint.textContent = t("table.links.shareHint");
      share.copy.textContent = t(share.copyKey);
      qr.alt = t("table.links.qrAlt");
      qrCaption.textContent = t("table.links.qrCaption");
      const mine = model.mySeat !== null && token;
      seatBox.hidden = !mine;
      if (mine) {
        seatSummary.textContent = t("table.links.seatSummary");
        seatNote.textContent = t("table.links.seatNote");
        seat.label.textContent = t("table.links.seat");
        seat.copy.textContent = t(seat.copyKey);
        seat.input.value = `${location.origin}/tables/${tableId}#token=${encodeURIComponent(token)}`;
      } else {
        seat.input.value = "";
      }
    },
  };
}
