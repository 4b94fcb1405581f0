// Light or dark: the player's choice (saved in this browser) or, on "auto", the system's
// (prefers-color-scheme). The CSS tokens (base.css, light-dark()) follow the root's
// color-scheme; code that paints colours itself (the 3-D scene, seat inks) asks isDark()
// and redraws on onThemeChange.
import { remembered } from "./store.js";

export const THEMES = ["auto", "light", "dark"];
const system = window.matchMedia("(prefers-color-scheme: dark)");
const listeners = new Set();

export function themeChoice() {
  const saved = remembered.setting("theme", "auto");
  return THEMES.includes(saved) ? saved : "auto";
}

export function isDark() {
  const choice = themeChoice();
  return choice === "dark" || (choice === "auto" && system.matches);
}

export function setTheme(choice) {
  remembered.setSetting("theme", choice);
  apply();
}

export function onThemeChange(fn) {
  listeners.add(fn);
}

function apply() {
  const root = document.documentElement;
  const choice = themeChoice();
  if (choice === "auto") delete root.dataset.theme;
  else root.dataset.theme = choice;
  root.dataset.dark = String(isDark()); // for tests and print: what is shown now
  for (const fn of listeners) fn(isDark());
}

system.addEventListener("change", apply);
apply();
