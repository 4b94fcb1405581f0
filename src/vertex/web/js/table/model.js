// What the page knows about its table: the server's view, kept up to date by folding in
// the socket's events exactly as the server describes them (the page works nothing out).

export function createModel(id) {
  return {
    id,
    view: null, // the table view (GET /api/tables/{id} or a snapshot), events folded in
    mySeat: null, // the seat this browser holds, as the server said; null: a spectator
    seatKnown: false, // has the server told us (a stored token may be stale)?
    chat: [], // {seat, name, text, at}
    clocksAt: 0, // performance.now() at which view.clocks were exact
  };
}

/** A full view (HTTP or snapshot). */
export function setView(model, view, clocksAt) {
  const now = performance.now();
  view.seats = view.seats.map((s) => ({ ...s, handOverAt: handOverAt(s.hand_over_in, now) }));
  model.view = view;
  model.clocksAt = clocksAt;
  // A view that carries the chat so far (asked of the server) replaces what we heard.
  if (Array.isArray(view.chat)) model.chat = view.chat.map((m) => ({ ...m }));
}

/**
 * The state an event's `patch` makes of the state we have (the socket asks for deltas:
 * server/table/deltas.py). Operations: [path, value] sets, [path] deletes, [path, start, count,
 * items] splices the list at path; a path is keys and list indices from the root. The
 * state we have is left as it was.
 */
export function patched(state, patch) {
  const out = structuredClone(state);
  for (const op of patch) {
    const path = op[0];
    let target = out;
    for (let i = 0; i < path.length - 1; i++) target = target[path[i]];
    const last = path[path.length - 1];
    if (op.length === 1) delete target[last];
    else if (op.length === 4) target[last].splice(op[1], op[2], ...op[3]);
    else target[last] = op[1];
  }
  return out;
}

/** Fold one socket event into the view. */
export function applyEvent(model, ev, clocksAt) {
  const view = model.view;
  view.version = ev.v;
  if (ev.patch) ev = { ...ev, state: patched(view.state, ev.patch) };
  if ("state" in ev) {
    view.state = ev.state;
    view.result = ev.result;
    view.clocks = ev.clocks;
    model.clocksAt = clocksAt;
  }
  // the plies the computer played for a seat whose time ran out (the server's word)
  if ("clock_plies" in ev) view.clock_plies = ev.clock_plies;
  // the server's word on whether the table offers analysis now (it opens at the end)
  if ("analysis" in ev) view.analysis = ev.analysis;
  if (ev.seats) {
    // Event seats carry no presence: keep what we knew (computer seats are always here).
    view.seats = ev.seats.map((s, n) => ({
      ...s,
      connected: s.kind === "ai" || Boolean(view.seats[n] && view.seats[n].connected),
      handOverAt: s.kind === "ai" || !view.seats[n] ? null : view.seats[n].handOverAt,
    }));
  }
  if ("started" in ev) view.started = ev.started;
  if (ev.requests) view.requests = ev.requests;
  if ("rematch" in ev) view.rematch = ev.rematch;
  if (ev.kind === "chat") {
    model.chat.push({ seat: ev.seat, name: ev.name, text: ev.text, at: ev.at });
  }
}

/**
 * Presence from the socket: people per seat (computer seats are always there), and per
 * absent player the seconds before another may hand their seat to the computer.
 */
export function setPresence(model, connected, handOverIn = [], now = performance.now()) {
  if (!model.view) return;
  model.view.seats = model.view.seats.map((s, n) => ({
    ...s,
    connected: s.kind === "ai" || Boolean(connected[n]),
    handOverAt: s.kind === "ai" ? null : handOverAt(handOverIn[n], now),
  }));
}

/** performance.now() at which an absent player's grace ends (null: not away). */
function handOverAt(seconds, now) {
  return typeof seconds === "number" ? now + seconds * 1000 : null;
}

/** Whole seconds left of an absent player's grace (0: they may be handed over now). */
export function handOverWait(seat, now = performance.now()) {
  if (seat.handOverAt === null || seat.handOverAt === undefined) return null;
  return Math.max(0, Math.ceil((seat.handOverAt - now) / 1000));
}

/** Was ply k played by the computer for a seat whose time ran out? (the server says) */
export function byClock(view, k) {
  return Boolean(view && Array.isArray(view.clock_plies) && view.clock_plies.includes(k));
}

/** The seat whose time ran out for the last move played, the computer moving for them;
 * null when the last move was a player's own (or there is none). */
export function clockOut(model) {
  const view = model.view;
  const st = view && view.state;
  if (!st || !st.ply || !byClock(view, st.ply)) return null;
  const last = st.last_move;
  return last && last.seat !== null && last.seat !== undefined ? last.seat : null;
}

export const isOver = (model) => Boolean(model.view && model.view.result);

/** The seats that owe a move now: none before the start or after the end. */
export function turn(model) {
  const view = model.view;
  if (!view || !view.started || view.result) return [];
  return view.state.to_move || [];
}

export function isMyTurn(model) {
  return model.mySeat !== null && turn(model).includes(model.mySeat);
}

/** Do I hold a seat a person plays (not one handed to the computer)? */
export function amPlaying(model) {
  const seat = model.mySeat !== null && model.view ? model.view.seats[model.mySeat] : null;
  return Boolean(seat && seat.kind === "human");
}

/** Can this game be ended by agreement? The table view says (RULES.md §2). */
export function canEndByAgreement(model) {
  return model.view.can_end_by_agreement === true;
}
