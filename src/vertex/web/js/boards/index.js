// Which board draws a state: by the kind of board the server sends. Boards load on demand,
// so a page only fetches the board it shows.
const KINDS = {
  "square-rectangle": "./dots.js",
  "square-rhombus": "./dots.js",
  triangle: "./dots.js",
  strip: "./dots.js",
};

/** The board module for `state` (state.to_dict()), or null when there is none. */
export async function loadBoard(state) {
  const path = KINDS[state.board && state.board.kind];
  return path ? import(path) : null;
}

/** Register the module that draws another kind of board (Vert3x, Juxtapose, …). */
export function boardKinds() {
  return KINDS;
}
