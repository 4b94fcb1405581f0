// A guest's streak of puzzles solved in a row, kept in this browser only (a player with a
// key has a rating on the server instead).
const KEY = "vertex.puzzles.streak";

function read() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { now: Number(v.now) || 0, best: Number(v.best) || 0 };
  } catch {
    return { now: 0, best: 0 };
  }
}

function write(v) {
  try { localStorage.setItem(KEY, JSON.stringify(v)); } catch { /* private mode: no streak */ }
}

export const streak = {
  get: read,
  solved() {
    const v = read();
    v.now += 1;
    v.best = Math.max(v.best, v.now);
    write(v);
    return v;
  },
  failed() {
    const v = read();
    v.now = 0;
    write(v);
    return v;
  },
};
