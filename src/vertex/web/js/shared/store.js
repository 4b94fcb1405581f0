// What the browser remembers: the display name, seat tokens per table, settings, and a
// player's key (issue 34).
// Seat tokens are the only proof of a seat: they stay in this browser's storage and in the
// private seat link (a #fragment), never in a query string or anything sent to others. The
// player key likewise: storage, the key link's fragment, and the Authorization header of the
// API calls that act as the player (shared/api.js).

const NAME = "vertex.name";
const SEAT = "vertex.seat.";
const SETTING = "vertex.setting.";
const MY_SEAT = "vertex.myseat.";
const HIDDEN = "vertex.hidden"; // tables taken off "Your tables" (their seat is kept)
const RECENT = "vertex.recent"; // your tables that ended, newest first
const RECENT_KEPT = 5;
const VIEWER = "vertex.viewer"; // this browser's random id among a table's spectators
const SEEN = "vertex.spectators-seen."; // the last spectators' line read, per table
const KEY = "vertex.player.key";
const PLAYER = "vertex.player.name"; // the key's name as last heard (the header shows it at once)

function list(key) {
  try {
    const value = JSON.parse(get(key) || "[]");
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
  } catch { return []; }
}

function get(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage may be off: the page still works for this visit */ }
}

export const remembered = {
  name: () => get(NAME) || "",
  setName: (name) => set(NAME, name),
  /** The seat token this browser holds at table `id`, or null. */
  token: (id) => get(SEAT + id),
  setToken: (id, token) => set(SEAT + id, token),
  /** Which seat our token holds at table `id` (null: not known yet). */
  seat: (id) => {
    const raw = get(MY_SEAT + id);
    return raw === null ? null : Number(raw);
  },
  setSeat: (id, n) => set(MY_SEAT + id, n === null ? null : String(n)),
  /** The tables this browser holds a seat at, as stored. */
  tables: () => {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i);
        if (key && key.startsWith(SEAT)) out.push(key.slice(SEAT.length));
      }
    } catch { /* storage off */ }
    return out;
  },
  hidden: () => list(HIDDEN),
  hide: (id) => set(HIDDEN, JSON.stringify([...new Set([...list(HIDDEN), id])].slice(-200))),
  recent: () => list(RECENT),
  addRecent: (id) => {
    const now = [id, ...list(RECENT).filter((r) => r !== id)].slice(0, RECENT_KEPT);
    set(RECENT, JSON.stringify(now));
  },
  /** This browser's id among a table's spectators (its tabs count once): random, made once. */
  viewer: () => {
    let id = get(VIEWER);
    if (!id || !/^[A-Za-z0-9_-]{8,40}$/.test(id)) {
      const bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      set(VIEWER, id);
    }
    return id;
  },
  /** The number (`n`) of the last spectators' line read at table `id` (0: none). */
  spectatorsSeen: (id) => Number(get(SEEN + id)) || 0,
  setSpectatorsSeen: (id, n) => set(SEEN + id, String(n)),
  /** This browser's player key, or null (a guest). */
  key: () => get(KEY) || null,
  /** Keep `key` (and its player's name), or forget both (null: sign out on this device). */
  setKey: (key, name = null) => {
    set(KEY, key);
    set(PLAYER, key ? name : null);
  },
  playerName: () => (get(KEY) ? get(PLAYER) || "" : ""),
  setPlayerName: (name) => set(PLAYER, name),
  setting: (key, fallback = null) => {
    const raw = get(SETTING + key);
    return raw === null ? fallback : JSON.parse(raw);
  },
  setSetting: (key, value) => set(SETTING + key, JSON.stringify(value)),
};
