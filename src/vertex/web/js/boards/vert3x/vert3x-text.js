// What the Vert3x board says in words: a line's accessible name and status, why it is closed
// (the server's reason code, put in the players' words), dots, triangles, the turn. The page
// decides no rule: "closed" and its reason come from state.board.blocked.
import { t } from "../../shared/i18n.js";

/** "line from a1 to b2". */
export function lineName(ln) {
  return t("vert3x.line", { a: ln.a.name, b: ln.b.name });
}

/**
 * A reason from board.blocked in words. `forMe`: the viewer is the seat the reason is for
 * ("your lines"); otherwise the mover is named.
 */
export function whyText(reason, view, forMe) {
  const name = (seat) => view.nameOf(seat);
  const mover = view.mover === null ? "" : name(view.mover);
  switch (reason.reason) {
    case "crosses":
      return t("vert3x.why.crosses", { name: name(reason.seat), line: reason.line || "" });
    case "vertex-held":
      return t("vert3x.why.vertex-held", { name: name(reason.seat), dot: reason.dot || "" });
    case "inside-scored":
      return t("vert3x.why.inside-scored");
    case "no-start-contact":
      return t(`vert3x.why.no-start-contact.${forMe ? "you" : "other"}`, { dot: reason.dot || "" });
    case "not-connected":
      return t(`vert3x.why.not-connected.${forMe ? "you" : "other"}`, { mover });
    default:
      return String(reason.reason);
  }
}

/**
 * The status of a line for this viewer, and whether it can be drawn now:
 * {text, playable, closed}. `view` is the board's reading of the state (see vert3x.js).
 */
export function lineStatus(ln, view) {
  const owner = view.owners.get(ln.name);
  if (owner !== null && owner !== undefined) {
    let text = t("vert3x.state.drawn", { name: view.nameOf(owner) });
    if (view.last === ln.name) text += `, ${t("vert3x.state.last")}`;
    // the overrules variation: the server lists "!a1-b1" when this line may be taken over
    const mine = view.mySeat !== null && view.mySeat === view.mover;
    if (mine && view.canMove && view.legal.has(`!${ln.name}`)) {
      text += `, ${t("vert3x.state.overrulable")}`;
      return { text, playable: true, closed: false, drawn: true, overrule: true };
    }
    return { text, playable: false, closed: false, drawn: true };
  }
  if (view.pending === ln.name) {
    return { text: t("vert3x.state.pending"), playable: false, closed: false };
  }
  if (view.over) {
    return { text: `${t("vert3x.state.free")}; ${t("vert3x.why.over")}`, playable: false, closed: true };
  }
  const reason = view.blocked[ln.name];
  const mine = view.mySeat !== null && view.mySeat === view.mover;
  if (reason) {
    const why = whyText(reason, view, mine);
    if (mine) return { text: t("vert3x.state.blocked", { why }), playable: false, closed: true };
    const text = t("vert3x.state.blockedFor", { mover: view.nameOf(view.mover), why });
    return { text, playable: false, closed: true };
  }
  if (mine) {
    if (view.canMove) return { text: t("vert3x.state.playable"), playable: true, closed: false };
    return {
      text: t("vert3x.state.blocked", { why: t("vert3x.why.waiting") }),
      playable: false, closed: true,
    };
  }
  if (view.mySeat !== null) {
    // a player waiting for another seat: the line is free, but not theirs to draw now
    return {
      text: t("vert3x.state.blocked", { why: t("vert3x.why.turn") }), playable: false, closed: true,
    };
  }
  return { text: t("vert3x.state.free"), playable: false, closed: false };
}

/** The accessible name of a line: "line from b2 to c3, drawn by Ann". */
export function lineLabel(ln, view) {
  return `${lineName(ln)}, ${lineStatus(ln, view).text}`;
}

/**
 * Every line's accessible name for one state, fast: most lines share a status ("free", "not
 * connected to your lines"), so each status is put in words once. Returns name -> label.
 */
export function lineLabels(lines, view) {
  const said = new Map();
  const out = new Map();
  for (const ln of lines) {
    const owner = view.owners.get(ln.name);
    const r = view.blocked[ln.name];
    const key = owner !== null && owner !== undefined
      ? `o${owner}${view.last === ln.name ? "L" : ""}${view.legal.has(`!${ln.name}`) ? "!" : ""}`
      : view.pending === ln.name ? "p"
        : r ? `r${r.reason}|${r.seat}|${r.line || ""}|${r.dot || ""}` : "f";
    let text = said.get(key);
    if (text === undefined) {
      text = lineStatus(ln, view).text;
      said.set(key, text);
    }
    out.set(ln.name, `${lineName(ln)}, ${text}`);
  }
  return out;
}

/** A dot's accessible name: its name, whose start dot it is, how many lines meet there. */
export function dotLabel(dot, view) {
  const parts = [t("vert3x.dot", { name: dot.name })];
  (view.start || []).forEach((name, seat) => {
    if (name === dot.name) parts.push(t("vert3x.dot.start", { name: view.nameOf(seat) }));
  });
  const n = dot.lines.filter((e) => {
    const o = view.owners.get(e.line.name);
    return o !== null && o !== undefined;
  }).length;
  parts.push(drawnHere(n));
  return parts.join(", ");
}

// "3 lines drawn here" per count, worked out once per language (plural rules are slow to make)
const drawnTexts = new Map();
function drawnHere(n) {
  const key = `${document.documentElement.lang}:${n}`;
  if (!drawnTexts.has(key)) drawnTexts.set(key, t("vert3x.dot.drawn", { n }));
  return drawnTexts.get(key);
}

/** A scored triangle's description: "triangle a1 b1 b2: 3 points for Ann". */
export function triangleText(tri, view) {
  return t("vert3x.triangle", {
    corners: tri.corners.join(" "),
    points: t("vert3x.points", { n: tri.points }),
    name: view.nameOf(tri.owner),
  });
}

/** The status lines shown above the board: lines left in the turn, passes, agreement. */
export function statusLines(board, view) {
  const out = [];
  const turn = board.turn || {};
  if (!view.over && turn.seat !== null && turn.seat !== undefined && turn.lines_per_turn > 1) {
    const vars = { k: (turn.lines_drawn || 0) + 1, n: turn.lines_per_turn, name: view.nameOf(turn.seat) };
    out.push({
      key: "turn",
      text: turn.seat === view.mySeat ? t("vert3x.turn.linesYou", vars) : t("vert3x.turn.lines", vars),
    });
  }
  if (board.skipped && board.skipped.length) {
    out.push({
      key: "passed",
      text: t("vert3x.passed", { names: board.skipped.map((s) => view.nameOf(s)).join(", ") }),
    });
  }
  if (board.overrules && view.mySeat !== null && board.overrules[view.mySeat] !== undefined) {
    const n = board.overrules[view.mySeat];
    out.push({ key: "overrules", text: n ? t("vert3x.overrulesLeft", { n }) : t("vert3x.overrulesNone") });
  }
  if (board.ended_by_agreement) out.push({ key: "agreed", text: t("vert3x.agreed") });
  return out;
}
