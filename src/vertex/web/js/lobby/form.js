// The new-table form: the game's options (built from its JSON Schema), the seats, the clock,
// take-backs and the display name. Every change is checked by the server (debounced), so an
// impossible combination is explained next to the option it is about before anyone submits.
//
// Only the options the person has set are sent: the rest keep the server's defaults, which
// may depend on other options (a Vert3x rule set presets several). The server's answer says
// what the table would have; fields not set show that.
import { api } from "../shared/api.js";
import { h } from "../shared/dom.js";
import { errorText, loadErrors } from "../shared/errors.js";
import { loadCatalogs, t } from "../shared/i18n.js";
import { ClockFields } from "./clock.js";
import { field, switchField } from "./fields.js";
import { shareGroup } from "./share.js";
import { loadVersionWords, versionWords } from "../shared/version-words.js";
import { applicable, caseOf, fieldsOf } from "./schema.js";
import { gameName, gameSummary, optionWords } from "./words.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { remembered } from "../shared/store.js";
import { player } from "../shared/player.js";
import { poolName } from "../shared/pools.js";

await Promise.all([loadCatalogs("options"), loadErrors()]); // option words; refusals

const CHECK_DELAY_MS = 250;
const LEVELS = [1, 2, 3, 4, 5];
const FILL_LEVEL = 3;
// The server counts characters as a reader sees them (a joined emoji is one); `maxlength`
// counts UTF-16 units, up to eight for one such emoji: room for 40 of them, the server decides.
const NAME_CHARS = 40 * 8;

export class NewTableForm {
  constructor(host, game, shared = null) {
    this.host = host;
    this.game = game;
    // Sizes and choices first, the on/off rules after them (schema order otherwise).
    const all = fieldsOf(game.options);
    this.fields = [...all.filter((f) => f.kind !== "boolean"), ...all.filter((f) => f.kind === "boolean")];
    // What the server says applies to this game: the seats the analysis covers (none: no
    // analysis), and an option that is the game's own clock (offered instead of the table's).
    const caps = game.capabilities || {};
    this.analysisSeats = Number.isInteger(caps.analysis_seats) ? caps.analysis_seats : null;
    this.clockOption = this.fields.some((f) => f.name === caps.clock_option) ? caps.clock_option : null;
    this.touched = new Set(); // options the person has set
    this.raw = new Map(); // what their controls hold (kept across re-renders)
    this.server = { ...(game.defaults || {}) }; // the options the table would have
    this.problem = null; // the server's {option, message} for the current options
    this.local = new Map(); // option -> message for values that are not numbers at all
    this.seats = Number.isInteger(this.server.players) ? this.server.players : 2;
    this.seatValues = [];
    this.clock = new ClockFields(); // kept across re-renders, as the options are
    this.undo = false;
    this.analysis = false;
    this.listed = false; // private (link only) unless asked: as before the lobby listed tables
    this.rated = false; // asked for; sent only while the options are a pool's (ratedPool())
    this.name = remembered.name();
    this.checking = false;
    this.busy = false;
    this.formError = null; // {key, vars} of the last refusal, re-translated on a switch
    this.seq = 0;
    this.timer = null;
    this.extra = {}; // options from a shared link that no field shows (the server says why)
    this.sharedNote = null; // {key, vars} about the link the form was opened with
    this.designer = null; // the board designer (Vert3x), once loaded
    if (shared) this.fill(shared);
    this.render();
    this.runCheck();
    loadVersionWords(game.id, Boolean(game.capabilities?.version_words)).then(() => this.apply());
    // a board that can be drawn by hand (a `cells` option) gets its board's designer
    const renderer = game.preview && game.preview.board && game.preview.board.renderer;
    if (renderer && /^[a-z0-9-]+$/.test(renderer) && this.fields.some((f) => f.name === "cells")) {
      import(`../boards/${renderer}/${renderer}-designer.js`).then((mod) => {
        this.designer = mod.mountDesigner(this);
        this.apply();
      }, (err) => console.error("the board designer could not be loaded", err));
    }
  }

