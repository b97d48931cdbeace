// The words the pages use for the log's names: event types, states, a free hit, all from the one catalog
// (catalog.mjs), in the language chosen.

import {has, t} from "./catalog.mjs";

/** An event type's name on its button. */
export const label = (type) => (has("event", type) ? t("event", type) : type);

/** An event type's name in a sentence: the button's, but a void is what it is, whoever logged it. */
export const eventName = (type) => (type === "void" ? t("event", "void-name") : label(type));

/** The role of the key that recorded an event, in words ("no role": a league's import). */
export const roleName = (role) => (!role ? t("console", "no-role")
  : role === "official" ? t("review", "role-official") : t("review", "role-scorer"));

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

/** A field's name, as a form and a timeline show it: "Yards to goal". */
export const fieldName = (name) => {
  const section = ["form", "taps"].find((where) => has(where, `field-${name}`));  // taps: the console's own fields
  return section ? t(section, `field-${name}`) : name.replaceAll("_", " ");
};

/** A field's value among its choices, in words: "centre", "mis-hit" (a team's name is its own). */
export const choiceName = (choice) => (has("form", `choice-${choice}`) ? t("form", `choice-${choice}`) : String(choice));

// A field's value in words: a choice by its name, a roster by its players ("1 Cambiaso, 2 Pieres"), a
// team's goals by handicap as "Red 1".
function valueWords(value) {
  if (typeof value === "boolean") return t("form", value ? "yes" : "no");
  if (Array.isArray(value)) return value.map(valueWords).join(", ");
  if (value && typeof value === "object") {
    if ("player" in value) return [value.player, value.name].filter((part) => part != null).join(" ");
    // a clock's settings by their names in words; a team's goals by handicap by the team's own name
    const named = (name) => (has("form", `field-${name}`) ? fieldName(name) : name);
    return Object.entries(value).map(([name, inner]) => `${named(name)} ${valueWords(inner)}`).join("; ");
  }
  return choiceName(value);
}

/** An event's own fields, for a timeline: "Penalty 3, To Blue", a void's "#3"; long values (rosters) cut short. */
export function details(event) {
  const brief = (value) => {
    const text = valueWords(value);
    return text.length > 40 ? text.slice(0, 39) + "…" : text;
  };
  return Object.entries(event)
    .filter(([name]) => !["type", "at", "id", "by"].includes(name))
    .map(([name, value]) => (name === "seq" ? `#${value}` : `${fieldName(name)} ${brief(value)}`))
    .join(", ");
}

/** An event in a line: "Goal (Team Blue, Player 1)". */
export function describeEvent(event) {
  const fields = details(event);
  return fields ? `${eventName(event.type)} (${fields})` : eventName(event.type);
}
