// The console's two clocks, drawn into their boxes at each render and every tenth of a second: the chukker
// clock (or the interval between chukkers) with its bell and horn, and the 20 seconds after "Play".

import {t} from "./catalog.mjs";
import {bell, horn} from "./cue.mjs";
import {reading, shownClock} from "./chukker.mjs";
import {intervalReading, intervalStart} from "./interval.mjs";

/**
 * The chukker clock in ``box``, read from ``timing`` (the match's clock with what waits here folded in) at
 * ``nowMs``, the server's time; between chukkers, the interval since the last chukker's end (of ``known``'s log
 * and the events ``waiting``), where one follows it (not the last chukker's, the score not level). ``cues`` sounds the bell or the horn where the clock has just passed one.
 */
export function showChukkerClock(box, timing, nowMs, {known, waiting, cues}) {
  const at = reading(timing, nowMs);
  const words = shownClock(at);
  box.dataset.phase = at.phase;
  box.dataset.running = String(at.running);
  box.querySelector(".chukker b").textContent = words.chukker;
  box.querySelector(".time").textContent = words.time;
  box.querySelector(".running").textContent = words.running;
  box.querySelector(".phase").textContent = words.phase;
  const clock = {...known.view.clock, ...timing};
  const ended = at.phase === "between" ? intervalStart(clock, known.view.score, known.log, known.view.void, waiting)
    : null;
  box.classList.toggle("interval", Boolean(ended));
  if (ended) {
    const interval = intervalReading(clock, ended.chukker, ended.at, nowMs);
    box.dataset.late = String(interval.left <= 0);
    box.querySelector(".time").textContent = interval.time;
    box.querySelector(".running").textContent = interval.caption;  // the phase stays: between chukkers
  }
  for (const cue of cues.due(at)) (cue === "bell" ? bell : horn)();
}

/**
 * The 20 seconds in ``box``: ``left`` of ``windowSeconds`` (null: no window runs). Once they are up, who logs
 * the clock check: this console (``times``: it holds the seat and logged the "Play"), or another (``seated``:
 * this one holds the seat, but the "Play" was another tab's).
 */
export function showCountdown(box, left, windowSeconds, {seated, times}) {
  box.classList.toggle("idle", left === null);
  box.classList.toggle("late", left !== null && left <= 0);
  box.classList.toggle("hurry", left !== null && left > 0 && left <= 5);
  box.querySelector(".seconds").textContent = left === null ? "20.0" : left > 0 ? left.toFixed(1) : "0.0";
  box.querySelector(".note").textContent = left !== null && left <= 0 && !seated ? t("seat", "countdown-up-watching")
    : t("console", left === null ? "countdown-idle" : left > 0 ? "countdown-running"
      : times ? "countdown-up" : "countdown-up-theirs");
  box.querySelector(".bar i").style.width = `${left === null ? 0 : Math.max(0, left / windowSeconds) * 100}%`;
}
