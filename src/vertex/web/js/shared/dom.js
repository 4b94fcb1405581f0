// Small DOM helpers shared by every page: element building and the two live regions.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Build an element: h("button", {class: "x", onclick: fn, "data-x": 1}, "text", child).
 * Attributes whose value is null, undefined or false are left out; true sets an empty one.
 */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Add the style sheet at `href` (an absolute URL) once: a module fetched on first use brings
 * its own. Resolves when the sheet applies — or fails to load: the page still works.
 */
export function addSheet(href) {
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (!link) {
    link = h("link", { rel: "stylesheet", href });
    document.head.append(link);
  }
  if (link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

/** Say `text` to screen readers: politely (moves) or assertively (your turn, the result). */
export function announce(text, assertive = false) {
  const region = document.querySelector(`[data-announce="${assertive ? "assertive" : "polite"}"]`);
  if (!region) return;
  // Clearing first makes the same sentence twice in a row be read twice.
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = text; });
}

/** Does the person ask for less motion? Animations check this each time. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Is the main pointer a finger (coarse)? Touch targets grow to 44 px then. */
export function coarsePointer() {
  return window.matchMedia("(pointer: coarse)").matches;
}