  /** Take the options and seats of a shared link or a saved version as set by the person. */
  fill({ options, seats, broken, saved }) {
    this.touched = new Set();
    this.raw = new Map();
    this.local = new Map();
    this.extra = {};
    this.problem = null;
    if (broken) {
      this.sharedNote = { key: "share.broken" };
      return;
    }
    for (const [name, value] of Object.entries(options || {})) {
      const desc = this.fields.find((f) => f.name === name);
      if (!desc) {
        this.extra[name] = value;
        continue;
      }
      this.touched.add(name);
      if (desc.kind === "boolean") this.raw.set(name, Boolean(value));
      else if (Array.isArray(value)) this.raw.set(name, value.map(String).join(" "));
      else this.raw.set(name, value === null || value === undefined ? "" : String(value));
    }
    if (Array.isArray(seats)) this.seatValues = [...seats];
    const unknown = Object.keys(this.extra);
    // a saved version picked from this browser says so, not "opened from a shared link"
    const fine = saved ? { key: "share.picked", vars: { name: saved } } : { key: "share.opened" };
    this.sharedNote = unknown.length
      ? { key: "share.unknown", vars: { names: unknown.join(", ") } } : fine;
  }

  /** Fill the form again (a saved version picked) and check it. */
  load(shared) {
    this.fill(shared);
    this.seatsRendered = -1;
    this.render();
    this.scheduleCheck();
  }

  /** The options and seats as the person set them (for a link or a saved version). */
  current() {
    return { options: this.collect().options, seats: this.seatValues.slice(0, this.seats),
      inForce: this.values() };
  }

  /** Set one option as if typed (the designer paints cells, clicks start dots). */
  setOption(name, value) {
    const w = this.widgets[name];
    if (!w) return;
    w.control.value = Array.isArray(value) ? value.join(" ") : String(value);
    this.onOption(name);
  }

  /** Build the whole form from the state (again after a language switch). */
  render() {
    const g = this.game;
    this.widgets = {};
    const grid = h("div", { class: "option-grid" });
    for (const desc of this.fields) {
      const w = field(desc, optionWords(g.id, desc), (name) => this.onOption(name));
      if (this.raw.has(desc.name)) {
        const raw = this.raw.get(desc.name);
        if (desc.kind === "boolean") w.control.checked = raw;
        else w.control.value = raw;
      }
      this.widgets[desc.name] = w;
      if (desc.name !== this.clockOption) grid.append(w.el); // that one is the clock group's
    }
    this.optionsError = h("p", { class: "field-error", "data-options-error": "" });
    this.sharedBox = h("div", { class: "shared-note", role: "status", "data-shared-note": "" });
    this.seatList = h("ol", { class: "seat-list" });
    this.seatHint = h("p", { class: "hint", "aria-live": "polite" });
    this.submitButton = h("button", { type: "submit", class: "primary submit", text: t("lobby.submit") });
    this.status = h("p", { class: "status hint", "aria-live": "polite", "data-form-status": "" });
    // beside the disabled submit: takes the person to the option that stops it
    this.gotoProblem = h("button", { type: "button", class: "goto-problem", "data-goto-problem": "",
      hidden: true, text: t("lobby.invalid.show"), onclick: () => this.showProblem() });
    this.errorBox = h("div", { class: "form-error", role: "alert", "data-form-error": "" });
    if (this.formError) this.errorBox.textContent = t(this.formError.key, this.formError.vars);
    this.heading = h("h2", { id: "new-table-heading", tabindex: "-1",
      text: t("lobby.form.heading", { game: gameName(g) }) });
    this.seatsRendered = -1;
    this.fillButton = h("button", { type: "button", class: "fill", onclick: () => this.fillSeats(),
      text: t("lobby.seat.fill") });

    this.form = h("form", {
      "data-new-table": "", "data-for-game": g.id, novalidate: true,
      "aria-labelledby": "new-table-heading",
      onsubmit: (ev) => this.submit(ev),
    },
    h("fieldset", { class: "group options" },
      h("legend", { text: t("lobby.form.options") }),
      this.sharedBox,
      this.fields.length ? grid : h("p", { class: "hint", text: t("lobby.form.no-options") }),
      this.optionsError),
    shareGroup(this),
    h("fieldset", { class: "group seats" },
      h("legend", { text: t("lobby.seats") }),
      this.seatList,
      this.fillButton,
      this.seatHint),
    this.clock.group(this.clockOption, this.clockOption ? this.widgets[this.clockOption].el : null),
    h("div", { class: "group settings" },
      switchField("undo", t("lobby.undo"), t("lobby.undo.help"), this.undo, (on) => { this.undo = on; }),
      this.analysisField = switchField("analysis", t("lobby.analysis"), t("lobby.analysis.help"),
        this.analysis, (on) => { this.analysis = on; }),
      this.ratedField = switchField("rated", t("lobby.rated"), t("lobby.rated.help"),
        this.rated, (on) => { this.rated = on; this.updateStatus(); }),
      switchField("listed", t("lobby.listed"), t("lobby.listed.help"), this.listed, (on) => { this.listed = on; }),
      this.nameField()),
    h("div", { class: "submit-row" }, this.submitButton, this.status, this.gotoProblem),
    this.errorBox);

    this.host.replaceChildren(
      this.heading,
      h("p", { class: "game-summary" }, gameSummary(g), " ",
        h("a", { href: `/rules/${encodeURIComponent(g.id)}`, text: t("lobby.rules") })),
      this.form);
    this.apply();
  }

