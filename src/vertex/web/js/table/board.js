// The board on the table page: the game's board module (js/boards/), or the plain move form
// when the game's board is not drawn yet; and the "confirm moves" touch setting.
import { announce, coarsePointer, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { loadBoard } from "../boards/index.js";
import { remembered } from "../shared/store.js";

/**
 * Fill `host` with the board for `state`. opts: {onMove(move), names(seat), sendAim(move),
 * suggestAim() -> {aim}: the game's suggested aim for my piece now, refuse(code, text): a
 * refusal the board explains}.
 * Returns {board, text: bool, confirms: bool (the board offers "confirm moves" on touch)}.
 */
export async function mountBoard(host, state, opts) {
  let mod = null;
  try {
    mod = await loadBoard(state);
  } catch (err) {
    // A board that fails to load must not leave the table unplayable.
    console.error("the board could not be loaded", err);
  }
  const text = !(mod && typeof mod.createBoard === "function");
  // The move form is loaded only for the games that need it.
  const make = text ? await import("./textboard.js") : mod;
  const board = make.createBoard(host, {
    onMove: opts.onMove, announce, names: opts.names, sendAim: opts.sendAim, refuse: opts.refuse,
    suggestAim: opts.suggestAim,
  });
  return { board, text, confirms: Boolean(!text && mod.CONFIRMS_TOUCH) };
}

/** The touch setting: first tap previews a line, second tap draws it. Remembered; shown only
 * on a touch screen, for a board that draws lines (`show(confirms)`). */
export function createTouchSetting(host, changed) {
  const box = h("input", { type: "checkbox", id: "confirm-touch", name: "confirm-touch",
    checked: Boolean(remembered.setting("confirmTouch", false)) });
  const label = h("label", { for: box.id });
  host.replaceChildren(h("div", { class: "check" }, box, label));
  box.addEventListener("change", () => {
    remembered.setSetting("confirmTouch", box.checked);
    changed();
  });
  host.hidden = true;
  return {
    show(confirms) { host.hidden = !(confirms && coarsePointer()); },
    /** Whether moves wait for a second tap (never where the setting is not offered). */
    get value() { return !host.hidden && box.checked; },
    render() { label.textContent = t("table.setting.confirmTouch"); },
  };
}
