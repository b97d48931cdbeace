// The match's video pinned to the log's time (log format 1.2, "Video"): where each logged event is in a clip,
// which event a clip is showing, and the steps and speeds an official plays it at. Pure: no page, no video.

/** How far before an event a selected row starts its clip, in seconds: the run-up to the call. */
export const LEAD_SECONDS = 3;

/** The frame rate assumed when a clip does not say its own (most helmet cameras and broadcasts). */
export const FRAME_RATE = 30;

/** The slow-motion speeds, slowest first; 1 is real time. */
export const SPEEDS = [0.25, 0.5, 1];

const seconds = (iso) => Date.parse(iso) / 1000;

/**
 * The moment of ``sync.clip`` that shows an event logged at ``at``: ``clip_seconds + (at − sync.at)``, in
 * seconds (negative: before the clip begins).
 * @param {{clip_seconds: number, at: string}} sync  the video.sync in force for the clip
 * @param {string} at  the event's ``at``
 */
export function moment(sync, at) {
  return sync.clip_seconds + (seconds(at) - seconds(sync.at));
}

/**
 * The ``clip_seconds`` of a video.sync logged at ``syncAt`` that pins the frame ``frameSeconds`` to the row
 * logged at ``rowAt``: the log takes no event earlier than the one before it, so the sync is logged now and
 * its ``clip_seconds`` carries the row's moment forward (``moment(sync, rowAt)`` is ``frameSeconds``).
 * Rounded to the millisecond, as the log's times are.
 */
export function pinnedSeconds(frameSeconds, rowAt, syncAt) {
  return Math.round((frameSeconds + (seconds(syncAt) - seconds(rowAt))) * 1000) / 1000;
}

/** Where selecting an event's row puts its clip: ``lead`` seconds before its moment, never before 0. */
export function startFor(sync, at, lead = LEAD_SECONDS) {
  return Math.max(0, moment(sync, at) - lead);
}

/**
 * The row whose event a clip at ``position`` seconds is showing: the last logged at or before that moment
 * (rows in log order, their ``at`` never going back); null before the first.
 * @template {{at: string}} Row
 * @param {Row[]} rows
 * @returns {Row|null}
 */
export function rowShown(rows, sync, position) {
  const shown = seconds(sync.at) + (position - sync.clip_seconds);
  let low = 0;
  let high = rows.length;  // the first row after the moment
  while (low < high) {
    const middle = (low + high) >> 1;
    if (seconds(rows[middle].at) <= shown + 1e-6) low = middle + 1;
    else high = middle;
  }
  return low ? rows[low - 1] : null;
}

/** One frame forward (``direction`` 1) or back (-1) from ``position``, never before 0. */
export function frameStep(position, direction, rate = FRAME_RATE) {
  return Math.max(0, position + direction / rate);
}

/** The next speed slower (``direction`` -1) or faster (1) than ``speed``, held at the ends of SPEEDS. */
export function nextSpeed(speed, direction) {
  const at = SPEEDS.findIndex((s) => s >= speed - 1e-9);
  const i = at === -1 ? SPEEDS.length - 1 : at;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + direction))];
}

/** The clips in force, by name: the latest video.sync naming each (the match view's ``officials.clips``). */
export function syncsByClip(clips) {
  return new Map((clips || []).map((sync) => [sync.clip, sync]));
}

/** A position in a clip as an official reads it: "1:02.40" (minutes, seconds to the hundredth). */
export function clipTime(position) {
  const hundredths = Math.round(Math.abs(position) * 100);  // rounded first: 59.999 s is 1:00.00, not 0:60.00
  const sign = position < 0 && hundredths > 0 ? "−" : "";  // and a moment a hair before 0 is 0:00.00, not −0:00.00
  const minutes = Math.floor(hundredths / 6000);
  return `${sign}${minutes}:${((hundredths % 6000) / 100).toFixed(2).padStart(5, "0")}`;
}
