// Who this browser is (issue 34): a guest, or a player with a key. The key arrives by the
// claim (shared/claim.js) or by a key link `ORIGIN/#key=KEY`, read here as soon as any page
// imports this module: kept in storage, then the fragment is cleared (history.replaceState)
// so it is neither bookmarked nor shown over a shoulder. A fragment never reaches a server,
// nor a referrer.
import { api } from "./api.js";
import { remembered } from "./store.js";

const listeners = new Set();
let fetched = null; // the /api/players/me promise of this page load

takeKeyFromFragment();

function takeKeyFromFragment() {
  const hash = location.hash.slice(1);
  if (!hash.startsWith("key=")) return; // a seat link's #token=… is the table page's
  const key = new URLSearchParams(hash).get("key");
  history.replaceState(history.state, "", location.pathname + location.search);
  if (!key || key.length > 200) return;
  if (key !== remembered.key()) remembered.setKey(key, null); // whose: /api/players/me says
}

/** The player as known now, without asking: {name} or null (a guest). */
export function player() {
  if (!remembered.key()) return null;
  return { name: remembered.playerName() };
}

/** Call `fn(player | null)` whenever the player changes (claimed, signed out, forgotten,
 * the profile fetched); returns a function that stops it. */
export function onPlayerChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  fetched = null;
  const now = player();
  for (const fn of listeners) fn(now);
}

/**
 * The player's own profile (GET /api/players/me: ratings, counts, `tables`, `turns`), once
 * per page load unless `fresh`; null for a guest. A key the server no longer knows
 * (replaced on another device, or the player forgotten) is dropped here: this browser is a
 * guest again. Other failures (offline) keep the key and reject.
 */
export function me(fresh = false) {
  if (!remembered.key()) return Promise.resolve(null);
  if (fresh || !fetched) {
    const asked = api.me().then((profile) => {
      if (profile && profile.name !== remembered.playerName()) {
        remembered.setPlayerName(profile.name);
        for (const fn of listeners) fn(player());
      }
      return profile;
    }, (err) => {
      if (err.code === "bad-key") {
        remembered.setKey(null);
        changed();
        return null;
      }
      if (fetched === asked) fetched = null; // try again next time
      throw err;
    });
    fetched = asked;
  }
  return fetched;
}

/** A key just given by the server (a claim, a replacement): keep it. */
export function keepKey(key, name) {
  remembered.setKey(key, name);
  changed();
}

/** Sign out on this device: forget the key here (the player stays, on other devices too). */
export function signOut() {
  remembered.setKey(null);
  changed();
}

/** The key link that opens this player on another device (only ever shown, never sent). */
export function keyLink(key) {
  return `${location.origin}/#key=${encodeURIComponent(key)}`;
}

/** The profile page of `name`. */
export function profileUrl(name) {
  return `/players/${encodeURIComponent(name)}`;
}
