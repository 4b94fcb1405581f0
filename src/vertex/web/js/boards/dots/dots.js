// The Dots-family boards (Dots and Boxes, Dots and Triangles, Figures) as one SVG: dots,
// drawn and border lines, claimed cells with their owner's colour and symbol, the last move
// and a pending move. Lines are drawn by pointer (dots-pointer.js: the nearest legal line), by
// keyboard (dots-keys.js: a cell cursor; Shift+arrow draws that side) or from a cell's side
// menu (dots-menu.js).
// The page knows no rules: only lines in `legal_moves` react.
import { announce as sayDefault, h, reducedMotion, s } from "../../shared/dom.js";
import { has, loadCatalogs, onLangChange, t } from "../../shared/i18n.js";
import { seatColor, seatInk, seatSymbol } from "../../shared/seats.js";
import { whyNot } from "./dots-why.js";
import { attachKeys } from "./dots-keys.js";
import { attachPointer } from "./dots-pointer.js";
import { buildModel, closedBy, hitPolygon, sameShape } from "./dots-geometry.js";
import {
  dotsGroup, ends, guides, lineShape, points, setWidths, symbolFor, viewBox,
} from "./dots-preview.js";
import { fmt } from "./dots-symbols.js";
import { coordLayer, coordsOn, createZoom, withCoords } from "../view.js";

export { renderPreview } from "./dots-preview.js"; // alone: boards/index.js loadPreview

await loadCatalogs("dots");

let uid = 0;

// The side menu (dots-menu.js) is fetched when first wanted: most players draw lines
// directly. Focus on the board and a touch fetch it ahead, for the menu key or a long press.
let menuModule = null;
let menuLoading = null;
function loadMenu() {
  menuLoading ??= import("./dots-menu.js").then(
    (mod) => { menuModule = mod; return mod; },
    (err) => { menuLoading = null; throw err; },
  );
  return menuLoading;
}

/** Lines are drawn here: on a touch screen a player may ask to confirm each (table/board.js). */
export const CONFIRMS_TOUCH = true;

export function createBoard(host, options = {}) {
  return new DotsBoard(host, options);
}

class DotsBoard {
  constructor(host, options) {
    this.host = host;
    this.options = options;
    this.id = `dots-${++uid}`;
    this.model = null;
    this.state = null;
    this.ctx = {};
    this.cursor = 0;              // the keyboard's cell
    this.hover = null;            // line name under a mouse
    this.preview = null;          // touch: the line a first tap chose
    this.sent = null;             // a move handed to onMove, until the next update
    this.legal = new Set();       // the lines this browser may draw now
    this.menu = null;
    this.lineState = new Map();   // name -> "" | "drawn" | "border"
    this.ownerOf = [];            // cell index -> owner or null
    this.labels = new Map();      // element -> its aria-label (to touch only what changed)

    this.svg = s("svg", {
      class: "dots-svg",
      role: "group",
      "aria-labelledby": `${this.id}-title`,
      focusable: "false",
      // Chromium would make the <svg> itself a tab stop; the cells are the one stop.
      tabindex: "-1",
    });
    this.help = this.buildHelp();
    // why the line under a mouse cannot be drawn (the server's reason), beside it
    this.tip = h("div", { class: "dots-tip", "data-line-tip": "", hidden: true });
    this.stage = h("div", { class: "board-stage" }, this.svg);
    this.zoom = createZoom(this.stage, this.svg, (on) => this.showCoords(on));
    this.coords = null;           // coordinates on or off (null: this browser's default)
    this.best = null;             // the analysis' best moves drawn ({moves, focus})
    this.root = h("div", { class: "dots-board", "data-board": "dots" },
      this.zoom.bar, this.stage, this.tip, this.help);
    host.replaceChildren(this.root);

    this.pointer = attachPointer(this);   // dots-pointer.js
    attachKeys(this);                     // dots-keys.js
    this.svg.addEventListener("focusin", (e) => this.onFocusIn(e));
    this.svg.addEventListener("focusout", (e) => this.onFocusOut(e));
    this.offLang = onLangChange(() => this.relabel());
    if (typeof ResizeObserver === "function") {
      this.resizer = new ResizeObserver(() => this.measure());
      this.resizer.observe(this.svg);
    }
  }

