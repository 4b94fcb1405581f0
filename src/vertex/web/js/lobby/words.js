// Games and options in players' words (i18n/<lang>/games.json, game-summaries.json,
// options.json), falling back to the server's English (its name, summary, option titles and
// descriptions) where the catalog has no entry. The names are a catalog of their own (the
// table page needs them alone); the options' catalog comes with the form (lobby/form.js
// loads it), which is fetched when a game is chosen.
import { has, loadCatalogs, t } from "../shared/i18n.js";

await loadCatalogs("games", "game-summaries");

function pick(key, fallback) {
  return has(key) ? t(key) : fallback;
}

export function gameName(game) {
  return pick(`game.${game.id}.name`, game.name || game.id);
}

export function gameSummary(game) {
  return pick(`game.${game.id}.summary`, game.summary || "");
}

/** {label, help, value(v)} for option `desc` (a schema.js field) of game `gameId`. */
export function optionWords(gameId, desc) {
  const base = `option.${gameId}.${desc.name}`;
  return {
    label: pick(`${base}.label`, desc.title),
    help: pick(`${base}.help`, desc.description),
    value: (v) => pick(`${base}.${v}`, String(v)),
  };
}
