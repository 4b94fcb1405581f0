// Clocks: the server sends seconds left per seat as of an event; the page counts the due
// seats down locally between events. Events replayed after a reconnect are old, so their
// clocks are aged by how long ago the server wrote them (the server's clock, translated to
// ours by the smallest delay seen on live events: on a live event that delay is about nil).
// A slow table (days a move) shows days and hours left, then hours and minutes.
import { t } from "../shared/i18n.js";
import { clockText } from "./text.js";

const DAY_S = 86400;

let offset = null; // our Date.now() minus the server's time, in seconds

/** performance.now() at which clocks sent with an event at server time `at` were exact. */
export function clocksStamp(at, live) {
  const nowS = Date.now() / 1000;
  if (typeof at !== "number") return performance.now();
  if (live) offset = offset === null ? nowS - at : Math.min(offset, nowS - at);
  const age = offset === null ? 0 : Math.max(0, nowS - offset - at);
  return performance.now() - age * 1000;
}

/** Seconds left for seat `n` now, or null when the seat's clock is not shown. */
export function secondsLeft(model, n, due) {
  const clocks = model.view && model.view.clocks;
  if (!clocks || clocks[n] === null || clocks[n] === undefined) return null;
  const run = due ? (performance.now() - model.clocksAt) / 1000 : 0;
  return Math.max(0, clocks[n] - run);
}

/** Run `fn` a few times a second (the table starts this only when it has a clock). */
export function startTicking(fn) {
  return setInterval(fn, 200);
}

/** Seconds left as the seat's clock shows them: "2 d 5 h" and "5 h 12 min" on a slow
 * table (days a move: seconds would only flicker), m:ss elsewhere. */
export function leftText(model, seconds) {
  const slow = Boolean(model.view && model.view.slow);
  if (!slow || seconds < 3600) return clockText(seconds);
  const minutes = Math.floor(seconds / 60);
  if (seconds >= DAY_S) {
    return t("table.clock.daysLeft", { d: Math.floor(seconds / DAY_S), h: Math.floor((seconds % DAY_S) / 3600) });
  }
  return t("table.clock.hoursLeft", { h: Math.floor(minutes / 60), m: minutes % 60 });
}
