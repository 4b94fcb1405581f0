// Vert3x's version in words (js/shared/version-words.js loads it by the game's id): the rule set,
// the board and the variations on.
import { t } from "../../shared/i18n.js";

const VARIATIONS = ["shape_bonus", "box_in", "steal", "cover_bonus", "multiplier", "extra_turn"];

export function versionWords(o) {
  const parts = [];
  const rules = o.rules || "classic";
  parts.push(t(`version.vert3x.${rules}`));
  if (rules === "classic") {
    const shape = o.shape || "hexagon";
    if (shape === "custom") parts.push(t("version.vert3x.custom", { n: (o.cells || []).length }));
    else if (shape === "parallelogram") parts.push(t("version.vert3x.parallelogram", { w: o.width, h: o.height }));
    else if (shape === "triangle") parts.push(t("version.vert3x.triangle", { n: o.size }));
    else parts.push(t("version.vert3x.hexagon", { n: o.radius }));
  } else if (rules === "trianguliche") {
    parts.push(t("version.vert3x.windows", { w: o.width, h: o.height }));
  } else {
    parts.push(t("version.vert3x.grid", { n: o.size }));
  }
  if (o.connected && Array.isArray(o.start)) parts.push(t("version.vert3x.start", { dots: o.start.join(" ") }));
  for (const name of VARIATIONS) if (o[name] === true) parts.push(t(`version.vert3x.${name}`));
  if (o.overrules > 0) parts.push(t("version.vert3x.overrules", { n: o.overrules }));
  if (o.lines_per_turn > 1) parts.push(t("version.vert3x.lines_per_turn", { n: o.lines_per_turn }));
  return parts.join(", ");
}

