// Where my piece is aimed, and what the server says about it. The page never judges an aim:
// it sends it (a few a second at most — the server limits them) and shows the answer, the
// server's own reason when it refuses (touching rule, lower level, off the base…).
import { errorText, loadErrors } from "../../shared/errors.js";
import { aimText, clampAim, normRot, parseAim, round1 } from "./towers-geom.js";

await loadErrors(); // the aims' refusals are worded from it (the first aim may be refused)

/** At most this many aims a second go to the server. */
export const AIMS_PER_SECOND = 4;

/**
 * send(move) -> Promise resolving with the server's ack ({aim}) or rejecting with its error
 * ({code, message}); null when aims cannot be sent. changed(aimer) after every change.
 */
export function createAimer({ send, changed }) {
  const me = {
    key: null, // which step this aim belongs to
    piece: "pyramid",
    x: 0,
    y: 0,
    rot: 0,
    status: "idle", // idle | aiming | ok | refused | pending | placed
    refusal: null, // the server's refusal ({message, reason}) when it refused
    snap: null, // {x, y, rot}: where the server snapped an ok aim to touch its neighbour
    /** The refusal in the page's language now (so a language switch re-says it). */
    get reason() { return reasonText(this.refusal); },
    checked: new Map(), // aim text -> {ok, reason, refusal, aim}
    lastSent: 0,
    inFlight: null,
    timer: 0,
  };

  me.text = () => aimText(me);

  /** A new step (or the first): the aim starts at `start`; the last answers are forgotten. */
  me.begin = (key, piece, start) => {
    if (me.key === key) return false;
    me.key = key;
    me.piece = piece;
    me.x = start.x;
    me.y = start.y;
    me.rot = start.rot;
    me.status = "aiming";
    me.refusal = null;
    me.snap = null;
    me.checked.clear();
    clearTimeout(me.timer);
    changed(me);
    return true;
  };

  me.setStatus = (status) => {
    if (me.status === status) return;
    me.status = status;
    changed(me);
  };

  /** Aim at (x, y) with rotation rot (mm, degrees), and tell the server soon. Pointer and
   * keys aim to 0.1; `exact` keeps what was typed or suggested (the notation keeps 0.01). */
  me.aim = (x, y, rot = me.rot, exact = false) => {
    if (me.status === "pending" || me.status === "placed") return;
    const r = exact ? round2 : round1;
    me.x = r(clampAim(x));
    me.y = r(clampAim(y));
    me.rot = r(normRot(rot));
    const known = me.checked.get(me.text());
    me.status = known ? (known.ok ? "ok" : "refused") : "aiming";
    me.refusal = known && !known.ok ? known.refusal : null;
    me.snap = known ? snapOf(known, me.text()) : null;
    changed(me);
    schedule();
  };

  function schedule() {
    if (!send || me.timer || me.inFlight) return;
    const wait = Math.max(0, me.lastSent + 1000 / AIMS_PER_SECOND - performance.now());
    me.timer = setTimeout(() => { me.timer = 0; flush(); }, wait);
  }

  function flush() {
    const text = me.text();
    if (me.checked.has(text) || me.status === "pending" || me.status === "placed") return;
    check(text);
  }

  /** Ask the server about `text`; resolves with {ok, reason}. */
  function check(text) {
    if (!send) return Promise.resolve({ ok: true, reason: "" });
    const known = me.checked.get(text);
    if (known) return Promise.resolve(known);
    me.lastSent = performance.now();
    const key = me.key;
    const ask = Promise.resolve()
      .then(() => send(text))
      .then(
        (ack) => ({ ok: true, reason: "", aim: ack && ack.aim }),
        (err) => {
          const code = err && err.code;
          // Only the game's refusals are about the aim; anything else (the step moved on,
          // the connection) says nothing about where the piece is.
          if (code === "illegal-move") return refused(err);
          return { ok: true, reason: "", unknown: true };
        },
      )
      .then((answer) => {
        if (key === me.key && !answer.unknown) me.checked.set(text, answer);
        if (me.inFlight === ask) me.inFlight = null;
        if (key === me.key && text === me.text() && me.status !== "pending" && me.status !== "placed") {
          me.status = answer.ok ? "ok" : "refused";
          me.refusal = answer.refusal || null;
          me.snap = snapOf(answer, text);
          changed(me, answer);
        }
        if (key === me.key && text !== me.text()) schedule();
        return answer;
      });
    me.inFlight = ask;
    return ask;
  }

  /** Check the current aim now (no waiting for the throttle): resolves with {ok, reason}. */
  me.checkNow = () => {
    clearTimeout(me.timer);
    me.timer = 0;
    return check(me.text());
  };

  me.stop = () => {
    clearTimeout(me.timer);
    me.timer = 0;
  };

  return me;
}

function round2(v) {
  return Math.round(v * 100) / 100 + 0;
}

/** Where the server moved an accepted aim (snapped against its neighbour), or null. */
function snapOf(answer, text) {
  if (!answer.ok || !answer.aim || answer.aim === text) return null;
  const p = parseAim(answer.aim);
  return p && p.piece !== "stop" ? { x: p.x, y: p.y, rot: p.rot } : null;
}

/** An answer saying the server refused: its words are worked out when shown. */
function refused(err) {
  return { ok: false, refusal: { message: err.message || "", reason: err.reason || null },
    get reason() { return reasonText(this.refusal); } };
}

/** The server's refusal in the page's language, from the rule it names and its numbers
 *  (shared/errors.js: `error.illegal-move.<rule>`), never the server's English. */
export function reasonText(err) {
  return err ? errorText({ code: "illegal-move", reason: err.reason }) : "";
}
