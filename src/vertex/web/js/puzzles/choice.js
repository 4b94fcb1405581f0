// What the player chooses to solve (issue 35): a game, one of its boards (a pool, e.g.
// Dots and Boxes 4×4) and a theme, as /api/puzzles/games lists them (the page names no game
// or board). Three labelled selects, `select[name="game"]`, `select[name="pool"]` and
// `select[name="theme"]`; the game and the board are remembered on this device.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { poolOptions } from "../shared/pools.js";
import { gameName, themeName } from "./words.js";

const GAME_KEY = "vertex.puzzles.game";
const POOL_KEY = "vertex.puzzles.pool";

function pref(name, fallback) {
  try { return localStorage.getItem(name) || fallback; } catch { return fallback; }
}

function savePref(name, value) {
  try { localStorage.setItem(name, value); } catch { /* nothing kept */ }
}

/** A board in words: its options in short ("4×4", "Size 4"), or "Standard board". */
function boardName(gameEntry, pool) {
  return poolOptions({ id: gameEntry.game, defaults: gameEntry.defaults }, pool)
    || t("puzzles.board.standard");
}

/** The choice's controls; `onChange()` runs when the player picks another game, board or
 * theme. `.game`, `.pool` and `.theme` are the chosen values ("" for any theme). */
export function makeChoice(offered, onChange) {
  const games = offered.games.map((g) => g.game);
  const byGame = new Map(offered.games.map((g) => [g.game, g]));
  const poolsOf = (game) => (byGame.get(game) || {}).pools || [];
  const el = {
    game: h("select", { id: "puzzle-game", name: "game" }),
    gameLabel: h("label", { for: "puzzle-game" }),
    pool: h("select", { id: "puzzle-pool", name: "pool", "data-puzzle-pool": "" }),
    poolLabel: h("label", { for: "puzzle-pool" }),
    theme: h("select", { id: "puzzle-theme", name: "theme" }),
    themeLabel: h("label", { for: "puzzle-theme" }),
  };
  el.game.addEventListener("change", () => {
    savePref(GAME_KEY, el.game.value);
    renderPools();
    onChange();
  });
  el.pool.addEventListener("change", () => {
    savePref(POOL_KEY, el.pool.value);
    renderThemes();
    onChange();
  });
  el.theme.addEventListener("change", () => onChange());

  function renderPools() {
    const game = el.game.value;
    const pools = poolsOf(game);
    const was = el.pool.value || pref(POOL_KEY, "");
    el.pool.replaceChildren(...pools.map((p) => h("option", { value: p.pool, text: boardName(byGame.get(game), p) })));
    el.pool.value = pools.some((p) => p.pool === was) ? was : (pools[0] || {}).pool || "";
    el.pool.disabled = pools.length < 2; // one board: nothing to choose, but said
    renderThemes();
  }

  function renderThemes() {
    const was = el.theme.value;
    const pool = poolsOf(el.game.value).find((p) => p.pool === el.pool.value);
    const themes = pool ? pool.themes : [];
    el.theme.replaceChildren(h("option", { value: "", text: t("puzzles.theme.all") }),
      ...themes.map((th) => h("option", { value: th, text: themeName(th) })));
    el.theme.value = themes.includes(was) ? was : "";
  }

  return {
    node: [
      h("div", { class: "field" }, el.gameLabel, el.game),
      h("div", { class: "field" }, el.poolLabel, el.pool),
      h("div", { class: "field" }, el.themeLabel, el.theme),
    ],
    get game() { return el.game.value; },
    get pool() { return el.pool.value; },
    get theme() { return el.theme.value; },
    /** Words in the page's language (at the start and on a language change). */
    render() {
      el.gameLabel.textContent = t("puzzles.choose.game");
      el.poolLabel.textContent = t("puzzles.choose.board");
      el.themeLabel.textContent = t("puzzles.choose.theme");
      const chosen = el.game.value || pref(GAME_KEY, games[0]);
      el.game.replaceChildren(...games.map((g) => h("option", { value: g, text: gameName(g) })));
      el.game.value = games.includes(chosen) ? chosen : games[0];
      renderPools();
    },
    /** The puzzle's board in words, where its game has more than one ("" otherwise). */
    board(puzzle) {
      const pools = poolsOf(puzzle.game);
      const pool = pools.find((p) => p.pool === puzzle.pool);
      return pools.length > 1 && pool ? boardName(byGame.get(puzzle.game), pool) : "";
    },
    /** Show the choice a puzzle answers (a permalink's, the day's). */
    follow(puzzle) {
      if (!games.includes(puzzle.game)) return;
      if (el.game.value !== puzzle.game) {
        el.game.value = puzzle.game;
        renderPools();
      }
      if (puzzle.pool && el.pool.value !== puzzle.pool && poolsOf(puzzle.game).some((p) => p.pool === puzzle.pool)) {
        el.pool.value = puzzle.pool;
        renderThemes();
      }
    },
  };
}
