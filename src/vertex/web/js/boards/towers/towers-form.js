// Aiming by numbers: piece, x, y (mm from your base's centre) and rotation, with "Aim"
// (ask the server whether it would be accepted) and "Place". It is the whole game where the
// browser cannot draw 3-D, and a keyboard- and screen-reader-friendly way everywhere else.
import { h } from "../../shared/dom.js";
import { t } from "../../shared/i18n.js";
import { BASE_HALF } from "./towers-geom.js";

let forms = 0;

/** hooks: {aim(piece, x, y, rot), check(), place()} */
export function createForm(hooks, { open }) {
  const n = ++forms;
  const id = (name) => `towers-${name}-${n}`;
  const piece = h("select", { name: "piece", id: id("piece") },
    h("option", { value: "pyramid" }), h("option", { value: "card" }));
  const number = (name, min, max, step) => h("input", {
    type: "number", name, id: id(name), min, max, step, inputmode: "decimal", required: true,
  });
  const x = number("x", -BASE_HALF, BASE_HALF, "0.1");
  const y = number("y", -BASE_HALF, BASE_HALF, "0.1");
  const rot = number("rot", 0, 359.99, "1");
  const labels = {};
  const field = (name, input) => {
    labels[name] = h("label", { for: input.id });
    return h("div", { class: "towers-field" }, labels[name], input);
  };
  const aimButton = h("button", { type: "button", "data-aim-action": "aim" });
  const placeButton = h("button", { type: "submit", class: "primary", "data-aim-action": "place" });
  const hint = h("p", { class: "hint", id: id("hint") });
  const status = h("p", { class: "towers-form-status", "data-aim-form-status": true, role: "status" });
  const summary = h("summary");
  const form = h("form", { class: "towers-form", "data-aim-form": true, "aria-describedby": hint.id, novalidate: true },
    hint,
    h("div", { class: "towers-fields" }, field("piece", piece), field("x", x), field("y", y), field("rot", rot)),
    h("div", { class: "towers-form-buttons" }, aimButton, placeButton),
    status);
  const box = h("details", { class: "towers-form-box", open }, summary, form);

  const values = () => ({
    piece: piece.value,
    x: Number(x.value || 0),
    y: Number(y.value || 0),
    rot: Number(rot.value || 0),
  });
  const send = () => { const v = values(); hooks.aim(v.piece, v.x, v.y, v.rot); };
  for (const input of [piece, x, y, rot]) input.addEventListener("change", send);
  aimButton.addEventListener("click", () => { send(); hooks.check(); });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send();
    hooks.place();
  });

  return {
    el: box,
    label() {
      summary.textContent = t("towers.form.summary");
      hint.textContent = t("towers.form.hint", { max: BASE_HALF });
      labels.piece.textContent = t("towers.form.piece");
      labels.x.textContent = t("towers.form.x");
      labels.y.textContent = t("towers.form.y");
      labels.rot.textContent = t("towers.form.rot");
      piece.options[0].textContent = t("towers.piece.pyramid");
      piece.options[1].textContent = t("towers.piece.card");
      aimButton.textContent = t("towers.form.aim");
      placeButton.textContent = t("towers.form.place");
    },
    /** Show the aim (unless the player is typing in the form). */
    show(aimer, enabled) {
      if (!form.contains(document.activeElement)) {
        piece.value = aimer.piece;
        x.value = String(aimer.x);
        y.value = String(aimer.y);
        rot.value = String(aimer.rot);
      }
      for (const el of [piece, x, y, rot, aimButton, placeButton]) el.disabled = !enabled;
      form.toggleAttribute("data-pending", aimer.status === "pending");
    },
    say(text) { status.textContent = text; },
    focus() { (piece.disabled ? summary : x).focus(); },
  };
}
