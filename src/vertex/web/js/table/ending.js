// Why a game ended, in the player's language: the table's reason (resign, time, agreement,
// expiry) or the game's own (`state.ending`: a code and its numbers, from the engine), then
// who decided it where that was not the player (a seat handed to the computer, moves the
// computer made for a player out of time) and the winner rule where it is not "most wins".
import { num, t } from "../shared/i18n.js";
import { nameList, seatName } from "./text.js";

/** How one tower fell ("the level 2 card slid off"), from the engine's `fall`. */
function fallWords(fall) {
  const level = num(fall.level ?? 0);
  let how;
  if (fall.cause === "card") how = t(fall.twice ? "table.fall.cardTwice" : "table.fall.card", { level });
  else if (fall.cause === "tipped") how = t("table.fall.tipped", { level });
  else if (fall.cause === "dropped") how = t("table.fall.dropped", { level });
  else how = t("table.fall.unknown");
  if (fall.shaken) how = t("table.fall.shaken", { strength: num(fall.shaken), how });
  return how;
}

/** The game's own ending in sentences (`state.ending`), or [] when the engine gave none. */
function gameEnding(view) {
  const ending = view.state.ending;
  if (!ending) return [t("table.reason.game")];
  const p = ending.params || {};
  const name = (n) => seatName(view, n);
  const names = (seats) => nameList(seats.map(name));
  const out = [];
  switch (ending.code) {
    case "line":
      for (const line of p.lines || []) {
        const squares = line.squares.join(" – ");
        out.push(t(line.kind === "size" ? "table.ending.lineSize" : "table.ending.lineColour",
          { name: name(p.seat), squares }));
      }
      break;
    case "repetition": out.push(t("table.ending.repetition")); break;
    case "move-limit": out.push(t("table.ending.moveLimit", { n: p.limit, limit: num(p.limit) })); break;
    case "all-lines": out.push(t("table.ending.allLines")); break;
    case "no-line": out.push(t("table.ending.noLine")); break;
    case "agreed": out.push(t("table.reason.agreed")); break;
    case "last-standing":
    case "built-on":
    case "all-fell":
    case "solo":
    case "stopped":
    case "shakes":
      out.push(...towersEnding(view, ending.code, p, name, names));
      break;
    default: out.push(t("table.ending.noMove"));
  }
  return out;
}

/** Verticality's endings: the falls that decided it, then what that made of the game. */
function towersEnding(view, code, p, name, names) {
  const falls = (p.falls || []).map((f) =>
    t("table.ending.fell", { name: name(f.seat), how: fallWords(f) }));
  const levels = (seat) => ({ n: p.levels?.[seat] ?? 0, levels: num(p.levels?.[seat] ?? 0) });
  switch (code) {
    case "last-standing":
      return [...falls, t("table.ending.lastStanding", { name: name(p.seat) })];
    case "built-on":
      return [...falls.slice(0, -1), t("table.ending.builtOn", { name: name(p.seat) }),
        falls.at(-1) || "", t("table.ending.reached", { name: name(p.seat), ...levels(p.seat) })]
        .filter(Boolean);
    case "all-fell": {
      const winners = p.winners || [];
      const last = winners.length === 1
        ? t("table.ending.allFellFirst", { name: name(winners[0]) })
        : t("table.ending.allFell");
      return [...falls, last];
    }
    case "solo":
      return [...falls, t("table.ending.reached", { name: name(p.seat), ...levels(p.seat) })];
    case "stopped":
      return [...falls, t("table.ending.stopped", { name: name(p.seat), ...levels(p.seat) })];
    default: // shakes
      return [...falls, t("table.ending.shakes", { names: names(p.standing || []) })];
  }
}

/** Every sentence of why the game ended, in order. */
export function endingSentences(view) {
  const result = view.result;
  const loser = result.seat !== undefined ? seatName(view, result.seat) : "";
  const names = (seats) => nameList(seats.map((n) => seatName(view, n)));
  const out = [];
  switch (result.reason) {
    case "resign": out.push(t("table.reason.resign", { name: loser })); break;
    case "timeout": out.push(t("table.reason.timeout", { name: loser })); break;
    case "agreed": out.push(t("table.reason.agreed")); break;
    case "expired": return [t("table.reason.expired")];
    case "cancelled": return [t("table.reason.cancelled", { name: loser })];
    default: out.push(...gameEnding(view));
  }
  if (result.handed?.length) {
    out.push(t("table.ending.handed", { n: result.handed.length, names: names(result.handed) }));
  }
  if (result.auto?.length) {
    out.push(t("table.ending.auto", { n: result.auto.length, names: names(result.auto) }));
  }
  // misère: the game's own rule, stated where the board was played out
  if (result.reason === "game" && view.state.ending?.rule === "fewest") {
    out.push(t("table.ending.fewest"));
  }
  return out;
}
