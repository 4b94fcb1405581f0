// The rules page /rules/{game}: a game's rules in plain words, with small pictures drawn by
// the same board modules as the tables, from positions the server plays with the real engine
// (GET /api/rules/{game}/diagrams). The words live in js/boards/<renderer>/rules-<game>.js,
// beside the game's board, with the layout of the page (which sections, paragraphs, lists,
// pictures and options, in order) and any pictures of its own (`art`). The games are the
// server's (GET /api/games): this page knows none of them.
import { api } from "../shared/api.js";
import { loadPreview, rendererOf } from "../boards/index.js";
import { h } from "../shared/dom.js";
import { mountHeader } from "../shared/header.js";
import { addCatalog, has, lang, loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { addCoordinates } from "./coords.js";

// The option labels and values of the new-table form (the lobby's words), so an option is
// called the same on the form and here; this page's catalogs fill in what they lack.
await loadCatalogs("games", "options", "rules");

// The sections every game has, in this order (a game may add its own, e.g. history).
const SECTIONS = ["play", "win", "lesson", "bests", "options", "decisions", "notation", "here", "history"];

const root = document.querySelector("[data-rules]");
const gameId = pathGame();
let games = []; // the server's games (GET /api/games), once loaded
let content = null; // {layout, art, meta, diagrams}, {missing} or {error} once loaded
let scrolled = false; // a #section in the address is scrolled to once, not on every redraw
let drawing = []; // the pictures of the current render, being drawn
let renders = 0;

function render() {
  if (content && content.missing) return renderMissing();
  if (!content) {
    root.replaceChildren(h("p", { class: "rules-loading", text: t("rules.loading") }));
    return;
  }
  if (content.error) return renderError(content.error);
  const { layout } = content;
  const key = (k) => (k.startsWith("rules.") ? k : `rules.${gameId}.${k}`);
  const sections = SECTIONS.filter((id) => layout[id]);
  const name = t(`rules.name.${gameId}`);
  document.title = t("rules.doc.title", { game: name });

  const body = [
    h("nav", { class: "rules-crumbs", "aria-label": t("rules.crumbs") },
      h("a", { href: "/", text: t("common.home") })),
    h("header", { class: "rules-head" },
      h("h1", { id: "top", text: name }),
      h("p", { class: "rules-lead" }, inline(t(key("intro")))),
      h("p", { class: "rules-actions" },
        h("a", { class: "button primary", href: `/?game=${encodeURIComponent(gameId)}`,
          "data-start-table": gameId, text: t("rules.start") }))),
    h("nav", { class: "rules-toc card", "aria-labelledby": "toc-title" },
      h("h2", { id: "toc-title", text: t("rules.toc") }),
      h("ol", {}, sections.map((id) =>
        h("li", {}, h("a", { href: `#${id}`, text: t(`rules.section.${id}`) }))))),
    ...sections.map((id) =>
      h("section", { id, class: "rules-section", "aria-labelledby": `${id}-title` },
        h("h2", { id: `${id}-title`, text: t(`rules.section.${id}`) }),
        ...blocks(layout[id], key))),
    otherGames(),
  ];
  root.replaceChildren(...body);
  const target = !scrolled && location.hash.length > 1
    ? document.getElementById(location.hash.slice(1)) : null;
  scrolled = true;
  if (target) target.scrollIntoView();
  // Pictures above the target appear as their boards are drawn: land on it again then.
  picturesDrawn(target ? () => target.scrollIntoView() : null);
}

function pathGame() {
  const raw = location.pathname.replace(/^\/rules\/?/, "").replace(/\/$/, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed %-escape is just an unknown game
  }
}

/** The blocks of a section: [kind, ...args] — p, ul, ol, h3, fig, options, note, decision. */
function blocks(list, key) {
  return list.map(([kind, ...args]) => {
    switch (kind) {
      case "p": return h("p", {}, inline(t(key(args[0]))));
      case "note": return h("p", { class: "rules-note" }, inline(t(key(args[0]))));
      case "h3": return h("h3", { text: t(key(args[0])) });
      case "ul":
      case "ol": return h(kind, {}, args[0].map((k) => h("li", {}, inline(t(key(k))))));
      case "decisions": return h("ul", { class: "rules-decisions" }, args[0].map(([k, marked]) =>
        h("li", { class: marked ? "decision" : null },
          marked ? h("strong", { class: "tag", text: t("rules.decision") }) : null,
          inline(t(key(k))))));
      case "fig": return figure(args[0], args[1] || `fig.${args[0]}`, key);
      case "options": return optionList(args[0], key);
      case "section": return extraSection(args[0]);
      default: return null;
    }
  });
}

/** A section the game's rules module draws itself (e.g. Verticality's bests board): its
 * `sections[name](host)` fills the host, fetching what it needs. */
function extraSection(name) {
  const mount = content.sections && content.sections[name];
  if (!mount) return null;
  const host = h("div", { class: `rules-section-${name}` },
    h("p", { class: "rules-loading", text: t("rules.loading") }));
  Promise.resolve(mount(host)).catch((err) => {
    console.error(`the section ${name} could not be loaded`, err);
    host.replaceChildren(h("p", { class: "notice error", text: t("common.error", { message: err.message }) }));
  });
  return host;
}

// ---- pictures ---------------------------------------------------------------------------

function figure(id, captionKey, key) {
  const capId = `fig-${id}-caption`;
  const art = h("div", { class: "rules-art" });
  const fig = h("figure", { class: "rules-figure", "data-diagram": id },
    art, h("figcaption", { id: capId }, inline(t(key(captionKey)))));
  const local = content.art && content.art[id];
  if (local) {
    art.append(hideArt(local(t, content.meta.preview)));
    fig.dataset.drawn = "";
    return fig;
  }
  const entry = content.diagrams.find((d) => d.id === id);
  if (!entry) return null;
  if (entry.moves && entry.moves.length) {
    fig.querySelector("figcaption").append(h("span", { class: "rules-moves" },
      `${t("rules.fig.moves")} `, h("code", { text: entry.moves.join(" ") })));
  }
  fig.hidden = true; // shown once its board module has drawn it
  drawing.push(drawBoard(entry.state, art, fig));
  return fig;
}

/** `data-pictures` on the page root: how many pictures are drawn, once every board module
 * asked for has answered (tests wait on it; no sleeps). */
function picturesDrawn(then) {
  const mine = drawing;
  const n = ++renders;
  drawing = [];
  delete root.dataset.pictures;
  Promise.allSettled(mine).then(() => {
    if (n !== renders) return; // the page was drawn again meanwhile (a language switch)
    if (then) then();
    root.dataset.pictures = String(root.querySelectorAll("figure[data-drawn]").length);
  });
}

async function drawBoard(state, art, fig) {
  let svg = null;
  try {
    const mod = await loadPreview(state); // the board's picture only, not the board
    if (mod && typeof mod.renderPreview === "function") svg = mod.renderPreview(state);
  } catch (err) {
    // A board module still being written must not take the rules away: skip the picture.
    console.warn("rules: no picture for", state.board && state.board.kind, err);
  }
  if (!svg || !fig.isConnected) return;
  try {
    addCoordinates(svg, state);
  } catch (err) {
    console.warn("rules: no coordinates for", state.board && state.board.kind, err);
  }
  hideArt(svg);
  art.replaceChildren(svg);
  fig.hidden = false;
  fig.dataset.drawn = "";
}

/** The caption says in words what a picture shows: the picture itself is left out of the
 * accessibility tree, so a screen reader reads the position once, from the caption. */
function hideArt(svg) {
  svg.removeAttribute("role");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  return svg;
}

// ---- options ------------------------------------------------------------------------------

/** One entry per option: its name, what it changes, its default and range. The default and
 * range come from the server's option schema where it states them; the catalog words them
 * where the schema cannot (defaults that depend on another option, ranges per rule set). */
function optionList(names, key) {
  const { schema, defaults } = content.meta;
  const props = (schema && schema.properties) || {};
  return h("div", { class: "rules-options" }, names.map((name) => {
    const spec = props[name] || {};
    const word = (v) => value(v, name, key);
    const def = has(key(`opt.${name}.default`))
      ? t(key(`opt.${name}.default`)) : word(defaults ? defaults[name] : spec.default);
    const range = has(key(`opt.${name}.range`)) ? t(key(`opt.${name}.range`)) : rangeOf(spec, word);
    const form = `option.${gameId}.${name}.label`;
    return h("div", { class: "rules-option", "data-option": name },
      h("h3", {}, h("span", { text: t(has(form) ? form : key(`opt.${name}`)) }), " ",
        h("code", { class: "opt-name", text: name })),
      h("p", {}, inline(t(key(`opt.${name}.what`)))),
      h("dl", {},
        h("div", {}, h("dt", { text: t("rules.option.default") }),
          h("dd", { "data-default": "", text: def })),
        range ? h("div", {}, h("dt", { text: t("rules.option.range") }), h("dd", { text: range }))
          : null));
  }));
}

/** An option's value in words: on/off, a number, or a choice by the form's name for it. */
function value(v, name, key) {
  if (v === true) return t("rules.on");
  if (v === false) return t("rules.off");
  if (typeof v === "number") return num(v);
  if (typeof v === "string") {
    const form = `option.${gameId}.${name}.${v}`;
    if (has(form)) return t(form);
    return has(key(`value.${v}`)) ? t(key(`value.${v}`)) : v;
  }
  return "—";
}

function rangeOf(spec, word) {
  const options = spec.anyOf ? spec.anyOf.find((s) => s.type !== "null") || {} : spec;
  if (options.type === "boolean") return t("rules.onoff");
  if (options.enum) return options.enum.map(word).join(", ");
  if (options.minimum !== undefined && options.maximum !== undefined) {
    return `${num(options.minimum)}–${num(options.maximum)}`;
  }
  return "";
}

// ---- words -------------------------------------------------------------------------------

/** Text with `code` and **strong** spans, built as nodes (never as HTML). */
function inline(text) {
  const out = [];
  for (const part of String(text).split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (!part) continue;
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
      out.push(h("code", { text: part.slice(1, -1) }));
    } else if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
      out.push(h("strong", { text: part.slice(2, -2) }));
    } else {
      out.push(part);
    }
  }
  return out;
}

