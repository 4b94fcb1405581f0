// The connection badge above the board (the socket's state, in words and a coloured dot).
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/** The connection badge: `data-connection` is online | reconnecting | offline (DESIGN §6);
 *  until the first connection is up its words say "connecting", not "reconnecting". */
export function createConnection(host) {
  let now = "reconnecting";
  let wasOnline = false;
  const dot = h("span", { class: "dot", "aria-hidden": "true" });
  const text = h("span");
  host.replaceChildren(dot, text);
  host.setAttribute("role", "status");
  function render() {
    host.dataset.connection = now;
    if (now === "online") wasOnline = true;
    const words = now === "reconnecting" && !wasOnline ? "connecting" : now;
    text.textContent = t(`table.connection.${words}`);
  }
  render();
  return {
    set(status) {
      now = status;
      render();
    },
    render,
  };
}
