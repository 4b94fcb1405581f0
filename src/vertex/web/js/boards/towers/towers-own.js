// This browser's own best solo Verticality tower, kept in its storage when a solo game of its
// seat ends (the table page) and shown on the bests board (the rules page).
import { remembered } from "../../shared/store.js";

const OWN = "verticality.best";

/** This browser's best solo tower: {levels, height_mm, table, at} or null. */
export function ownBest() {
  const best = remembered.setting(OWN, null);
  return best && typeof best.levels === "number" ? best : null;
}

/** Remember a finished solo tower if it beats this browser's best (levels, then height). */
export function rememberTower(tower) {
  const best = ownBest();
  const better = !best || tower.levels > best.levels
    || (tower.levels === best.levels && tower.height_mm > best.height_mm);
  if (better) remembered.setSetting(OWN, tower);
  return better;
}