  // ---------------------------------------------------------------- the interface

  update(state, ctx = {}) {
    this.state = state;
    this.ctx = ctx;
    this.sent = null;
    const board = state.board;
    const fresh = !sameShape(this.model, board);
    if (fresh) this.build(board);
    const animate = !fresh && Boolean(ctx.animate) && !reducedMotion();
    this.legal = new Set(ctx.canMove ? state.legal_moves || [] : []);
    this.syncLines(board, animate);
    this.syncCells(board, animate);
    this.syncMarks(board, animate);
    this.relabelStatic();   // game names may arrive late (the lobby's catalog)
    if (this.hover && !this.legal.has(this.hover)) this.hover = null;
    if (this.preview && !this.legal.has(this.preview)) this.preview = null;
    this.syncOverlay();
    if (this.menu) this.menu.refresh((line) => !this.legal.has(line));
  }

  describeMove(move) {
    const ln = this.model && this.model.byName.get(String(move));
    if (!ln) return String(move);
    const where = ln.where;
    if (!where) return t("dots.move.plain", { line: ln.name });
    return t("dots.move", {
      where: this.whereText(this.model.cells[where.cell]),
      side: t(`dots.side.${where.side}`),
      line: ln.name,
    });
  }

  /** The analysis' best moves drawn on the board (null: none); `focus` the one pointed at. */
  highlight(moves, focus = null) {
    const best = moves ? { moves, focus } : null;
    this.best = best;
    if (!best) { if (this.bestG) this.bestG.replaceChildren(); return; }
    import("../bests.js").then(({ bestMarks }) => {
      if (this.best !== best || !this.bestG) return; // another answer (or none) meanwhile
      const ends = (m) => this.model.byName.get(m) || null;
      this.bestG.replaceChildren(...bestMarks(moves, ends, focus));
    });
  }

  /** Coordinates on or off (the table's setting). */
  showCoords(on) {
    this.coords = Boolean(on);
    if (this.model) this.frame();
  }

  frame() {
    const vb = viewBox(this.model).split(" ").map(Number);
    const axes = this.state && this.state.board.axes;
    const show = Boolean(axes && (this.coords ?? coordsOn(axes)));
    this.zoom.coordsShown(show, Boolean(axes));
    this.svg.setAttribute("viewBox", (show ? withCoords(vb, axes, 1, 0.3) : vb).join(" "));
    this.coordsG.toggleAttribute("hidden", !show);
    this.measure();
    this.zoom.measure();
  }

  focus() {
    const el = this.cellEls && this.cellEls[this.cursor];
    if (el) el.focus({ preventScroll: true });
  }

  destroy() {
    if (this.menu) this.menu.close(false);
    this.pointer.cancelPress();
    if (this.resizer) this.resizer.disconnect();
    if (this.offLang) this.offLang();
    this.root.remove();
  }

  // ---------------------------------------------------------------- drawing

