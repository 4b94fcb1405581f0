// Being told, on the lobby and the table page, while the page is in the background: the
// tab's title and icon show it, a short sound plays (unless sound is off) and, only once
// switched on (the browser asks for permission on that click, never at load), a
// notification. The switches (in the lobby) are remembered.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { remembered } from "./store.js";

const ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 3 29 27H3z" fill="#0072b2"/>' +
  '<circle cx="25" cy="8" r="7" fill="#d55e00" stroke="#fff" stroke-width="2"/></svg>');

let baseTitle = null;
let baseIcon = null;
let unseen = 0;

export const alerts = {
  sound: () => remembered.setting("alerts.sound", true),
  notifications: () => remembered.setting("alerts.notify", false) &&
    typeof Notification !== "undefined" && Notification.permission === "granted",
};

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

function restore() {
  if (document.visibilityState !== "visible" || baseTitle === null) return;
  document.title = baseTitle;
  const link = iconLink();
  if (link && baseIcon) link.href = baseIcon;
  baseTitle = null;
  unseen = 0;
  document.documentElement.removeAttribute("data-alerted");
}

document.addEventListener("visibilitychange", restore);

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch { /* no audio here */ }
}

/** Tell the player `text` (about table `url`), if the page is not in front. */
export function tell(text, url) {
  if (document.visibilityState === "visible") return;
  if (baseTitle === null) {
    baseTitle = document.title;
    baseIcon = iconLink()?.href || null;
  }
  unseen += 1;
  document.title = `(${unseen}) ${text} — ${baseTitle}`;
  const link = iconLink();
  if (link) link.href = ICON;
  document.documentElement.setAttribute("data-alerted", String(unseen));
  if (alerts.sound()) beep();
  if (alerts.notifications()) {
    try {
      const note = new Notification(text, { tag: url, icon: baseIcon || undefined });
      note.onclick = () => { window.focus(); location.assign(url); };
    } catch { /* notifications refused after all */ }
  }
}

/** The two switches: sound, and notifications (asks for the permission when turned on). */
export function alertSettings() {
  const status = h("p", { class: "hint", "aria-live": "polite" });
  const sound = h("input", { type: "checkbox", role: "switch", class: "switch", id: "alert-sound",
    name: "alert-sound", checked: alerts.sound(),
    onchange: () => remembered.setSetting("alerts.sound", sound.checked) });
  const supported = typeof Notification !== "undefined";
  const notify = h("input", { type: "checkbox", role: "switch", class: "switch", id: "alert-notify",
    name: "alert-notify", checked: alerts.notifications(), disabled: !supported,
    onchange: async () => {
      if (!notify.checked) {
        remembered.setSetting("alerts.notify", false);
        status.textContent = "";
        return;
      }
      let granted = Notification.permission;
      if (granted === "default") granted = await Notification.requestPermission();
      const ok = granted === "granted";
      notify.checked = ok;
      remembered.setSetting("alerts.notify", ok);
      status.textContent = ok ? "" : t("place.alerts.denied");
    } });
  return h("details", { class: "alerts card" },
    h("summary", { text: t("place.alerts") }),
    h("p", { class: "hint", text: t("place.alerts.help") }),
    h("label", { class: "switch-row", for: "alert-sound" }, h("span", { text: t("place.alerts.sound") }), sound),
    h("label", { class: "switch-row", for: "alert-notify" },
      h("span", { text: supported ? t("place.alerts.notify") : t("place.alerts.unsupported") }), notify),
    status);
}
