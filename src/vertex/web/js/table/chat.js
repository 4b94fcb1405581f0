// The table's chat: the messages (name and symbol of who wrote them), and for players a
// form to write one. The server limits the length and refuses spectators.
import { h } from "../shared/dom.js";
import { lang, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { amPlaying } from "./model.js";
import { seatName } from "./text.js";

const MAX_CHARS = 500; // the server's limit (Limits.chat_chars): refused there too

/** deps: {send(msg) -> Promise, fail(err)} */
export function createChat(host, deps) {
  const heading = h("h2", { id: "chat-heading" });
  const empty = h("p", { class: "hint chat-empty" });
  const log = h("ol", { class: "chat-log", "aria-labelledby": "chat-heading" });
  const label = h("label", { for: "chat-text", class: "sr-only" });
  const input = h("input", {
    id: "chat-text", name: "chat", maxlength: MAX_CHARS, autocomplete: "off",
  });
  const send = h("button", { type: "submit", "data-action": "chat" });
  const form = h("form", { class: "chat-form" }, label, h("div", { class: "row" }, input, send));
  host.replaceChildren(heading, empty, log, form);
  host.setAttribute("aria-labelledby", heading.id);
  let shown = 0; // messages already in the list

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send.disabled = true;
    try {
      await deps.send({ t: "chat", text });
      input.value = "";
    } catch (err) {
      deps.fail(err);
    } finally {
      send.disabled = false;
      input.focus();
    }
  });

  function line(view, msg) {
    const swatch = h("span", { class: "swatch small", "aria-hidden": "true",
      text: seatSymbol(msg.seat, view.state.board) });
    swatch.style.background = seatColor(msg.seat);
    const time = new Date(msg.at * 1000);
    return h("li", { "data-chat-seat": msg.seat },
      swatch,
      h("span", { class: "chat-name", text: msg.name || seatName(view, msg.seat) }),
      h("time", { datetime: time.toISOString(),
        text: time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" }) }),
      h("span", { class: "chat-text", text: msg.text }));
  }

  return {
    render(m, { relabel = false } = {}) {
      heading.textContent = t("table.chat.heading");
      empty.textContent = t("table.chat.empty");
      label.textContent = t("table.chat.label");
      send.textContent = t("table.chat.send");
      input.placeholder = t("table.chat.placeholder");
      if (relabel) {
        log.replaceChildren();
        shown = 0;
      }
      // Messages only ever arrive at the end: add the new ones, keep the rest (and the scroll).
      const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
      for (; shown < m.chat.length; shown++) log.append(line(m.view, m.chat[shown]));
      if (atBottom) log.scrollTop = log.scrollHeight;
      empty.hidden = m.chat.length > 0;
      log.hidden = m.chat.length === 0;
      // Spectators read the chat; only players write (the server refuses spectators).
      if (amPlaying(m) && !form.isConnected) host.append(form);
      else if (!amPlaying(m) && form.isConnected) form.remove();
    },
  };
}