  /** A new board shape: every element anew. */
  build(board) {
    if (this.menu) this.menu.close(false);
    const hadFocus = this.svg.contains(document.activeElement);
    const model = buildModel(board);
    this.model = model;
    this.lineState = new Map();
    this.ownerOf = model.cells.map(() => null);
    this.labels = new Map();
    this.hover = null;
    this.preview = null;
    this.markKey = null;        // the new groups are empty: draw marks and overlays again
    this.overlayKey = null;
    this.previewShown = null;
    this.cursor = Math.max(0, Math.min(this.cursor, model.cells.length - 1));
    this.svg.dataset.kind = model.kind;

    this.title = s("title", { id: `${this.id}-title` });
    // Cells are the keyboard's targets: a grid of rows of cells, one tab stop (roving).
    this.grid = s("g", { class: "dots-cells", role: "grid", "aria-describedby": `${this.id}-help` });
    const rows = new Map();
    this.cellEls = model.cells.map((c, i) => {
      const el = s("polygon", {
        class: "dots-cell",
        points: points(c.pts),
        role: "gridcell",
        tabindex: i === this.cursor ? "0" : "-1",
        "data-cell": i,
      });
      if (!rows.has(c.row)) rows.set(c.row, []);
      rows.get(c.row).push({ c, el });
      return el;
    });
    this.rowEls = [];
    for (const row of [...rows.keys()].sort((a, b) => a - b)) {
      // Named, or a row would be named by all its cells' names run together.
      const g = s("g", { role: "row", "data-row": row });
      this.rowEls.push(g);
      for (const { el } of rows.get(row).sort((p, q) => p.c.cx - q.c.cx)) g.append(el);
      this.grid.append(g);
    }
    this.linesG = s("g", { class: "dots-lines", "aria-hidden": "true" });
    this.symbolsG = s("g", { class: "dots-symbols", "aria-hidden": "true" });
    this.marksG = s("g", { class: "dots-marks", "aria-hidden": "true" });
    this.overlayG = s("g", { class: "dots-overlay", "aria-hidden": "true" });
    this.bestG = s("g", { class: "board-bests", "aria-hidden": "true", "data-bests": "" });
    this.coordsG = board.axes ? coordLayer(board.axes, 1) : s("g");
    this.hitsG = s("g", { class: "dots-hits", role: "group" });
    // The cursor's outline: a white halo under a thick ring, seen on every tint.
    this.ringShapes = [
      s("polygon", { class: "dots-focus-halo" }), s("polygon", { class: "dots-focus-ring" }),
    ];
    this.ring = s("g", { class: "dots-focus", "aria-hidden": "true" }, ...this.ringShapes);
    this.lineEls = new Map();
    this.symbolEls = [];
    for (const ln of model.lines) {
      const hit = s("polygon", {
        class: "dots-hit",
        role: "img",
        points: points(hitPolygon(model, ln)),
        "data-line": ln.name,
      });
      this.hitsG.append(hit);
      this.lineEls.set(ln.name, { hit, shape: null });
    }
    this.svg.replaceChildren(
      this.title, this.grid, guides(model), this.linesG, dotsGroup(model), this.symbolsG, this.marksG,
      this.overlayG, this.bestG, this.coordsG, this.ring, this.hitsG,
    );
    this.relabelStatic();
    this.frame();
    if (this.best) this.highlight(this.best.moves, this.best.focus);
    if (hadFocus) this.focus();
  }

  syncLines(board, animate) {
    const model = this.model;
    for (let i = 0; i < board.lines.length; i++) {
      const data = board.lines[i];
      const ln = model.lines[i];
      const now = data.drawn ? (data.predrawn ? "border" : "drawn") : "";
      const els = this.lineEls.get(ln.name);
      const was = this.lineState.get(ln.name);
      if (was !== now) {
        this.lineState.set(ln.name, now);
        if (els.shape) els.shape.remove();
        els.shape = null;
        if (now) {
          els.shape = lineShape(ln, now === "border");
          if (animate && now === "drawn") replay(els.shape, "dots-enter");
          this.linesG.append(els.shape);
          els.hit.setAttribute("data-drawn", now);
        } else {
          els.hit.removeAttribute("data-drawn");
        }
        this.setLabel(els.hit, this.lineLabel(ln));
      }
      const legal = this.legal.has(ln.name);
      if (els.hit.hasAttribute("data-legal") !== legal) els.hit.toggleAttribute("data-legal", legal);
    }
    this.svg.classList.toggle("can-move", this.legal.size > 0);
  }

  syncCells(board, animate) {
    const model = this.model;
    for (let i = 0; i < board.cells.length; i++) {
      const owner = board.cells[i].owner ?? null;
      const el = this.cellEls[i];
      if (this.ownerOf[i] !== owner) {
        this.ownerOf[i] = owner;
        if (this.symbolEls[i]) this.symbolEls[i].remove();
        this.symbolEls[i] = null;
        if (owner === null) {
          el.removeAttribute("data-owner");
          el.removeAttribute("data-symbol");
          el.style.removeProperty("fill");
          el.classList.remove("claimed");
        } else {
          el.setAttribute("data-owner", owner);
          el.setAttribute("data-symbol", seatSymbol(owner, board));
          el.style.fill = seatColor(owner);
          el.classList.add("claimed");
          const sym = symbolFor(model, model.cells[i], owner, board);
          sym.setAttribute("data-cell-symbol", i);
          this.symbolEls[i] = sym;
          this.symbolsG.append(sym);
          if (animate) { replay(el, "dots-pop"); replay(sym, "dots-pop"); }
        }
      }
      // Names also change with the cell's drawn sides and the seats' names.
      this.setLabel(el, this.cellLabel(model.cells[i]));
    }
  }

