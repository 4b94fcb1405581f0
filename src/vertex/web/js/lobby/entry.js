// A listed table in words: its game and options, its seats (names as text, never markup),
// its clock, how long it has waited, scores and results. Knows no rules: it says what the
// server's summary says.
import { h } from "../shared/dom.js";
import { fieldsOf } from "./schema.js";
import { gameName, optionWords } from "./words.js";
import { loadCatalogs, num, t } from "../shared/i18n.js";
import { loadVersionWords, versionWords } from "../shared/version-words.js";

await loadCatalogs("options", "lobby-place");

/** "Rows 3 · Columns 3 · Misère" for an entry's options (games: the /api/games list). */
export function optionsInWords(entry, games) {
  const game = games.find((g) => g.id === entry.game);
  if (!game) return "";
  // a game with its own words for a version (Vert3x: board and variations) says it so,
  // as the table page does
  // the listing is drawn again as it updates
  loadVersionWords(game.id, Boolean(game.capabilities?.version_words));
  const version = versionWords(game.id, entry.options);
  if (version) return version;
  const parts = [];
  for (const field of fieldsOf(game.options)) {
    const value = entry.options[field.name];
    if (value === null || value === undefined) continue;
    const words = optionWords(game.id, field);
    if (typeof value === "boolean") {
      if (value) parts.push(words.label);
    } else if (Array.isArray(value)) {
      parts.push(`${words.label}: ${value.join(", ")}`);
    } else {
      parts.push(`${words.label}: ${words.value(value)}`);
    }
  }
  return parts.join(" · ");
}

export function seatName(seat) {
  if (seat.kind === "ai") return t("place.computer", { level: seat.level });
  return seat.name === null ? t("place.free") : seat.name;
}

export function clockInWords(clock) {
  if (!clock) return t("place.no-clock");
  if (clock.per_move_days) return t("place.clock.per-move-days", { n: clock.per_move_days });
  if (clock.per_move) return t("place.clock.per-move", { s: num(clock.per_move) });
  return t("place.clock.total", { min: num(Math.round(clock.total / 60)), inc: num(clock.increment || 0) });
}

export function waited(since, now = Date.now() / 1000) {
  const min = Math.max(0, Math.floor((now - since) / 60));
  if (min < 1) return t("place.waited.now");
  if (min < 60) return t("place.waited.min", { n: min });
  return t("place.waited.hours", { n: Math.floor(min / 60) });
}

/** Seats with their names, each its own text node. */
export function seatList(entry) {
  return h("ul", { class: "entry-seats", role: "list" },
    entry.seats.map((seat, n) => h("li", { class: seat.free ? "free" : null },
      h("span", { class: "entry-seat-name", text: seatName(seat) }),
      entry.scores ? h("span", { class: "entry-score", text: ` ${num(entry.scores[n])}` }) : null)));
}

export function resultInWords(entry) {
  const r = entry.result;
  if (!r) return "";
  const winners = r.winners || [];
  if (!winners.length || winners.length === entry.seats.length) return t("place.result.draw");
  const names = winners.map((n) => seatName(entry.seats[n])).join(", ");
  return t("place.result.won", { names });
}

export function entryTitle(entry, games) {
  const game = games.find((g) => g.id === entry.game) || { id: entry.game };
  return gameName(game);
}
