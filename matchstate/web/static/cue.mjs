// An audible cue made by the browser itself (Web Audio: no sound file to fetch or cache).
// A browser starts audio only after the person has touched the page: the first tap wakes it.

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

/** Three short high beeps. */
export function beep() {
  const ctx = audio();
  const start = ctx.currentTime;
  for (let i = 0; i < 3; i++) {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "square";
    tone.frequency.value = 1320;
    gain.gain.setValueAtTime(0.25, start + i * 0.22);
    gain.gain.setValueAtTime(0, start + i * 0.22 + 0.14);
    tone.connect(gain).connect(ctx.destination);
    tone.start(start + i * 0.22);
    tone.stop(start + i * 0.22 + 0.15);
  }
}