  /** The last move: its line thicker in the mover's ink with a light dashed core and end
   * markers (shape, not colour only); the cells it closed ringed. */
  syncMarks(board, animate) {
    const last = this.state.last_move;
    const key = last ? `${last.seat}:${last.move}:${this.state.ply ?? ""}` : "";
    if (key === this.markKey) return;
    this.markKey = key;
    this.marksG.replaceChildren();
    const ln = last && this.model.byName.get(last.move);
    if (!ln) return;
    const ink = seatInk(last.seat);
    for (const ci of closedBy(this.model, board, ln.name)) {
      const c = this.model.cells[ci];
      const ring = s("polygon", {
        class: "dots-ring", points: points(shrink(c, 0.72)), stroke: ink,
      });
      if (animate) replay(ring, "dots-pop");
      this.marksG.append(ring);
    }
    const g = s("g", { class: "dots-last", "data-last": ln.name });
    g.append(
      s("line", { class: "dots-last-line", ...ends(ln), stroke: ink, pathLength: 1 }),
      s("line", { class: "dots-last-core", ...ends(ln) }),
      s("circle", { class: "dots-last-end", cx: fmt(ln.a.x), cy: fmt(ln.a.y), stroke: ink }),
      s("circle", { class: "dots-last-end", cx: fmt(ln.b.x), cy: fmt(ln.b.y), stroke: ink }),
    );
    if (animate) replay(g, "dots-enter");
    this.marksG.append(g);
  }

  /** Pending, preview (touch) and hover lines: drawn over the board, never hit. */
  syncOverlay() {
    const pending = this.ctx.pending || this.sent;
    const want = [];
    if (pending) want.push(["pending", pending]);
    if (this.preview && this.preview !== pending) want.push(["preview", this.preview]);
    if (this.hover && this.hover !== pending && this.hover !== this.preview) {
      want.push(["hover", this.hover]);
    }
    const key = want.map((w) => w.join(":")).join(" ");
    if (key === this.overlayKey) return;
    this.overlayKey = key;
    const mine = this.ctx.mySeat ?? 0;
    this.overlayG.replaceChildren(
      ...want.map(([kind, name]) => {
        const ln = this.model.byName.get(name);
        if (!ln) return "";
        return s("line", {
          class: `dots-${kind}`, ...ends(ln), stroke: seatInk(mine), "data-overlay": kind,
        });
      }),
    );
    // The previewed line's hit area says so (a hook for tests and styles).
    if (this.previewShown !== this.preview) {
      const was = this.previewShown && this.lineEls.get(this.previewShown);
      if (was) was.hit.removeAttribute("data-preview");
      const now = this.preview && this.lineEls.get(this.preview);
      if (now) now.hit.setAttribute("data-preview", "");
      this.previewShown = this.preview;
    }
  }

  /** Stroke widths follow the drawn size: about 3–8 px whatever the board's size. */
  measure() {
    if (!this.model) return;
    const rect = this.svg.getBoundingClientRect();
    const vb = viewBox(this.model).split(" ").map(Number);
    const ppu = rect.width > 0 ? Math.min(rect.width / vb[2], rect.height / vb[3] || Infinity) : 40;
    setWidths(this.svg, 1 / ppu);
  }

  // ---------------------------------------------------------------- names

  relabel() {
    this.zoom.relabel();
    if (!this.model) return;
    this.relabelStatic();
    for (const ln of this.model.lines) {
      this.setLabel(this.lineEls.get(ln.name).hit, this.lineLabel(ln));
    }
    this.model.cells.forEach((c, i) => this.setLabel(this.cellEls[i], this.cellLabel(c)));
    const open = this.help.open;
    const help = this.buildHelp();
    help.open = open;
    this.root.replaceChild(help, this.help);
    this.help = help;
  }

