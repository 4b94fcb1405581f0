// Ratings in words (issue 34), for the profile, the leaderboard and the table: a rating with
// its provisional mark (a "?" and the word, never colour alone), a change signed, a date.
// (A pool's name is shared/pools.js: it needs the options' words, which a table does not.)
//
// A change's text uses the real minus sign (U+2212: "−8") and "+12"; the data attributes the
// page hooks carry (`data-rating-change`) use ASCII: "+12", "-8", "+0" (easy to compare in a
// test, the same in every language).
import { loadCatalogs, num, t } from "./i18n.js";

await loadCatalogs("ratings");

/** A rating's text: "1512" or "1512?" (provisional). */
export function ratingText(value, provisional) {
  return provisional ? t("ratings.provisionalShort", { rating: num(value, { useGrouping: false }) })
    : num(value, { useGrouping: false });
}

/** The data attribute's form of a change: "+12", "-8", "+0". */
export function changeData(delta) {
  return `${delta < 0 ? "-" : "+"}${Math.abs(delta)}`;
}

/** The change as shown: "+12", "−8" (a real minus), "±0". */
export function changeText(delta) {
  if (delta === 0) return "±0";
  return `${delta < 0 ? "\u2212" : "+"}${num(Math.abs(delta), { useGrouping: false })}`;
}

/** A date (ISO text or seconds since 1970) in the page's language, or "". */
export function dateText(when, withTime = false) {
  if (when === null || when === undefined || when === "") return "";
  const date = typeof when === "number" ? new Date(when < 1e12 ? when * 1000 : when) : new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  const opts = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(document.documentElement.lang || "en", opts).format(date);
}
