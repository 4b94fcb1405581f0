// "Your tables": the tables this browser holds a seat at (their tokens stay in its storage;
// the lobby socket is only told their ids), and for a player with a key also the tables the
// server says they sit at (GET /api/players/me `tables`: the same on every device), live,
// with "your turn" marked; ended ones move to a short "recent" list. Tells the player
// (shared/alerts.js) when it becomes their turn or someone sits at a table where they wait:
// the socket's follow-by-id carries the turns of both kinds, and the player's list is asked
// again now and then (a table joined on another device), less often while nothing changes.
import { h } from "../shared/dom.js";
import { lang, t } from "../shared/i18n.js";
import { tell } from "../shared/alerts.js";
import { entryTitle, seatList } from "./entry.js";
import { remembered } from "../shared/store.js";
import { me, onPlayerChange, player } from "../shared/player.js";

// how often the player's list is asked again: from 30 s, doubling to 5 min while it stays the
// same or fails; at once when the page comes back into view
const POLL_MS = [30_000, 60_000, 120_000, 300_000];

export class MyTables {
  constructor(host, games, socket) {
    this.host = host;
    this.games = games;
    this.socket = socket;
    this.entries = new Map();
    this.waitingFor = null; // Play now: a table id, and what to do when someone sits
    this.server = new Map(); // a player's tables as the server lists them: id -> {seat, …}
    this.polls = 0;
    this.pollTimer = null;
    this.root = h("section", { class: "mine card", "data-my-tables": "",
      "aria-labelledby": "mine-heading" });
    host.replaceChildren(this.root);
    this.refresh();
    this.fromServer();
    onPlayerChange(() => { this.server = new Map(); this.polls = 0; this.fromServer(); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && player()) { this.polls = 0; this.fromServer(); }
    });
  }

  /** A player's tables from the server (every device's); again later, by the backoff. */
  async fromServer() {
    clearTimeout(this.pollTimer);
    if (!player()) {
      this.refresh();
      return;
    }
    const before = this.serverSaid();
    try {
      const profile = await me(true);
      this.server = new Map((profile?.tables || []).map((tb) => [tb.id, tb]));
    } catch { /* offline: keep what we had */ }
    const same = this.serverSaid() === before;
    this.polls = same ? this.polls + 1 : 0;
    if (!same) this.refresh();
    if (player()) {
      const wait = POLL_MS[Math.min(this.polls, POLL_MS.length - 1)];
      this.pollTimer = setTimeout(() => this.fromServer(), wait);
    }
  }

  /** What the server's list says that the page shows: the tables, and slow ones' deadlines. */
  serverSaid() {
    return JSON.stringify([...this.server.values()].map((tb) => [tb.id, tb.deadline ?? null]).sort());
  }

  /** A slow table moved on: its deadline is the server's to say (soon, not at once). */
  deadlineMoved(id) {
    if (!this.server.get(id)?.slow) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(() => { this.polls = 0; this.fromServer(); }, 1000);
  }

  ids() {
    const hidden = new Set(remembered.hidden());
    const all = [...this.server.keys(), ...remembered.tables()];
    return [...new Set(all)].filter((id) => !hidden.has(id));
  }

  /** The seat this browser (or this player) holds at table `id`, or null. */
  seatOf(id) {
    const local = remembered.seat(id);
    if (local !== null) return local;
    const listed = this.server.get(id);
    return listed && Number.isInteger(listed.seat) ? listed.seat : null;
  }

  /** Follow what storage holds now (after a seat was taken, or on load). */
  refresh() {
    this.socket.follow(this.ids());
    this.render();
  }

  /** Summaries from the socket. */
  update(entries, missing) {
    for (const id of missing) remembered.hide(id);
    for (const e of entries) {
      const before = this.entries.get(e.id);
      const seat = this.seatOf(e.id);
      if (seat === null) findSeat(e.id).then(() => this.render());
      this.entries.set(e.id, e);
      if (before && before.v !== e.v) this.deadlineMoved(e.id);
      this.told(before, e, seat);
      // Play now: someone sat (perhaps before this page heard of its own table at all)
      if (this.waitingFor && this.waitingFor.id === e.id && e.free_seats === 0) {
        const { then } = this.waitingFor;
        this.waitingFor = null;
        then(e);
      }
      if (e.result !== null || e.section === null) {
        remembered.addRecent(e.id);
        remembered.hide(e.id);
      }
    }
    if (missing.length) this.socket.follow(this.ids());
    this.render();
  }

  told(before, e, seat) {
    if (!before || seat === null) return;
    const url = `/tables/${encodeURIComponent(e.id)}`;
    const game = entryTitle(e, this.games);
    if (myTurn(e, seat) && !myTurn(before, seat)) tell(t("place.told.turn", { game }), url);
    else if (e.free_seats < before.free_seats) tell(t("place.told.sat", { game }), url);
  }

  render() {
    const ids = this.ids();
    const recent = remembered.recent();
    this.root.hidden = !ids.length && !recent.length;
    const items = ids.map((id) => this.item(id)).filter(Boolean);
    this.root.replaceChildren(...present(
      h("h2", { id: "mine-heading", text: t("place.mine") }),
      items.length ? h("ul", { class: "entries", role: "list" }, items)
        : h("p", { class: "hint", text: t("place.mine.none") }),
      recent.length ? h("h3", { text: t("place.recent") }) : null,
      recent.length ? h("ul", { class: "recent", role: "list" }, recent.map((id) => {
        const e = this.entries.get(id);
        const name = e ? entryTitle(e, this.games) : t("place.table");
        return h("li", {}, h("a", { href: `/tables/${encodeURIComponent(id)}`, text: name }));
      })) : null));
  }

  item(id) {
    const e = this.entries.get(id);
    if (!e) return null;
    const seat = this.seatOf(id);
    const mine = seat !== null && myTurn(e, seat);
    const title = entryTitle(e, this.games);
    const state = e.section === "open" || (!e.started_at && e.free_seats)
      ? t("place.mine.waiting") : mine ? t("place.mine.turn") : t("place.mine.their-turn");
    const listed = this.server.get(id);
    const slow = Boolean(listed?.slow || e.clock?.per_move_days);
    return h("li", { class: `entry${mine ? " my-turn" : ""}`, "data-my-table": id,
      "data-my-turn": String(mine), "data-slow": slow ? "true" : null },
    h("a", { class: "entry-link", href: `/tables/${encodeURIComponent(id)}` },
      h("span", { class: "entry-text" },
        h("span", { class: "entry-game", text: title }),
        seatList(e),
        h("span", { class: mine ? "badge turn" : "entry-meta", text: state }),
        slow ? slowWords(e, listed, mine) : null)),
    h("button", { type: "button", class: "quiet", "data-action": "forget-table",
      "aria-label": t("place.mine.remove-of", { game: title }), text: t("place.mine.remove"),
      onclick: () => { remembered.hide(id); this.entries.delete(id); this.refresh(); } }));
  }
}

