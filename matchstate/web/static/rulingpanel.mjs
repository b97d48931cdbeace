// The console's ruling panel: the ruling that stands on the free hit in progress, with the clauses it rests
// on and a way to read it in full; under it, the last thing done.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {ask} from "./dialog.mjs";
import {lang} from "./lang.mjs";
import {beginsFreeHit, isAward} from "./taps.mjs";
import {label} from "./words.mjs";

const standing = (view, log) => log.filter((row) => !view.void.includes(row.seq));

/**
 * Where the free hit in progress began (its award, or the ruling that awarded it): the panel shows nothing
 * from before it. Null while none is in progress: the panel shows the last ruling, which closed one.
 */
export function freeHitSince(view, log) {
  if (!view.free_hit) return null;
  const began = standing(view, log).filter((row) => isAward(row.type)
    || (row.ruling && (row.ruling.kind === "award" || row.ruling.kind === "rehit"))).pop();
  return began ? began.seq : null;
}

/**
 * The ruling the panel shows (``ruled``: a row of the log, or null): the latest that stands on the free hit in
 * progress (from its award on, ``since``); with none in progress, the last event's, where that event closed one
 * with a ruling (a Penalty 1, say), so a free hit closed otherwise (a goal, a whistle) clears the panel rather
 * than leave "Ball in play" up. ``held``: the events this device holds, not recorded yet.
 */
export function shownRuling(view, log, held = []) {
  // An award held on this device, not recorded yet, begins a free hit the log does not have: nothing stands on it
  // yet (the last free hit's "Ball in play" stayed up beside an untaken Penalty 4).
  if (held.some(beginsFreeHit)) return {since: (log.length ? log[log.length - 1].seq : 0) + 1, ruled: null};
  const since = freeHitSince(view, log);
  const rows = standing(view, log).filter((row) => row.type !== "void");
  if (since === null) {
    const last = rows[rows.length - 1];
    return {since, ruled: last && last.ruling ? last : null};
  }
  return {since, ruled: rows.filter((row) => row.ruling && row.seq >= since).pop() || null};
}

// A rule's clause as the panel and its full view show it: its id and heading, its text under them.
function citation(rules, id) {
  return el("details", {class: "cite"}, el("summary", {}, rules[id] ? `${id} · ${rules[id].heading[lang()]}` : id),
    rules[id] ? el("p", {}, rules[id].text[lang()]) : null);
}

// The ruling on a screen of its own, however long: the panel keeps its size, so no button moves.
function readInFull(row, rules) {
  ask({title: `#${row.seq} ${label(row.type)}`, text: row.ruling.text[lang()],
    items: row.ruling.cite.map((id) => (rules[id] ? `${id} · ${rules[id].heading[lang()]}: ${rules[id].text[lang()]}` : id)),
    actions: [{id: "cancel", label: t("console", "ruling-close"), primary: true}]});
}

/** The panel's content: ``notice``, then the ruling shown for the match ``view`` and its ``log`` (and the events
 * ``held`` here), cited from ``rules`` (Rule 36's clauses by id). */
export function rulingPanel(view, log, rules, notice, held = []) {
  const {since, ruled} = shownRuling(view, log, held);
  const parts = [];
  if (notice) parts.push(el("p", {class: "notice"}, notice));
  if (ruled) {
    // The rules it rests on named in its first line: on a phone the panel shows little more than that line.
    parts.push(el("p", {class: "what"}, `#${ruled.seq} ${label(ruled.type)} `,
      ruled.ruling.cite.length ? el("span", {class: "cites"}, `(${ruled.ruling.cite.join(", ")}) `) : null,
      el("button", {type: "button", class: "link full", onclick: () => readInFull(ruled, rules)}, t("console", "ruling-full"))),
    el("p", {class: "text"}, ruled.ruling.text[lang()]), ...ruled.ruling.cite.map((id) => citation(rules, id)));
    if (!ruled.ruling.cite.length) parts.push(el("p", {class: "quiet no-clause"}, t("review", "no-clause")));
  } else {
    parts.push(el("p", {class: "quiet"}, t("console", since === null ? "no-ruling" : "no-ruling-yet")));
  }
  return parts;
}
