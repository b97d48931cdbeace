// What officials do around the rulings (log format 1.2), as the review reads it from the match view's
// ``officials`` and its log: who may ask for a review, the chukker scores to confirm, the audit window.

/** The audit window after the final whistle, in seconds (USPA: 15 minutes; the spec's 900 s). */
export const WINDOW_SECONDS = 900;

/**
 * Who may ask for a review: the umpire, the referee, and each team while it has a challenge left.
 * @returns {{asker: string, team: boolean, left: number|null, refused: boolean}[]}
 */
export function askers(teams, challengesLeft) {
  return [
    ...["umpire", "referee"].map((asker) => ({asker, team: false, left: null, refused: false})),
    ...teams.map((team) => {
      const left = (challengesLeft || {})[team] ?? 0;
      return {asker: team, team: true, left, refused: left <= 0};
    }),
  ];
}

/** The log's rows that a `void` has not struck (``struck``: the view's ``void``). */
const standing = (log, struck) => log.filter((row) => !struck.includes(row.seq));

/** The `match.end` in force (the latest not struck), or null. */
export function matchEnd(log, struck) {
  const ends = standing(log, struck).filter((row) => row.type === "match.end");
  return ends.length ? ends[ends.length - 1] : null;
}

/** Seconds left in the audit window at ``serverNow`` (ms) after the match.end logged at ``endAt``; 0 once over. */
export function windowLeft(endAt, serverNow) {
  return Math.max(0, WINDOW_SECONDS - (serverNow - Date.parse(endAt)) / 1000);
}

/** The countdown as it reads: "14:05". */
export function countdownText(left) {
  const whole = Math.ceil(left);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * Each chukker ended (its latest chukker.end not struck), in order, and whether its latest
 * confirmation (not struck) agrees, as the engine judged it: ``state`` "confirmed", "queried" or "unconfirmed".
 */
export function chukkerScores(log, struck, officials) {
  const rows = standing(log, struck);
  const ends = new Map();
  for (const row of rows) if (row.type === "chukker.end" && row.clock) ends.set(row.event.chukker ?? row.clock.chukker, row);
  const confirmed = new Set(officials?.confirmed || []);
  const queried = new Set(officials?.queried || []);
  return [...ends.entries()].sort(([a], [b]) => a - b).map(([chukker, end]) => ({
    chukker, end,
    state: confirmed.has(chukker) ? "confirmed" : queried.has(chukker) ? "queried" : "unconfirmed",
  }));
}