/** A slow table (days a move): so said, and while it plays, by when the move is due
 * (`[data-my-deadline]`, a <time>), in the page's language and the reader's time zone. */
function slowWords(e, listed, mine) {
  const days = e.clock?.per_move_days;
  const said = days ? t("place.mine.slow-days", { days: t("place.clock.per-move-days", { n: days }) })
    : t("place.mine.slow");
  const deadline = listed?.deadline;
  const playing = e.result === null && e.free_seats === 0;
  const line = h("span", { class: "entry-meta entry-slow", text: said });
  if (!playing || typeof deadline !== "number") return [line];
  const at = new Date(deadline * 1000);
  const when = new Intl.DateTimeFormat(lang(), { weekday: "short", day: "numeric",
    month: "short", hour: "2-digit", minute: "2-digit" }).format(at);
  return [line, h("time", { class: "entry-meta entry-deadline",
    "data-my-deadline": String(Math.round(deadline)), datetime: at.toISOString(),
    text: t(mine ? "place.mine.due-you" : "place.mine.due-them", { when }) })];
}

/** The children given, without the ones left out (null). */
function present(...nodes) {
  return nodes.filter((n) => n !== null && n !== undefined);
}

function myTurn(e, seat) {
  return e.to_move.includes(seat) && e.free_seats === 0 && e.result === null;
}

/** A table stored without its seat number (from before it was kept): ask that table's own
 * socket, the one place its token goes, which seat the token holds. */
const asking = new Map();
function findSeat(id) {
  if (asking.has(id)) return asking.get(id);
  const token = remembered.token(id);
  const found = new Promise((resolve) => {
    if (!token) { resolve(null); return; }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // the token in the first frame, never in the URL (DESIGN §5c)
    const ws = new WebSocket(
      `${proto}//${location.host}/ws/tables/${encodeURIComponent(id)}?hello=1`);
    ws.onopen = () => ws.send(JSON.stringify({ t: "hello", token }));
    ws.onmessage = (ev) => {
      try {
        const msg = JSON.parse(ev.data);
        if (msg.t === "snapshot" && msg.seat !== null) remembered.setSeat(id, msg.seat);
      } catch { /* not for us */ }
      ws.close();
      resolve(remembered.seat(id));
    };
    ws.onerror = () => resolve(null);
  });
  asking.set(id, found);
  return found;
}
