// A table's version in words ("Classic, custom board of 37 triangles, shape bonus, 2
// overrules"): the board and the rules that make it differ from the plain game, for the table
// page, the lobby's share links and its saved versions. Words only, from the options in
// force (the server's): no rule is decided here.
import { has, loadCatalogs, t } from "./i18n.js";

await loadCatalogs("versions");

// per game: its words module once loaded (boards/<game>/<game>-version.js), or null if it
// has none; games without one say nothing here (their settings list the options)
const modules = new Map();

/** Load the words of `game`'s versions (a no-op once tried); resolves when they are there.
 * `has`: whether the server says the game has such words (`version_words`); without them
 * nothing is fetched. */
export function loadVersionWords(game, has = true) {
  if (!modules.has(game)) {
    const safe = has && /^[a-z0-9-]+$/.test(game) ? game : "";
    modules.set(game, safe ? import(`../boards/${safe}/${safe}-version.js`).then((m) => {
      modules.set(game, m);
      return m;
    }, () => { modules.set(game, null); return null; }) : Promise.resolve(null));
  }
  return Promise.resolve(modules.get(game));
}

/** The version of `game` played with `options` in words, or "" (not loaded yet, or the game
 * has no words of its own). */
export function versionWords(game, options) {
  const mod = modules.get(game);
  if (!options || !mod || typeof mod.versionWords !== "function") return "";
  return mod.versionWords(options);
}
