// Play now and Sit: one click to a seat. Play now seats you at the oldest listed table of
// that game waiting for one more player, or opens one and waits here ("waiting for an
// opponent", cancellable) until someone sits, then takes you to the table.
import { api } from "../shared/api.js";
import { announce, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { tell } from "../shared/alerts.js";
import { askName } from "./name.js";
import { gameName } from "./words.js";
import { remembered } from "../shared/store.js";

async function errorText(err) {
  const known = { "too-many-listed": "place.error.too-many-listed",
    "too-many-tables": "lobby.error.too-many-tables", offline: "lobby.error.offline",
    "seat-taken": "place.error.seat-taken", "game-over": "place.error.seat-taken" };
  if (known[err.code]) return t(known[err.code]);
  // fetched with the first other refusal (most visits never see one): it words them all
  const errors = await import("../shared/errors.js");
  await errors.loadErrors().catch(() => null);
  return t("place.error.other", { message: errors.errorText(err) });
}

export class Seating {
  /** host: where the waiting panel and errors show; mine: the MyTables */
  constructor(host, games, mine) {
    this.host = host;
    this.games = games;
    this.mine = mine;
    this.busy = false;
    this.panel = h("div", { class: "waiting card", role: "status", "data-play-now-waiting": "",
      hidden: true });
    this.error = h("p", { class: "notice bad", role: "alert", hidden: true });
    host.replaceChildren(this.panel, this.error);
  }

  async showError(err) {
    const shown = (this.shown = (this.shown || 0) + 1);
    const text = err ? await errorText(err) : "";
    if (shown !== this.shown) return; // another error (or none) came while it was worded
    this.error.hidden = !err;
    this.error.textContent = text;
  }

  /** "Sit" on a waiting table: its first free seat. */
  async sit(entry, button) {
    if (this.busy) return;
    const name = await askName(button);
    if (!name) return;
    const seat = entry.seats.findIndex((s) => s.free);
    if (seat < 0) return;
    this.busy = true;
    this.showError(null);
    button.disabled = true;
    try {
      const { token } = await api.takeSeat(entry.id, seat, name);
      remembered.setToken(entry.id, token);
      remembered.setSeat(entry.id, seat);
      location.assign(`/tables/${encodeURIComponent(entry.id)}`);
    } catch (err) {
      this.busy = false;
      button.disabled = false;
      this.showError(err);
    }
  }

  async playNow(game, button) {
    if (this.busy) return;
    // asked below the card's foot (its rules link and Play now), across the whole card
    const name = await askName(button, button.closest(".game-foot") || button);
    if (!name) return;
    this.busy = true;
    this.showError(null);
    let seated;
    try {
      seated = await api.post("/api/lobby/play-now", { game: game.id, name }, true);
    } catch (err) {
      this.busy = false;
      this.showError(err);
      return;
    }
    remembered.setToken(seated.id, seated.token);
    remembered.setSeat(seated.id, seated.seat);
    if (!seated.waiting) {
      location.assign(seated.url);
      return;
    }
    this.wait(seated, game);
  }

  /** Rated Play now in `pool` (a player: the key goes with it, their name is theirs): seated
   * with a player of a similar rating, or waiting for one. */
  async playRated(game, pool, button) {
    if (this.busy) return;
    this.busy = true;
    this.showError(null);
    let seated;
    try {
      seated = await api.post("/api/lobby/play-now", { game: game.id, pool: pool.id }, true);
    } catch (err) {
      this.busy = false;
      this.showError(err);
      button.focus();
      return;
    }
    remembered.setToken(seated.id, seated.token);
    remembered.setSeat(seated.id, seated.seat);
    if (!seated.waiting) {
      location.assign(seated.url);
      return;
    }
    this.wait(seated, game);
  }

  wait(seated, game) {
    const label = gameName(game);
    const cancel = h("button", { type: "button", "data-action": "cancel-play-now",
      onclick: () => this.cancel(seated), text: t("place.wait.cancel") });
    this.panel.hidden = false;
    this.panel.replaceChildren(
      h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", { text: t("place.wait", { game: label }) }),
      cancel);
    cancel.focus();
    this.mine.waitingFor = {
      id: seated.id,
      then: () => {
        tell(t("place.told.sat", { game: label }), seated.url);
        announce(t("place.wait.found"), true);
        location.assign(seated.url);
      },
    };
    this.mine.refresh();
  }

  async cancel(seated) {
    let out;
    try {
      out = await api.post("/api/lobby/unlist", { table: seated.id, token: seated.token });
    } catch (err) {
      this.showError(err);
      return;
    }
    this.mine.waitingFor = null;
    if (out.started) { // someone sat down just then: the game is on
      location.assign(seated.url);
      return;
    }
    remembered.setToken(seated.id, null);
    remembered.setSeat(seated.id, null);
    this.panel.hidden = true;
    this.busy = false;
    this.mine.refresh();
    announce(t("place.wait.cancelled"));
  }
}
