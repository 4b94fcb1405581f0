// The table socket (DESIGN §5): one live connection to /ws/tables/{id}.
//
// It hands the page a gap-free stream: a snapshot, then events in version order (after a
// drop it reconnects with `since` and the server replays what was missed; an event that
// skips a version means we lost track, so it starts again from a fresh snapshot). Commands
// wait for their `ack` or `error`; a move stays *pending* until then and is sent again with
// the same id after a reconnect, so the server (which knows the id) applies it exactly once.

import { remembered } from "../shared/store.js";
import { me } from "../shared/player.js";

const PING_MS = 25_000; // a ping this often keeps proxies from closing an idle socket
const PONG_WAIT_MS = 10_000; // no pong by then: the connection is dead even if not closed
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
const SLOW_MS = 15_000; // after the backoff runs out: keep trying, slowly
const OFFLINE_AFTER = 4; // failed attempts in a row before we say "offline"

/** A fresh message id: random, so ids from two tabs on one seat never collide. */
export function freshId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a refused or lost command rejects with (the server's code, params and message, and
 *  for a refused move the game's `reason`: {rule, ...numbers}, where it gives one). */
export class CommandError extends Error {
  constructor(code, message, reason = null, params = null) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.params = params || {};
  }
}

export class TableSocket {
  /**
   * handlers: {
   *   snapshot(view, seat)     a full table view; `seat` is the seat our token holds or null
   *   resume(seat)             reconnected: the missed events follow as event()
   *   event(msg, live)         the next event (live false while catching up)
   *   presence(connected, handOverIn)  who is here, per seat, and the seconds before
   *                            each absent player may be handed over (null: not away)
   *   status(s)                "online" | "reconnecting" | "offline"
   *   gone()                   the table does not exist
   *   badToken()               our seat token holds no seat here (any more)
   *   notice(code, message)    an error the server sent that answers no command of ours
   *   watching(n)              how many spectators watch (optional)
   *   spectatorChat(lines, replace)  the spectators' chat's lines: all of them, or new ones
   * }
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.on = handlers;
    this.token = null;
    this.key = null; // a player's key: proves their seat where this browser holds no token
    this.v = null; // the last version handed to the page; null: we need a snapshot
    this.ws = null;
    this.ready = false; // caught up on this connection: commands may go out
    this.catchUpTo = null; // while replaying after `resume`: the version that ends it
    this.seat = null;
    this.waiting = new Map(); // id -> {msg, resolve, reject, sent}
    this.failures = 0;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.connectError = null;
    this.stopped = false;
    this.statusNow = null;
    // Back online: try at once rather than at the next backoff step.
    this._wake = () => {
      if (this.stopped) return;
      if (this.ready) this._status("online");
      else this._connectNow();
    };
    this._offline = () => this._status("offline");
    this._visible = () => {
      if (document.visibilityState === "visible" && !this.ready) this._wake();
    };
  }

  /** Connect, with the seat token (or null: a spectator) and the version already drawn; or,
   * with no token, with the key of a player who sits here (their seat from another device). */
  start({ token = null, key = null, since = null } = {}) {
    this.token = token;
    this.key = token ? null : key;
    this.v = since;
    window.addEventListener("online", this._wake);
    window.addEventListener("offline", this._offline);
    document.addEventListener("visibilitychange", this._visible);
    this._status("reconnecting");
    this._open();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this._wake);
    window.removeEventListener("offline", this._offline);
    document.removeEventListener("visibilitychange", this._visible);
    this._drop();
  }

  /** Reconnect as another seat (a seat just taken) or as a spectator (null). */
  setToken(token) {
    this.token = token;
    this.key = null; // a seat just taken has its token; a refused key is not tried again
    this._connectNow();
  }

  /** The move sent and not yet answered, or null. */
  pendingMove() {
    for (const w of this.waiting.values()) if (w.msg.t === "move") return w.msg.move;
    return null;
  }

  /**
   * Send a command ({t, ...}); resolves with the server's `ack`, rejects with a
   * CommandError. Queued while the socket is down (and sent once it is back and caught up).
   */
  send(msg) {
    const full = { ...msg, id: freshId() };
    return new Promise((resolve, reject) => {
      const entry = { msg: full, resolve, reject, sent: false };
      this.waiting.set(full.id, entry);
      if (this.ready) this._transmit(entry);
    });
  }

  // ---- connection ------------------------------------------------------------------------
  _url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    // A seat's token goes in the first frame, never in the URL (a proxy's log would keep
    // it): `hello=1` tells the server to wait for that frame (DESIGN §5c).
    if (this.token || this.key) params.set("hello", "1");
    if (this.v !== null) params.set("since", String(this.v));
    // this browser's id: its tabs count once among the spectators
    params.set("viewer", remembered.viewer());
    // Events carry their state as a patch on the one before (the page's model applies it).
    params.set("deltas", "1");
    const query = params.toString();
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}` +
      (query ? `?${query}` : "");
  }

  _open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    this.connectError = null;
    let ws;
    try {
      ws = new WebSocket(this._url());
    } catch {
      this._closed();
      return;
    }
    this.ws = ws;
    const token = this.token;
    const key = token ? null : this.key;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      if (token) ws.send(JSON.stringify({ t: "hello", token }));
      else if (key) ws.send(JSON.stringify({ t: "hello", key })); // DESIGN §5a
    };
    ws.onmessage = (e) => this._message(e.data);
    ws.onclose = (e) => { if (this.ws === ws) this._closed(e.code); };
    ws.onerror = () => { /* onclose follows and decides */ };
  }

  /** Drop the current connection now and open a new one without waiting. */
  _connectNow() {
    this._drop();
    this._forgetSent();
    this._status("reconnecting");
    this._open();
  }

  /** Forget the connection without waiting for its closing handshake (it may be dead). */
  _drop() {
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.catchUpTo = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    clearTimeout(this.timer);
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch { /* already closed */ }
    }
  }

  _closed(code) {
    const err = this.connectError;
    this._drop();
    this._forgetSent();
    if (this.stopped) return;
    if (code === 4404 || (err && err.code === "no-such-table")) {
      this.stopped = true;
      this.on.gone();
      return;
    }
    if (err && err.code === "bad-token") {
      this.token = null;
      this.on.badToken();
      this._open();
      return;
    }
    if (err && err.code === "bad-key") {
      // the player's key stopped (a new one, or forgotten; on any device): the key this
      // browser holds now, if it changed, else watch (DESIGN §5a)
      const now = remembered.key();
      if (now && now === this.key) me(true).catch(() => {}); // asks: a stopped key is dropped
      this.key = now && now !== this.key ? now : null;
      this.failures = 0;
      this._open();
      return;
    }
    if (err && err.code === "bad-message") this.v = null; // our `since` was refused
    this.failures += 1;
    const offline = !navigator.onLine || this.failures > OFFLINE_AFTER;
    this._status(offline ? "offline" : "reconnecting");
    const base = BACKOFF_MS[this.failures - 1] ?? SLOW_MS;
    const jitter = base * (Math.random() * 0.4 - 0.2); // spread a crowd's reconnects
    this.timer = setTimeout(() => this._open(), base + jitter);
  }

  /** Commands other than moves that went out on a lost connection: we cannot know
   * whether they arrived, so they fail (their effect, if any, shows in the catch-up). */
  _forgetSent() {
    for (const [id, w] of this.waiting) {
      if (w.sent && w.msg.t !== "move") {
        this.waiting.delete(id);
        w.reject(new CommandError("connection-lost", ""));
      }
      w.sent = false;
    }
  }

  _status(s) {
    if (s === this.statusNow) return;
    this.statusNow = s;
    this.on.status(s);
  }

  // ---- keeping the connection honest -----------------------------------------------------
  _startPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (!this.ready || !this.ws) return;
      try { this.ws.send(JSON.stringify({ t: "ping" })); } catch { /* onclose handles it */ }
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this._closed(1006), PONG_WAIT_MS);
    }, PING_MS);
  }

  _caughtUp() {
    this.catchUpTo = null;
    this.ready = true;
    this.failures = 0;
    this._status("online");
    this._startPings();
    // Everything not yet sent on this connection goes now, moves again with their old ids.
    for (const w of this.waiting.values()) if (!w.sent) this._transmit(w);
  }

  _transmit(entry) {
    try {
      this.ws.send(JSON.stringify(entry.msg));
      entry.sent = true;
    } catch { /* the connection is going: it is sent after the reconnect */ }
  }

  // ---- messages --------------------------------------------------------------------------
  _message(raw) {
    let msg;
    try { msg = JSON.parse(raw); } catch { return; }
    if (!msg || typeof msg.t !== "string") return;
    clearTimeout(this.pongTimer); // anything from the server proves the connection lives
    switch (msg.t) {
      case "snapshot":
        this.seat = msg.seat ?? null;
        this.v = msg.v;
        this.on.snapshot(msg.table, this.seat);
        this._caughtUp();
        break;
      case "resume":
        this.seat = msg.seat ?? null;
        this.on.resume(this.seat);
        if (msg.v <= this.v) this._caughtUp();
        else this.catchUpTo = msg.v;
        break;
      case "event":
        this._event(msg);
        break;
      case "presence":
        this.on.presence(msg.connected || [], msg.hand_over_in || []);
        break;
      case "watching": // how many spectators, on every process (at most once a second)
        this.on.watching?.(Number(msg.n) || 0);
        break;
      case "spectator-chat": // the spectators' chat: all its lines (`replace`), or new ones
        this.on.spectatorChat?.(Array.isArray(msg.lines) ? msg.lines : [], Boolean(msg.replace));
        break;
      case "former": // seats whose players were forgotten just now (no log event says so)
        this.on.former?.(Array.isArray(msg.seats) ? msg.seats : []);
        break;
      case "review": // a review of the game is under way (js/table/review.js): its progress
        this.on.review?.(msg);
        break;
      case "ack":
      case "error":
        this._answer(msg);
        break;
      case "resync": // we fell too far behind: the server let go; catch up from `since`
        this._connectNow();
        break;
      default: // pong, and anything newer than this page
        break;
    }
  }

  _event(msg) {
    if (this.v === null || msg.v <= this.v) return; // seen already
    if (msg.v !== this.v + 1) {
      // A gap: something was lost. Start over from a full snapshot.
      this.v = null;
      this._connectNow();
      return;
    }
    this.v = msg.v;
    // Our own move coming back ends its wait before the page draws it, so the line is
    // never drawn as both pending and played.
    if (msg.kind === "move" && msg.cid !== undefined && msg.seat === this.seat) {
      const w = this.waiting.get(msg.cid);
      if (w) {
        this.waiting.delete(msg.cid);
        w.resolve({ t: "ack", v: msg.v, id: msg.cid });
      }
    }
    const catching = this.catchUpTo !== null;
    const ws = this.ws;
    this.on.event(msg, !catching);
    // (the page may have asked for a new connection meanwhile: this one is done then)
    if (catching && this.ws === ws && this.v >= this.catchUpTo) this._caughtUp();
  }

  _answer(msg) {
    const w = msg.id !== undefined ? this.waiting.get(msg.id) : undefined;
    if (w) {
      this.waiting.delete(msg.id);
      if (msg.t === "ack") w.resolve(msg);
      else w.reject(new CommandError(msg.code, msg.message, msg.reason || null, msg.params));
      return;
    }
    if (msg.t !== "error") return; // an ack for a move already seen come back
    // why the server is about to close on us (a key that stopped: on an open socket too)
    if (!this.ready || msg.code === "bad-key") this.connectError = msg;
    else this.on.notice(msg.code, msg.message, msg.params);
  }
}