  nameField() {
    const me = player();
    // a player sits under their name (the server takes it from the key): nothing to ask
    if (me) return h("p", { class: "hint", "data-sit-as": "", text: t("me.sitAs", { name: me.name }) });
    const fallback = t("lobby.name.fallback");
    const input = h("input", { type: "text", id: "display-name", name: "display-name",
      autocomplete: "nickname", maxlength: NAME_CHARS, value: this.name,
      "aria-describedby": "display-name-help" });
    input.addEventListener("input", () => { this.name = input.value; });
    return h("div", { class: "field" },
      h("label", { for: "display-name", text: t("lobby.name") }), input,
      h("p", { class: "hint", id: "display-name-help", text: t("lobby.name.help", { fallback }) }));
  }

  /** The rating pool whose options are exactly those in force, with every seat a person;
   * else null. A rated table is offered only then (the server checks it again). */
  ratedPool() {
    const pools = this.game.pools || [];
    if (!pools.length) return null;
    if (this.seatValues.slice(0, this.seats).some((v) => v !== "human")) return null;
    const values = this.values();
    const defaults = this.game.defaults || {};
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    return pools.find((pool) => {
      const wanted = { ...defaults, ...(pool.options || {}) };
      const names = new Set([...Object.keys(wanted), ...Object.keys(values)]);
      // a name on one side only (a value the server derives) says nothing either way
      return [...names].every((k) => !(k in wanted) || !(k in values) || same(values[k], wanted[k]));
    }) || null;
  }

  /** Show the rated switch only where it applies; a guest sees it off, told to claim a name. */
  applyRated() {
    if (!this.ratedField) return;
    const pool = this.ratedPool();
    const control = this.ratedField.querySelector("input");
    const help = this.ratedField.querySelector(".hint");
    this.ratedField.hidden = !pool;
    this.ratedField.dataset.pool = pool ? pool.id : "";
    const guest = !player();
    control.disabled = guest;
    if (guest) control.checked = false;
    help.textContent = guest ? t("lobby.rated.guest")
      : t("lobby.rated.help", { pool: pool ? poolName([this.game], pool.id) : "" });
  }

  /** The options as they stand: the server's, with what the person has set on top. */
  values() {
    const out = { ...this.server };
    for (const name of this.touched) {
      const r = this.widgets[name].read();
      if (!r.bad && !r.empty) out[name] = r.value;
    }
    return out;
  }

  /** What to send: the options the person set that apply; and the ones that are not values. */
  collect() {
    const shown = applicable(this.fields, this.values());
    const options = { ...this.extra };
    const bad = [];
    for (const f of this.fields) {
      if (!shown.has(f.name) || !this.touched.has(f.name)) continue;
      const r = this.widgets[f.name].read();
      if (r.bad) bad.push([f.name, r.bad]);
      else if (!r.empty) options[f.name] = r.value;
    }
    return { options, bad };
  }

