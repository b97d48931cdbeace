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
