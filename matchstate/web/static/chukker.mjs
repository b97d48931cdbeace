// The chukker clock the pages show (the console; the scoreboard and the review through chukkerclock.mjs): read from the match's own clock (its reading at the last event,
// GET /api/matches/{code} "clock") plus, while it runs, the server's time since that event. Never a
// timer of its own: every reading is worked out again from the events, so it cannot drift from them.
// Nothing here touches the page but the catalog of words (catalog.mjs), so Node's test runner drives it.
//
// A clock, as the server gives it: {chukker, played, running, phase, at, chukker_seconds, extra_seconds,
// chukkers}; ``played`` is the reading at ``at`` (seconds), ``phase`` one of before, play, extra, over,
// between, ended (log format 1.1, "Playing time").

import {has, t} from "./catalog.mjs";

export const IN_CHUKKER = new Set(["play", "extra", "over"]);
// A clock not given yet (a console's snapshot from before version 1.1): before the first chukker, so its
// lengths are never read; they are the match's, as the server gives them, never typed in here.
const BEFORE = {chukker: null, played: 0, running: false, phase: "before", at: null};
// What ends extra time early in a chukker before the last (the last one's untied goal is the engine's to tell).
const ENDS_EXTRA = new Set(["goal", "ball.out", "whistle"]);

/**
 * The clock at ``now``: its playing time in seconds, whether it runs, and its phase, the bell and the horn
 * counted from the time played.
 * @param {object|undefined} clock  the match's clock (a console's snapshot from before version 1.1 has none)
 * @param {number} now  the server's time, in ms (the corrected device clock)
 */
export function reading(clock, now) {
  const c = {...BEFORE, ...clock};
  const running = c.running && IN_CHUKKER.has(c.phase) && c.at !== null;
  // A device clock behind the last event's reads that event's time: the reading never goes back.
  const played = c.played + (running ? Math.max(0, now - Date.parse(c.at)) / 1000 : 0);
  let phase = c.phase;
  if ((phase === "play" || phase === "extra") && played >= c.chukker_seconds + c.extra_seconds) phase = "over";
  else if (phase === "play" && played >= c.chukker_seconds) phase = "extra";
  return {chukker: c.chukker, played, running, phase};
}

/**
 * The clock once the events waiting on this device are counted, as far as this device can tell: chukkers
 * start and end, the clock stops (a whistle, a clock stop) and runs again (a clock start, a stroke), the
 * match ends. The server's clock replaces it as each event is recorded.
 */
export function foldClock(clock, events) {
  let c = {...BEFORE, ...clock};
  for (const event of events) {
    const at = Date.parse(event.at);
    const now = reading(c, at);
    const inChukker = IN_CHUKKER.has(now.phase);
    const stopped = {...c, played: now.played, phase: now.phase, at: event.at, running: false};
    if (event.type === "chukker.start") {
      c = {...c, chukker: event.chukker, played: 0, running: true, phase: "play", at: event.at};
    } else if (event.type === "chukker.end" && inChukker) {
      c = {...stopped, phase: "between"};
    } else if (event.type === "match.end" && !inChukker) {
      c = {...stopped, phase: "ended"};
    } else if ((event.type === "whistle" || event.type === "clock.stop") && inChukker && now.running) {
      c = stopped;
    } else if ((event.type === "clock.start" || event.type === "hit") && inChukker && !now.running) {
      c = {...stopped, running: true};
    } else if (inChukker) {
      c = {...c, played: now.played, phase: now.phase, at: event.at};
    }
    if (ENDS_EXTRA.has(event.type) && now.phase === "extra" && c.chukker < c.chukkers) c = {...c, phase: "over"};
  }
  return c;
}

/** Playing time as a clock shows it: whole seconds, "m:ss"; ``exact`` adds the milliseconds ("4:05.250"). */
export function minutes(seconds, exact = false) {
  const ms = Math.round(seconds * 1000);
  const whole = Math.floor(ms / 1000);
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return exact ? `${text}.${String(ms % 1000).padStart(3, "0")}` : text;
}

/** The clock in words, in the language chosen, for its display: {chukker, time, running, phase}. */
export function shownClock(now) {
  return {
    chukker: now.chukker === null ? "–" : String(now.chukker),
    time: minutes(now.played),
    running: t("console", now.running ? "clock-running" : "clock-stopped"),
    phase: has("console", `phase-${now.phase}`) ? t("console", `phase-${now.phase}`) : now.phase,
  };
}

/** The number a chukker.start would give (the next one), and the chukker a chukker.end would end. */
export function chukkerNumbers(now) {
  return {start: (now.chukker || 0) + 1, end: now.chukker || 1};
}

/**
 * The bell and the horn, each sounded once per chukker: ``due(reading)`` gives the cues the clock passed
 * since the reading before ("bell" as the phase goes from play to extra, "horn" as it reaches over, which
 * is the horn alone where there is no extra time). The first reading only sets where the clock stands:
 * a console opened after the bell does not ring it again.
 */
export class Cues {
  constructor() {
    this.last = null;
    this.sounded = {chukker: null, cues: new Set()};
  }

  due(now) {
    const before = this.last;
    this.last = now;
    if (this.sounded.chukker !== now.chukker) this.sounded = {chukker: now.chukker, cues: new Set()};
    if (!before || before.chukker !== now.chukker) return [];
    const due = [];
    if (before.phase === "play" && now.phase === "extra") due.push("bell");
    if ((before.phase === "play" || before.phase === "extra") && now.phase === "over") due.push("horn");
    const fresh = due.filter((cue) => !this.sounded.cues.has(cue));
    fresh.forEach((cue) => this.sounded.cues.add(cue));
    return fresh;
  }
}