  onOption(name) {
    const w = this.widgets[name];
    const desc = this.fields.find((f) => f.name === name);
    const r = w.read();
    // An emptied field goes back to the default in force (shown as its placeholder).
    if (r.empty && desc.kind !== "enum") this.touched.delete(name);
    else this.touched.add(name);
    this.raw.set(name, desc.kind === "boolean" ? w.control.checked : w.control.value);
    this.local.delete(name);
    if (r.bad) this.local.set(name, r.bad);
    this.apply();
    this.scheduleCheck();
  }

  scheduleCheck() {
    clearTimeout(this.timer);
    this.seq += 1; // an answer still on its way is about older values now
    this.checking = true;
    this.updateStatus();
    this.timer = setTimeout(() => this.runCheck(), CHECK_DELAY_MS);
  }

  async runCheck() {
    clearTimeout(this.timer);
    this.timer = null;
    const { options, bad } = this.collect();
    const seq = ++this.seq;
    if (bad.length) {
      this.local = new Map(bad);
      this.checking = false;
      this.apply();
      return;
    }
    this.checking = true;
    this.updateStatus();
    try {
      const res = await api.checkOptions(this.game.id, options);
      if (seq !== this.seq) return; // a newer check is on its way
      this.server = res.options;
      this.seats = res.seats;
      this.problem = null;
    } catch (err) {
      if (seq !== this.seq) return;
      // Offline or a server hiccup: nothing to point at; opening the table checks again.
      this.problem = err.code === "bad-options" ? problemOf(err, this) : null;
      // too big to send at all: said at the option that takes the room (a pasted board)
      if (err.code === "too-large") {
        this.problem = { option: largest(options), get message() { return errorText(err); } };
      }
      if (this.problem && this.problem.option in options) await this.learnRest(options, seq);
      if (seq !== this.seq) return;
    }
    this.checking = false;
    this.apply();
  }

  /** The options in force without the refused one, so the other fields still show the
   *  defaults of what was chosen (a new rule set's presets) while one value is wrong. */
  async learnRest(options, seq) {
    const rest = { ...options };
    delete rest[this.problem.option];
    try {
      const res = await api.checkOptions(this.game.id, rest);
      if (seq !== this.seq) return;
      this.server = res.options;
      this.seats = res.seats;
    } catch {
      // Wrong in more than one way: keep what was known.
    }
  }

  /** Bring every field in line with the state: shown or hidden, range, default, error. */
  apply() {
    const values = this.values();
    const shown = applicable(this.fields, values);
    const pending = this.pending(shown);
    let loose = this.problem && !pending ? this.problem.message : "";
    for (const f of this.fields) {
      const w = this.widgets[f.name];
      const on = shown.has(f.name);
      w.setVisible(on);
      const c = on ? caseOf(f, values) : null;
      w.setRange(c?.minimum ?? f.min, c?.maximum ?? f.max);
      w.setPlaceholder(this.placeholder(f, c));
      if (!this.touched.has(f.name)) w.show(this.server[f.name]);
      let message = this.local.get(f.name) || null;
      if (!message && on && this.problem && this.problem.option === f.name) {
        // an option still to fill in, not yet touched, is no mistake: the status asks for it
        message = pending ? null : this.problem.message;
        loose = "";
      }
      w.setError(message);
    }
    this.optionsError.textContent = loose;
    this.renderShared();
    // analysis only where the server says it covers a table of this many seats
    this.analysisField.hidden = this.analysisSeats === null || this.seats !== this.analysisSeats;
    if (this.designer) this.designer.update(values, shown);
    this.renderSeats();
    this.applyRated();
    this.updateStatus();
  }

  placeholder(f, c) {
    const value = this.server[f.name] ?? c?.default ?? null;
    if (Array.isArray(value)) return value.join(" ");
    if (value === null || value === f.listAuto) {
      return f.kind === "list" && f.listAuto === null ? "" : t("lobby.auto");
    }
    return String(value);
  }

  renderShared() {
    const note = this.sharedNote;
    if (!note) {
      this.sharedBox.hidden = true;
      return;
    }
    this.sharedBox.hidden = false;
    let text = t(note.key, { ...(note.vars || {}), words: versionWords(this.game.id, this.values()) || this.game.name });
    const fine = note.key === "share.opened" || note.key === "share.picked";
    if (fine && this.problem) text = t("share.bad", { message: this.problem.message });
    const parts = [h("span", { text })];
    if (Object.keys(this.extra).length) {
      parts.push(" ", h("button", { type: "button", "data-drop-unknown": "", text: t("share.drop"),
        onclick: () => { this.extra = {}; this.sharedNote = null; this.scheduleCheck(); } }));
    }
    this.sharedBox.replaceChildren(...parts);
    this.sharedBox.classList.toggle("bad", !fine || Boolean(this.problem));
  }

