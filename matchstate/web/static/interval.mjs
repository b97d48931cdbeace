// The interval between chukkers, counted down from the `at` of the chukker.end that began it: judged from the
// events alone, never from a timer of the server's. Its length is the preset's in use (USPA: about three
// minutes, halftime about five), told by the match's clock settings; a club's own clock takes USPA's.
// Nothing here touches the page but the catalog of words, so Node's test runner drives it.

import {t} from "./catalog.mjs";
import {minutes} from "./chukker.mjs";

// By the clock's settings (the records page's presets): the interval's seconds, and halftime's.
const PRESETS = [
  {chukker_seconds: 420, extra_seconds: 30, interval: 180, halftime: 300},  // USPA outdoor
  {chukker_seconds: 450, extra_seconds: 0, interval: 180, halftime: 300},   // arena
];
const USPA = PRESETS[0];

/** The interval's and halftime's lengths, in seconds, for a match's clock. */
export function intervalLengths(clock) {
  const preset = PRESETS.find((p) => p.chukker_seconds === clock.chukker_seconds
    && p.extra_seconds === clock.extra_seconds) || USPA;
  return {interval: preset.interval, halftime: preset.halftime};
}

/**
 * The chukker.end that began the interval: the last that stands among the recorded ``rows`` (``voided``: the
 * seqs struck out) and the events still ``waiting`` on this device, where an interval follows it (intervalFollows,
 * with the match's ``clock`` and ``score``); null if none.
 */
export function intervalStart(clock, score, rows, voided, waiting = []) {
  const ends = [...rows.filter((row) => !voided.includes(row.seq)).map((row) => row.event), ...waiting]
    .filter((event) => event.type === "chukker.end");
  const last = ends.length ? ends[ends.length - 1] : null;
  return last && intervalFollows(clock, last.chukker, score) ? last : null;
}

/**
 * Whether an interval follows chukker ``ended``: not after the last chukker planned (``clock.chukkers``) where the
 * ``score`` is not level, as no chukker follows it; level, an extra chukker does.
 */
export function intervalFollows(clock, ended, score) {
  const goals = Object.values(score);
  return ended < clock.chukkers || goals.every((count) => count === goals[0]);
}

/**
 * The interval after chukker ``ended`` (ended at ``endedAt``, ISO) read at ``nowMs``: the seconds left (below
 * zero once it has run over), whether it is halftime, and its words: {left, halftime, time, caption}.
 * @param {{chukker_seconds: number, extra_seconds: number, chukkers: number}} clock
 */
export function intervalReading(clock, ended, endedAt, nowMs) {
  const lengths = intervalLengths(clock);
  const halftime = clock.chukkers % 2 === 0 && ended === clock.chukkers / 2;
  const left = (halftime ? lengths.halftime : lengths.interval) - (nowMs - Date.parse(endedAt)) / 1000;
  const time = left > 0 ? minutes(Math.ceil(left)) : `+${minutes(Math.floor(-left))}`;
  const caption = t("taps", left > 0 ? (halftime ? "halftime" : "interval") : (halftime ? "halftime-over" : "interval-over"));
  return {left, halftime, time, caption};
}
