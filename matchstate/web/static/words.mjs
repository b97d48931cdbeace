// The words the pages use for the log's names: event types, states, a free hit, all from the one catalog
// (catalog.mjs), in the language chosen.

import {has, t} from "./catalog.mjs";

/** An event type's name on its button. */
export const label = (type) => (has("event", type) ? t("event", type) : type);

/** An event type's name in a sentence: the button's, but a void is what it is, whoever logged it. */
export const eventName = (type) => (type === "void" ? t("event", "void-name") : label(type));

/** A free hit in words, as the server writes it ("Penalty 2 to Blue, from the centre, 30 yards from goal"). */
export function describeFreeHit(freeHit) {
  return t("free_hit", "text", {
    penalty: t("penalty", freeHit.penalty), team: freeHit.to,
    where: freeHit.from === "center" ? t("free_hit", "center") : "", yards: freeHit.yards_to_goal,
    undefended: freeHit.defended ? "" : t("free_hit", "undefended"),
  });
}

/** A count of events in words: "1 event", "3 events". */
export const events = (n) => (n === 1 ? t("common", "event-one") : t("common", "events", {n}));

/** A state's name: "play called"; null (the provisional fold cannot tell) is "ruled on arrival". */
export const stateName = (state) => {
  const key = state === null ? "arrival" : state;
  return has("state", key) ? t("state", key) : key.replace("_", " ");
};

/** An event's own fields, for a timeline: "penalty=3, to=Blue"; long values (rosters) cut short. */
export function details(event) {
  const brief = (value) => {
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    return text.length > 40 ? text.slice(0, 39) + "…" : text;
  };
  return Object.entries(event)
    .filter(([name]) => !["type", "at", "id", "by"].includes(name))
    .map(([name, value]) => `${name}=${brief(value)}`)
    .join(", ");
}

/** An event in a line: "Goal (team=Blue, player=1)". */
export function describeEvent(event) {
  const fields = details(event);
  return fields ? `${eventName(event.type)} (${fields})` : eventName(event.type);
}
