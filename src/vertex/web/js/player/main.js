// A player's profile /players/{name} (issue 34): ratings per pool (provisional marked in
// words and with "?"), counts, the tables being played now, and finished games newest first
// (result, opponents, the rating change, a link to the table's replay), 50 at a time by the
// server's cursor ("More"), filtered by game. The root carries `data-player="NAME"` (the
// server's spelling); each rating `[data-player-rating="POOL"]` with `data-value` and
// `data-provisional`; each game `[data-player-game="ID"]`.
import { api } from "../shared/api.js";
import { announce, h } from "../shared/dom.js";
import { errorText, loadErrors } from "../shared/errors.js";
import { mountHeader } from "../shared/header.js";
import { loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { player } from "../shared/player.js";
import { findPool, gameTitle, poolName } from "../shared/pools.js";
import { changeData, changeText, dateText, ratingText } from "../shared/ratings.js";

await loadCatalogs("players");

const main = document.querySelector("main");
const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
const state = { profile: null, games: [], next: null, filter: "", allGames: [], error: null };

mountHeader();
load();
onLangChange(() => render());

async function load() {
  main.setAttribute("aria-busy", "true");
  try {
    const [profile, games, list] = await Promise.all([
      api.player(name), api.games().catch(() => []), api.playerGames(name)]);
    state.profile = profile;
    state.allGames = Array.isArray(games) ? games : [];
    state.games = list.games;
    state.next = list.next;
    document.title = `${profile.name} · Vertex`;
  } catch (err) {
    await loadErrors();
    state.error = err;
  }
  main.removeAttribute("aria-busy");
  render();
}

async function more(button) {
  button.disabled = true;
  try {
    const page = await api.playerGames(name, { game: state.filter, cursor: state.next });
    const first = page.games[0];
    state.games.push(...page.games);
    state.next = page.next;
    render();
    // the focus to the first game added (the button may be gone)
    if (first) main.querySelector(`[data-player-game="${CSS.escape(first.id)}"] a`)?.focus();
    announce(t("players.more.added", { n: page.games.length }));
  } catch (err) {
    await loadErrors();
    button.disabled = false;
    announce(errorText(err), true);
  }
}

async function filterBy(game) {
  state.filter = game;
  try {
    const page = await api.playerGames(name, { game });
    state.games = page.games;
    state.next = page.next;
    render();
    announce(t("players.filtered", { n: page.games.length }));
  } catch (err) {
    await loadErrors();
    announce(errorText(err), true);
  }
}

function render() {
  if (state.error) {
    main.removeAttribute("data-player");
    const missing = state.error.code === "no-player";
    main.replaceChildren(h("section", { class: "card" },
      h("h1", { text: missing ? t("players.missing.title") : t("players.failed") }),
      h("p", { text: missing ? t("players.missing.text", { name }) : errorText(state.error) }),
      h("p", {}, h("a", { href: "/", text: t("common.home") }))));
    return;
  }
  const p = state.profile;
  if (!p) return;
  const focusedFilter = document.activeElement?.id === "game-filter";
  main.dataset.player = p.name;
  const mine = player()?.name && player().name.toLowerCase() === p.name.toLowerCase();
  main.replaceChildren(...[
    h("header", { class: "profile-head" },
      h("h1", { text: p.name }),
      h("p", { class: "hint" }, [
        p.since ? t("players.since", { date: dateText(p.since) }) : "",
        mine ? ` · ${t("players.you")}` : ""].join(""))),
    counts(p.counts || {}),
    ratings(p.ratings || {}),
    playing(p.playing || []),
    history(),
  ].filter(Boolean)); // (replaceChildren would write a null as the text "null")
  if (focusedFilter) main.querySelector("#game-filter")?.focus();
}

function counts(c) {
  const item = (key, n) => h("div", { class: "count", "data-count": key },
    h("dt", { text: t(`players.count.${key}`) }), h("dd", { text: num(n ?? 0) }));
  return h("section", { class: "card", "aria-labelledby": "counts-heading" },
    h("h2", { id: "counts-heading", class: "sr-only", text: t("players.counts") }),
    h("dl", { class: "counts" },
      item("games", c.games), item("wins", c.wins), item("draws", c.draws), item("losses", c.losses)));
}

function ratings(r) {
  const pools = Object.entries(r).sort((a, b) => (b[1].games || 0) - (a[1].games || 0));
  const section = h("section", { class: "card", "aria-labelledby": "ratings-heading" },
    h("h2", { id: "ratings-heading", text: t("players.ratings") }));
  if (!pools.length) {
    section.append(h("p", { class: "hint", text: t("players.ratings.none") }));
    return section;
  }
  const rows = pools.map(([id, one]) => h("tr", {
    "data-player-rating": id, "data-value": one.rating, "data-provisional": String(Boolean(one.provisional)),
  },
  h("th", { scope: "row" }, h("a", { href: `/leaderboard/${encodeURIComponent(id)}`,
    "aria-label": t("players.leaderboardOf", { pool: poolName(state.allGames, id) }),
    text: poolName(state.allGames, id) })),
  h("td", { class: "num" },
    h("span", { class: "rating", text: ratingText(one.rating, one.provisional) }),
    one.provisional ? h("span", { class: "provisional", text: t("ratings.provisional") }) : null),
  h("td", { class: "num", text: num(one.games ?? 0) })));
  section.append(
    h("div", { class: "table-wrap" }, h("table", { class: "data" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("players.pool") }),
        h("th", { scope: "col", class: "num", text: t("players.rating") }),
        h("th", { scope: "col", class: "num", text: t("players.games") }))),
      h("tbody", {}, rows))),
    pools.some(([, one]) => one.provisional)
      ? h("p", { class: "hint", text: t("ratings.provisionalHelp") }) : null);
  return section;
}

