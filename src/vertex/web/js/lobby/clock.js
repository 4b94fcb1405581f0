// The new-table form's clock: none, seconds a move, minutes a game with an increment, or
// whole days a move (a slow table), and what happens to a seat whose time runs out. What
// the person typed is kept across the form's re-renders (a language switch); the server
// checks the clock again when the table is opened.
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/** A slow table's choices of days a move (the server takes any whole 1 to 14). */
const DAYS = [1, 2, 3, 5, 7, 14];

export class ClockFields {
  constructor() {
    this.kind = "none";
    this.values = { perMove: "30", total: "10", increment: "5", days: "3", whenOut: "computer" };
    this.parts = null;
  }

  /** The clock's fieldset. A game whose own option is its clock (`option`, its field `el`)
   * shows that option instead, and no second clock. */
  group(option, el) {
    const v = this.values;
    const radio = (kind, label) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "clock", value: kind, checked: this.kind === kind,
        onchange: () => { this.kind = kind; this.apply(); } }),
      h("span", { text: label }));
    const number = (name, key, label, min) => {
      const input = h("input", { type: "number", id: name, name, min, step: "any",
        inputmode: "decimal", value: v[key] });
      input.addEventListener("input", () => { v[key] = input.value; this.error(""); });
      return h("div", { class: "field" }, h("label", { for: name, text: label }), input);
    };
    const timeout = h("select", { id: "on-timeout", name: "on-timeout",
      onchange: (ev) => { v.whenOut = ev.target.value; } },
    h("option", { value: "computer", text: t("lobby.clock.computer") }),
    h("option", { value: "lose", text: t("lobby.clock.lose") }));
    timeout.value = v.whenOut;
    // a slow table: whole days a move, as correspondence play offers them; the seat whose
    // days run out loses (the server never hands it to the computer)
    const days = h("select", { id: "clock-days", name: "clock-days", "data-clock-days": "",
      onchange: (ev) => { v.days = ev.target.value; } },
    ...DAYS.map((n) => h("option", { value: String(n), text: t("lobby.clock.days", { n }) })));
    days.value = v.days;
    this.parts = {
      perMove: h("div", { class: "clock-fields" },
        number("clock-per-move", "perMove", t("lobby.clock.per-move-seconds"), "1")),
      total: h("div", { class: "clock-fields" },
        number("clock-total", "total", t("lobby.clock.total-minutes"), "0.5"),
        number("clock-increment", "increment", t("lobby.clock.increment"), "0")),
      days: h("div", { class: "clock-fields" },
        h("div", { class: "field" },
          h("label", { for: "clock-days", text: t("lobby.clock.days-per-move") }), days),
        h("p", { class: "hint", text: t("lobby.clock.days-note") })),
      timeout: h("div", { class: "field" },
        h("label", { for: "on-timeout", text: t("lobby.clock.on-timeout") }), timeout),
      error: h("p", { class: "field-error", id: "clock-error", "data-clock-error": "" }),
    };
    if (option) {
      this.kind = "none";
      return h("fieldset", { class: "group clock", "data-clock-option": option },
        h("legend", { text: t("lobby.clock") }), el);
    }
    const group = h("fieldset", { class: "group clock" },
      h("legend", { text: t("lobby.clock") }),
      h("div", { class: "choices" },
        radio("none", t("lobby.clock.none")),
        radio("per-move", t("lobby.clock.per-move")),
        radio("total", t("lobby.clock.total")),
        radio("days", t("lobby.clock.slow"))),
      this.parts.perMove, this.parts.total, this.parts.days, this.parts.timeout, this.parts.error);
    this.apply();
    return group;
  }

  /** Only the chosen kind's fields are shown. */
  apply() {
    const { kind, parts } = this;
    parts.perMove.hidden = kind !== "per-move";
    parts.total.hidden = kind !== "total";
    parts.days.hidden = kind !== "days";
    parts.timeout.hidden = kind === "none" || kind === "days";
    this.error("");
  }

  /** Say what is wrong with the numbers typed (`text`; empty: nothing), on their fields. */
  error(text) {
    this.parts.error.textContent = text;
    for (const input of [...this.parts.perMove.querySelectorAll("input"),
      ...this.parts.total.querySelectorAll("input")]) {
      if (text) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", "clock-error");
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  }

  /** Refuse the numbers typed: the message, and the first shown number field focused. */
  refuse(text) {
    this.error(text);
    for (const part of [this.parts.perMove, this.parts.total]) {
      if (!part.hidden) {
        part.querySelector("input")?.focus();
        return;
      }
    }
  }

  /** The request's clock: `{clock}` (undefined: none), or `{bad: true}` for numbers that
   * are not a positive time. */
  body() {
    const v = this.values;
    const positive = (raw) => {
      const n = Number(String(raw).trim());
      return String(raw).trim() !== "" && Number.isFinite(n) && n > 0 ? n : null;
    };
    if (this.kind === "per-move") {
      const perMove = positive(v.perMove);
      return perMove === null ? { bad: true } : { clock: { per_move: perMove } };
    }
    if (this.kind === "total") {
      const total = positive(v.total);
      const inc = String(v.increment).trim() === "" ? 0 : Number(v.increment);
      if (total === null || !Number.isFinite(inc) || inc < 0) return { bad: true };
      return { clock: { total: Math.round(total * 60), increment: inc } };
    }
    if (this.kind === "days") return { clock: { per_move_days: Number(v.days) } };
    return { clock: undefined };
  }

  /** What happens to a seat whose time runs out (a slow table's seat always loses). */
  onTimeout() {
    return this.kind === "days" ? "lose" : this.values.whenOut;
  }
}
