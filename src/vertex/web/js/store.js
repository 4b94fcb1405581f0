// What the browser remembers: the display name, seat tokens per table, settings.
// Seat tokens are the only proof of a seat: they stay in this browser's storage and in the
// private seat link (a #fragment), never in a query string or anything sent to others.

const NAME = "vertex.name";
const SEAT = "vertex.seat.";
const SETTING = "vertex.setting.";

function get(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage may be off: the page still works for this visit */ }
}

export const remembered = {
  name: () => get(NAME) || "",
  setName: (name) => set(NAME, name),
  /** The seat token this browser holds at table `id`, or null. */
  token: (id) => get(SEAT + id),
  setToken: (id, token) => set(SEAT + id, token),
  setting: (key, fallback = null) => {
    const raw = get(SETTING + key);
    return raw === null ? fallback : JSON.parse(raw);
  },
  setSetting: (key, value) => set(SETTING + key, JSON.stringify(value)),
};
