// One form field for one game option: its label, control, help and error, tied together for
// screen readers (label `for`, aria-describedby → help and error, aria-invalid).
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { splitList } from "./schema.js";

/**
 * field(desc, words, onInput) -> widget
 *   desc: a field from schema.js fieldsOf; words: {label, help, value(v)} in players' words.
 *   widget: {el, control, read(), show(value), setRange(min, max), setPlaceholder(text),
 *            setError(text|null), setVisible(bool)}
 *   read() -> {empty, value, bad}: the typed value as JSON (a number, a boolean, a list…).
 */
export function field(desc, words, onInput) {
  const id = `opt-${desc.name}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const help = words.help ? h("p", { class: "hint", id: helpId, text: words.help }) : null;
  const error = h("p", { class: "field-error", id: errorId });
  const described = () => [help && helpId, error.textContent && errorId].filter(Boolean).join(" ");
  const range = h("span", { class: "range" });
  let control;
  let el;

  if (desc.kind === "boolean") {
    control = h("input", { type: "checkbox", role: "switch", id, name: desc.name, class: "switch" });
    el = h("div", { class: "field field-switch" },
      h("label", { for: id, class: "switch-row" }, h("span", { text: words.label }), control),
      help, error);
  } else {
    if (desc.kind === "enum") {
      control = h("select", { id, name: desc.name },
        desc.values.map((v) => h("option", { value: String(v), text: words.value(v) })));
    } else if (desc.kind === "number") {
      control = h("input", {
        type: "number", id, name: desc.name, inputmode: desc.integer ? "numeric" : "decimal",
        step: desc.integer ? "1" : "any", min: desc.min, max: desc.max,
      });
    } else {
      control = h("input", {
        type: "text", id, name: desc.name, autocomplete: "off", autocapitalize: "none",
        spellcheck: "false",
      });
    }
    el = h("div", { class: `field field-${desc.kind}` },
      h("label", { for: id }, h("span", { text: words.label }), " ", range),
      control, help, error);
  }
  control.setAttribute("aria-describedby", described());
  control.addEventListener(desc.kind === "boolean" || desc.kind === "enum" ? "change" : "input",
    () => onInput(desc.name));

  const widget = {
    el,
    control,
    read() {
      if (desc.kind === "boolean") return { empty: false, value: control.checked, bad: null };
      if (desc.kind === "enum") {
        const value = desc.values.find((v) => String(v) === control.value);
        return { empty: value === undefined, value: value ?? null, bad: null };
      }
      if (desc.kind === "number") {
        if (control.validity.badInput) {
          return { empty: false, value: null, bad: t(desc.integer ? "lobby.whole" : "lobby.number") };
        }
        const raw = control.value.trim();
        if (raw === "") return { empty: true, value: null, bad: null };
        const value = Number(raw);
        if (!Number.isFinite(value)) return { empty: false, value: null, bad: t("lobby.number") };
        return { empty: false, value, bad: null };
      }
      const raw = control.value.trim();
      if (desc.kind === "list") {
        const names = splitList(raw);
        return { empty: names.length === 0, value: names, bad: null };
      }
      return { empty: raw === "", value: raw, bad: null };
    },
    /** Show `value` (what the table would have) in a field the person has not set. */
    show(value) {
      if (document.activeElement === control) return; // never under someone's fingers
      if (desc.kind === "boolean") control.checked = Boolean(value);
      else if (desc.kind === "enum") { if (value !== null && value !== undefined) control.value = String(value); }
      else if (desc.kind === "number" && !desc.nullable) control.value = value === null || value === undefined ? "" : String(value);
      else control.value = "";
    },
    setRange(min, max) {
      if (desc.kind !== "number") return;
      for (const [attr, v] of [["min", min], ["max", max]]) {
        if (v === null || v === undefined) control.removeAttribute(attr);
        else control.setAttribute(attr, String(v));
      }
      range.textContent = min !== null && max !== null && min !== undefined && max !== undefined
        ? `(${t("lobby.range", { min, max })})` : "";
    },
    setPlaceholder(text) {
      if (control.tagName === "INPUT" && control.type !== "checkbox") control.placeholder = text ?? "";
    },
    setError(text) {
      error.textContent = text || "";
      if (text) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
      control.setAttribute("aria-describedby", described());
    },
    setVisible(on) {
      el.hidden = !on;
    },
  };
  return widget;
}

/** A switch (checkbox role="switch") for the table's own settings, with help. */
export function switchField(name, label, helpText, checked, onChange) {
  const id = `set-${name}`;
  const control = h("input", {
    type: "checkbox", role: "switch", id, name, class: "switch", checked,
    "aria-describedby": helpText ? `${id}-help` : null,
  });
  control.addEventListener("change", () => onChange(control.checked));
  return h("div", { class: "field field-switch" },
    h("label", { for: id, class: "switch-row" }, h("span", { text: label }), control),
    helpText ? h("p", { class: "hint", id: `${id}-help`, text: helpText }) : null);
}
