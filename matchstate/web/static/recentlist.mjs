// The console's list under the buttons: every event waiting here, with the score and free hit it implies
// (provisional), then the last events recorded, each with its flags, its void, and its own "Undo".

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {flagLabel, flagMeaning} from "./flags.mjs";
import {lang} from "./lang.mjs";
import {eventItem, score, time} from "./show.mjs";
import {undoable} from "./undo.mjs";
import {describeEvent, describeFreeHit, stateName} from "./words.mjs";

const RECENT = 6;  // recorded events shown (every waiting one is shown too)

// An event waiting in the outbox (``item``), and where the match stands after it as this device folds it (``row``).
function waitingItem(item, row, teams) {
  const where = row.free_hit && row.sure ? [stateName(row.state), describeFreeHit(row.free_hit)]
    : [stateName(row.sure ? row.state : null)];
  const after = [score(teams, row.score), ...where].join(" · ");
  return el("li", {class: item.refused ? "waiting held" : "waiting pending", dataset: {id: item.event.id}},
    el("span", {class: "tag"}, t("console", item.refused ? "tag-held" : "tag-pending")),
    ` ${time(item.event.at)} ${describeEvent(item.event)}`,
    el("div", {class: "provisional-line"}, t("console", "provisional-line", {after})));
}

// A recorded event: its flags, what a void is and what it struck, and "Undo" where this key may void it.
function recordedItem(row, view, role, onUndo) {
  const voided = view.void.includes(row.seq);
  const item = eventItem(row, {class: voided ? "struck" : null});
  if (row.flags && row.flags.length) {
    item.prepend(...row.flags.map((flag) => el("span", {class: "tag flag", title: flagMeaning(flag, lang())},
      flagLabel(flag, lang()))), " ");
  }
  // A void is what it is, whoever logged it: the official's said so, never the scorer's "Undo".
  if (row.type === "void") {
    item.prepend(el("span", {class: "tag void"}, t("console", row.role === "official" ? "tag-void-official"
      : "tag-void", {seq: row.event.seq})), " ");
  } else if (voided) {
    item.prepend(el("span", {class: "tag void"}, t("console", "tag-voided")), " ");
  }
  if (undoable(row, view, role)) {
    item.append(" ", el("button", {type: "button", class: "small undo", dataset: {seq: String(row.seq)},
      onclick: () => onUndo(row)}, t("taps", "undo")));
  }
  return item;
}

/**
 * The list, newest first: the outbox's ``items`` with the rows the fold gave each (``now.rows``), then the last
 * recorded events of ``known`` (a page's tracker); ``role``: the key's; ``onUndo(row)``: a row's "Undo" tapped.
 */
export function recentList(items, now, known, role, onUndo) {
  const pending = items.map((item, i) => waitingItem(item, now.rows[i], known.view.teams));
  const recorded = known.log.slice(-RECENT).map((row) => recordedItem(row, known.view, role, onUndo));
  return [...pending.reverse(), ...recorded.reverse()];
}
