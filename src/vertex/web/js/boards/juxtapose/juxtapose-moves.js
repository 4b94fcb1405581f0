// Juxtapose's moves as the server spells them (RULES §3: "R3@b2" a drop, "b2<>c3" a swap,
// "b2>b4" a slide), read for the board: which squares a move touches, and the legal moves
// by what they start from. Pure: no page, no rules (the server lists what is legal).

/** A move string split into its parts: {kind: drop|swap|slide, pyramid?, a, b}. */
export function parseMove(move) {
  if (!move) return null;
  if (move.includes("@")) {
    const [p, sq] = move.split("@");
    return { kind: "drop", pyramid: p, a: sq, b: sq };
  }
  if (move.includes("<>")) {
    const [a, b] = move.split("<>");
    return { kind: "swap", a, b };
  }
  const [a, b] = move.split(">");
  return { kind: "slide", a, b };
}

export function moveSquares(move) {
  const m = parseMove(move);
  if (!m) return new Set();
  return new Set(m.kind === "drop" ? [m.a] : [m.a, m.b]);
}

/** The legal moves by what they start from (a stash pyramid, a square), each a map
 * target square -> move. */
export function indexMoves(moves) {
  const fromStash = new Map();
  const fromSquare = new Map();
  const add = (map, key, target, move) => {
    if (!map.has(key)) map.set(key, new Map());
    map.get(key).set(target, move);
  };
  for (const move of moves || []) {
    const m = parseMove(move);
    if (m.kind === "drop") add(fromStash, m.pyramid, m.a, move);
    else if (m.kind === "swap") { add(fromSquare, m.a, m.b, move); add(fromSquare, m.b, m.a, move); }
    else add(fromSquare, m.a, m.b, move);
  }
  return { fromStash, fromSquare };
}