  /** The title and group names; cheap to call on every update (writes only changes). */
  relabelStatic() {
    const title = this.boardTitle();
    if (this.title.textContent !== title) this.title.textContent = title;
    this.setLabel(this.grid, t("dots.cells"));
    for (const g of this.rowEls) this.setLabel(g, t("dots.row", { n: g.dataset.row }));
    this.setLabel(this.hitsG, t("dots.lines"));
  }

  boardTitle() {
    const st = this.state;
    const game = st && st.game;
    const name = has(`game.${game}.name`) ? t(`game.${game}.name`)
      : has(`dots.game.${game}`) ? t(`dots.game.${game}`) : String(game || "");
    const m = this.model;
    const o = (st && st.options) || {};
    if (m.kind === "strip") return t("dots.title.strip", { game: name, n: o.length ?? m.cells.length });
    if (m.kind === "triangle") return t("dots.title.triangle", { game: name, n: o.size ?? m.rows });
    const key = m.kind === "square-rhombus" ? "dots.title.rhombus" : "dots.title.square";
    return t(key, { game: name, rows: o.rows ?? m.rows, cols: o.cols ?? m.cols });
  }

  whereText(c) {
    const key = this.model.kind === "strip" ? "dots.where.strip"
      : this.model.triangular ? "dots.where.triangle" : "dots.where.square";
    return t(key, { row: c.row, col: c.col });
  }

  nameOf(seat) {
    const names = this.options.names;
    let name = null;
    if (typeof names === "function") name = names(seat);
    else if (names) name = names[seat];
    return name || t("common.seat", { n: seat + 1 });
  }

  cellLabel(c) {
    const owner = this.ownerOf[c.index];
    // A cell and a triangle differ in gender in Italian and Russian.
    const tri = this.model.triangular ? "Triangle" : "";
    const status = owner === null ? t(`dots.cell.free${tri}`)
      : t(`dots.cell.claimed${tri}`, {
        name: this.nameOf(owner), symbol: seatSymbol(owner, this.state.board),
      });
    const drawn = c.sides
      .filter((sd) => this.lineState.get(sd.line))
      .map((sd) => t(`dots.side.${sd.name}`));
    const parts = {
      where: this.whereText(c),
      dir: c.up === null ? "" : t(c.up ? "dots.dir.up" : "dots.dir.down"),
      status: drawn.length && owner === null
        ? `${status}; ${t("dots.cell.drawn", { sides: drawn.join(", ") })}` : status,
    };
    return t(this.model.triangular ? "dots.cell.nameTriangle" : "dots.cell.name", parts);
  }

  lineLabel(ln) {
    const st = this.lineState.get(ln.name);
    const status = t(st === "border" ? "dots.line.border" : st ? "dots.line.drawn" : "dots.line.free");
    if (!ln.where) return t("dots.line.plain", { line: ln.name, status });
    return `${t("dots.line.name", {
      where: this.whereText(this.model.cells[ln.where.cell]),
      side: t(`dots.side.${ln.where.side}`),
      status,
    })} (${ln.name})`;
  }

  setLabel(el, text) {
    if (this.labels.get(el) === text) return;
    this.labels.set(el, text);
    el.setAttribute("aria-label", text);
  }

  buildHelp() {
    const triangular = this.model ? this.model.triangular : false;
    const items = ["dots.help.tab", triangular ? "dots.help.shiftTriangle" : "dots.help.shift",
      "dots.help.menu", "dots.help.pointer", "dots.help.confirm"];
    return h("details", { class: "dots-help keys-help", id: `${this.id}-help` },
      h("summary", { text: t("dots.help.title") }),
      h("ul", {}, ...items.map((k) => h("li", { text: t(k) }))));
  }

  // ---------------------------------------------------------------- moving

  say(text, assertive = false) {
    (this.options.announce || sayDefault)(text, assertive);
  }

  /** Why this browser may not draw `name` now ({code, text}), or null. */
  why(name) {
    return whyNot(this.state.board, name, {
      drawn: this.lineState.get(name), legal: this.legal, canMove: this.ctx.canMove, sent: this.sent,
    });
  }

