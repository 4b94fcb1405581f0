// The three live sections of the lobby: waiting for players (with "Sit" and a filter by
// game), playing now (click to watch) and just finished (click for the replay). Drawn from
// the lobby socket's model; `[data-lobby-place]` carries `data-version` (the last change
// drawn), so tests and scripts wait on it.
import { announce, h } from "../shared/dom.js";
import { num, t } from "../shared/i18n.js";
import {
  clockInWords, entryTitle, optionsInWords, resultInWords, seatList, waited,
} from "./entry.js";
import { gameName } from "./words.js";

function present(...nodes) {
  return nodes.filter((n) => n !== null && n !== undefined);
}

const ANNOUNCE_EVERY_MS = 5000; // "a new table is waiting", at most this often

export class LobbyPlace {
  /** host: the element to fill; games: /api/games; onSit(entry, button); onFilter(game) */
  constructor(host, games, { onSit, onFilter }) {
    this.host = host;
    this.games = games;
    this.onSit = onSit;
    this.onFilter = onFilter;
    this.model = null;
    this.game = null;
    this.lastSaid = 0;
    this.sayLater = null;
    this.root = h("section", { class: "place", "data-lobby-place": "", "data-version": "",
      "aria-labelledby": "place-heading" });
    host.replaceChildren(this.root);
    this.render();
    // "waiting 3 min" grows while the page is open
    setInterval(() => { if (this.model) this.render(); }, 30_000);
  }

  /** The model changed (change: {up, gone, before}, or null for a fresh list). */
  update(model, change) {
    this.model = model;
    const keep = this.host.contains(document.activeElement) ? document.activeElement : null;
    const keepId = keep && keep.closest("[data-lobby-table]")?.dataset.lobbyTable;
    const keepAction = keep && keep.dataset.action;
    const keepOwnId = keep && !keepId ? keep.id : null;
    this.render();
    if (keepOwnId) document.getElementById(keepOwnId)?.focus();
    if (keepId) { // the focus stays on the same entry's control after a redraw
      const again = this.root.querySelector(
        `[data-lobby-table="${CSS.escape(keepId)}"] [data-action="${CSS.escape(keepAction || "")}"]`);
      if (again) again.focus();
    }
    if (change) {
      const fresh = change.up.filter((e) => e.section === "open" && !change.before.has(e.id));
      if (fresh.length) this.sayNew(fresh.length);
    }
  }

  /** Screen readers hear of new tables, politely and at most every few seconds. */
  sayNew(n) {
    this.pending = (this.pending || 0) + n;
    if (this.sayLater) return;
    const wait = Math.max(0, this.lastSaid + ANNOUNCE_EVERY_MS - Date.now());
    this.sayLater = setTimeout(() => {
      const count = this.pending;
      this.pending = 0;
      this.sayLater = null;
      this.lastSaid = Date.now();
      announce(count === 1 ? t("place.announce.one") : t("place.announce.many", { n: count }));
    }, wait);
  }

  /** Nothing listed at all (the list is in, no game filter chosen): the place says so in one
   * line, and the lobby shows the games first (js/lobby/main.js). */
  get quiet() {
    const m = this.model;
    return Boolean(m) && this.game === null
      && ["open", "live", "finished"].every((name) => !m.counts[name]);
  }

  render() {
    const m = this.model;
    const quiet = this.quiet;
    this.root.dataset.version = m ? String(m.v) : "";
    this.root.classList.toggle("is-quiet", quiet);
    const filter = h("select", { id: "place-filter", name: "lobby-game",
      onchange: (ev) => { this.game = ev.target.value || null; this.onFilter(this.game); } },
      h("option", { value: "", text: t("place.filter.all"), selected: this.game === null }),
      this.games.map((g) => h("option", { value: g.id, text: gameName(g), selected: this.game === g.id })));
    this.root.replaceChildren(...present(
      h("div", { class: "place-head" },
        h("h2", { id: "place-heading", text: t("place.heading") }),
        h("label", { class: "place-filter", for: "place-filter" }, t("place.filter"), " ", filter)),
      m ? null : h("p", { class: "hint", text: t("place.connecting") }),
      quiet ? h("p", { class: "hint", "data-lobby-quiet": "", text: t("place.quiet") }) : null,
      this.section("open", "data-lobby-open", t("place.open"), quiet),
      this.section("live", "data-lobby-live", t("place.live"), quiet),
      this.section("finished", "data-lobby-finished", t("place.finished"), quiet)));
  }

  /** A section: its heading (with the count) and entries; an empty one is its heading line
   * alone, and when nothing at all is listed the sections fold away behind one line. */
  section(name, hook, title, folded) {
    const entries = this.model ? this.model.section(name) : [];
    const total = this.model ? this.model.counts[name] : 0;
    const rest = total - entries.length;
    const id = `place-${name}`;
    return h("section", { class: `place-section place-${name}`, [hook]: "", "aria-labelledby": id,
      hidden: folded },
      h("h3", { id }, title, " ", h("span", { class: "count", text: `(${num(total)})` })),
      entries.length
        ? h("ul", { class: "entries", role: "list" }, entries.map((e) => this.entry(name, e)))
        : null,
      rest > 0 ? h("p", { class: "hint more", text: t("place.more", { n: rest }) }) : null);
  }

  entry(name, e) {
    const attrs = { class: "entry", "data-lobby-table": e.id, "data-game": e.game };
    const title = entryTitle(e, this.games);
    const words = optionsInWords(e, this.games);
    // a practice table (analysis allowed during play) says so: watchers may see its analysis
    if (e.analysis) attrs["data-analysis-allowed"] = "";
    const info = [h("span", { class: "entry-game", text: title }),
      words ? h("span", { class: "entry-options", text: words }) : null,
      e.analysis ? h("span", { class: "entry-practice", text: t("place.analysis") }) : null];
    if (name === "open") {
      attrs["data-free-seats"] = String(e.free_seats);
      return h("li", attrs,
        h("div", { class: "entry-text" }, ...info, seatList(e),
          h("span", { class: "entry-meta", text: `${clockInWords(e.clock)} · ${waited(e.listed_at)}` })),
        h("button", { type: "button", class: "primary", "data-action": "sit",
          "aria-label": t("place.sit-at", { game: title }),
          onclick: (ev) => this.onSit(e, ev.currentTarget), text: t("place.sit") }));
    }
    const href = `/tables/${encodeURIComponent(e.id)}`;
    if (name === "live") {
      attrs["data-watching"] = String(e.watching || 0);
      return h("li", attrs,
        h("a", { class: "entry-link", href, "data-action": "watch" },
        // named by what it shows, the verb first for screen readers (WCAG 2.5.3)
        h("span", { class: "sr-only", text: t("place.watch") }), " ",
        h("span", { class: "entry-text" }, ...info, seatList(e),
          h("span", { class: "entry-meta", text: t("place.watching", { n: e.watching || 0 }) }))));
    }
    // a finished table opens straight into its replay (the table page opens it on #replay)
    return h("li", attrs,
      h("a", { class: "entry-link", href: `${href}#replay`, "data-action": "replay-table" },
      h("span", { class: "sr-only", text: t("place.replay") }), " ",
      h("span", { class: "entry-text" }, ...info, seatList(e),
        h("span", { class: "entry-meta", text: resultInWords(e) }))));
  }
}
