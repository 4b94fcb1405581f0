// Why a line cannot be drawn now, in words, from what the server sent: the line drawn
// already or part of the border, the rule's code in `board.blocked` (Figures' touch rule),
// or the turn (not this browser's). The page decides no rule itself.
import { t } from "../../shared/i18n.js";

/** {code, text} for a line this browser may not draw now, or null when it may. */
export function whyNot(board, name, { drawn, legal, canMove, sent }) {
  if (drawn === "border") return { code: "border", text: t("dots.why.border") };
  if (drawn) return { code: "drawn", text: t("dots.why.drawn") };
  if (!canMove) return { code: "not-your-turn", text: t("dots.why.turn") };
  if (sent) return { code: "waiting", text: t("dots.why.waiting") };
  const reason = board.blocked && board.blocked[name];
  if (reason) {
    const key = `dots.why.${reason.reason}`;
    const text = t(key);
    return { code: reason.reason, text: text === key ? t("dots.why.closed") : text };
  }
  if (!legal.has(name)) return { code: "closed", text: t("dots.why.closed") };
  return null;
}
