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
 * Each chukker ended, in order, as the engine folds the log (the view's ``officials.chukker_scores``): the chukker
 * that was in play at its latest chukker.end, which is the one a confirmation names, whatever number the end
 * itself gave; ``score``, the score right after that end (what a confirmation is compared with); and whether its
 * latest confirmation agrees: ``state`` "confirmed", "queried" or "unconfirmed".
 */
export function chukkerScores(officials) {
  const confirmed = new Set(officials?.confirmed || []);
  const queried = new Set(officials?.queried || []);
  // A chukker's number is an integer key: JavaScript lists such keys in ascending order.
  return Object.entries(officials?.chukker_scores || {}).map(([number, score]) => {
    const chukker = Number(number);
    const state = confirmed.has(chukker) ? "confirmed" : queried.has(chukker) ? "queried" : "unconfirmed";
    return {chukker, score, state};
  });
}
