// The chukker clock a page shows: the match view's clock, read at its last event, run on to now; and
// how it reads to a spectator (time left, the bell's extra time, the horn) and beside an event.

/** Playing time in seconds at ``nowMs``: the reading at the last event, plus, while it runs, the time since. */
export function playedAt(clock, nowMs) {
  return clock.played + (clock.running ? Math.max(0, nowMs - Date.parse(clock.at)) / 1000 : 0);
}

/** The clock at ``nowMs``: its chukker, playing time and phase (while it runs the bell and the horn pass). */
export function reading(clock, nowMs) {
  const played = playedAt(clock, nowMs);
  let phase = clock.phase;
  if (clock.running && (phase === "play" || phase === "extra")) {
    const bell = clock.chukker_seconds;
    phase = played < bell ? "play" : played < bell + clock.extra_seconds ? "extra" : "over";
  }
  return {chukker: clock.chukker, played, phase, running: clock.running};
}

/** Seconds as m:ss ("4:05"); ``exact`` adds the milliseconds ("4:05.250"). */
export function minutes(seconds, exact = false) {
  const ms = Math.round(seconds * 1000);
  const whole = Math.floor(ms / 1000);
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return exact ? `${text}.${String(ms % 1000).padStart(3, "0")}` : text;
}

/** The clock beside an event, as the command line's timeline shows it: "2 · 6:58.250" ("- · 0:00.000" before). */
export const clockLabel = (clock) => `${clock.chukker ?? "-"} · ${minutes(clock.played, true)}`;

const CAPTIONS = {
  before: {en: "Not started", es: "Por comenzar"},
  stopped: {en: "Clock stopped", es: "Reloj detenido"},
  play: {en: "", es: ""},
  extra: {en: "Bell: extra time", es: "Campana: tiempo adicional"},
  over: {en: "Horn: chukker over", es: "Bocina: fin del chukker"},
  between: {en: "Between chukkers", es: "Entre chukkers"},
  ended: {en: "Final", es: "Final"},
};

/**
 * What a scoreboard shows of the clock at ``nowMs``: ``time`` (the time left in the chukker; after the
 * bell, the extra time played, "+0:12"), a ``caption`` in each language, and the ``phase``.
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
  return {time, phase: now.phase, chukker: now.chukker, caption: CAPTIONS[stopped ? "stopped" : now.phase]};
}
