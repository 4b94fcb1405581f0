// Spectators: how many watch the table ([data-watching], in the table's head), and the
// spectators' own chat ([data-spectator-chat]), apart from the players' chat.
//
// lichess's rule: players are not disturbed. A player sees a closed "Spectators' chat"
// toggle with the number of lines they have not read (never announced); opening it shows
// the lines. A spectator has it open, with a name box (optional: "Spectator" otherwise,
// checked by the server like a seat's name) and a message box; their new lines are said
// politely. The server sends the count at most once a second and every line to everyone.
import { announce, h } from "../shared/dom.js";
import { errorWords, loadErrors } from "../shared/errors.js";
import { lang, t } from "../shared/i18n.js";
import { remembered } from "../shared/store.js";

const MAX_CHARS = 500; // the server's limit (Limits.chat_chars), counted there by grapheme
const NAME_MOST = 40 * 8; // 40 characters as the server counts them, in UTF-16 units
const KEPT = 100; // lines the server keeps a table (spectators.py)

/** The count in the table's head: hidden while nobody watches. */
export function createWatching(host) {
  const text = h("span");
  host.replaceChildren(eye(), text);
  host.classList.add("watching");
  host.dataset.watching = "";
  host.setAttribute("role", "note");
  let n = 0;
  function render() {
    host.dataset.count = String(n);
    host.hidden = n === 0;
    text.textContent = t("table.watching", { n });
    host.setAttribute("aria-label", t("table.watching.label", { n }));
  }
  render();
  return {
    set(count) { n = count; render(); },
    render,
  };
}

function eye() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "watching-eye");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 4a4 4 0 1 0 0-8 4 4 0 0 0 0 8z");
  svg.append(path);
  return svg;
}

/** deps: {id, send(msg) -> Promise} */
export function createSpectatorChat(host, deps) {
  const toggle = h("button", { type: "button", class: "spectator-toggle", "aria-expanded": "false",
    "aria-controls": "spectator-chat-body", "data-action": "spectator-chat-toggle" });
  const toggleText = h("span");
  const unreadBadge = h("span", { class: "unread" });
  toggle.append(toggleText, unreadBadge);
  const title = h("span");
  const heading = h("h2", { id: "spectator-chat-heading" }, title, toggle);
  const hint = h("p", { class: "hint" });
  const empty = h("p", { class: "hint chat-empty" });
  const log = h("ol", { class: "chat-log", "aria-labelledby": "spectator-chat-heading" });
  const nameLabel = h("label", { for: "spectator-name" });
  const nameInput = h("input", { id: "spectator-name", name: "spectator-name", maxlength: NAME_MOST,
    autocomplete: "nickname", value: remembered.name() });
  const textLabel = h("label", { for: "spectator-text", class: "sr-only" });
  const input = h("input", { id: "spectator-text", name: "spectator-chat", maxlength: MAX_CHARS * 8,
    autocomplete: "off", "aria-describedby": "spectator-chat-error" });
  const sendButton = h("button", { type: "submit", "data-action": "spectator-chat" });
  const error = h("p", { class: "field-error", id: "spectator-chat-error", role: "alert",
    "data-spectator-chat-error": "" });
  const form = h("form", { class: "spectator-form" },
    h("div", { class: "field" }, nameLabel, nameInput),
    textLabel, h("div", { class: "row" }, input, sendButton), error);
  const body = h("div", { id: "spectator-chat-body", class: "spectator-body" }, hint, empty, log, form);
  host.replaceChildren(heading, body);
  host.dataset.spectatorChat = "";
  host.setAttribute("aria-labelledby", heading.id);

  let lines = [];
  let shown = 0; // lines already in the list
  let open = false; // a player opened it
  let watcher = false; // this page watches (no seat): the chat is theirs, always open
  let seen = remembered.spectatorsSeen(deps.id);
  let sends = 0;

  toggle.addEventListener("click", () => {
    open = !open;
    paint();
    if (open) log.scrollTop = log.scrollHeight;
  });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const name = nameInput.value.trim();
    sendButton.disabled = true;
    const tried = ++sends;
    try {
      await deps.send({ t: "spectator-chat", text, ...(name ? { name } : {}) });
      if (name) remembered.setName(name);
      input.value = "";
      error.textContent = "";
      delete error.dataset.code;
    } catch (err) {
      await loadErrors().catch(() => {});
      if (tried !== sends) return;
      const words = errorWords(err) || { key: "table.error.refused", vars: {} };
      error.dataset.code = err.code || "";
      error.textContent = t(words.key, words.vars);
      (err.code === "bad-name" ? nameInput : input).focus();
      return;
    } finally {
      sendButton.disabled = false;
    }
    input.focus();
  });

  function line(msg) {
    const time = new Date(msg.at * 1000);
    return h("li", { "data-spectator-line": msg.n },
      h("span", { class: "chat-name", text: msg.name || t("table.spectators.anonymous") }),
      h("time", { datetime: time.toISOString(),
        text: time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" }) }),
      h("span", { class: "chat-text spectator-text", text: msg.text }));
  }

  function paint() {
    const visible = watcher || open;
    body.hidden = !visible;
    title.hidden = !watcher;
    hint.hidden = !watcher;
    toggle.hidden = watcher;
    toggle.setAttribute("aria-expanded", String(open));
    host.dataset.open = String(visible);
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    for (; shown < lines.length; shown++) log.append(line(lines[shown]));
    if (atBottom) log.scrollTop = log.scrollHeight;
    empty.hidden = lines.length > 0;
    log.hidden = lines.length === 0;
    form.hidden = !watcher;
    const last = lines.length ? lines[lines.length - 1].n : 0;
    if (visible && last > seen) {
      seen = last;
      remembered.setSpectatorsSeen(deps.id, seen);
    }
    const unread = lines.filter((l) => l.n > seen).length;
    toggle.dataset.unread = String(unread);
    unreadBadge.hidden = unread === 0;
    unreadBadge.textContent = t("table.spectators.unread", { n: unread });
  }

  function relabel() {
    title.textContent = t("table.spectators.heading");
    toggleText.textContent = t("table.spectators.heading");
    hint.textContent = t("table.spectators.hint");
    empty.textContent = t("table.spectators.empty");
    nameLabel.textContent = t("table.spectators.name");
    nameInput.placeholder = t("table.spectators.anonymous");
    textLabel.textContent = t("table.spectators.label");
    input.placeholder = t("table.spectators.placeholder");
    sendButton.textContent = t("table.chat.send");
    log.replaceChildren();
    shown = 0;
  }
  relabel();

  return {
    /** Lines from the server: the whole list (`replace`) or new ones. */
    lines(got, replace) {
      const fresh = replace ? got : got.filter((l) => !lines.some((x) => x.n === l.n));
      const all = replace ? [...fresh] : [...lines, ...fresh];
      lines = all.slice(-KEPT);
      if (replace || all.length > KEPT) { log.replaceChildren(); shown = 0; }
      paint();
      if (!replace && watcher) {
        for (const l of fresh) {
          announce(t("table.say.spectatorLine", { name: l.name || t("table.spectators.anonymous"), text: l.text }));
        }
      }
    },
    render(model, { relabel: again = false } = {}) {
      // a player (or a page whose seat the socket has not confirmed yet) has it closed
      watcher = model.seatKnown && model.mySeat === null;
      if (again) relabel();
      paint();
    },
  };
}
