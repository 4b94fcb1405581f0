// The review of a whole game (DESIGN.md §5b): every move judged by perfect play, shown as a
// value graph along the game (an SVG, a point a move), the move list with its marks (?!, ?,
// ??), each seat's accuracy and cells given away, and a sentence a beginner understands for
// the move chosen. Choosing a point or a move shows the position before it on the board
// through the replay, with the best moves drawn (js/boards/bests.js, through the board's
// highlight). Fetched on the first press of [data-action="review"] (js/table/replay-buttons.js);
// the server does the work once for the whole site, and its progress comes on the table's
// socket ({t: "review"}) and by asking again.
import { api } from "../shared/api.js";
import { addSheet, announce, h, s } from "../shared/dom.js";
import { has, loadCatalogs, num, onLangChange, t } from "../shared/i18n.js";
import { seatColor, seatSymbol } from "../shared/seats.js";

await Promise.all([
  loadCatalogs("table-review"),
  addSheet(new URL("../../css/table-review.css", import.meta.url).href),
]);

const GLYPH = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const BAD = new Set(["inaccuracy", "mistake", "blunder"]);
// The graph's size in its own units (it scales to the panel's width).
const W = 360;
const H = 180;
const PAD = { left: 22, right: 10, top: 24, bottom: 14 };
// Juxtapose's values on the graph: a win in N drawn higher the sooner it comes.
const JX_TOP = 6;
// How often to ask while the review runs (the socket says it sooner where it can).
const POLL_MS = 1500;

/**
 * The review panel in `host`. deps: {
 *   id, model,                // the table id; its model ({view})
 *   board() -> board | null,  // to describe moves and draw the best ones (highlight)
 *   names(seat) -> string,
 *   show(ply) -> Promise,     // the replay shows the position after `ply` moves
 *   replayPly() -> number|null, // the ply the replay shows now (null: the live game)
 * }
 * Returns {start(), progress(msg), stepped(), render()}.
 */
