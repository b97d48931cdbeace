// The console's sounds, made by the browser itself (Web Audio: no sound file to fetch or cache): the
// 20 seconds' cue, the bell and the horn, each unlike the others. A browser starts audio only after the
// person has touched the page: the first tap wakes it. Each cue played is named in ``window.matchstateCues``
// (a few words a chukker), so a test can tell what was played without listening.

let context = null;

function audio() {
  context ||= new AudioContext();
  return context;
}

/** Let later cues sound: call on a tap or key press. */
export function wake() {
  if (context && context.state === "running") return;
  audio().resume().catch(() => {});
}

function played(name) {
  (window.matchstateCues ||= []).push(name);
}

// One tone: ``wave`` at ``hz`` from ``from`` for ``seconds`` (after the context's time now), at ``level``,
// fading out over its length where ``fade`` (a struck bell), else cut clean.
function tone(ctx, {wave, hz, from, seconds, level, fade = false}) {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  const start = ctx.currentTime + from;
  oscillator.type = wave;
  oscillator.frequency.value = hz;
  gain.gain.setValueAtTime(level, start);
  if (fade) gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
  else gain.gain.setValueAtTime(0, start + seconds - 0.01);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + seconds);
}

/** The 20 seconds ran out: three short high beeps. */
export function beep() {
  const ctx = audio();
  for (let i = 0; i < 3; i++) tone(ctx, {wave: "square", hz: 1320, from: i * 0.22, seconds: 0.15, level: 0.25});
  played("twenty");
}

/** The bell: the chukker's time is played, extra time begins. Two struck rings, fading. */
export function bell() {
  const ctx = audio();
  for (let i = 0; i < 2; i++) tone(ctx, {wave: "sine", hz: 880, from: i * 0.5, seconds: 0.9, level: 0.5, fade: true});
  played("bell");
}

/** The horn: the chukker is over. One long low blast. */
export function horn() {
  tone(audio(), {wave: "sawtooth", hz: 196, from: 0, seconds: 1.6, level: 0.3});
  played("horn");
}
