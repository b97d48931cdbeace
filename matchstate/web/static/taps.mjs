// Fewer taps for the usual case: who usually takes a team's free hit, the award's own fields (the whistle
// recorded with it while the clock runs, the card's player), and how a form's values become the events
// logged. Nothing here touches the page but the catalog of words, so Node's test runner drives it.

import {t} from "./catalog.mjs";

export const PLAYERS = [1, 2, 3, 4];
const AWARDS = new Set(["penalty.award", "knockin.award"]);
const CARDED = [{card: "yellow"}, {card: "red"}];

/** Whether an event type awards a free hit: its form logs it by the team's button, with the whistle. */
export const isAward = (type) => AWARDS.has(type);

/** Whether an event begins a free hit: an award, but for Penalty 1, which is a goal. */
export const beginsFreeHit = (event) => isAward(event.type) && event.penalty !== "1";

// The field whose choice logs the event, by type: its Log buttons are its choices.
const SENT_BY = {"penalty.award": "to", "knockin.award": "to", "ball.out": "over", "approach.abort": "how",
  hit: "contact"};

/** The field whose choice logs an event of ``type`` (its form has one Log button per choice), or null. */
export const sentBy = (type) => SENT_BY[type] ?? null;

// The field chosen with it by the same tap, by type: a penalty's number, in a grid of the teams' Log buttons.
const GRID_BY = {"penalty.award": "penalty"};

/** The field an event of ``type`` takes in the same tap as its Log button's (a grid: a row per choice of the
 * one, a button per choice of the other), or null. */
export const gridBy = (type) => GRID_BY[type] ?? null;

/**
 * The player who usually takes ``team``'s free hit of this kind (a knock-in, or a penalty): the last of
 * that team's strokes of the same kind in ``rows`` (the standing events, oldest first), else that team's
 * last stroke, else the habit (a knock-in is the back's, #4; a penalty the #3's).
 * @param {{type: string, event: object, ruling: object|null}[]} rows
 */
export function usualPlayer(rows, team, knockIn) {
  let hitting = null;     // the team and kind of the free hit in progress, as the events give it
  let sameKind = null;
  let any = null;
  for (const row of rows) {
    const event = row.event;
    if (AWARDS.has(row.type)) hitting = {to: event.to, knockIn: row.type === "knockin.award"};
    if (row.ruling && (row.ruling.kind === "award" || row.ruling.kind === "rehit")) {
      hitting = {to: row.ruling.to, knockIn: row.ruling.penalty === "knockin"};
    }
    if (row.type === "hit" && hitting && hitting.to === team) {
      any = event.player;
      if (hitting.knockIn === knockIn) sameKind = event.player;
    }
  }
  return sameKind ?? any ?? (knockIn ? 4 : 3);
}

/**
 * An award's fields as its form asks them: the log format's, the card with its colour (yellow or red) and
 * the player who drew it (of the fouling team), and the whistle, recorded with the award (its default:
 * whether the chukker clock runs, since an award with the clock running means the umpire blew).
 */
export function awardFields(type, fields, clockRuns) {
  const whistle = {name: "whistle", kind: "flag", required: false, default: clockRuns, choices: null,
    required_when: [], applies_when: null};
  if (type !== "penalty.award") return [...fields, whistle];
  const shown = fields.map((field) => (field.name === "card"
    ? {...field, choices: ["yellow", "red"]} : field));
  const player = {name: "card_player", kind: "player", required: false, default: null, choices: null,
    required_when: CARDED, applies_when: CARDED};
  const at = shown.findIndex((field) => field.name === "card") + 1;
  return [...shown.slice(0, at), player, ...shown.slice(at), whistle];
}

/**
 * The events an award's form logs, in order: the whistle (where recorded with it), the award (``card:
 * "yellow"`` on it where the log format has it: a yellow card's foul), then the card itself, to the fouling
 * team's player. The award goes before the card: a yellow card to the defending team while a Penalty 2 is
 * in progress is a Penalty 1, which the award with its card has already given.
 * @param {object} values  the form's values, filled
 * @param {string[]} teams
 */
export function awardEvents(type, values, teams) {
  const {whistle, card, card_player: player, ...award} = values;
  const events = whistle ? [["whistle", {}]] : [];
  events.push([type, card === "yellow" ? {...award, card} : award]);
  if (card && player) {
    const fouling = teams.find((team) => team !== award.to);
    events.push(["card", {team: fouling, player, colour: card}]);
  }
  return events;
}

/** The team whose player the card names: the fouling team, the one the award is not to. */
export const fouling = (teams, to) => (to ? teams.find((team) => team !== to) : null);

/** The words of a form's Log button for one choice of the field that logs it (``text``: the choice's). */
export function sendLabel(form, field, text) {
  if (field.name !== "to") return text;
  return t("taps", form.values.whistle ? "to-team-whistle" : "to-team", {team: text});
}
