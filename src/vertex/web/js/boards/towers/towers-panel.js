// The info panel beside the 3-D view (HTML, so screen readers and translations reach all
// of it): the die, the level and step, who has placed and who is still aiming, the step
// clock, the tremor, natural forces, the winner, a text description of every tower, what
// just happened, personal bests, the Stop button and the help for aiming.
import { h } from "../../shared/dom.js";
import { num, t } from "../../shared/i18n.js";
import { STEPS_PER_LEVEL } from "./towers-geom.js";

function mm(v) {
  return num(v, { maximumFractionDigits: 1 });
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The step's piece in words: "pyramid 2 of 3 (large)" or "the card". */
export function stepWords(board) {
  if (board.step === STEPS_PER_LEVEL - 1) return t("towers.step.card");
  return t("towers.step.pyramid", { k: board.step + 1, size: t(`towers.size.${board.die.size}`) });
}

/** A piece's aim in words, for the move list: "pyramid at (12.5, −3) mm, turned 30°". */
export function moveWords(aim) {
  if (!aim) return t("towers.move.sealed");
  if (aim.piece === "stop") return t("towers.move.stop");
  const where = t(aim.piece === "card" ? "towers.moveWords.card" : "towers.moveWords.pyramid",
    { x: mm(aim.x), y: mm(aim.y), rot: mm(aim.rot) });
  return aim.haste > 0 ? t("towers.moveWords.hasty", { where, haste: num(Math.round(aim.haste * 100)) }) : where;
}

/** The die's face in words: "small + medium" (a two-size face means the third size). */
export function faceWords(face) {
  return face.split("+").map((s) => t(`towers.size.${s}`)).join(" + ");
}

export function createPanel({ onStop, onSuggested, onPlace }) {
  const turn = h("p", { class: "towers-turn", "data-towers-turn": true });
  const feedback = h("p", { class: "towers-feedback", "data-aim-feedback": true, hidden: true });
  const suggest = h("button", { type: "button", class: "towers-suggest", "data-aim-suggest": true, hidden: true,
    onclick: () => onSuggested() });
  const placeHere = h("button", { type: "button", class: "primary towers-place", "data-aim-place": true, hidden: true,
    onclick: () => onPlace() });
  const aimButtons = h("div", { class: "towers-aim-buttons" }, placeHere, suggest);
  const facts = h("dl", { class: "towers-facts" });
  const stop = h("button", { type: "button", class: "towers-stop", "data-towers-stop": true, hidden: true,
    onclick: () => onStop() });
  const towersHeading = h("h3", { id: "towers-desc-heading" });
  const towersList = h("ul", { class: "towers-list", "data-towers-description": true,
    "aria-labelledby": "towers-desc-heading" });
  const eventsHeading = h("h3", { id: "towers-events-heading" });
  const eventsList = h("ul", { class: "towers-events", "data-towers-events": true,
    "aria-labelledby": "towers-events-heading" });
  const eventsBox = h("section", { class: "towers-events-box", hidden: true }, eventsHeading, eventsList);
  const bests = h("section", { class: "towers-bests", "data-towers-bests": true, hidden: true });
  const el = h("div", { class: "towers-info", "data-towers-info": true },
    turn, feedback, aimButtons, stop, facts,
    h("section", { class: "towers-desc" }, towersHeading, towersList),
    eventsBox, bests);
  let recent = [];
  let clockLine = null;

  function fact(key, value, hook) {
    const dd = h("dd", { [`data-towers-${hook}`]: true }, value);
    return [h("dt", { text: t(key) }), dd];
  }

  /**
   * info: {board, state, mySeat, name(seat), symbol(seat), due, placed, canAim, pending,
   * placedMine, secondsLeft() -> number|null}
   */
  function render(info) {
    const { board, state, mySeat, name } = info;
    turn.textContent = turnText(info);
    turn.classList.toggle("mine", info.canAim);

    // The step stays in the facts, the die with what was rolled.
    const die = board.die;
    const rolls = die.rolls.length > 1 ? t("towers.die.rerolled", { rolls: die.rolls.map(faceWords).join(", ") }) : "";
    const face = die.face && die.face.includes("+")
      ? t("towers.die.pair", { face: faceWords(die.face), size: t(`towers.sizes.${die.size}`) })
      : t("towers.die.single", { size: t(`towers.sizes.${die.size}`) });
    const supply = ["S", "M", "L"]
      .map((s) => t("towers.supply.item", { size: t(`towers.size.${s}`), n: board.supply[s] })).join(", ");
    const over = state.is_over;
    const rows = [
      ...(over ? [] : fact("towers.fact.level",
        t("towers.levelStep", { level: board.level, step: stepWords(board) }), "level")),
      ...fact("towers.fact.die", `${face}${rolls ? ` — ${rolls}` : ""}`, "die"),
      ...fact("towers.fact.supply", supply, "supply"),
    ];
    if (board.step_seconds > 0 && !state.is_over) {
      const [dt, dd] = fact("towers.fact.clock", "", "clock");
      clockLine = { dd, secondsLeft: info.secondsLeft };
      rows.push(dt, dd);
    } else {
      clockLine = null;
    }
    rows.push(...fact("towers.fact.tremor", board.tremor_mm > 0
      ? t("towers.tremor.value", { sigma: num(board.tremor_mm) }) : t("towers.tremor.none"), "tremor"));
    if (board.skyscraper) rows.push(...fact("towers.fact.style", t("towers.style.skyscraper"), "style"));
    const forces = board.natural_forces || {};
    if (forces.shakes > 0) {
      rows.push(...fact("towers.fact.forces",
        t("towers.forces.value", { n: forces.shakes, strength: num(forces.strength) }), "forces"));
    }
    if (mySeat !== null && board.towers[mySeat] && board.towers[mySeat].standing && !over) {
      const used = board.towers[mySeat].mulligan_used;
      rows.push(...fact("towers.fact.mulligan", t(used ? "towers.mulligan.used" : "towers.mulligan.left"), "mulligan"));
    }
    if (board.building_on || state.is_over) {
      rows.push(...fact("towers.fact.winner", winnerText(info), "winner"));
    }
    facts.replaceChildren(...rows);
    tick();

    stop.textContent = t("towers.stop");
    stop.hidden = !(board.building_on && mySeat !== null && board.winner === mySeat && info.due.includes(mySeat)
      && !state.is_over);
    stop.disabled = Boolean(info.pending);

    towersHeading.textContent = t("towers.desc.heading");
    towersList.replaceChildren(...board.towers.map((tower, seat) => {
      const li = h("li", {
        "data-tower": seat, "data-standing": String(tower.standing), "data-levels": tower.levels,
        "data-pieces": tower.pieces.length,
      }, h("span", { class: "swatch small", "aria-hidden": "true", "data-seat-swatch": seat,
        text: info.symbol(seat) }), " ", describeTower(tower, seat, info));
      li.querySelector(".swatch").style.background = info.colour(seat);
      return li;
    }));
  }

  function turnText(info) {
    const { board, state, mySeat, name } = info;
    if (state.is_over) return winnerText(info);
    const waiting = info.due.filter((s) => !info.placed.includes(s));
    const others = waiting.filter((s) => s !== mySeat).map(name).join(", ");
    if (info.pending) return t("towers.turn.placing");
    if (info.canAim) return t("towers.turn.yours", { step: stepWords(board), level: board.level });
    if (mySeat !== null && info.placed.includes(mySeat)) {
      return others ? t("towers.turn.placedWaiting", { names: others }) : t("towers.turn.placed");
    }
    if (mySeat !== null && board.towers[mySeat] && !board.towers[mySeat].standing) {
      return others ? t("towers.turn.outWaiting", { names: others }) : t("towers.turn.out");
    }
    return others ? t("towers.turn.waiting", { names: others }) : "";
  }

  function winnerText(info) {
    const { board, state, mySeat, name } = info;
    const levels = board.result.levels;
    const heights = board.result.height_mm;
    if (state.seats === 1 || (board.building_on && state.is_over)) {
      const seat = state.seats === 1 ? 0 : board.winner;
      return t(seat === mySeat ? "towers.result.soloMine" : "towers.result.solo",
        { name: name(seat), n: levels[seat], height: mm(heights[seat]) });
    }
    if (board.building_on) return t("towers.event.buildOn", { name: name(board.winner) });
    const winners = state.winners || [];
    if (!winners.length) return t("towers.result.none");
    return t("towers.result.won", { names: winners.map(name).join(", ") });
  }

  function describeTower(tower, seat, info) {
    const who = seat === info.mySeat ? t("towers.desc.you", { name: info.name(seat) }) : info.name(seat);
    const parts = [
      t("towers.desc.levels", { n: tower.levels }),
      t("towers.desc.height", { height: mm(tower.height_mm) }),
      t("towers.desc.pieces", { n: tower.pieces.length }),
    ];
    parts.push(tower.standing ? t("towers.desc.standing") : t("towers.desc.fallen"));
    if (tower.mulligan_used) parts.push(t("towers.desc.mulligan"));
    if (info.due.includes(seat) && !info.state.is_over) {
      parts.push(info.placed.includes(seat) ? t("towers.desc.hasPlaced") : t("towers.desc.aiming"));
    }
    return `${who}: ${parts.join(", ")}`;
  }

  /** The step clock, a few times a second. */
  function tick() {
    if (!clockLine) return;
    const left = clockLine.secondsLeft();
    clockLine.dd.textContent = left === null ? "—" : clockText(left);
    clockLine.dd.classList.toggle("low", left !== null && left <= 10);
  }

  /** What just happened (newest first), kept short. */
  function addHappenings(list) {
    if (!list.length) return;
    recent = [...list.slice().reverse(), ...recent].slice(0, 6);
    eventsHeading.textContent = t("towers.events.heading");
    eventsList.replaceChildren(...recent.map((e) => h("li", { "data-event": e.kind }, e.text,
      e.detail ? h("span", { class: "detail", lang: "en", text: ` (${e.detail})` }) : null)));
    eventsBox.hidden = false;
  }

  /** The aim's state in words: where it is, and the server's reason when it refused. */
  function setFeedback(aimer, visible, sizeWord, suggestion) {
    feedback.hidden = !visible;
    const there = suggestion && suggestion.x === aimer.x && suggestion.y === aimer.y && suggestion.rot === aimer.rot;
    suggest.hidden = !visible || !suggestion || there;
    suggest.textContent = t("towers.aim.toSuggested");
    placeHere.textContent = t("towers.aim.placeHere");
    placeHere.hidden = !visible || !["aiming", "ok", "refused"].includes(aimer.status);
    aimButtons.hidden = placeHere.hidden && suggest.hidden;
    if (!visible) return;
    const where = t("towers.aim.where", { x: mm(aimer.x), y: mm(aimer.y), rot: mm(aimer.rot) });
    feedback.dataset.state = aimer.status;
    feedback.replaceChildren();
    if (aimer.status === "refused") {
      feedback.append(h("strong", { text: t("towers.aim.refused") }), " ",
        h("span", { "data-aim-reason": true, text: aimer.reason }), h("br"), where);
      if (suggestion) feedback.append(h("br"), t("towers.aim.orSuggested"));
    } else if (aimer.status === "pending") {
      feedback.append(h("strong", { text: t("towers.aim.placing") }), " ", where);
    } else if (aimer.status === "placed") {
      feedback.append(h("strong", { text: t("towers.aim.placed") }), " ", where);
    } else {
      feedback.append(t("towers.aim.now", { piece: sizeWord }), " ", where,
        there ? h("span", { "data-aim-suggested": "", text: ` (${t("towers.aim.suggested")})` }) : "",
        aimer.status === "ok" ? h("span", { class: "ok", text: ` — ${t("towers.aim.ok")}` }) : "",
        aimer.status === "ok" && aimer.snap ? h("span", { class: "ok", "data-aim-snap": "",
          text: ` (${t("towers.aim.snapped")}: ${t("towers.aim.where",
            { x: mm(aimer.snap.x), y: mm(aimer.snap.y), rot: mm(aimer.snap.rot) })})` }) : "");
    }
  }

  function setBests(data, mine) {
    bests.hidden = !data;
    if (!data) return;
    const row = (b) => t("towers.bests.row", { name: b.name, n: b.levels, height: mm(b.height_mm) });
    const personal = mine && mine.length ? row(mine[0]) : t("towers.bests.noneYet");
    bests.replaceChildren(
      h("h3", { text: t("towers.bests.heading") }),
      h("p", { "data-towers-best": true }, h("strong", { text: t("towers.bests.yours") }), " ", personal),
      h("h4", { text: t("towers.bests.top") }),
      data.length
        ? h("ol", { class: "towers-top" }, ...data.slice(0, 10).map((b) => h("li", { text: row(b) })))
        : h("p", { class: "hint", text: t("towers.bests.empty") }),
      h("p", {}, h("a", { href: "/rules/verticality#bests", "data-bests-link": true,
        text: t("towers.bests.link") })),
    );
  }

  return { el, render, tick, addHappenings, setFeedback, setBests };
}
