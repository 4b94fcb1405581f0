// How seats look: Okabe–Ito colours (safe for colour-blind players), each seat also with a
// symbol so nothing depends on colour alone. Games that have their own symbols (Figures'
// figures) send them in board.symbols; those win.

import { isDark } from "./theme.js";

// Okabe–Ito, ordered for contrast on a light background (yellow last: weakest on white).
export const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
// The same hues darkened for text and thin lines (contrast ≥ 4.5:1 on white), and lightened
// for the dark theme (≥ 4.5:1 on its board, --board).
export const INKS = ["#005A8C", "#A34400", "#00704F", "#9E4F82", "#8F6100", "#2B6F99"];
export const DARK_INKS = ["#4AA3DF", "#F08A4B", "#2FC497", "#E39BC4", "#E6A81E", "#7CC6F0"];
export const SYMBOLS = ["✕", "○", "△", "□", "◇", "＋"];

// Fullwidth ＋ (Figures) has no glyph in many fonts: the plain plus reads the same.
const LETTER_SYMBOLS = { X: "✕", O: "○", "＋": "+" };

export function seatColor(seat) {
  return COLORS[seat % COLORS.length];
}

export function seatInk(seat) {
  const inks = isDark() ? DARK_INKS : INKS;
  return inks[seat % inks.length];
}

/** The seat's symbol: the game's own (board.symbols) when it has one. */
export function seatSymbol(seat, board) {
  const own = board && Array.isArray(board.symbols) ? board.symbols[seat] : null;
  if (own) return LETTER_SYMBOLS[own] || own;
  return SYMBOLS[seat % SYMBOLS.length];
}
