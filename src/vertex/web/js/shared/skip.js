// The skip link every page starts with (DESIGN §6: `a[href^="#"]`, the page's first Tab
// stop): it takes the keyboard to the page's main content, its own target where the page has
// drawn it (a table's board), else `main` (a page still loading, a missing table).
export function wireSkipLink() {
  const link = document.querySelector("a.skip[href^='#']");
  if (!link) return;
  link.addEventListener("click", (ev) => {
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)))
      || document.querySelector("main");
    if (!target) return;
    ev.preventDefault(); // the address keeps its own fragment (a table's #replay, a rule's #options)
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  });
}
