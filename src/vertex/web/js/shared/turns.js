// "Your turn" elsewhere, on every page but the lobby (whose "Your tables" follows the
// player's tables live, lobby/mine.js): for a player, GET /api/players/me `turns` now and
// then — every 30 s, slower (up to 5 min) while nothing changes or the server cannot be
// reached, at once when the page comes back into view — and a table newly at the player's
// turn is told as the lobby tells it (shared/alerts.js: title, sound, the opt-in
// notification), except the table this page shows (its own page says it).
import { tell } from "./alerts.js";
import { t } from "./i18n.js";
import { me, onPlayerChange, player } from "./player.js";

const POLL_MS = [30_000, 60_000, 120_000, 300_000];
let known = null; // the turns last heard (null: not yet: the first answer tells nothing)
let quiet = 0;
let timer = null;

/** Start watching (once per page; the lobby does not). */
export function watchTurns() {
  if (location.pathname === "/") return;
  onPlayerChange(() => { known = null; quiet = 0; schedule(0); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { quiet = 0; schedule(0); }
  });
  schedule(POLL_MS[0]);
}

function schedule(ms) {
  clearTimeout(timer);
  if (!player()) return;
  timer = setTimeout(poll, ms);
}

async function poll() {
  let profile = null;
  try { profile = await me(true); } catch { /* offline: try later, slower */ }
  if (profile) {
    const turns = new Set(profile.turns || []);
    const here = decodeURIComponent(location.pathname.replace(/^\/tables\//, ""));
    let changed = known === null || turns.size !== known.size;
    for (const id of turns) {
      if (known && !known.has(id)) {
        changed = true;
        if (id === here) continue;
        const table = (profile.tables || []).find((tb) => tb.id === id);
        tell(t("me.told.turn"), table?.url || `/tables/${encodeURIComponent(id)}`);
      }
    }
    known = turns;
    quiet = changed ? 0 : quiet + 1;
  } else {
    quiet += 1;
  }
  schedule(POLL_MS[Math.min(quiet, POLL_MS.length - 1)]);
}
