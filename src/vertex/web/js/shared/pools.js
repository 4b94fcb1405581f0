// A rating pool in words (issue 34): its game's name and its options in short, from
// /api/games (`pools: [{id, options}]`), e.g. "Dots and Boxes · 5×5".
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
  const defaults = game.defaults || {};
  const parts = [];
  if (options.rows !== undefined && options.cols !== undefined) {
    parts.push(`${num(options.rows)}×${num(options.cols)}`);
    delete options.rows;
    delete options.cols;
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === false || value === null) continue; // an option left off says nothing
    if (JSON.stringify(defaults[name]) === JSON.stringify(value)) continue; // as usual
    const base = `option.${game.id}.${name}`;
    const label = has(`${base}.label`) ? t(`${base}.label`) : name;
    if (value === true) { parts.push(label); continue; }
    const shown = has(`${base}.${value}`) ? t(`${base}.${value}`)
      : typeof value === "number" ? num(value) : String(value);
    parts.push(`${label} ${shown}`);
  }
  return parts.join(", ");
}

/** "Dots and Boxes · 5×5": the pool `id` in words: the catalog's name for the pools RULES §5
 * lists (`pool.<id>`), else the game's name and the options that are not its defaults (its
 * id where the games do not list it). */
export function poolName(games, id) {
  const found = findPool(games, id);
  const named = `pool.${id}`;
  if (found && has(named)) return t(named, { game: gameTitle(found.game) });
  if (!found) return id;
  const options = poolOptions(found.game, found.pool);
  return options ? t("ratings.pool", { game: gameTitle(found.game), options })
    : gameTitle(found.game);
}

