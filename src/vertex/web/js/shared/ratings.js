// Ratings in words (issue 34), for the profile, the leaderboard, the lobby and the table:
// a rating pool's name from /api/games (`pools: [{id, options}]`), a rating with its
// provisional mark (a "?" and the word, never colour alone), and a change signed.
//
// A change's text uses the real minus sign (U+2212: "−8") and "+12"; the data attributes the
// page hooks carry (`data-rating-change`) use ASCII: "+12", "-8", "+0" (easy to compare in a
// test, the same in every language).
import { has, loadCatalogs, num, t } from "./i18n.js";

await loadCatalogs("games", "options", "ratings");

/** {game, pool} of pool `id` among the games of /api/games, or null. */
export function findPool(games, id) {
  for (const game of games) {
    const pool = (game.pools || []).find((p) => p.id === id);
    if (pool) return { game, pool };
  }
  return null;
}

export function gameTitle(game) {
  const key = `game.${game.id}.name`;
  return has(key) ? t(key) : game.name || game.id;
}

/** The pool's options in short: "5×5", "Players 3"… (the game's name not included). */
export function poolOptions(game, pool) {
  const options = { ...(pool.options || {}) };
  const parts = [];
  if (options.rows !== undefined && options.cols !== undefined) {
    parts.push(`${num(options.rows)}×${num(options.cols)}`);
    delete options.rows;
    delete options.cols;
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === false || value === null) continue; // an option left off says nothing
    const base = `option.${game.id}.${name}`;
    const label = has(`${base}.label`) ? t(`${base}.label`) : name;
    if (value === true) { parts.push(label); continue; }
    const shown = has(`${base}.${value}`) ? t(`${base}.${value}`)
      : typeof value === "number" ? num(value) : String(value);
    parts.push(`${label} ${shown}`);
  }
  return parts.join(", ");
}

/** "Dots and Boxes · 5×5": the pool `id` in words (its id where the games do not list it). */
export function poolName(games, id) {
  const found = findPool(games, id);
  if (!found) return id;
  const options = poolOptions(found.game, found.pool);
  return options ? t("ratings.pool", { game: gameTitle(found.game), options })
    : gameTitle(found.game);
}

/** A rating's text: "1512" or "1512?" (provisional). */
export function ratingText(value, provisional) {
  return provisional ? t("ratings.provisionalShort", { rating: num(value, { useGrouping: false }) })
    : num(value, { useGrouping: false });
}

/** The data attribute's form of a change: "+12", "-8", "+0". */
export function changeData(delta) {
  return `${delta < 0 ? "-" : "+"}${Math.abs(delta)}`;
}

/** The change as shown: "+12", "−8" (a real minus), "±0". */
export function changeText(delta) {
  if (delta === 0) return "±0";
  return `${delta < 0 ? "\u2212" : "+"}${num(Math.abs(delta), { useGrouping: false })}`;
}

/** A date (ISO text or seconds since 1970) in the page's language, or "". */
export function dateText(when, withTime = false) {
  if (when === null || when === undefined || when === "") return "";
  const date = typeof when === "number" ? new Date(when < 1e12 ? when * 1000 : when) : new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  const opts = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(document.documentElement.lang || "en", opts).format(date);
}
