// The seats panel: who sits where (name, presence, symbol and colour, score, whose turn,
// clock, a computer's level), and the ways to a seat: "Take seat" for free seats, and
// "let the computer play" for a seat whose player has gone — once the server's grace for a
// player who may come back is over (a countdown everyone at the table sees); never on a slow
// table (days a move), where being away is the pace.
// Players (issue 34): a player sits under their name with their key (shared/api.js); a guest
// may tick "Keep this name" to claim it first; a rated table needs a name, so the tick is
// set there. A rated table shows each player's rating `[data-seat-rating="N"]`.
import { api } from "../shared/api.js";
import { announce, h } from "../shared/dom.js";
import { errorWords, loadErrors } from "../shared/errors.js";
import { keepKey, player, profileUrl } from "../shared/player.js";
import { ratingText } from "../shared/ratings.js";
import { num, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";
import { remembered } from "../shared/store.js";
import { amPlaying, handOverWait, isOver, turn } from "./model.js";
import { clockRule, seatName } from "./text.js";
import { leftText, secondsLeft } from "./clocks.js";

/**
 * deps: {takeSeat(n, name) -> Promise (rejects with an ApiError), handOver(n)}
 */
export function createSeats(host, deps) {
  const heading = h("h2", { id: "seats-heading" });
  const rule = h("p", { class: "hint clock-rule" });
  const nameLabel = h("label", { for: "display-name" });
  const nameInput = h("input", {
    id: "display-name", name: "display-name", autocomplete: "nickname", maxlength: 40 * 8, // 40 characters; UTF-16 units (lobby/form.js)
    value: remembered.name(), "aria-describedby": "display-name-error",
  });
  const nameError = h("p", { class: "field-error", id: "display-name-error", role: "alert" });
  const keep = h("input", { type: "checkbox", id: "keep-name", name: "keep-name",
    "aria-describedby": "keep-name-help" });
  const keepText = h("span");
  const keepHelp = h("p", { class: "hint", id: "keep-name-help" });
  const keepRow = h("div", { class: "keep-name" },
    h("label", { for: "keep-name", class: "check-row" }, keep, keepText), keepHelp);
  const sitAs = h("p", { class: "hint", "data-sit-as": "" });
  const nameField = h("div", { class: "field take-name" }, nameLabel, nameInput, keepRow, nameError, sitAs);
  const list = h("ol", { class: "seat-list" });
  host.replaceChildren(heading, rule, nameField, list);
  host.setAttribute("aria-labelledby", heading.id);
  let busy = false;
  const clocks = new Map(); // seat -> its clock element
  const waits = new Map(); // seat -> {seat, text, button}: an absent player's countdown
  const said = new Map(); // seat -> "wait" | "ready": what screen readers were told
  let ticking = null;

  async function take(n) {
    const me = player();
    let name = me ? me.name : nameInput.value.trim();
    nameError.textContent = "";
    if (!name) {
      nameError.textContent = t("table.seat.nameNeeded");
      nameInput.focus();
      return;
    }
    busy = true;
    for (const b of list.querySelectorAll("[data-take-seat]")) b.disabled = true;
    let claimed = null;
    try {
      if (!me && keep.checked) {
        // claim first: the seat request then goes with the key, under that name
        claimed = await api.claimName(name);
        keepKey(claimed.key, claimed.name);
        name = claimed.name;
      }
      await deps.takeSeat(n, name);
      if (claimed) {
        const { showKeyLink } = await import("../shared/claim.js");
        showKeyLink(claimed.key, claimed.name);
      }
    } catch (err) {
      await loadErrors();
      const words = errorWords(err);
      nameError.textContent = words ? t(words.key, words.vars)
        : t("table.seat.failed", { message: err.message });
      if (claimed) { // the name is ours, the seat was not: the key link all the same
        const { showKeyLink } = await import("../shared/claim.js");
        showKeyLink(claimed.key, claimed.name);
      }
    } finally {
      busy = false;
      for (const b of list.querySelectorAll("[data-take-seat]")) b.disabled = false;
    }
  }

  function seatRow(model, n, due) {
    const view = model.view;
    const seat = view.seats[n];
    const free = seat.kind === "human" && !seat.name && !seat.former; // a forgotten player's seat is not free
    const mine = model.mySeat === n;
    const over = isOver(model);
    const symbol = seatSymbol(n, view.state.board);
    const swatch = h("span", { class: "swatch", "aria-hidden": "true", text: symbol });
    swatch.style.background = seatColor(n);

    // a player's name leads to their profile
    const name = h("span", { class: "seat-name" },
      free ? t("table.seat.free")
        : seat.player && seat.name ? h("a", { href: profileUrl(seat.name), text: seatName(view, n) })
          : seatName(view, n),
      mine ? h("span", { class: "you" }, ` (${t("common.you")})`) : null);
    const rating = !free && seat.rating && typeof seat.rating.value === "number"
      ? h("span", { class: "seat-rating", "data-seat-rating": n, "data-value": seat.rating.value,
        "data-provisional": String(Boolean(seat.rating.provisional)),
        title: seat.rating.provisional ? t("ratings.provisionalHelp") : null },
      h("span", { class: "sr-only", text: `${t("table.seat.rating")} ` }),
      ratingText(seat.rating.value, seat.rating.provisional),
      seat.rating.provisional ? h("span", { class: "sr-only", text: ` (${t("ratings.provisional")})` }) : null)
      : null;
    const facts = [];
    if (seat.kind === "ai") facts.push(t("table.seat.computer", { level: seat.level ?? "?" }));
    else if (!free) facts.push(seat.connected ? t("table.seat.here") : t("table.seat.away"));
    const meta = h("span", { class: "seat-meta" },
      !free && seat.kind === "human"
        ? h("span", { class: seat.connected ? "presence on" : "presence off", "aria-hidden": "true" })
        : null,
      facts.join(" · "));

    const time = h("span", { class: "time" });
    const clock = h("span", { class: "seat-clock", "data-clock": n },
      h("span", { class: "sr-only", text: t("table.clock.left") }), time);
    clocks.set(n, { clock, time });
    const score = view.scored !== false && view.state.scores ? view.state.scores[n] : null;
    const right = h("span", { class: "seat-right" },
      due ? h("span", { class: "turn-mark", text: t("table.seat.toMove") }) : null,
      clock,
      score === null || score === undefined ? null : h("span", { class: "seat-score" },
        h("span", { class: "sr-only", text: t("table.seat.score") }),
        h("span", { "data-score": n, text: num(score) })));

    const away = !free && !over && seat.kind === "human" && !seat.connected;
    const wait = away && handOverWait(seat) !== null
      ? h("p", { class: "hint hand-over-wait", id: `hand-over-wait-${n}`, "data-hand-over-wait": n })
      : null;
    const buttons = [];
    if (free && !over && model.seatKnown && model.mySeat === null) {
      buttons.push(h("button", {
        type: "button", class: "primary", "data-take-seat": n, disabled: busy,
        onclick: () => take(n), text: t("table.seat.take", { n: n + 1 }),
      }));
    }
    let handOver = null;
    // (a slow table's player away is never handed over: days away is its pace)
    const handable = free || !view.slow;
    if (!mine && !over && amPlaying(model) && seat.kind === "human" && !seat.connected && handable) {
      handOver = h("button", {
        type: "button", "data-action": "hand-over", "data-seat": n,
        "aria-describedby": wait ? wait.id : null,
        onclick: () => deps.handOver(n),
        text: free ? t("table.seat.computerTakes") : t("table.seat.handOverOther", { name: seatName(view, n) }),
      });
      buttons.push(handOver);
    }
    if (wait) waits.set(n, { seat, name: seatName(view, n), text: wait, button: handOver });
    return h("li", {
      class: ["seat", due ? "is-turn" : "", mine ? "is-me" : ""].filter(Boolean).join(" "),
      "data-seat": n,
      "aria-current": due ? "true" : null,
    },
    h("span", { class: "seat-line" }, swatch, h("span", { class: "seat-who" }, name, rating, meta), right),
    wait,
    buttons.length ? h("span", { class: "seat-buttons" }, ...buttons) : null);
  }

  /** The absent players' countdowns: the words each second, the button once it is time;
   * screen readers hear when one starts and when it ends (not every second). */
  function countdown() {
    for (const [n, { seat, name, text, button }] of waits) {
      const left = handOverWait(seat);
      const words = left > 0 ? t("table.seat.handOverWait", { name, seconds: num(left) })
        : t("table.seat.handOverReady", { name });
      if (text.textContent !== words) text.textContent = words;
      if (button && !busy) button.disabled = left > 0;
      const phase = left > 0 ? "wait" : "ready";
      if (said.get(n) !== phase) {
        said.set(n, phase);
        announce(words);
      }
    }
  }

  return {
    render(model) {
      const view = model.view;
      heading.textContent = t("table.seats.heading");
      nameLabel.textContent = t("table.seat.name");
      rule.textContent = view.settings && view.settings.clock
        ? t("table.clock.rule", { rule: clockRule(view.settings.clock) }) : "";
      rule.hidden = !rule.textContent;
      const freeSeats = view.seats.some((s) => s.kind === "human" && !s.name && !s.former);
      nameField.hidden = !(freeSeats && !isOver(model) && model.seatKnown && model.mySeat === null);
      const me = player();
      nameLabel.hidden = nameInput.hidden = keepRow.hidden = Boolean(me);
      sitAs.hidden = !me;
      sitAs.textContent = me ? t("me.sitAs", { name: me.name }) : "";
      keepText.textContent = t("me.keep");
      // a rated table seats players only: a guest's name is claimed to sit there
      keep.disabled = Boolean(view.rated);
      if (view.rated) keep.checked = true;
      keepHelp.textContent = view.rated ? t("table.seat.ratedNeedsName") : t("me.keep.help");
      const due = turn(model);
      // Rebuilt on each change; focus goes back to the same control in the new rows.
      const active = document.activeElement;
      const key = active && list.contains(active)
        ? (active.dataset.takeSeat !== undefined ? `[data-take-seat="${active.dataset.takeSeat}"]`
          : active.dataset.seat !== undefined ? `[data-action][data-seat="${active.dataset.seat}"]` : null)
        : null;
      clocks.clear();
      waits.clear();
      list.replaceChildren(...view.seats.map((_, n) => seatRow(model, n, due.includes(n))));
      if (key) {
        const again = list.querySelector(key);
        if (again) again.focus();
      }
      this.tick(model);
      for (const n of said.keys()) if (!waits.has(n)) said.delete(n);
      countdown();
      if (waits.size && ticking === null) ticking = setInterval(countdown, 250);
      if (!waits.size && ticking !== null) {
        clearInterval(ticking);
        ticking = null;
      }
    },
    /** Refresh the clocks only (called several times a second while one runs). */
    tick(model) {
      const due = turn(model);
      for (const [n, { clock, time }] of clocks) {
        const left = secondsLeft(model, n, due.includes(n));
        const text = left === null ? "" : leftText(model, left);
        if (time.textContent !== text) time.textContent = text;
        clock.hidden = left === null;
        clock.classList.toggle("low", left !== null && left < 10 && due.includes(n));
      }
    },
  };
}
