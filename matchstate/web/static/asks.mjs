// Where a slip is likely, the console asks before it logs: a stroke no "Play" preceded, an official's
// decision, a goal or an award after the horn, the end of a match over a free hit in progress,
// discarding what the scorer logged.
// Each question is data, {title, text, items, actions}; the page shows it and answers with an action's id.

import {describeEvent, describeFreeHit, label} from "./words.mjs";

const CANCEL = {id: "cancel", label: "Cancel"};
const AWARDED_AT_THE_HORN = "A foul whistled at the end of a chukker is awarded now and taken after the next "
  + "chukker's start.";
// What logging each type after the horn means, said before it is logged.
const AFTER_THE_HORN = {
  "goal": "A goal logged now counts, and is flagged “after the horn” for the officials to look at: "
    + "was the ball through before the horn?",
  "penalty.award": AWARDED_AT_THE_HORN,
  "knockin.award": AWARDED_AT_THE_HORN,
};

/**
 * The question to ask before logging an event, or null to log it at once.
 * @param {string} type
 * @param {object} fields  the event's fields
 * @param {{awaiting_play: boolean|null, free_hit: object|null, options: object[], phase?: string,
 *   chukker?: number|null}} now  where the match stands, the provisional fold counted (options: the choice
 *   pending, as the server gave it; phase and chukker: the chukker clock's at the event's time)
 */
export function question(type, fields, now) {
  if (now.phase === "over" && AFTER_THE_HORN[type]) {
    return {
      title: "The horn has gone",
      text: `Chukker ${now.chukker}'s time has run out. ${AFTER_THE_HORN[type]}`,
      actions: [{id: "confirm", label: `Log the ${type === "goal" ? "goal" : "award"} anyway`, primary: true}, CANCEL],
    };
  }
  if (type === "hit" && now.awaiting_play === true) {
    return {
      title: "No “Play” before this hit",
      text: "No “Play” was logged for this free hit. Logged as it is, the hit is ruled a hit before “Play”, "
        + "a failure of the hitting team.",
      actions: [{id: "play-first", label: "Log “Play”, then the hit", primary: true},
        {id: "anyway", label: "Log a hit before “Play”"}, CANCEL],
    };
  }
  if (type === "decide") {
    const option = (now.options || [])[fields.option - 1];
    const outcome = option ? `: ${option.outcome.en}` : "";
    return {
      title: "The Umpire's choice",
      text: `Record option ${fields.option}${outcome}? It is ruled at once.`,
      actions: [{id: "confirm", label: `Record option ${fields.option}`, primary: true}, CANCEL],
    };
  }
  if (type === "match.end" && now.free_hit) {
    return {
      title: "A free hit is in progress",
      text: `${describeFreeHit(now.free_hit)} is in progress. Ending the match closes it with no ruling, `
        + "and any violation waiting on it lapses.",
      actions: [{id: "confirm", label: "End the match", danger: true}, CANCEL],
    };
  }
  return null;
}

/** Before discarding events the scorer logged: they are never recorded. */
export function discardQuestion(events) {
  const one = events.length === 1;
  return {
    title: one ? `Discard ${label(events[0].type)}?` : `Discard these ${events.length} events?`,
    text: `${one ? "It" : "They"} will not be recorded, and this cannot be undone.`,
    items: events.map(describeEvent),
    actions: [{id: "confirm", label: one ? "Discard it" : "Discard them", danger: true},
      {id: "cancel", label: one ? "Keep it" : "Keep them"}],
  };
}

/** Before logging refused events again, re-timed: what will be sent, with its new time and id. */
export function relogQuestion(plan) {
  return {
    title: plan.length === 1 ? `Log ${label(plan[0].after.type)} again now?` : `Log these ${plan.length} events again now?`,
    text: "The server takes no event earlier than the one before it, so each is sent with the time now "
      + "(the engine judges the 20 seconds from these times):",
    items: plan.map(({before, after}) => `${describeEvent(after)}: at ${after.at} (logged at ${before.at}), id ${after.id}`),
    actions: [{id: "confirm", label: plan.length === 1 ? "Send it" : "Send them", primary: true}, CANCEL],
  };
}