  /** The server's refusal is only that an applicable option nobody has touched is empty (a
   *  custom board before anything is painted): true, and it is asked for, not marked wrong. */
  pending(shown = applicable(this.fields, this.values())) {
    const p = this.problem;
    if (!p || !p.option || this.touched.has(p.option) || !shown.has(p.option)) return false;
    const w = this.widgets[p.option];
    return Boolean(w && w.read().empty);
  }

  /** The label of option `name` in players' words. */
  label(name) {
    const desc = this.fields.find((f) => f.name === name);
    return desc ? optionWords(this.game.id, desc).label : name;
  }

  /** Scroll to the option that stops the form and put the focus on it. */
  showProblem() {
    const name = this.local.size ? [...this.local.keys()][0] : this.problem && this.problem.option;
    const w = name && this.widgets[name];
    if (w && !w.el.hidden) {
      w.el.scrollIntoView({ block: "center" });
      w.control.focus({ preventScroll: true });
    } else {
      this.optionsError.scrollIntoView({ block: "center" });
    }
  }

  invalid() {
    return this.local.size > 0 || this.problem !== null || this.sharedNote?.key === "share.broken";
  }

  updateStatus() {
    const invalid = this.invalid();
    // data-state says whether the options as they stand now are known to be good.
    let state = "ok";
    if (this.busy) state = "submitting";
    else if (this.checking) state = "checking";
    else if (invalid) state = "invalid";
    this.form.dataset.state = state;
    this.submitButton.disabled = this.busy || invalid;
    this.submitButton.textContent = t(this.busy ? "lobby.submitting" : "lobby.submit");
    let text = "";
    let where = false; // an option to go to
    if (invalid) {
      // said here, beside the disabled button, not only at the option far above it
      const [name, message] = this.local.size ? [...this.local.entries()][0]
        : [this.problem && this.problem.option, this.problem && this.problem.message];
      const shown = name && this.widgets[name] && !this.widgets[name].el.hidden;
      if (shown && this.pending()) text = t("lobby.needed", { option: this.label(name) });
      else if (shown) text = t("lobby.invalid.at", { option: this.label(name), message });
      else if (message) text = t("lobby.invalid.why", { message });
      else text = t("lobby.invalid");
      where = Boolean(shown);
    } else if (this.checking && !this.busy) text = t("lobby.checking");
    if (this.status.textContent !== text) this.status.textContent = text;
    this.gotoProblem.hidden = !where || this.busy;
  }

  // ---- seats ----
  renderSeats() {
    const n = this.seats;
    while (this.seatValues.length < n) this.seatValues.push("human");
    if (this.seatsRendered !== n) {
      this.seatsRendered = n;
      this.seatList.replaceChildren(...Array.from({ length: n }, (_, i) => this.seatRow(i)));
    }
    const mine = this.seatValues.slice(0, n).indexOf("human");
    let hint = t("lobby.seat.none");
    if (mine >= 0) hint = n === 1 ? t("lobby.seat.alone") : t("lobby.seat.mine", { n: mine + 1 });
    // a game that deals its figures by lot at the table promises none here (Figures)
    if (this.byLot()) hint = `${hint} ${t("lobby.seat.by-lot")}`;
    this.seatHint.textContent = hint;
    this.fillButton.hidden = n < 2;
  }

  seatRow(i) {
    const id = `seat-${i}`;
    const select = h("select", { id, name: id, onchange: (ev) => {
      this.seatValues[i] = ev.target.value;
      this.renderSeats();
      this.applyRated();
    } },
    h("option", { value: "human", text: t("lobby.seat.human") }),
    LEVELS.map((level) => h("option", { value: `ai-${level}`, text: levelName(level) })));
    select.value = this.seatValues[i];
    const swatch = h("span", { class: "swatch", "aria-hidden": "true", text: this.byLot() ? "" : seatSymbol(i) });
    swatch.style.background = seatColor(i);
    return h("li", { class: "seat-row" },
      h("label", { for: id }, swatch, h("span", { text: t("lobby.seat", { n: i + 1 }) })),
      select);
  }

