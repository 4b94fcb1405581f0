// Pointer input on a Dots-family board (dots.js): a mouse or a finger draws the nearest legal
// line (on a touch screen a second tap confirms it when the player asks for that); near a line
// that cannot be drawn, the server's reason shows beside it or is said; a long press or a
// right click opens a cell's side menu; a click away from the lines moves the keyboard's cell.
import { coarsePointer, h } from "../../shared/dom.js";
import { t } from "../../shared/i18n.js";
import { cellAt, nearestLine } from "./dots-geometry.js";

const LONG_PRESS_MS = 500;

/**
 * Listen to the pointer on `board.svg`. Returns {cancelPress()}: the board's destroy() stops a
 * long press that is under way.
 */
export function attachPointer(board) {
  let press = null; // a touch that may become a long press

  /** Board coordinates of a pointer event, and board units per screen pixel. */
  function toBoard(e) {
    const ctm = board.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y, upp: 1 / (Math.hypot(ctm.a, ctm.b) || 1) };
  }

  /** The hit radius in board units: 24 px, 44 on touch, never less than the lines' reach. */
  function radius(p, touch) {
    const px = touch || coarsePointer() ? 44 : 24;
    return Math.max((px / 2) * p.upp, board.model.reach);
  }

  /** The legal line a pointer means: the nearest within the hit radius. */
  function lineAt(p, touch) {
    return nearestLine(board.model, p, board.sent ? [] : board.legal, radius(p, touch));
  }

  /** The undrawable line a pointer means (the nearest within the hit radius), or null. */
  function closedLineAt(p, touch) {
    const names = board.model.lines.map((ln) => ln.name).filter((n) => !board.canDraw(n));
    return nearestLine(board.model, p, names, radius(p, touch));
  }

  function cellNear(p) {
    const inCell = cellAt(board.model, p);
    if (inCell) return inCell;
    let best = null;
    let bestD = 1;
    for (const c of board.model.cells) {
      const d = Math.hypot(c.cx - p.x, c.cy - p.y);
      if (d < bestD) { best = c; bestD = d; }
    }
    return best;
  }

  /** Why `ln` cannot be drawn, beside it (null: hide the tip). */
  function showTip(ln, why) {
    const tip = board.tip;
    if (!ln) {
      if (!tip.hidden) { tip.hidden = true; delete tip.dataset.tipLine; }
      return;
    }
    if (tip.dataset.tipLine === ln.name && !tip.hidden) return;
    tip.replaceChildren(h("strong", { text: ln.name }), h("span", { text: why.text }));
    tip.dataset.tipLine = ln.name;
    tip.dataset.code = why.code;
    tip.hidden = false;
    const m = board.svg.getScreenCTM();
    if (!m) return;
    const box = board.root.getBoundingClientRect();
    const [a, b] = [ln.a, ln.b].map((q) => new DOMPoint(q.x, q.y).matrixTransform(m));
    const w = tip.offsetWidth;
    const left = Math.max(0, Math.min((a.x + b.x) / 2 - box.left - w / 2, box.width - w));
    let top = Math.min(a.y, b.y) - box.top - tip.offsetHeight - 12;
    if (top < 0) top = Math.max(a.y, b.y) - box.top + 12;
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(top)}px`;
  }

  function cancelPress() {
    if (press && !press.fired) {
      clearTimeout(press.timer);
      press = null;
    }
  }

  function onPointerMove(e) {
    if (!board.model) return;
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) cancelPress();
    if (e.pointerType !== "mouse" && e.pointerType !== "pen") return;
    const p = toBoard(e);
    const ln = p && lineAt(p, false);
    const name = ln ? ln.name : null;
    if (name !== board.hover) {
      board.hover = name;
      board.syncOverlay();
    }
    board.svg.classList.toggle("over-line", Boolean(name));
    // Over a line that cannot be drawn (while it is this player's turn): say why beside it.
    const closed = !ln && p && board.ctx.canMove ? closedLineAt(p, false) : null;
    showTip(closed, closed && board.why(closed.name));
  }

  function onPointerLeave() {
    showTip(null);
    if (board.hover) {
      board.hover = null;
      board.syncOverlay();
    }
    board.svg.classList.remove("over-line");
  }

  function onPointerDown(e) {
    if (!board.model) return;
    // A mouse press would focus the <svg> itself (not a cell): the click decides instead.
    if (e.pointerType === "mouse") e.preventDefault();
    if (e.button !== 0) return;
    cancelPress();
    if (e.pointerType === "touch") {
      board.preloadMenu(); // for a long press
      const p = toBoard(e);
      const started = {
        x: e.clientX, y: e.clientY, fired: false,
        timer: setTimeout(() => {
          started.fired = true;
          const c = p && cellNear(p);
          if (c) board.openMenuFor(c.index);
        }, LONG_PRESS_MS),
      };
      press = started;
    }
  }

  function onPointerUp(e) {
    if (!board.model || e.button !== 0) return;
    const was = press;
    if (was) {
      clearTimeout(was.timer);
      press = null;
      if (was.fired) return;       // a long press opened the menu
    }
    if (board.menu) return;
    const p = toBoard(e);
    if (!p) return;
    const touch = e.pointerType === "touch";
    const ln = lineAt(p, touch);
    if (touch && board.ctx.confirmTouch) {
      if (ln && ln.name === board.preview) {
        board.draw(ln.name);
      } else if (ln) {
        board.preview = ln.name;
        board.syncOverlay();
        board.say(t("dots.say.confirm", { line: board.lineLabel(ln) }));
      } else if (board.preview) {
        board.preview = null;
        board.syncOverlay();
        board.say(t("dots.say.cancel"));
      }
      return;
    }
    if (ln) {
      board.draw(ln.name);
      return;
    }
    // Near a line that cannot be drawn, at this player's turn: say why.
    const closed = board.ctx.canMove ? closedLineAt(p, touch) : null;
    if (closed) {
      const why = board.why(closed.name);
      if (why) board.refuse(why, t("dots.say.why", { line: closed.name, why: why.text }));
    }
    // Not near a line: the click puts the keyboard's cursor on that cell.
    const c = cellAt(board.model, p);
    if (c) board.moveCursor(c.index, e.pointerType === "mouse");
  }

  function onContextMenu(e) {
    e.preventDefault();
    if (!board.model || board.menu) return;
    if (press) {
      // The browser's own long press: ours opens the menu.
      clearTimeout(press.timer);
      press.fired = true;
    }
    const own = e.target.closest && e.target.closest("[data-cell]");
    let c = own ? board.model.cells[Number(own.dataset.cell)] : null;
    if (!c) {
      const p = toBoard(e);
      c = p && cellNear(p);
    }
    if (c) board.openMenuFor(c.index);
  }

  const on = (ev, fn) => board.svg.addEventListener(ev, fn);
  on("pointerdown", onPointerDown);
  on("pointermove", onPointerMove);
  on("pointerup", onPointerUp);
  on("pointercancel", cancelPress);
  on("pointerleave", onPointerLeave);
  on("contextmenu", onContextMenu);
  return { cancelPress };
}