  /** Say a refusal aloud and show it in the page's refusal line ([data-refusal]). */
  refuse(why, said) {
    this.say(said, true);
    if (this.options.refuse) this.options.refuse(why.code, said);
  }

  canDraw(name) {
    return !this.sent && this.legal.has(name);
  }

  draw(name) {
    if (!this.canDraw(name)) return false;
    this.sent = name;
    this.preview = null;
    this.hover = null;
    this.syncOverlay();
    if (this.options.onMove) this.options.onMove(name);
    return true;
  }

  moveCursor(index, focus) {
    if (!this.cellEls[index]) return;
    if (index !== this.cursor) {
      const old = this.cellEls[this.cursor];
      if (old) old.setAttribute("tabindex", "-1");
      this.cursor = index;
      this.cellEls[index].setAttribute("tabindex", "0");
    }
    if (focus) this.cellEls[index].focus({ preventScroll: true });
    else this.placeRing();
  }

  onFocusIn(e) {
    const el = e.target.closest && e.target.closest("[data-cell]");
    if (!el) return;
    this.preloadMenu(); // for the menu key
    const index = Number(el.dataset.cell);
    if (index !== this.cursor) this.moveCursor(index, false);
    this.svg.classList.add("has-focus");
    this.placeRing();
  }

  onFocusOut(e) {
    // The ring stays while the cell's menu is open: it shows whose sides are listed.
    if (!this.root.contains(e.relatedTarget) && !this.menu) this.svg.classList.remove("has-focus");
  }

  placeRing() {
    const c = this.model && this.model.cells[this.cursor];
    if (!c) return;
    const pts = points(shrink(c, this.model.triangular ? 0.8 : 0.86));
    for (const el of this.ringShapes) el.setAttribute("points", pts);
  }

  /** Fetch the side menu ahead (a failure shows when it is wanted). */
  preloadMenu() {
    loadMenu().catch(() => {});
  }

  openMenuFor(index) {
    if (menuModule) {
      this.showMenu(menuModule.openMenu, index);
      return;
    }
    loadMenu().then((mod) => {
      // (a new shape may have rebuilt the cells meanwhile)
      if (this.root.isConnected && this.model.cells[index]) this.showMenu(mod.openMenu, index);
    }, (err) => console.error("the side menu could not be loaded", err));
  }

  showMenu(openMenu, index) {
    if (this.menu) this.menu.close(false);
    const c = this.model.cells[index];
    this.moveCursor(index, false);
    const free = c.sides.filter((sd) => !this.lineState.get(sd.line));
    if (!free.length) {
      this.say(t("dots.menu.none"));
      return;
    }
    const cellEl = this.cellEls[index];
    this.svg.classList.add("has-focus");
    this.placeRing();
    const items = free.map((sd) => {
      const why = this.why(sd.line);
      const vars = { Side: t(`dots.Side.${sd.name}`), line: sd.line };
      return {
        line: sd.line,
        label: why ? t("dots.menu.itemWhy", { ...vars, why: why.text }) : t("dots.menu.item", vars),
        disabled: Boolean(why),
        code: why ? why.code : null,
      };
    });
    this.menu = openMenu({
      root: this.root,
      anchor: cellEl.getBoundingClientRect(),
      label: t("dots.menu.label", { cell: this.whereText(c) }),
      items,
      returnFocus: cellEl,
      onClose: () => {
        this.menu = null;
        if (!this.svg.contains(document.activeElement)) this.svg.classList.remove("has-focus");
      },
      onPick: (line) => this.draw(line),
    });
  }
}

// -------------------------------------------------------------------- helpers
// (the drawing pieces shared with the static picture are in dots-preview.js)

/** A cell's corners moved towards its centre (rings, the focus outline). */
function shrink(c, k) {
  return c.pts.map((p) => ({ x: c.cx + (p.x - c.cx) * k, y: c.cy + (p.y - c.cy) * k }));
}

/** Run a CSS animation once (again, if it ran before). */
function replay(el, cls) {
  el.classList.remove(cls);
  el.classList.add(cls);
  el.addEventListener("animationend", () => el.classList.remove(cls), { once: true });
}
