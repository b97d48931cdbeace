// How the chukker clock reads to a spectator (time left, the bell's extra time, the horn) and beside an event;
// the reading itself, run on to now, is chukker.mjs's.

import {t} from "./catalog.mjs";
import {minutes, reading} from "./chukker.mjs";

/** The clock beside an event, as the command line's timeline shows it: "2 · 6:58.250" ("- · 0:00.000" before). */
export const clockLabel = (clock) => `${clock.chukker ?? "-"} · ${minutes(clock.played, true)}`;

/**
 * What a scoreboard shows of the clock at ``nowMs``: ``time`` (the time left in the chukker; after the
 * bell, the extra time played, "+0:12"), a ``caption`` in the language chosen (none while the clock runs in
 * play), and the ``phase``.
 */
export function face(clock, nowMs) {
  const now = reading(clock, nowMs);
  const left = Math.max(0, clock.chukker_seconds - now.played);
  const time = {
    before: minutes(clock.chukker_seconds),
    play: minutes(Math.ceil(left)),  // 7:00 as it starts, 0:01 in its last second
    extra: `+${minutes(Math.floor(now.played - clock.chukker_seconds))}`,
    over: minutes(0),
    between: "",
    ended: "",
  }[now.phase];
  const stopped = !now.running && (now.phase === "play" || now.phase === "extra");
  const caption = stopped ? t("clock", "stopped") : now.phase === "play" ? "" : t("clock", now.phase);
  return {time, phase: now.phase, chukker: now.chukker, caption};
}
