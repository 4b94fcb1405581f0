// Which board draws a state: by the kind of board the server sends. Boards load on demand,
// so a page only fetches the board it shows.
const KINDS = {
  "square-rectangle": "./dots/dots.js",
  "square-rhombus": "./dots/dots.js",
  triangle: "./dots/dots.js",
  strip: "./dots/dots.js",
  juxtapose: "./juxtapose/juxtapose.js",
  towers: "./towers/towers.js",
  hexagon: "./vert3x/vert3x.js", parallelogram: "./vert3x/vert3x.js", custom: "./vert3x/vert3x.js", windows: "./vert3x/vert3x.js", "diagonal-grid": "./vert3x/vert3x.js",
};
// A game whose board shares a kind with another family (Vert3x's "triangle" is also Dots and
// Triangles') picks its module by game first.
const GAMES = { vert3x: "./vert3x/vert3x.js" };

function modulePath(state) {
  return (state && GAMES[state.game]) || KINDS[state && state.board && state.board.kind];
}

/** The board module for `state` (state.to_dict()), or null when there is none. */
export async function loadBoard(state) {
  const path = modulePath(state);
  return path ? import(path) : null;
}

// A board's static picture is a module of its own (renderPreview(state)): pages of pictures
// skip the interactive board and its catalog. None for towers (it would bring the 3-D view).
const PREVIEWS = {
  "./dots/dots.js": "./dots/dots-preview.js",
  "./vert3x/vert3x.js": "./vert3x/vert3x-preview.js",
  "./juxtapose/juxtapose.js": "./juxtapose/juxtapose-preview.js",
};

/** The picture module for `state` ({renderPreview(state) -> SVGElement}), or null. */
export async function loadPreview(state) {
  const path = PREVIEWS[modulePath(state)];
  return path ? import(path) : null;
}

/** Register the module that draws another kind of board (Vert3x, Juxtapose, …). */
export function boardKinds() {
  return KINDS;
}
