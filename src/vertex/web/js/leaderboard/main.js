// A rating pool's leaderboard /leaderboard/{pool} (issue 34): rank, name (a link to the
// profile), rating, games; rows `[data-leaderboard-row="NAME"]`, this browser's player
// marked. The other pools of the same game are a link away.
import { api } from "../shared/api.js";
import { h } from "../shared/dom.js";
import { errorText, loadErrors } from "../shared/errors.js";
import { mountHeader } from "../shared/header.js";
import { loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { player } from "../shared/player.js";
import { findPool, poolName } from "../shared/pools.js";

await loadCatalogs("players");

const main = document.querySelector("main");
const poolId = decodeURIComponent(location.pathname.replace(/^\/leaderboard\//, ""));
const state = { board: null, games: [], error: null };

mountHeader();
load();
onLangChange(() => render());

async function load() {
  main.setAttribute("aria-busy", "true");
  try {
    const [board, games] = await Promise.all([
      api.leaderboard(poolId), api.games().catch(() => [])]);
    state.board = board;
    state.games = Array.isArray(games) ? games : [];
  } catch (err) {
    await loadErrors();
    state.error = err;
  }
  main.removeAttribute("aria-busy");
  render();
}

function render() {
  if (state.error) {
    const missing = state.error.code === "no-pool";
    main.replaceChildren(h("section", { class: "card" },
      h("h1", { text: missing ? t("players.noPool.title") : t("players.failed") }),
      h("p", { text: missing ? t("players.noPool.text") : errorText(state.error) }),
      h("p", {}, h("a", { href: "/", text: t("common.home") }))));
    return;
  }
  const board = state.board;
  if (!board) return;
  const title = poolName(state.games, board.pool);
  document.title = `${t("players.leaderboard.title", { pool: title })} · Vertex`;
  main.dataset.leaderboard = board.pool;
  const me = (player()?.name || "").toLowerCase();
  const rows = (board.players || []).map((p) => h("tr", {
    "data-leaderboard-row": p.name,
    class: p.name.toLowerCase() === me ? "is-me" : null,
    "aria-current": p.name.toLowerCase() === me ? "true" : null,
  },
  h("td", { class: "num rank", text: num(p.rank) }),
  h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name }),
    p.name.toLowerCase() === me ? h("span", { class: "you", text: ` (${t("common.you")})` }) : null),
  h("td", { class: "num", text: num(p.rating, { useGrouping: false }) }),
  h("td", { class: "num", text: num(p.games) })));
  main.replaceChildren(...[
    h("header", { class: "profile-head" },
      h("h1", { text: t("players.leaderboard.title", { pool: title }) }),
      h("p", { class: "hint", text: t("players.leaderboard.rule") })),
    h("section", { class: "card", "aria-labelledby": "board-heading" },
      h("h2", { id: "board-heading", class: "sr-only", text: t("players.leaderboard.players") }),
      rows.length
        ? h("div", { class: "table-wrap" }, h("table", { class: "data leaderboard" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col", class: "num", text: t("players.rank") }),
            h("th", { scope: "col", text: t("players.name") }),
            h("th", { scope: "col", class: "num", text: t("players.rating") }),
            h("th", { scope: "col", class: "num", text: t("players.games") }))),
          h("tbody", {}, rows)))
        : h("p", { class: "hint", "data-leaderboard-empty": "", text: t("players.leaderboard.none") })),
    otherPools(board.pool),
  ].filter(Boolean));
}

function otherPools(id) {
  const found = findPool(state.games, id);
  const others = found ? (found.game.pools || []).filter((p) => p.id !== id) : [];
  if (!others.length) return null;
  return h("nav", { class: "card", "aria-labelledby": "pools-heading" },
    h("h2", { id: "pools-heading", text: t("players.leaderboard.others") }),
    h("ul", { class: "plain-list", role: "list" }, others.map((p) => h("li", {},
      h("a", { href: `/leaderboard/${encodeURIComponent(p.id)}`, text: poolName(state.games, p.id) })))));
}
