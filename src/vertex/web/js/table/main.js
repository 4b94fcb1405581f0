// The table page /tables/{id}: wires the board, the panels and the socket together.
//
// The page draws what the server says and nothing else: a move is sent and shown as
// pending until the server acknowledges it (never applied here first); every change comes
// back as an event, and `data-version` on the root is set right after the board has drawn
// that version (tests and acceptance checks wait on it).
import { api } from "../shared/api.js";
import { tell } from "../shared/alerts.js";
import { announce, h } from "../shared/dom.js";
import { errorWords, loadErrors } from "../shared/errors.js";
import { mountHeader } from "../shared/header.js";
import { onThemeChange } from "../shared/theme.js";
import { loadCatalogs, onLangChange, t } from "../shared/i18n.js";
import { remembered } from "../shared/store.js";
import { me } from "../shared/player.js";
import { TableSocket } from "./socket.js";
import { createTouchSetting, mountBoard } from "./board.js";
import { keepBoardInView } from "./keep-board.js";
import { createRefusal } from "./refusal.js";
import { createChat } from "./chat.js";
import { createSpectatorChat, createWatching } from "./spectators.js";
import { clocksStamp, startTicking } from "./clocks.js";
import { createInfo } from "./info.js";
import { createLinks } from "./links.js";
import { createPlacement } from "./placement.js";
import {
  amPlaying, applyEvent, createModel, isMyTurn, isOver, setPresence, setView, turn,
} from "./model.js";
import { createReplay } from "./replay-buttons.js";
import { createSeats } from "./seats.js";
import { createConnection } from "./connection.js";
import { gameName, seatName } from "./text.js";

await loadCatalogs("table");

