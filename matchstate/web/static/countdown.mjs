// The 20 seconds after "Play": how many are left, and when the window has run out, so the console logs
// the clock check itself and the engine rules at once. Exactly 20.0 seconds is in time: the check goes
// a little after.

export const TICK_LATE_MS = 150;

/**
 * Seconds left in the window, or null where none runs.
 * @param {{state: string|null, timed: boolean, play_at: string|null}} now  the match (or the provisional fold)
 * @param {number} serverNow  the server's time in ms (the corrected clock)
 * @param {number} windowSeconds
 */
export function secondsLeft(now, serverNow, windowSeconds) {
  if (now.state !== "play_called" || !now.timed || !now.play_at) return null;
  return windowSeconds - (serverNow - Date.parse(now.play_at)) / 1000;
}

/** Whether the window that began at ``now.play_at`` has run out: time for the clock check. */
export function tickDue(now, serverNow, windowSeconds) {
  if (secondsLeft(now, serverNow, windowSeconds) === null) return false;
  return serverNow - Date.parse(now.play_at) >= windowSeconds * 1000 + TICK_LATE_MS;
}

/**
 * The "Play" whose 20 seconds run now: the last logged at ``now.play_at``, recorded or still waiting here.
 * @param {{play_at: string|null}} now
 * @param {{event: object}[]} rows  the recorded events this device knows
 * @param {object[]} waiting  the events waiting in its outbox
 */
export function windowPlay(now, rows, waiting) {
  if (!now.play_at) return null;
  const at = Date.parse(now.play_at);
  const plays = [...rows.map((row) => row.event), ...waiting].filter((e) => e.type === "play" && Date.parse(e.at) === at);
  return plays.length ? plays[plays.length - 1] : null;
}

/**
 * The events this tab logged, by id, kept in its session storage (a reload keeps them; another tab or device
 * has its own): the console logs the clock check only for a "Play" it logged itself, so a second console left
 * open, which knows nothing of a stroke the first holds offline, never rules the 20 seconds run out.
 */
export class OwnEvents {
  static KEPT = 500;

  constructor(storage, name) {
    this.storage = storage;
    this.name = name;
    this.ids = JSON.parse(storage.getItem(name) || "[]");
  }

  add(id) {
    this.ids = [...this.ids, id].slice(-OwnEvents.KEPT);
    this.storage.setItem(this.name, JSON.stringify(this.ids));
  }

  has(id) { return this.ids.includes(id); }
}
