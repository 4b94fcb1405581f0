// The lobby socket (/ws/lobby): the listed tables, kept up to date from the changes the
// server sends (not the whole list each time), and the tables this browser follows ("Your
// tables", by id). Reconnects with backoff; each new connection starts from a fresh list.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const PING_MS = 25_000;

export class LobbySocket {
  /**
   * handlers: {
   *   list(model, change)   the sections changed (change null: a fresh list)
   *   mine(entries, missing) followed tables' summaries (missing: ids the server does not know)
   *   status(s)             "online" | "reconnecting"
   * }
   */
  constructor(handlers) {
    this.on = handlers;
    this.game = null;
    this.entries = new Map(); // id -> entry, what the sections show
    this.counts = { open: 0, live: 0, finished: 0 };
    this.v = 0;
    this.following = [];
    this.ws = null;
    this.failures = 0;
    this.timer = null;
    this.ping = null;
  }

  start(game = null) {
    this.game = game;
    this._open();
  }

  /** Show one game's tables (null: every game): a new connection with that filter. */
  filter(game) {
    if (game === this.game) return;
    this.game = game;
    this._drop();
    this._open();
  }

  /** Follow these table ids (replacing the ones before). */
  follow(ids) {
    this.following = ids.slice(0, 50);
    this._send({ t: "follow", tables: this.following });
  }

  /** Entries of `section`, newest first, as the server orders them. */
  section(name) {
    const key = { open: "listed_at", live: "started_at", finished: "finished_at" }[name];
    return [...this.entries.values()].filter((e) => e.section === name)
      .sort((a, b) => (b[key] || 0) - (a[key] || 0));
  }

  _url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.game ? `?game=${encodeURIComponent(this.game)}` : "";
    return `${proto}//${location.host}/ws/lobby${query}`;
  }

  _open() {
    clearTimeout(this.timer);
    let ws;
    try { ws = new WebSocket(this._url()); } catch { this._closed(); return; }
    this.ws = ws;
    ws.onmessage = (e) => this._message(e.data);
    ws.onclose = () => { if (this.ws === ws) this._closed(); };
    ws.onopen = () => {
      this.failures = 0;
      if (this.following.length) this._send({ t: "follow", tables: this.following });
      clearInterval(this.ping);
      this.ping = setInterval(() => this._send({ t: "ping" }), PING_MS);
    };
  }

  _drop() {
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.ping);
    if (ws) {
      ws.onmessage = ws.onclose = ws.onopen = null;
      try { ws.close(); } catch { /* closed */ }
    }
  }

  _closed() {
    this._drop();
    this.on.status("reconnecting");
    const base = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
    this.failures += 1;
    this.timer = setTimeout(() => this._open(), base * (0.8 + Math.random() * 0.4));
  }

  _send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  _message(text) {
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    if (msg.t === "lobby") {
      this.entries = new Map();
      for (const name of ["open", "live", "finished"]) {
        for (const e of msg[name]) this.entries.set(e.id, e);
      }
      this.counts = msg.counts;
      this.v = msg.v;
      this.on.status("online");
      this.on.list(this, null);
    } else if (msg.t === "change") {
      const before = new Map(this.entries);
      for (const id of msg.gone) this.entries.delete(id);
      for (const e of msg.up) this.entries.set(e.id, e);
      this.counts = msg.counts;
      this.v = msg.v;
      this.on.list(this, { up: msg.up, gone: msg.gone, before });
    } else if (msg.t === "mine") {
      this.on.mine(msg.tables, msg.missing || []);
    }
  }
}