export function createReview(host, deps) {
  const ids = `review-${Math.random().toString(36).slice(2, 8)}`;
  const heading = h("h2", { id: `${ids}-h` });
  const bar = h("progress", { class: "review-progress", max: "1", value: "0", "aria-labelledby": `${ids}-p` });
  const barText = h("span", { id: `${ids}-p`, class: "review-progress-text" });
  const progressRow = h("p", { class: "review-progress-row" }, bar, " ", barText);
  const seatsList = h("ul", { class: "review-seats" });
  const graphHost = h("div", { class: "review-graph-host" });
  const words = h("p", { class: "review-words", "data-review-words": "", "aria-live": "polite" });
  const nextButton = h("button", { type: "button", class: "review-next", "data-review-next": "" });
  const legend = h("p", { class: "hint review-legend" });
  const keys = h("p", { class: "hint review-keys" });
  const movesHead = h("h3", { id: `${ids}-m` });
  const list = h("ol", { class: "review-moves", "aria-labelledby": movesHead.id });
  const failure = h("p", { class: "review-error", role: "alert", hidden: true });
  const panel = h("section", {
    class: "review-panel", "data-review": "", "data-status": "queued", "aria-labelledby": heading.id,
  }, heading, progressRow, failure, seatsList, graphHost, words, nextButton, legend, movesHead, list, keys);
  host.append(panel);

  let review = null; // the server's answer
  let selected = null; // the ply chosen
  let timer = null;
  let asking = null;

  nextButton.addEventListener("click", () => nextMistake());
  list.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-review-ply]");
    if (b) choose(Number(b.dataset.reviewPly), false);
  });
  panel.addEventListener("keydown", onKey);
  onLangChange(() => render());

  async function start() {
    panel.scrollIntoView({ block: "nearest" });
    if (review && review.status === "done") return;
    try {
      got(await api.post(`/api/tables/${encodeURIComponent(deps.id)}/review`, {}));
    } catch (err) {
      fail(err);
    }
  }

  function fail(err) {
    failure.hidden = false;
    failure.textContent = t("review.failed", { message: err.message || String(err) });
  }

  function got(body) {
    const was = review && review.status;
    review = body;
    failure.hidden = true;
    clearTimeout(timer);
    if (body.status !== "done") timer = setTimeout(poll, POLL_MS);
    render();
    if (body.status === "done" && was !== "done") announce(t("review.ready"));
  }

  async function poll() {
    if (asking) return;
    asking = api.get(`/api/tables/${encodeURIComponent(deps.id)}/review`);
    try {
      got(await asking);
    } catch (err) {
      // a practice game moved on since: its review so far is another one, asked for anew
      if (err.code === "no-review") start();
      else fail(err);
    } finally {
      asking = null;
    }
  }

  /** `{t: "review", status, done, total}` from the table's socket. */
  function progress(msg) {
    if (!review || review.status === "done") return;
    review = { ...review, done: msg.done, total: msg.total, status: msg.status === "done" ? "running" : msg.status };
    render();
    if (msg.status === "done") poll();
  }

  // ---- choosing a move --------------------------------------------------------------------
  async function choose(ply, focusPoint) {
    if (!review || !review.moves.length) return;
    const k = Math.max(0, Math.min(review.moves.length - 1, ply));
    selected = k;
    render();
    const el = (focusPoint ? graphHost : list).querySelector(`[data-review-${focusPoint ? "point" : "ply"}="${k}"]`);
    if (el) el.focus({ preventScroll: !focusPoint });
    await deps.show(k);
    if (selected === k) highlight();
    announce(sentence(review.moves[k]));
  }

  function highlight() {
    const board = deps.board();
    if (!board || typeof board.highlight !== "function") return;
    const m = selected === null ? null : review.moves[selected];
    board.highlight(m && m.best.length ? m.best : null);
  }

  /** The replay moved (or closed): keep the best moves drawn only on the chosen position. */
  function stepped() {
    if (selected === null) return;
    if (deps.replayPly() !== selected) {
      selected = null;
      const board = deps.board();
      if (board && typeof board.highlight === "function") board.highlight(null);
      render();
    }
  }

  function nextMistake() {
    if (!review) return;
    const from = selected ?? -1;
    const bad = review.moves.filter((m) => BAD.has(m.mark));
    const next = bad.find((m) => m.ply > from) || bad[0];
    if (next) choose(next.ply, false);
    else announce(t("review.noMistakes"));
  }

  function onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !review || !review.moves.length) return;
    const inGraph = ev.target instanceof Element && ev.target.closest("[data-review-graph]");
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[ev.key];
    const from = selected ?? (step > 0 ? -1 : review.moves.length);
    let to = null;
    if (step !== undefined) to = from + step;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = review.moves.length - 1;
    if (to === null) return;
    ev.preventDefault(); // the replay's own keys stand aside (they look at defaultPrevented)
    choose(to, Boolean(inGraph));
  }

  // ---- words ------------------------------------------------------------------------------
  function unit() {
    const st = deps.model.view && deps.model.view.state;
    return st && st.board ? st.board.unit : null;
  }

  function counted(key, vars) {
    const u = unit();
    return t(u && has(`${key}.${u}`) ? `${key}.${u}` : key, vars);
  }

  function describe(move) {
    const board = deps.board();
    try {
      if (board && typeof board.describeMove === "function") return board.describeMove(move) || move;
    } catch { /* the move itself reads well enough */ }
    return move;
  }

  /** The value for the mover in words: "the win", "a draw", "a loss by 2", "a win in 2". */
  function outcome(v) {
    if (v === null || v === undefined) return t("review.unknown");
    if (typeof v === "string") {
      if (v === "draw") return t("review.outcome.draw");
      const [kind, n] = v.split("-");
      return t(kind === "win" ? "review.outcome.winIn" : "review.outcome.lossIn", { n: Number(n) });
    }
    const good = review.misere ? -v : v;
    if (good === 0) return t("review.outcome.draw");
    return counted(good > 0 ? "review.outcome.win" : "review.outcome.loss", { n: Math.abs(v) });
  }

  function sentence(m) {
    const name = deps.names(m.seat);
    const head = t("review.moveBy", { k: m.ply + 1, name, move: m.move });
    // one move names what kept the value (a list reads badly in a sentence); the board
    // draws them all
    const best = m.best[0] || "";
    if (!m.mark) {
      return `${head} ${m.best.length ? t("review.estimate", { move: best }) : t("review.notJudged")}`;
    }
    if (m.mark === "best") return `${head} ${t("review.kept", { outcome: outcome(m.before) })}`;
    if (review.unit === "moves") {
      const slipped = typeof m.before === "string" && m.before.startsWith("win");
      return `${head} ${slipped ? t("review.slipped", { outcome: outcome(m.before), best })
        : t("review.allowed", { outcome: outcome(m.after) })}`;
    }
    return `${head} ${counted("review.gave", { n: m.lost, best, outcome: outcome(m.before) })}`;
  }

  // ---- drawing ------------------------------------------------------------------------------
  function render() {
    heading.textContent = t("review.heading");
    nextButton.textContent = t("review.next");
    movesHead.textContent = t("review.moves");
    legend.textContent = t("review.legend");
    keys.textContent = t("review.keys");
    const status = review ? review.status : "queued";
    panel.dataset.status = status;
    const done = review ? review.done : 0;
    const total = review ? review.total : 0;
    bar.max = Math.max(1, total);
    bar.value = done;
    barText.textContent = status === "done" ? t("review.done")
      : t(status === "queued" ? "review.queued" : "review.running", { done: num(done), total: num(total) });
    progressRow.hidden = status === "done";
    const ready = Boolean(review && status === "done");
    for (const el of [seatsList, graphHost, nextButton, legend, movesHead, list, keys]) el.hidden = !ready;
    if (!ready) return;
    drawSeats();
    drawGraph();
    drawList();
    words.textContent = selected === null ? t("review.choose") : sentence(review.moves[selected]);
  }

  function symbol(seat) {
    const st = deps.model.view && deps.model.view.state;
    return seatSymbol(seat, st && st.board);
  }

  function swatch(seat) {
    const el = h("span", { class: "swatch", "aria-hidden": "true", text: symbol(seat) });
    el.style.background = seatColor(seat);
    return el;
  }

  function drawSeats() {
    seatsList.replaceChildren(...review.seats.map((st) => {
      const acc = st.accuracy === null ? t("review.noAccuracy") : t("review.accuracy", { pct: num(st.accuracy) });
      const lost = st.lost === null || st.lost === undefined ? "" : ` · ${counted("review.lost", { n: st.lost })}`;
      const marks = ` · ${t("review.counts", { b: st.blunder, m: st.mistake, i: st.inaccuracy })}`;
      return h("li", { "data-review-accuracy": st.seat, "data-value": st.accuracy ?? "" },
        swatch(st.seat), h("strong", { text: deps.names(st.seat) }), h("span", { text: ` ${acc}${lost}${marks}` }));
    }));
  }

  /** The value after each move for seat 0 (null: not known), on the graph's scale. */
  function plotted(m) {
    let v = m.after;
    if (v === null || v === undefined) return null;
    if (typeof v === "string") {
      if (v === "draw") v = 0;
      else {
        const [kind, n] = v.split("-");
        v = (kind === "win" ? 1 : -1) * Math.max(1, JX_TOP - Number(n));
      }
    } else if (review.misere) v = -v;
    return m.seat === 0 ? v : -v;
  }

  function drawGraph() {
    const moves = review.moves;
    const values = moves.map(plotted);
    const top = Math.max(1, ...values.filter((v) => v !== null).map(Math.abs));
    const x = (k) => PAD.left + (moves.length <= 1 ? 0 : (k * (W - PAD.left - PAD.right)) / (moves.length - 1));
    const y = (v) => PAD.top + ((top - v) * (H - PAD.top - PAD.bottom)) / (2 * top);
    const r2 = (n) => Math.round(n * 10) / 10;
    const path = [];
    values.forEach((v, k) => { if (v !== null) path.push(`${path.length ? "L" : "M"}${r2(x(k))},${r2(y(v))}`); });
    const label = t("review.graph", { a: deps.names(0), b: deps.names(1) });
    const svg = s("svg", {
      class: "review-graph", "data-review-graph": "", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": label,
    },
    s("title", { text: label }),
    s("rect", { class: "review-ahead", x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: (H - PAD.top - PAD.bottom) / 2 }),
    s("line", { class: "review-axis", x1: PAD.left, x2: W - PAD.right, y1: r2(y(0)), y2: r2(y(0)) }),
    s("text", { class: "review-axis-label", x: 2, y: PAD.top + 12, text: symbol(0) }),
    s("text", { class: "review-axis-label", x: 4, y: H - PAD.bottom, text: symbol(1) }),
    s("path", { class: "review-line", d: path.join(" ") }));
    if (review.exact_from > 0 && review.exact_from < moves.length) {
      svg.append(s("rect", { class: "review-estimated", x: PAD.left, y: PAD.top - 4,
        width: r2(x(review.exact_from) - PAD.left), height: H - PAD.top - PAD.bottom + 8 }));
    }
    moves.forEach((m, k) => {
      const v = values[k];
      const cy = r2(y(v ?? 0));
      const mark = m.mark || "estimate";
      const point = s("g", {
        class: `review-point mark-${mark}${selected === k ? " is-selected" : ""}`,
        "data-review-point": k, "data-mark": m.mark || "", tabindex: (selected ?? 0) === k ? "0" : "-1",
        role: "button", "aria-label": pointLabel(m), "aria-pressed": String(selected === k),
      },
      s("circle", { class: "review-hit", cx: r2(x(k)), cy, r: Math.min(9, Math.max(5, (W - PAD.left - PAD.right) / moves.length)) }),
      s("circle", { class: "review-dot", cx: r2(x(k)), cy, r: BAD.has(m.mark) ? 5.5 : 3.5 }));
      if (GLYPH[m.mark]) point.append(s("text", { class: "review-glyph", x: r2(x(k)), y: cy - 10, text: GLYPH[m.mark] }));
      point.addEventListener("click", () => choose(k, true));
      svg.append(point);
    });
    graphHost.replaceChildren(svg);
  }

  function pointLabel(m) {
    const mark = m.mark ? t(`review.mark.${m.mark}`) : t("review.mark.none");
    return `${t("review.moveBy", { k: m.ply + 1, name: deps.names(m.seat), move: m.move })} ${mark}. ${outcome(m.after)}`;
  }

  function drawList() {
    list.replaceChildren(...review.moves.map((m) => {
      const glyph = GLYPH[m.mark] || "";
      const mark = m.mark ? t(`review.mark.${m.mark}`) : t("review.mark.none");
      return h("li", {},
        h("button", {
          type: "button", class: `review-move mark-${m.mark || "estimate"}`, "data-review-ply": m.ply,
          "data-mark": m.mark || "", "aria-current": selected === m.ply ? "true" : null,
          title: describe(m.move),
        }, swatch(m.seat), h("span", { class: "review-move-text", text: ` ${num(m.ply + 1)}. ${m.move}` }),
        glyph ? h("strong", { class: "review-glyph-text", "aria-hidden": "true", text: ` ${glyph}` }) : "",
        h("span", { class: "sr-only", text: ` (${mark})` })));
    }));
  }

  render();
  return { start, progress, stepped, render, get panel() { return panel; } };
}
