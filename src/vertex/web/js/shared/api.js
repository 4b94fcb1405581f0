// The HTTP API (DESIGN §5). Every failure becomes an ApiError with the server's code, its
// params and message (or "offline" when the server cannot be reached); shared/errors.js words it.
// The player key (shared/store.js) goes as `Authorization: Bearer` only on the calls that act
// as the player (`auth`): a stale key on every call would fail public reads too and count as
// failed key attempts against this address.
import { remembered } from "./store.js";

export class ApiError extends Error {
  constructor(code, message, status = 0, option = null, params = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.option = option;
    this.params = params || {};
  }
}

async function call(method, path, body, auth = false) {
  const headers = body === undefined ? {} : { "content-type": "application/json" };
  const key = auth ? remembered.key() : null;
  if (key) headers.authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new ApiError("offline", "the server cannot be reached");
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (response.status === 204) return null;
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http-error", err.message || response.statusText,
      response.status, err.option || null, err.params || null);
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  checkOptions: (game, options) => call("POST", "/api/options/check", { game, options }),
  createTable: (body) => call("POST", "/api/tables", body, true),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  // a player sits with the key: the seat is theirs, under their name (the body's is ignored)
  takeSeat: (id, n, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${n}`, { name }, true),
  record: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  // players (DESIGN §5a): the key is shown once, by the caller
  claimName: (name) => call("POST", "/api/players", { name }),
  me: () => call("GET", "/api/players/me", undefined, true),
  replaceKey: () => call("POST", "/api/players/me/key", {}, true),
  forgetMe: () => call("DELETE", "/api/players/me", undefined, true),
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  playerGames: (name, { game = "", cursor = "" } = {}) => {
    const q = new URLSearchParams();
    if (game) q.set("game", game);
    if (cursor) q.set("cursor", cursor);
    const query = q.toString();
    return call("GET", `/api/players/${encodeURIComponent(name)}/games${query ? `?${query}` : ""}`);
  },
  leaderboard: (pool) => call("GET", `/api/leaderboard/${encodeURIComponent(pool)}`),
  // puzzles (DESIGN §5b): with the key, so that a player's attempts rate them
  puzzleGames: () => call("GET", "/api/puzzles/games"),
  puzzleNext: (game, theme = "", after = "", pool = "") => {
    const q = new URLSearchParams({ game });
    if (pool) q.set("pool", pool);
    if (theme) q.set("theme", theme);
    if (after) q.set("after", after);
    return call("GET", `/api/puzzles/next?${q}`, undefined, true);
  },
  puzzleDaily: (game, pool = "") => {
    const q = new URLSearchParams({ game });
    if (pool) q.set("pool", pool);
    return call("GET", `/api/puzzles/daily?${q}`, undefined, true);
  },
  puzzle: (id) => call("GET", `/api/puzzles/${encodeURIComponent(id)}`, undefined, true),
  puzzleAttempt: (id, moves) =>
    call("POST", `/api/puzzles/${encodeURIComponent(id)}/attempt`, { moves }, true),
  puzzleGiveUp: (id) => call("POST", `/api/puzzles/${encodeURIComponent(id)}/give-up`, {}, true),
  puzzlePositions: (id, moves) =>
    call("POST", `/api/puzzles/${encodeURIComponent(id)}/positions`, { moves }),
  get: (path) => call("GET", path),
  post: (path, body, auth = false) => call("POST", path, body, auth),
};
