// A table's version in words ("Classic, custom board of 37 triangles, shape bonus, 2
// overrules"): the board and the rules that make it differ from the plain game, for the table
// page, the lobby's share links and its saved versions. Words only, from the options in
// force (the server's): no rule is decided here.
import { has, loadCatalogs, t } from "./i18n.js";

await loadCatalogs("versions");

const VARIATIONS = ["shape_bonus", "box_in", "steal", "cover_bonus", "multiplier", "extra_turn"];

function vert3x(o) {
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

/** The version of `game` played with `options` in words, or "" when there is nothing to say
 * beyond the game's name (games other than Vert3x list their options in the settings). */
export function versionWords(game, options) {
  if (!options) return "";
  if (game === "vert3x") return vert3x(options);
  return "";
}

export function hasWords(game) {
  return has(`version.${game}.classic`);
}
