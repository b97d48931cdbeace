// Showing a match: times, the score, the "now" strip every match page has, a stored event in a list.

import {$, el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {lang} from "./lang.mjs";
import {details, eventName, stateName} from "./words.mjs";

// toLocaleTimeString's own format, made once: it makes a formatter on every call (some 0.08 ms), and the
// review's timeline asks twice a row of a whole match's log on every redraw.
const CLOCK_TIME = new Intl.DateTimeFormat([], {hour: "numeric", minute: "numeric", second: "numeric", hour12: false});

/** A moment as the lists show it: the device's own clock time, to the tenth of a second. */
export function time(iso) {
  const d = new Date(iso);
  return CLOCK_TIME.format(d) + "." + String(d.getMilliseconds()).padStart(3, "0")[0];
}

/** A goal count as the server's pages write it (tournaments.standings.goals): 7, 7½, -0½. */
export function goals(n) {
  if (typeof n !== "number") return "";  // a team the score does not name yet: nothing, not "NaN½"
  return Number.isInteger(n) ? String(n) : `${n < 0 ? "-" : ""}${Math.trunc(Math.abs(n))}½`;
}

export function score(teams, counts) {
  return teams.map((team) => `${team} ${goals(counts[team])}`).join(" – ");
}

/** The match now, as every match page shows it at the top: score, state, free hit. */
export function showNow(view) {
  $("score").textContent = score(view.teams, view.score);
  $("state").textContent = stateName(view.state);
  $("freehit").textContent = view.free_hit_text ? view.free_hit_text[lang()]
    : view.state === "choosing" ? t("console", "umpire-chooses") : t("common", "no-free-hit");
}

/** A stored event in a list: seq, time, type, its fields, and its ruling under it. */
export function eventItem(row, attrs = {}) {
  return el("li", attrs, `#${row.seq} ${time(row.at)} ${eventName(row.type)} `, el("span", {class: "quiet"}, details(row.event)),
    row.ruling ? el("div", {class: "ruling-line"}, row.ruling.text[lang()]) : null);
}