function playing(list) {
  if (!list.length) return null;
  return h("section", { class: "card", "aria-labelledby": "playing-heading" },
    h("h2", { id: "playing-heading", text: t("players.playing") }),
    h("ul", { class: "plain-list", role: "list" }, list.map((table) => h("li", { "data-playing": table.id,
      "data-their-turn": table.their_turn ? "true" : null, "data-slow": table.slow ? "true" : null },
    h("a", { href: table.url || `/tables/${encodeURIComponent(table.id)}`,
      text: gameLabel(table.game) }),
    table.their_turn ? h("span", { class: "badge", text: t("players.playing.turn", { name: state.profile.name }) }) : null,
    table.slow ? slowLine(table.deadline) : null))));
}

/** A slow table (days a move): so said, and by when the move is due, in the page's language
 * and the reader's time zone (`time[data-playing-deadline]`). */
function slowLine(deadline) {
  if (typeof deadline !== "number") return h("span", { class: "hint", text: t("players.playing.slow") });
  const at = new Date(deadline * 1000);
  return h("span", { class: "hint" }, `${t("players.playing.slow")} · `,
    h("time", { datetime: at.toISOString(), "data-playing-deadline": String(Math.round(deadline)),
      text: t("players.playing.due", { when: dateText(deadline, true) }) }));
}

function gameLabel(id) {
  const game = state.allGames.find((g) => g.id === id);
  return game ? gameTitle(game) : id;
}

function history() {
  const filter = h("select", { id: "game-filter", name: "game-filter",
    onchange: (ev) => filterBy(ev.target.value) },
  h("option", { value: "", text: t("players.filter.all") }),
  state.allGames.map((g) => h("option", { value: g.id, selected: g.id === state.filter,
    text: gameTitle(g) })));
  filter.value = state.filter;
  const items = state.games.map(gameItem);
  return h("section", { class: "card", "aria-labelledby": "games-heading" },
    h("div", { class: "games-head" },
      h("h2", { id: "games-heading", text: t("players.history") }),
      h("div", { class: "filter" },
        h("label", { for: "game-filter", text: t("players.filter") }), filter)),
    items.length ? h("ol", { class: "player-games", role: "list" }, items)
      : h("p", { class: "hint", text: t("players.history.none") }),
    state.next ? h("p", { class: "more" }, h("button", { type: "button", "data-action": "more-games",
      onclick: (ev) => more(ev.currentTarget), text: t("players.more") })) : null);
}

const RESULT_MARK = { win: "✓", draw: "=", loss: "✗" };

function gameItem(g) {
  const pool = g.pool ? findPool(state.allGames, g.pool) : null;
  const title = pool ? poolName(state.allGames, g.pool) : gameLabel(g.game);
  const opponents = (g.opponents || []).map((o, i) => [
    i ? ", " : "",
    o.name && !o.former ? h("a", { href: `/players/${encodeURIComponent(o.name)}`, text: o.name })
      : h("span", { class: "former", text: o.name || t("me.former") }),
  ]).flat();
  const change = g.rating && typeof g.rating.after === "number" && typeof g.rating.before === "number"
    ? g.rating.after - g.rating.before : null;
  const url = g.url || `/tables/${encodeURIComponent(g.id)}`;
  return h("li", { class: `player-game ${g.result}`, "data-player-game": g.id, "data-result": g.result },
    h("span", { class: "result-mark", "aria-hidden": "true", text: RESULT_MARK[g.result] || "·" }),
    h("div", { class: "game-main" },
      h("p", { class: "game-line" },
        h("strong", { class: "result-word", text: t(`players.result.${g.result}`) }),
        " · ", h("span", { text: title }),
        g.rated ? h("span", { class: "badge rated", text: t("players.rated") }) : null),
      opponents.length ? h("p", { class: "hint" }, t("players.against"), " ", ...opponents) : null,
      // each fact whole on its line (a phone wraps between them, not inside "13–12")
      h("p", { class: "hint game-meta" }, ...[
        h("span", { text: dateText(g.ended_at, true) }),
        Array.isArray(g.scores) && g.scores.length
          ? h("span", { text: t("players.scores", { scores: g.scores.map((s) => num(s)).join("–") }) }) : null,
        change !== null ? h("span", { class: "change", "data-change": changeData(change),
          text: t("players.ratingChange", { before: num(g.rating.before, { useGrouping: false }),
            after: num(g.rating.after, { useGrouping: false }), change: changeText(change) }) }) : null,
      ].filter(Boolean).flatMap((el, i) => (i ? [" · ", el] : [el])))),
    h("a", { class: "button replay", href: url,
      "aria-label": t("players.replayOf", { game: title, date: dateText(g.ended_at, true) }),
      text: t("players.replay") }));
}
