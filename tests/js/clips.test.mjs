// The video pinned to the log's time: an event's moment in a clip, the sync that pins a frame to a row, the
// row a clip is showing, and the frame steps and speeds.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {clipTime, frameStep, moment, nextSpeed, pinnedSeconds, rowShown, startFor, syncsByClip}
  from "../../matchstate/web/static/clips.mjs";

const sync = {clip: "umpire-1.mp4", clip_seconds: 10, at: "2026-11-29T15:01:00.000Z"};
const rows = [
  {seq: 1, at: "2026-11-29T15:00:00.000Z"},
  {seq: 2, at: "2026-11-29T15:00:58.500Z"},
  {seq: 3, at: "2026-11-29T15:01:02.000Z"},
  {seq: 4, at: "2026-11-29T15:01:02.000Z"},
  {seq: 5, at: "2026-11-29T15:01:30.250Z"},
];

describe("an event's moment in a clip", () => {
  it("is clip_seconds plus the event's time since the sync", () => {
    assert.equal(moment(sync, "2026-11-29T15:01:00.000Z"), 10);
    assert.equal(moment(sync, "2026-11-29T15:01:02.500Z"), 12.5);
  });

  it("is negative for an event before the clip begins", () => {
    assert.equal(moment(sync, "2026-11-29T15:00:00.000Z"), -50);
  });

  it("starts a selected row's clip three seconds before it, never before 0", () => {
    assert.equal(startFor(sync, "2026-11-29T15:01:05.000Z"), 12);
    assert.equal(startFor(sync, "2026-11-29T15:00:58.500Z"), 5.5);
    assert.equal(startFor(sync, "2026-11-29T15:00:00.000Z"), 0);
  });
});

describe("pinning a frame to a row", () => {
  it("logs the sync now with the row's moment carried forward", () => {
    const at = "2026-11-29T15:20:00.000Z";
    const pinned = {clip: "x", clip_seconds: pinnedSeconds(4.2, rows[2].at, at), at};
    assert.equal(pinned.clip_seconds, 4.2 + 18 * 60 + 58);
    assert.ok(Math.abs(moment(pinned, rows[2].at) - 4.2) < 1e-9);
  });

  it("is the frame itself when the row is now", () => {
    assert.equal(pinnedSeconds(7.123, rows[4].at, rows[4].at), 7.123);
  });
});

describe("the row a clip is showing", () => {
  it("is the last event logged at or before the clip's moment", () => {
    assert.equal(rowShown(rows, sync, 10).seq, 2);
    assert.equal(rowShown(rows, sync, 11.999).seq, 2);
    assert.equal(rowShown(rows, sync, 12).seq, 4);  // two at the same time: the later
    assert.equal(rowShown(rows, sync, 100).seq, 5);
  });

  it("is none before the first event", () => {
    assert.equal(rowShown(rows, {...sync, clip_seconds: 100}, 0), null);
    assert.equal(rowShown([], sync, 5), null);
  });

  it("follows the selected row: the clip started before a row shows the row before it", () => {
    const start = startFor(sync, rows[4].at);
    assert.equal(rowShown(rows, sync, start).seq, 4);
    assert.equal(rowShown(rows, sync, start + 3).seq, 5);
  });
});

describe("frames and speeds", () => {
  it("steps one frame at 30 frames a second, or the clip's own rate", () => {
    assert.ok(Math.abs(frameStep(1, 1) - (1 + 1 / 30)) < 1e-12);
    assert.ok(Math.abs(frameStep(1, -1, 25) - 0.96) < 1e-12);
    assert.equal(frameStep(0.01, -1), 0);
  });

  it("goes down to a quarter and back up to real time, held at the ends", () => {
    assert.equal(nextSpeed(1, -1), 0.5);
    assert.equal(nextSpeed(0.5, -1), 0.25);
    assert.equal(nextSpeed(0.25, -1), 0.25);
    assert.equal(nextSpeed(0.25, 1), 0.5);
    assert.equal(nextSpeed(1, 1), 1);
  });
});

describe("the clips in force", () => {
  it("are found by name", () => {
    const byClip = syncsByClip([sync, {clip: "broadcast", clip_seconds: 0, at: sync.at}]);
    assert.equal(byClip.get("umpire-1.mp4"), sync);
    assert.equal(syncsByClip(null).size, 0);
  });

  it("read as minutes and seconds", () => {
    assert.equal(clipTime(62.4), "1:02.40");
    assert.equal(clipTime(-3), "−0:03.00");
    assert.equal(clipTime(-0.001), "0:00.00");  // a frame pinned at 0: said "−0:00.00"
    assert.equal(clipTime(59.999), "1:00.00");  // said "0:60.00"
  });
});