/** A game's name in the page's language (the server's English name where none is known). */
function gameName(game) {
  const k = `rules.name.${game.id}`;
  return has(k) ? t(k) : game.name;
}

function gameLinks(list) {
  return list.map((g) =>
    h("li", {}, h("a", { href: `/rules/${encodeURIComponent(g.id)}`, text: gameName(g) })));
}

function otherGames() {
  return h("nav", { class: "rules-others", "aria-labelledby": "others-title" },
    h("h2", { id: "others-title", text: t("rules.others") }),
    h("ul", {}, gameLinks(games.filter((g) => g.id !== gameId))));
}

function renderMissing() {
  document.title = t("rules.missing.doc");
  root.replaceChildren(
    h("h1", { "data-missing": "", text: t("rules.missing.title") }),
    h("p", { class: "notice", text: t("rules.missing.text", { id: gameId || "—" }) }),
    h("ul", { class: "rules-game-list" }, gameLinks(games)),
    h("p", {}, h("a", { class: "button", href: "/", text: t("rules.lobby") })),
  );
}

function renderError(err) {
  root.replaceChildren(
    h("h1", { text: t(`rules.name.${gameId}`) }),
    h("p", { class: "notice bad", role: "alert",
      text: err.code === "offline" ? t("common.offline") : t("common.error", { message: err.message }) }),
  );
}

async function load() {
  try {
    games = await api.games();
    const meta = games.find((g) => g.id === gameId);
    // The rules text sits in the game's board folder, named after the game.
    const renderer = meta && rendererOf(meta.preview);
    if (!renderer) {
      content = { missing: true };
      render();
      return;
    }
    const [mod, diagrams] = await Promise.all([
      import(`../boards/${renderer}/rules-${meta.id}.js`),
      api.get(`/api/rules/${encodeURIComponent(gameId)}/diagrams`),
    ]);
    addCatalog(mod.default);
    content = { layout: mod.layout, art: mod.art || null, sections: mod.sections || null, diagrams,
      meta: { schema: meta.options, defaults: meta.defaults, preview: meta.preview } };
  } catch (err) {
    content = { error: err };
  }
  render();
}

mountHeader();
document.documentElement.lang = lang();
onLangChange(render);
render();
load();
