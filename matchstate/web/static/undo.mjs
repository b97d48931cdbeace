// "Undo": what it takes back and how it names it. An event still waiting here is taken back from the outbox;
// a recorded one is voided, by an official any that stands, by a scorer only the scorer's own.

import {t} from "./catalog.mjs";
import {time} from "./show.mjs";
import {describeEvent, label} from "./words.mjs";

/** Whether a key of ``role`` may void a recorded event (a row of the log) of the match ``view``. */
export const undoable = (row, view, role) => row.type !== "void" && row.type !== "match.start"
  && !view.void.includes(row.seq) && (role === "official" || row.role === "scorer");

/** The last standing event of ``log`` a key of ``role`` may void (null: none). */
export function lastUndoable(log, view, role) {
  const standing = log.filter((row) => undoable(row, view, role));
  return standing.length ? standing[standing.length - 1] : null;
}

/** An event in a few words, for the undo that takes it back: "Goal, Blue #3", "Penalty 3, Red". */
export function brief(event) {
  const team = event.team ?? event.to;
  const player = event.player ? `#${event.player}` : null;
  const who = [team, player].filter(Boolean).join(" ");
  return [event.penalty ? t("penalty", event.penalty) : label(event.type), who].filter(Boolean).join(", ");
}

/** What "Undo" says it would take back: the last event of ``waiting`` (events), else ``last`` (a row). */
export function undoLabel(waiting, last) {
  if (waiting.length) return t("console", "take-back-named", {what: brief(waiting[waiting.length - 1])});
  return last ? t("console", "undo-named", {what: brief(last.event)}) : label("void");
}

/**
 * The form "Undo" opens at ``at``: taking back the last event waiting (``waiting``: the outbox's events), else
 * voiding ``last``; null where there is nothing to undo.
 */
export function undoForm(waiting, last, at) {
  if (waiting.length) {
    const taken = waiting[waiting.length - 1];
    return {type: "void", takeBack: taken, values: {}, at, action: t("console", "take-back"),
      note: t("console", "take-back-note", {event: describeEvent(taken), time: time(taken.at)})};
  }
  if (!last) return null;
  return {type: "void", values: {seq: last.seq, reason: t("console", "void-reason")}, at,
    action: t("console", "undo-named", {what: brief(last.event)}),
    note: t("console", "void-note", {seq: last.seq, event: describeEvent(last.event)})};
}

/** The question before undoing a past event of the list, which names it. */
export function undoQuestion(row) {
  return {
    title: t("taps", "undo-title", {seq: row.seq, what: brief(row.event)}),
    text: t("console", "void-note", {seq: row.seq, event: describeEvent(row.event)}),
    actions: [{id: "confirm", label: t("taps", "undo-confirm"), danger: true}, {id: "cancel", label: t("form", "cancel")}],
  };
}