  byLot() {
    return Boolean(this.game.capabilities && this.game.capabilities.symbols_by_lot);
  }

  fillSeats() {
    for (let i = 1; i < this.seats; i += 1) this.seatValues[i] = `ai-${FILL_LEVEL}`;
    this.seatsRendered = -1;
    this.renderSeats();
    this.applyRated();
  }

  // ---- opening the table ----
  async submit(ev) {
    ev.preventDefault();
    if (this.busy) return;
    clearTimeout(this.timer);
    const { options, bad } = this.collect();
    if (bad.length) {
      this.local = new Map(bad);
      this.apply();
      this.widgets[bad[0][0]].control.focus();
      return;
    }
    const clock = this.clock.body();
    if (clock.bad) {
      this.clock.refuse(t("lobby.clock.bad"));
      return;
    }
    const seats = this.seatValues.slice(0, this.seats).map((v) =>
      (v === "human" ? { kind: "human" } : { kind: "ai", level: Number(v.slice(3)) }));
    const body = { game: this.game.id, options, seats, undo: this.undo,
      on_timeout: this.clock.onTimeout(), listed: this.listed,
      analysis: this.analysis && !this.analysisField.hidden };
    if (clock.clock) body.clock = clock.clock;
    // rated only while the switch is shown (the options a pool's, every seat a person)
    if (this.rated && player() && this.ratedPool()) body.rated = true;
    const typed = player()?.name || this.name.trim();
    if (typed) remembered.setName(typed);
    this.busy = true;
    this.showError(null);
    this.updateStatus();
    let made;
    try {
      made = await api.createTable(body);
    } catch (err) {
      this.busy = false;
      this.failed(err);
      return;
    }
    const mine = seats.findIndex((seat) => seat.kind === "human");
    if (mine >= 0) {
      try {
        const { token } = await api.takeSeat(made.id, mine, typed || t("lobby.name.fallback"));
        remembered.setToken(made.id, token);
        remembered.setSeat(made.id, mine);
      } catch {
        // The table is open all the same: its page offers the free seats.
      }
    }
    this.status.textContent = t("lobby.opened");
    location.assign(made.url);
  }

  failed(err) {
    if (err.code === "bad-options") {
      this.problem = problemOf(err, this);
      this.apply();
      const w = err.option && this.widgets[err.option];
      if (w && !w.el.hidden) w.control.focus();
      this.showError("lobby.error.bad-options", { message: this.problem.message });
      return;
    }
    this.updateStatus();
    const known = { "too-many-tables": "lobby.error.too-many-tables", offline: "lobby.error.offline" };
    if (known[err.code]) this.showError(known[err.code]);
    else this.showError("lobby.error.other", { message: err.message });
  }

  showError(key, vars = {}) {
    this.formError = key ? { key, vars } : null;
    this.errorBox.textContent = key ? t(key, vars) : "";
  }

  focusHeading() {
    this.heading.focus({ preventScroll: true });
  }

  /** Cancel pending checks (the form is going away). */
  destroy() {
    clearTimeout(this.timer);
    this.seq += 1;
  }
}

/** The option whose value takes the most room (a refusal for size is said there). */
function largest(options) {
  let best = null;
  let size = -1;
  for (const [name, v] of Object.entries(options)) {
    const n = JSON.stringify(v).length;
    if (n > size) { best = name; size = n; }
  }
  return best;
}

/** The server's refusal, for showing beside its option: worded from its code and params
 *  (shared/errors.js) in the language in use, so a switch words it again. */
function problemOf(err, form) {
  const label = (name) => {
    const desc = form.fields.find((f) => f.name === name);
    return desc ? optionWords(form.game.id, desc).label : name;
  };
  // params: what the refusal names (a designer marks the stray triangles it lists)
  return { option: err.option, params: err.params || {},
    get message() { return errorText(err, label); } };
}

function levelName(level) {
  if (level === 1) return t("lobby.seat.ai-1");
  if (level === 5) return t("lobby.seat.ai-5");
  return t("lobby.seat.ai", { level });
}
