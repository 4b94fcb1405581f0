// Which board draws a state: the board view names its renderer (`board.renderer`, next to
// its shape `board.kind`), and each renderer is a folder here holding its board
// (`<renderer>/<renderer>.js`) and its picture (`<renderer>/<renderer>-preview.js`). Nothing
// here knows a game: a new game's page is one folder, found by that name. Boards load on
// demand, so a page only fetches the board it shows.
const NAME = /^[a-z][a-z0-9-]*$/;

/** The renderer a state asks for, or null (no drawn board: the plain move form). */
export function rendererOf(state) {
  const name = state && state.board && state.board.renderer;
  return typeof name === "string" && NAME.test(name) ? name : null;
}

/** The board module for `state` (state.to_dict()), or null when there is none. */
export async function loadBoard(state) {
  const name = rendererOf(state);
  return name ? import(`./${name}/${name}.js`) : null;
}

/** The picture module for `state` ({renderPreview(state) -> SVGElement}), or null. A module
 * of its own, so pages of pictures skip the interactive board and its catalog. */
export async function loadPreview(state) {
  const name = rendererOf(state);
  return name ? import(`./${name}/${name}-preview.js`) : null;
}
