// Where a slip is likely, the console asks before it logs: a stroke no "Play" preceded, an official's
// decision, a goal or an award after the horn, an award over a free hit not yet taken, the end of the match
// (and over a free hit in progress), discarding what the scorer logged.
// Each question is data, {title, text, items, actions}, in the language chosen; the page shows it and
// answers with an action's id.

import {t} from "./catalog.mjs";
import {lang} from "./lang.mjs";
import {describeEvent, describeFreeHit, label} from "./words.mjs";
import {score} from "./show.mjs";
import {IN_CHUKKER} from "./chukker.mjs";
import {beginsFreeHit} from "./taps.mjs";

const cancel = () => ({id: "cancel", label: t("form", "cancel")});
// What logging each type after the horn means, said before it is logged.
const AFTER_THE_HORN = {"goal": "horn-goal", "penalty.award": "horn-award", "knockin.award": "horn-award"};

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
      title: t("console", "horn-title"),
      text: t("console", "horn-text", {chukker: now.chukker, what: t("console", AFTER_THE_HORN[type])}),
      actions: [{id: "confirm", label: t("console", type === "goal" ? "horn-goal-anyway" : "horn-award-anyway"),
        primary: true}, cancel()],
    };
  }
  const edge = edgeQuestion(type, fields, now);
  if (edge) return edge;
  const replaced = replaceQuestion(type, fields, now);
  if (replaced) return replaced;
  if (type === "hit" && now.awaiting_play === true) {
    return {
      title: t("console", "no-play-title"),
      text: t("console", "no-play-text"),
      actions: [{id: "play-first", label: t("console", "play-first"), primary: true},
        {id: "anyway", label: t("console", "hit-anyway")}, cancel()],
    };
  }
  if (type === "decide") {
    const option = (now.options || [])[fields.option - 1];
    return {
      title: t("console", "decide-title"),
      text: t("console", option ? "decide-text-outcome" : "decide-text",
        {option: fields.option, outcome: option ? option.outcome[lang()] : ""}),
      actions: [{id: "confirm", label: t("console", "decide-confirm", {option: fields.option}), primary: true}, cancel()],
    };
  }
  if (type === "match.end") {
    // Ending the match makes its score the result everywhere (the scoreboard says "Final"): always asked.
    const result = score(now.teams || Object.keys(now.score || {}), now.score || {});
    return {
      title: t("console", now.free_hit ? "end-title" : "end-title-result"),
      text: now.free_hit ? t("console", "end-text", {free_hit: describeFreeHit(now.free_hit)})
        : t("console", "end-text-result", {score: result}),
      actions: [{id: "confirm", label: t("console", "end-confirm"), danger: Boolean(now.free_hit),
        primary: !now.free_hit}, cancel()],
    };
  }
  return null;
}

// An award logged while another free hit awaits its stroke takes its place (a knock-in to the wrong team, a
// second tap): Cancel is the answer a reflex Enter gives. Penalty 1 is a goal, and replaces nothing.
function replaceQuestion(type, fields, now) {
  if (!beginsFreeHit({type, ...fields}) || !now.free_hit || now.awaiting_play === null) return null;
  return {title: t("console", "replace-title"),
    text: t("console", "replace-text", {free_hit: describeFreeHit(now.free_hit), award: describeEvent({type, ...fields})}),
    actions: [{id: "confirm", label: t("console", "replace-confirm")}, {...cancel(), primary: true}]};
}

// A chukker's edge out of order (log format 1.1, "Playing time"): the log flags it and the clock follows it, or a
// second end changes nothing; a chukker after the last one is played only to break a tie.

function edgeQuestion(type, fields, now) {
  // Out of order is rarely meant (a chukker's end not logged, say): Cancel is the answer a reflex Enter gives.
  const anyway = (words) => [{id: "confirm", label: words}, {...cancel(), primary: true}];
  const playing = IN_CHUKKER.has(now.phase);
  if (type === "chukker.end" && now.phase === "between") {
    return {title: t("console", "edge-no-chukker-title"), text: t("console", "edge-no-chukker-text"),
      actions: anyway(t("console", "edge-end-anyway"))};
  }
  if (type === "chukker.start" && playing) {
    return {title: t("console", "edge-in-play-title", {chukker: now.chukker}),
      text: t("console", "edge-in-play-text", {chukker: now.chukker, next: fields.chukker}),
      actions: anyway(t("console", "edge-start-anyway", {chukker: fields.chukker}))};
  }
  const goals = Object.values(now.score || {});
  const chukkers = now.timing?.chukkers;
  if (type === "chukker.start" && chukkers && fields.chukker > chukkers && new Set(goals).size > 1) {
    return {title: t("console", "edge-played-title", {chukkers}),
      text: t("console", "edge-played-text", {score: score(now.teams || Object.keys(now.score), now.score),
        chukker: fields.chukker}),
      actions: anyway(t("console", "edge-start-anyway", {chukker: fields.chukker}))};
  }
  return null;
}

/** Before discarding events the scorer logged: they are never recorded. */
export function discardQuestion(events) {
  const one = events.length === 1;
  return {
    title: one ? t("console", "discard-title-one", {event: label(events[0].type)})
      : t("console", "discard-title-many", {count: events.length}),
    text: t("console", one ? "discard-text-one" : "discard-text-many"),
    items: events.map(describeEvent),
    actions: [{id: "confirm", label: t("console", one ? "discard-it" : "discard-them"), danger: true},
      {id: "cancel", label: t("console", one ? "keep-it" : "keep-them")}],
  };
}

/** Before logging refused events again, re-timed: what will be sent, with its new time and id. */
export function relogQuestion(plan) {
  return {
    title: plan.length === 1 ? t("console", "relog-title-one", {event: label(plan[0].after.type)})
      : t("console", "relog-title-many", {count: plan.length}),
    text: t("console", "relog-text"),
    items: plan.map(({before, after}) => t("console", "relog-item",
      {event: describeEvent(after), at: after.at, before: before.at, id: after.id})),
    actions: [{id: "confirm", label: t("console", plan.length === 1 ? "send-it" : "send-them"), primary: true}, cancel()],
  };
}
