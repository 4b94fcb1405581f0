// What happened between two boards, in players' words: who placed, whose card slid (the
// mulligan), whose tower fell, natural forces, building on alone. Read off what the server
// sent (towers, standing, mulligan_used, natural_forces), never worked out here.
import { t } from "../../shared/i18n.js";
import { STEPS_PER_LEVEL } from "./towers-geom.js";

/** The step a board is at, in words: "level 1, pyramid 2 of 3 (large)". */
function stepOf(board) {
  const step = board.step === STEPS_PER_LEVEL - 1
    ? t("towers.step.card")
    : t("towers.step.pyramid", { k: board.step + 1, size: t(`towers.size.${board.die.size}`) });
  return t("towers.levelStep", { level: board.level, step });
}

/** The server's own words for what happened to a tower (English), kept beside ours. */
function detail(tower) {
  return tower.last_event && tower.last_event !== "placed" ? tower.last_event : "";
}

/**
 * [{kind, text, detail, seat}] for the change from `prev` to `next` (board views);
 * name(seat) is the seat's display name.
 */
export function happenings(prev, next, name) {
  if (!prev || !next) return [];
  const out = [];
  const placed = [];
  const before = prev.towers || [];
  (next.towers || []).forEach((tower, seat) => {
    const was = before[seat];
    if (!was) return;
    const grew = tower.pieces.length > was.pieces.length;
    if (was.standing && !tower.standing) {
      out.push({ kind: "fell", seat, text: t("towers.event.fell", { name: name(seat) }), detail: detail(tower) });
    } else if (!was.mulligan_used && tower.mulligan_used) {
      out.push({ kind: "slid", seat, text: t("towers.event.slid", { name: name(seat) }), detail: detail(tower) });
    } else if (grew) {
      placed.push(seat);
    }
    if (tower.levels > was.levels && tower.standing) {
      out.push({ kind: "level", seat, text: t("towers.event.level", { name: name(seat), n: tower.levels }) });
    }
  });
  if (placed.length) {
    out.unshift({ kind: "placed", seat: null, detail: "",
      text: t("towers.event.placed", { names: placed.map(name).join(", "), step: stepOf(prev) }) });
  }
  const shakes = (next.natural_forces || {}).shakes || 0;
  if (shakes > ((prev.natural_forces || {}).shakes || 0)) {
    out.push({ kind: "shake", seat: null, detail: "",
      text: t("towers.event.shaken", { n: shakes, strength: next.natural_forces.strength }) });
  }
  if (next.building_on && !prev.building_on && next.winner !== null) {
    out.push({ kind: "buildOn", seat: next.winner, detail: "",
      text: t("towers.event.buildOn", { name: name(next.winner) }) });
  }
  if (next.stopped && !prev.stopped && next.winner !== null) {
    out.push({ kind: "stopped", seat: next.winner, detail: "",
      text: t("towers.event.stopped", { name: name(next.winner) }) });
  }
  return out;
}
