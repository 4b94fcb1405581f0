// "How tall can you build?": the Verticality bests board (the rules page's #bests section).
// The best solo towers built at this site (GET /api/verticality/board: each name's best, with
// a link to its replay), this browser's own best (remembered when a solo game here ends), and
// the computer players' best per level for comparison. Tables with captions, so a screen
// reader reads them row by row; `data-bests` on the host says how many site rows are drawn
// (tests wait on it).
import { api } from "../../shared/api.js";
import { h } from "../../shared/dom.js";
import { loadCatalogs, num, onLangChange, t } from "../../shared/i18n.js";
import { ownBest } from "./towers-own.js";

/** Fill `host` with the board; redrawn on a language switch. */
export async function mountBests(host) {
  await loadCatalogs("towers-bests");
  let board = null;
  let failed = null;
  try {
    board = await api.get("/api/verticality/board");
  } catch (err) {
    failed = err;
  }
  const draw = () => {
    host.replaceChildren(...(failed ? [errorLine(failed)] : content(board)));
    host.dataset.bests = failed ? "error" : String(board.towers.length);
  };
  draw();
  onLangChange(draw);
}

function content(board) {
  return [
    h("p", {}, t("bests.lead", { n: board.supply_levels })),
    ownLine(),
    siteTable(board.towers),
    computerTable(board),
  ];
}

function ownLine() {
  const best = ownBest();
  if (!best) return h("p", { class: "bests-own", "data-own-best": "" }, t("bests.own.none"));
  return h("p", { class: "bests-own", "data-own-best": String(best.levels) },
    h("strong", { text: t("bests.own.title") }), " ",
    t("bests.own.value", { levels: best.levels, height: mm(best.height_mm), date: day(best.at) }),
    best.table ? [" ", replayLink(`/tables/${encodeURIComponent(best.table)}#replay`, best.levels)] : null);
}

function siteTable(towers) {
  const caption = h("caption", { id: "bests-site-caption", text: t("bests.site.caption") });
  if (!towers.length) {
    return h("div", { class: "bests-site" }, h("p", { class: "bests-empty", text: t("bests.site.empty") }));
  }
  const head = h("tr", {}, ["rank", "name", "levels", "height", "date", "replay"].map((c) =>
    h("th", { scope: "col", text: t(`bests.col.${c}`) })));
  const rows = towers.map((tower, i) => h("tr", { "data-best-row": String(i + 1) },
    h("td", { class: "num", text: num(i + 1) }),
    h("th", { scope: "row", class: "bests-name", text: tower.name }),
    h("td", { class: "num", text: num(tower.levels) }),
    h("td", { class: "num", text: mm(tower.height_mm) }),
    h("td", {}, h("time", { datetime: new Date(tower.at * 1000).toISOString(), text: day(tower.at) })),
    h("td", {}, replayLink(tower.replay, tower.levels, tower.name))));
  return scroller(caption,
    h("table", { class: "bests bests-site" }, caption, h("thead", {}, head), h("tbody", {}, rows)));
}

function computerTable(board) {
  const caption = h("caption", { id: "bests-computer-caption", text: t("bests.computer.caption") });
  const head = h("tr", {}, ["level", "best", "mean", "towers"].map((c) =>
    h("th", { scope: "col", text: t(`bests.computer.${c}`) })));
  const rows = board.computer.map((c) => h("tr", {},
    h("th", { scope: "row", text: t("bests.computer.name", { level: c.level }) }),
    h("td", { class: "num", text: num(c.best) }),
    h("td", { class: "num", text: num(c.mean, { maximumFractionDigits: 1 }) }),
    h("td", { class: "num", text: num(c.towers) })));
  const tremor = board.computer.length ? board.computer[0].tremor_mm : 0;
  return scroller(caption,
    h("table", { class: "bests bests-computer" }, caption, h("thead", {}, head), h("tbody", {}, rows)),
    h("p", { class: "rules-note", text: t("bests.computer.note", { tremor: num(tremor) }) }));
}

/** A table wider than a phone scrolls sideways: a region named by its caption that takes the
 * keyboard's focus, so the arrow keys scroll it too (WCAG 2.1.1). */
function scroller(caption, ...children) {
  return h("div", { class: "bests-scroll", role: "region", tabindex: "0",
    "aria-labelledby": caption.id }, ...children);
}

function replayLink(href, levels, name) {
  const label = name ? t("bests.replay.label", { name, levels }) : t("bests.replay.own", { levels });
  return h("a", { href, "aria-label": label, "data-replay-link": "", text: t("bests.replay") });
}

function errorLine(err) {
  return h("p", { class: "notice error", role: "alert",
    text: err.code === "offline" ? t("common.offline") : t("common.error", { message: err.message }) });
}

function mm(v) {
  return t("bests.mm", { v: num(v, { maximumFractionDigits: 1 }) });
}

function day(at) {
  return new Date(at * 1000).toLocaleDateString(document.documentElement.lang || undefined,
    { year: "numeric", month: "short", day: "numeric" });
}
