// A puzzle's words: its goal, its themes and where it stands, from the server's fields
// alone (goal {kind, margin|depth}, themes), in the page's language.
import { num, t } from "../shared/i18n.js";

/** The goal in a sentence. */
export function goalText(goal) {
  if (!goal) return "";
  if (goal.kind === "margin") {
    const n = goal.margin;
    if (n > 0) return t("puzzles.goal.win", { n: num(n) });
    if (n === 0) return t("puzzles.goal.draw");
    return t("puzzles.goal.lose", { n: num(-n) });
  }
  if (goal.kind === "win") {
    return goal.depth <= 1 ? t("puzzles.goal.line1") : t("puzzles.goal.line", { n: num(goal.depth) });
  }
  return t("puzzles.goal.survive");
}

export function themeName(theme) {
  return t(`puzzles.theme.${theme}`);
}

export function gameName(game) {
  return t(`puzzles.game.${game}`);
}
