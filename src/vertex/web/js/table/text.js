// Words the table's panels share: the game's name, seat names, clock times (the result's
// are the result banner's, js/table/result.js).
import { has, num, t } from "../shared/i18n.js";

/** The game's name in the current language (the lobby's catalog), else the server's. */
export function gameName(view) {
  const key = `game.${view.game}.name`;
  if (has(key)) return t(key);
  if (view.name) return view.name;
  const words = view.game.split("-").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const COMPUTER_NAME = /^Computer \(level (\d)\)$/;

/** A seat's display name: the player's, a computer's in our language, or "Seat N". */
export function seatName(view, n) {
  const seat = view.seats[n];
  if (!seat) return t("common.seat", { n: n + 1 });
  if (seat.kind === "ai" && (!seat.name || COMPUTER_NAME.test(seat.name))) {
    return t("common.computer", { level: seat.level ?? "?" });
  }
  // a player who was forgotten (DESIGN §5a): "former player" (the header's catalog)
  if (!seat.name && seat.former) return t("me.former");
  return seat.name || t("common.seat", { n: n + 1 });
}

/** A list of names: "Ann", "Ann and Bob", "Ann, Bob and Cy" (in the language's way). */
export function nameList(names) {
  try {
    return new Intl.ListFormat(document.documentElement.lang || "en", {
      style: "long", type: "conjunction",
    }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** Seconds as m:ss (h:mm:ss past an hour); tenths under ten seconds. */
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return num(Math.floor(s * 10) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The table's clock in words: "30 s a move" or "5 min + 2 s a move". */
export function clockRule(clock) {
  if (!clock) return "";
  if (clock.per_move_days) return t("table.clock.perMoveDays", { n: clock.per_move_days });
  if (clock.per_move) return t("table.clock.perMove", { s: num(clock.per_move) });
  const minutes = num(Math.round((clock.total / 60) * 10) / 10);
  if (clock.increment) return t("table.clock.totalInc", { m: minutes, s: num(clock.increment) });
  return t("table.clock.total", { m: minutes });
}
