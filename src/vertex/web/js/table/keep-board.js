// On a wide screen the board column stays in view while the side column (seats, moves,
// replay, the analysis' answer, chat) is scrolled, so the best moves the analysis draws on
// the board are seen beside the answer. A column taller than the window scrolls until its
// bottom is in view and stays there (a negative sticky top), so none of it is ever hidden.
const WIDE = window.matchMedia("(min-width: 880px)");
const MARGIN = 8; // px from the window's edge

export function keepBoardInView(column) {
  const check = () => {
    column.classList.toggle("keep", WIDE.matches);
    const top = Math.min(MARGIN, window.innerHeight - column.getBoundingClientRect().height - MARGIN);
    column.style.setProperty("--keep-top", `${Math.round(top)}px`);
  };
  new ResizeObserver(check).observe(column);
  window.addEventListener("resize", check);
  WIDE.addEventListener("change", check);
  check();
}
