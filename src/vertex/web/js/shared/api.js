// The HTTP API (DESIGN §5). Every failure becomes an ApiError with the server's code, its
// params and message (or "offline" when the server cannot be reached); shared/errors.js words it.

export class ApiError extends Error {
  constructor(code, message, status = 0, option = null, params = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.option = option;
    this.params = params || {};
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new ApiError("offline", "the server cannot be reached");
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
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
  createTable: (body) => call("POST", "/api/tables", body),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  takeSeat: (id, n, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${n}`, { name }),
  record: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  get: (path) => call("GET", path),
  post: (path, body) => call("POST", path, body),
};