const main = document.querySelector("[data-table]");
const tableId = decodeURIComponent(location.pathname.replace(/^\/tables\//, "").split("/")[0]);
const model = createModel(tableId);
let token = null;
let socket = null;
let ui = null; // the panels, once the table is known
let board = null;
let wasMyTurn = false;
let wasOver = null;
let errors = 0; // refusals shown or cleared so far (a late catalog must not show a stale one)
let focusBoardWhenSeated = false; // a seat just taken: its button goes, the board gets focus

boot();

async function boot() {
  mountHeader();
  token = tokenFromFragment() || remembered.token(tableId);
  loadGameNames();
  // a player seated here from another device has no token in this browser: their key
  // proves the seat (asked only when the server lists this table as theirs)
  const mine = token ? null : me().catch(() => null);
  const view = await fetchView();
  if (!view) return;
  const profile = mine ? await mine : null;
  const listed = profile?.tables?.find((tb) => tb.id === tableId);
  const key = listed ? remembered.key() : null;
  setView(model, view, performance.now());
  model.seatKnown = !token && !key; // with a token (or key), the socket says which seat it holds
  await build(view);
  await aboveTheBoard(view);
  render();
  socket = new TableSocket(tableId, socketHandlers());
  // A seat holder starts from the socket's snapshot: it is the view as that seat may see it
  // (the HTTP view is everyone's, without the seat's own sealed move); a spectator resumes.
  socket.start({ token, key, since: token || key ? null : view.version });
  if (view.settings && view.settings.clock) startTicking(() => ui.seats.tick(model));
  onLangChange(() => render({ relabel: true }));
  onThemeChange(() => render({ relabel: true })); // seat inks are the theme's
}

/** What shows above the board on the first frame (the version's words, the status line or
 * the result), fetched before that frame for at most 1.5 s: arriving a moment later, it pushed
 * the board down under a pointer already aimed at a line. */
function aboveTheBoard(view) {
  const loads = [ui.info.prepare(view), ui.status.ready(model), ui.result.ready(model)];
  return Promise.race([
    Promise.allSettled(loads),
    new Promise((resolve) => { setTimeout(resolve, 1500); }),
  ]);
}

/** A seat link (#token=…) stores its token for this table and leaves the address bar. */
function tokenFromFragment() {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return null;
  const value = decodeURIComponent(match[1]);
  remembered.setToken(tableId, value);
  history.replaceState(history.state, "", location.pathname + location.search);
  return value;
}

/** Game names live in the lobby's catalog; the page works (with the server's names)
 * without it. */
function loadGameNames() {
  loadCatalogs("games")
    .then(() => { if (ui) render({ relabel: true }); })
    .catch(() => { /* not there: gameName() falls back */ });
}

/** The table's view over HTTP; null (and the page explains) when there is no such table.
 * While the server cannot be reached it keeps asking, more slowly each time. */
async function fetchView() {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 15_000)) {
    try {
      return await api.table(tableId);
    } catch (err) {
      if (err.status === 404) {
        showMissing();
        return null;
      }
      main.replaceChildren(h("p", { class: "notice", role: "status",
        "data-connection": "offline", text: t("common.offline") }));
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** No such table (any more): say so, with the way back. Its words are fetched only then. */
async function showMissing() {
  if (socket) socket.stop();
  await loadCatalogs("table-missing");
  document.title = t("table.missing.title");
  main.dataset.missing = "";
  const heading = h("h1", { text: t("table.missing.heading") });
  main.replaceChildren(h("section", { class: "card missing", "data-missing": true },
    heading,
    h("p", { text: t("table.missing.text") }),
    h("p", {}, h("a", { class: "button primary", href: "/", text: t("table.missing.lobby") }))));
}

// ---- the page ---------------------------------------------------------------------------
async function build(view) {
  const titleHost = h("div", { class: "table-heading" });
  const connectionEl = h("span", { class: "connection" });
  const watchingEl = h("span"); // how many watch ([data-watching], js/table/spectators.js)
  const statusHost = h("div", { class: "table-status" });
  const resultHost = h("section", { class: "result-banner", "aria-live": "off" });
  const boardHost = h("div", { class: "board-host", id: "board", tabindex: "-1" });
  // The skip link lands here (js/shared/skip.js): on the board itself, where the keys play.
  boardHost.addEventListener("focus", (ev) => {
    if (ev.relatedTarget?.matches("a.skip")) board?.focus();
  });
  const touchHost = h("div", { class: "board-settings" });
  const refusalHost = h("div", { class: "refusal-host" });
  const seatsHost = h("section", { class: "panel seats" });
  const actionsHost = h("section", { class: "panel actions" });
  const chatHost = h("section", { class: "panel chat" });
  const spectatorsHost = h("section", { class: "panel spectator-chat" });
  const linksHost = h("section", { class: "panel links" });
  const infoHost = h("div", { class: "panel info" });
  // replay + analysis (js/table/replay-buttons.js)
  const replayHost = h("section", { class: "panel replay" });
  const movesHost = h("section", { class: "panel moves" }); // the live move list (js/table/moves.js)
  const column = h("div", { class: "table-main" },
    h("div", { class: "table-head" }, titleHost,
      h("div", { class: "table-head-badges" }, watchingEl, connectionEl)),
    statusHost, resultHost, boardHost, refusalHost, touchHost);
  const side = h("div", { class: "table-side" },
    seatsHost, movesHost, actionsHost, replayHost, chatHost, spectatorsHost, linksHost, infoHost);
  main.replaceChildren(h("div", { class: "table-layout" }, column, side));
  keepBoardInView(column);

  const fail = (err) => showError(err);
  const send = (msg) => socket.send(msg).then((ack) => { clearError(); return ack; });
  ui = {
    // the invitation first while seats are free; the result beside the board (js/table/placement.js)
    placement: createPlacement({ main, column, side, links: linksHost, linksBefore: infoHost,
      result: resultHost, resultBefore: boardHost }),
    info: createInfo(titleHost, infoHost),
    connection: createConnection(connectionEl),
    // fetched once there is something for them: a game going on (or a refusal) to speak of,
    // a result to show, a seat to act for
    status: onDemand(statusHost, (m) => !isOver(m),
      () => import("./status.js").then((mod) => mod.createStatus(statusHost, { send, fail }))),
    result: onDemand(resultHost, isOver,
      () => import("./result.js").then((mod) => mod.createResult(resultHost, { board: () => board }))),
    seats: null,
    actions: onDemand(actionsHost, amPlaying, () => import("./actions.js")
      .then((mod) => mod.createActions(actionsHost, { send, fail, rematched: goToRematch }))),
    chat: createChat(chatHost, { send, fail }),
    watching: createWatching(watchingEl),
    spectators: createSpectatorChat(spectatorsHost, { id: tableId, send: (msg) => socket.send(msg) }),
    links: createLinks(linksHost, tableId),
    touch: createTouchSetting(touchHost, () => render()),
    refusal: createRefusal(refusalHost),
  };
  ui.seats = createSeats(seatsHost, {
    takeSeat,
    handOver: (n) => ui.actions.get().then((actions) => actions.handOverSeat(n), fail),
  });
  const mounted = await mountBoard(boardHost, view.state, {
    onMove,
    names: (n) => seatName(model.view, n),
    // games with aiming (Verticality): where the piece would go, checked, kept privately
    sendAim: (move) => socket.send({ t: "aim", move }),
    // ... and where the game suggests my piece goes ({aim}; POST /api/tables/ID/suggestion)
    suggestAim: () => (token ? api.post(`/api/tables/${encodeURIComponent(tableId)}/suggestion`, { token })
      : Promise.reject(new Error("no seat"))),
    // a board's refusal for [data-refusal]; code null: the reason no longer stands
    refuse: (code, text) => (code === null ? ui.refusal.clear() : ui.refusal.show(code, text)),
  });
  board = mounted.board;
  ui.touch.show(mounted.confirms);
  // The buttons only: what they open is fetched on the first press.
  ui.replay = createReplay(replayHost, {
    id: tableId, model, board: () => board, names: (n) => seatName(model.view, n), redraw: () => render(),
    stepped: () => ui.moves.render(model),
  });
  // The live move list, once the game has a move to list (a finished game has the replay).
  ui.moves = onDemand(movesHost, (m) => !isOver(m) && Boolean(m.view.state.ply),
    () => import("./moves.js").then((mod) => mod.createMoves(movesHost, {
      id: tableId, board: () => board, names: (n) => seatName(model.view, n),
      peek: (ply) => ui.replay.peek(ply), live: () => ui.replay.live(), peeking: () => ui.replay.peeking,
    })));
}

/**
 * A panel whose module is fetched only once the table has something for it to show
 * (`wanted(model)`); until then its host stays hidden. `load()` resolves with the panel
 * ({render(model), …}); `get()` gives it (fetching it if need be), `panel` once it is there.
 */
function onDemand(host, wanted, load) {
  host.hidden = true;
  let panel = null;
  let loading = null;
  const get = () => {
    loading ??= load().then((made) => {
      panel = made;
      host.hidden = false; // the panel decides from now on
      panel.render(model);
      return panel;
    }, (err) => {
      loading = null; // the next render tries again
      console.error("a panel could not be loaded", err);
      throw err;
    });
    return loading;
  };
  return {
    render(m) {
      if (panel) panel.render(m);
      else if (wanted(m)) get().catch(() => {});
    },
    /** Resolves once the panel is there if `m` wants it (at once if not); never rejects. */
    ready(m) {
      return wanted(m) ? get().catch(() => null) : Promise.resolve(null);
    },
    get,
    get panel() { return panel; },
  };
}

function render({ animate = false, relabel = false } = {}) {
  const view = model.view;
  const pending = socket ? socket.pendingMove() : null;
  const myTurn = isMyTurn(model);
  main.dataset.turn = turn(model).join(",");
  main.dataset.mySeat = model.mySeat === null ? "" : String(model.mySeat);
  main.dataset.pending = pending || "";
  // a visitor who can sit down: on a phone the name box and "take seat" come first (table.css)
  main.toggleAttribute("data-joining", model.mySeat === null && !view.state.is_over
    && view.seats.some((s) => s.kind === "human" && !s.name && !s.former));
  const replaying = ui.replay.active; // the board shows a replayed ply
  if (!replaying) board.update(view.state, {
    mySeat: model.mySeat,
    canMove: myTurn && amPlaying(model) && !pending,
    pending,
    animate,
    confirmTouch: ui.touch.value,
    clocks: view.clocks,
    clocksAt: model.clocksAt,
    over: isOver(model),
  });
  main.dataset.version = String(view.version);

  ui.placement.render(model);
  ui.info.render(model);
  ui.connection.render();
  ui.status.render(model);
  ui.result.render(model);
  ui.seats.render(model);
  ui.actions.render(model);
  ui.chat.render(model, { relabel });
  ui.spectators.render(model, { relabel });
  if (relabel) ui.watching.render();
  ui.links.render(model, token);
  ui.touch.render();
  ui.replay.render();
  ui.moves.render(model);
  document.title = myTurn && amPlaying(model)
    ? t("table.title.yourTurn") : t("table.title.game", { game: gameName(view) });

  if (myTurn && amPlaying(model) && !wasMyTurn && !pending) {
    announce(t("table.turn.yours"), true);
    tell(t("table.turn.yours"), location.pathname); // in the background: title, icon, sound
  }
  wasMyTurn = myTurn;
  const over = isOver(model);
  if (over && wasOver === false) ui.result.get().then((banner) => banner.say(model), () => {});
  wasOver = over;
}

// ---- the socket -------------------------------------------------------------------------
function socketHandlers() {
  return {
    snapshot(view, seat) {
      setView(model, view, performance.now());
      seated(seat);
      render({ relabel: true });
    },
    resume(seat) {
      seated(seat);
      render();
    },
    event(ev, live) {
      const asked = model.view.requests ? model.view.requests.undo : null;
      applyEvent(model, ev, clocksStamp(ev.at, live));
      if (live) undoAnswered(ev, asked);
      if (ev.kind === "hand-over" && ev.seat === model.mySeat) {
        // Our seat is the computer's now: the token holds nothing any more.
        forgetToken();
        announce(t("table.say.handedOverMine"));
      }
      if (ev.kind === "rematch" && token && model.mySeat !== null) {
        // The server keeps every seat's token in the rematch (seats rotated).
        remembered.setToken(ev.table, token);
      }
      render({ animate: live && ev.kind === "move" });
      if (live) say(ev);
      if (live && ev.kind === "move") clockedOut(ev);
      // Whoever asked for the rematch, every player still here goes to the new table (one
      // seated by their key too: the rematch's seat is theirs, DESIGN §5a).
      if (live && ev.kind === "rematch" && model.mySeat !== null) goToRematch(ev.table);
    },
    presence(connected, handOverIn) {
      setPresence(model, connected, handOverIn, performance.now());
      render();
    },
    status(s) {
      if (ui) ui.connection.set(s);
    },
    watching(n) {
      if (ui) ui.watching.set(n);
    },
    review(msg) {
      if (ui && ui.replay) ui.replay.reviewProgress(msg);
    },
    former(seats) { // players forgotten just now (on any device): their names go
      for (const n of seats) {
        const seat = model.view?.seats?.[n];
        if (seat) model.view.seats[n] = { ...seat, name: null, former: true };
      }
      render();
    },
    spectatorChat(lines, replace) {
      if (ui) ui.spectators.lines(lines, replace);
    },
    gone: showMissing,
    badToken() {
      forgetToken(false);
      ui.status.get().then((status) => status.error("table.error.badToken", ""), () => {});
      render();
    },
    notice(code, message, params) {
      showError({ code, message, params });
    },
  };
}

/** Tell the asker what became of their take-back request: declined, or the other player
 * moved on (a move closes every open request). A new request clears the note. */
function undoAnswered(ev, asked) {
  const mine = model.mySeat !== null && asked === model.mySeat;
  let note;
  if (ev.kind === "undo-decline" && ev.asker === model.mySeat) {
    note = ["table.say.undoDeclined", { name: seatName(model.view, ev.seat) }];
  } else if (ev.kind === "move" && mine && ev.seat !== model.mySeat) {
    note = ["table.say.undoLapsed", { name: seatName(model.view, ev.seat) }];
  } else if (ev.kind === "undo-request" || ev.kind === "undo") {
    note = [null];
  } else {
    return;
  }
  ui.status.get().then((status) => status.undoNote(...note), () => {});
}

/** A move the server made for a seat whose clock ran out (`auto`) is said at that moment,
 * and stays shown until a player moves again. */
function clockedOut(ev) {
  let note = [null];
  if (ev.auto) {
    const name = seatName(model.view, ev.seat);
    note = ev.aimed || ev.move === null || ev.move === undefined
      ? ["table.say.timeOutAimed", { name }]
      // the move in the page's language at each drawing (a switch words it again)
      : ["table.say.timeOut", { name, seat: ev.seat, get move() { return board.describeMove(ev.move); } }];
  }
  ui.status.get().then((status) => status.clockNote(...note), () => {});
}

/** The server told us which seat our token holds (null: we watch). */
function seated(seat) {
  const before = model.mySeat;
  model.mySeat = seat;
  model.seatKnown = true;
  if (seat !== null && before !== seat && model.view.seats[seat]) {
    announce(t("table.say.yourSeat", { n: seat + 1 }));
  }
  if (seat !== null && focusBoardWhenSeated) {
    focusBoardWhenSeated = false;
    requestAnimationFrame(() => board.focus());
  }
}

function forgetToken(reconnect = true) {
  remembered.setToken(tableId, null);
  token = null;
  model.mySeat = null;
  model.seatKnown = true;
  if (reconnect && socket) socket.setToken(null);
}

/** Say what just happened, politely (the turn and the result are said in render()). */
function say(ev) {
  const view = model.view;
  const name = ev.seat !== undefined && ev.seat !== null ? seatName(view, ev.seat) : "";
  switch (ev.kind) {
    case "move":
      // A sealed move (another seat's aim in a simultaneous step) comes without its text.
      if (ev.move === null || ev.move === undefined) announce(t("table.say.sealed", { name }));
      else announce(t("table.say.move", { name, move: board.describeMove(ev.move) }));
      break;
    case "seat":
      announce(t("table.say.seat", { name, n: ev.seat + 1 }));
      break;
    case "chat":
      announce(t("table.say.chat", { name: ev.name || name, text: ev.text }));
      break;
    case "undo-request":
      announce(t("table.request.undo", { name }));
      break;
    case "undo":
      announce(t("table.say.undo"));
      break;
    case "cancel":
      announce(t("table.say.cancelled", { name }));
      break;
    case "end-request":
      announce(t("table.say.endRequest", { name }));
      break;
    case "hand-over":
      if (ev.seat !== model.mySeat) announce(t("table.say.handedOver", { name }));
      break;
    case "rematch":
      announce(t("table.say.rematch"));
      break;
    default:
      break;
  }
}

// ---- what the player does ---------------------------------------------------------------
function onMove(move) {
  if (!socket || socket.pendingMove() || !isMyTurn(model) || !amPlaying(model)) return;
  const sent = socket.send({ t: "move", move, v: model.view.version });
  render(); // drawn as pending until the server answers
  sent.then(
    () => { clearError(); render(); },
    (err) => { showError(err, "table.error.move"); render(); },
  );
}

async function takeSeat(n, name) {
  const reply = await api.takeSeat(tableId, n, name);
  remembered.setName(name);
  remembered.setToken(tableId, reply.token);
  remembered.setSeat(tableId, n);
  token = reply.token;
  model.seatKnown = false; // until the socket says the seat is ours
  focusBoardWhenSeated = true;
  clearError();
  socket.setToken(token);
  render();
}

let leavingFor = null; // the rematch we are on our way to (the ack and its event both say it)
function goToRematch(newId) {
  if (leavingFor === newId) return;
  leavingFor = newId;
  if (token) remembered.setToken(newId, token);
  location.assign(`/tables/${encodeURIComponent(newId)}`);
}

/** A refusal or failure, in our words from its code, params and (for a move) the game's
 * rule (shared/errors.js); never the server's English. The catalogs are fetched with the first
 * refusal: most visits never see one. */
async function showError(err, lead = null) {
  const shown = ++errors;
  let status;
  try {
    [status] = await Promise.all([ui.status.get(), loadErrors()]);
  } catch {
    return; // the status lines could not be fetched (already logged): nowhere to say it
  }
  if (shown !== errors) return; // cleared, or another refusal came, while it was fetched
  const words = errorWords(err) || { key: lead || "table.error.refused", vars: {} };
  status.error(words.key, "", true, words.vars);
  // the reason for the last refusal, by its rule's code where the game names one
  if (err.code !== "connection-lost" && ui.refusal) {
    ui.refusal.show(err.reason?.rule || err.code, t(words.key, words.vars));
  }
}

function clearError() {
  errors += 1;
  if (ui.status.panel) ui.status.panel.clearError();
  if (ui.refusal) ui.refusal.clear();
}
