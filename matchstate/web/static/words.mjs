// The words the pages use for the log's names: event types, states, a free hit. English for now; a
// language is one more table here.

const LABELS = {
  "chukker.start": "Chukker start", "chukker.end": "Chukker end", "penalty.award": "Penalty",
  "knockin.award": "Knock-in", "ball.place": "Ball placed", "play": "Play", "dribble": "Dribble",
  "approach.abort": "Approach aborted", "ball.retee": "Re-tee", "hit": "Hit", "ball.stop": "Ball stopped",
  "ball.out": "Ball out", "goal": "Goal", "position.improper": "Improper position",
  "player.return": "Player returned", "player.play": "Early play", "card": "Card", "decide": "Decide",
  "whistle": "Whistle", "void": "Undo last", "tick": "Clock check", "match.end": "Match end",
  "clock.stop": "Clock stop", "clock.start": "Clock start",
};

/** An event type's name on its button. */
export const label = (type) => LABELS[type] || type;

/** An event type's name in a sentence: the button's, but a void is what it is, whoever logged it. */
export const eventName = (type) => (type === "void" ? "Void" : label(type));

const PENALTY_NAMES = {
  "1": "Penalty 1", "2": "Penalty 2", "3": "Penalty 3", "4": "Penalty 4", "5a": "Penalty 5.a",
  "5b": "Penalty 5.b", "6": "Penalty 6 (safety)", "knockin": "Knock-in",
};

/** A free hit in words, as the server writes it ("Penalty 2 to Blue, from the centre, 30 yards from goal"). */
export function describeFreeHit(freeHit) {
  const where = freeHit.from === "center" ? "from the centre, " : "";
  const text = `${PENALTY_NAMES[freeHit.penalty]} to ${freeHit.to}, ${where}${freeHit.yards_to_goal} yards from goal`;
  return freeHit.defended ? text : `${text}, undefended`;
}

/** A count of events in words: "1 event", "3 events". */
export const events = (n) => `${n} event${n === 1 ? "" : "s"}`;

/** A state's name: "play called"; null (the provisional fold cannot tell) is "ruled on arrival". */
export const stateName = (state) => (state === null ? "ruled on arrival" : state.replace("_", " "));

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
