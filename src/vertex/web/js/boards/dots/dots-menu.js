// The side menu of a cell (right click, long press, Enter / the menu key): a small ARIA menu
// listing the cell's undrawn sides. Arrow keys move, Enter or Space picks, Escape or Tab
// closes; focus goes back to where it came from.
import { addSheet, h } from "../../shared/dom.js";

// Its sheet comes with it; placing a menu measures it, so the module is ready once the sheet
// applies.
await addSheet(new URL("../../../css/dots-menu.css", import.meta.url).href);

/**
 * Open a menu inside `root` (a positioned element) next to `anchor` (a DOMRect).
 * items: [{label, line, disabled}]. onPick(line) runs after the menu closed.
 * Returns {close(), refresh(isDisabled), cell}.
 */
export function openMenu({ root, anchor, label, items, onPick, onClose, returnFocus }) {
  const buttons = items.map((item) =>
    h("div", {
      role: "menuitem",
      tabindex: "-1",
      class: "dots-menuitem",
      "data-line": item.line,
      "aria-disabled": item.disabled ? "true" : null,
      "data-code": item.code || null,
      text: item.label,
    }),
  );
  const menu = h("div", { role: "menu", class: "dots-menu", "aria-label": label }, ...buttons);
  root.append(menu);
  place(menu, root, anchor);

  let closed = false;
  const close = (restore = true) => {
    if (closed) return;
    closed = true;
    document.removeEventListener("pointerdown", outside, true);
    menu.remove();
    if (restore && returnFocus) returnFocus.focus({ preventScroll: true });
    if (onClose) onClose();
  };
  const pick = (el) => {
    if (!el || el.getAttribute("aria-disabled") === "true") return;
    close();
    onPick(el.dataset.line);
  };
  const move = (step) => {
    const i = buttons.indexOf(document.activeElement);
    const next = buttons[(i + step + buttons.length) % buttons.length];
    if (next) next.focus();
  };
  const outside = (e) => {
    if (!menu.contains(e.target)) close(false);
  };

  menu.addEventListener("keydown", (e) => {
    const keys = {
      ArrowDown: () => move(1), ArrowUp: () => move(-1),
      Home: () => buttons[0] && buttons[0].focus(),
      End: () => buttons.length && buttons[buttons.length - 1].focus(),
      Enter: () => pick(document.activeElement), " ": () => pick(document.activeElement),
      Escape: () => close(), Tab: () => close(),
    };
    const fn = keys[e.key];
    if (!fn) return;
    e.preventDefault();
    e.stopPropagation();
    fn();
  });
  menu.addEventListener("click", (e) => pick(e.target.closest("[role=menuitem]")));
  // Not the board's: a right click inside the menu must not open another.
  menu.addEventListener("contextmenu", (e) => { e.preventDefault(); e.stopPropagation(); });
  document.addEventListener("pointerdown", outside, true);

  const first = buttons.find((b) => b.getAttribute("aria-disabled") !== "true") || buttons[0];
  if (first) first.focus({ preventScroll: true });

  return {
    menu,
    close,
    /** Re-mark the entries after a new state: isDisabled(line) -> boolean. */
    refresh(isDisabled) {
      for (const b of buttons) {
        const off = isDisabled(b.dataset.line);
        if (off) b.setAttribute("aria-disabled", "true");
        else b.removeAttribute("aria-disabled");
      }
    },
  };
}

/** Below the cell when there is room in the board, else above; never past its sides. */
function place(menu, root, anchor) {
  const box = root.getBoundingClientRect();
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  let left = anchor.left + anchor.width / 2 - width / 2 - box.left;
  left = Math.max(0, Math.min(left, box.width - width));
  // Clear of the cell, so its focus ring stays in sight.
  let top = anchor.bottom - box.top + 4;
  if (top + height > box.height && anchor.top - box.top - height - 4 > 0) {
    top = anchor.top - box.top - height - 4;
  }
  menu.style.left = `${Math.round(left)}px`;
  menu.style.top = `${Math.round(Math.max(0, top))}px`;
}
