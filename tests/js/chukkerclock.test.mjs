// The scoreboard's clock: the view's clock read at its last event, run on to now, through the bell and the horn.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";
import {minutes, reading} from "../../matchstate/web/static/chukker.mjs";
import {clockLabel, face} from "../../matchstate/web/static/chukkerclock.mjs";

const playedAt = (clock, now) => reading(clock, now).played;

const AT = "2026-11-29T15:03:00.000Z";
const at = (seconds) => Date.parse(AT) + seconds * 1000;
const clock = (fields) => ({chukker: 2, played: 100, running: true, phase: "play", at: AT,
  chukker_seconds: 420, extra_seconds: 30, chukkers: 6, ...fields});

describe("playing time", () => {
  it("is the reading at the last event plus, while running, the time since", () => {
    assert.equal(playedAt(clock(), at(0)), 100);
    assert.equal(playedAt(clock(), at(12.5)), 112.5);
  });

  it("stands still while the clock is stopped", () => {
    assert.equal(playedAt(clock({running: false}), at(60)), 100);
  });

  it("never runs backwards when this device's clock is behind the event", () => {
    assert.equal(playedAt(clock(), at(-5)), 100);
  });
});

describe("the phase as time passes", () => {
  it("turns to extra at the bell and to over at the horn while running", () => {
    assert.equal(reading(clock(), at(319.999)).phase, "play");
    assert.equal(reading(clock(), at(320)).phase, "extra");
    assert.equal(reading(clock(), at(349.999)).phase, "extra");
    assert.equal(reading(clock(), at(350)).phase, "over");
  });

  it("has no extra time where the match gives none: the bell is the horn", () => {
    assert.equal(reading(clock({extra_seconds: 0, chukker_seconds: 450}), at(350)).phase, "over");
  });

  it("keeps the phase the events gave when the clock is stopped, ended early, or outside a chukker", () => {
    assert.equal(reading(clock({running: false}), at(1000)).phase, "play");
    assert.equal(reading(clock({phase: "over", played: 430}), at(5)).phase, "over");  // extra time ended by a goal
    for (const phase of ["before", "between", "ended"]) {
      assert.equal(reading(clock({phase, running: false}), at(100)).phase, phase);
    }
  });
});

describe("what a spectator reads", () => {
  it("counts the time left in the chukker down, 7:00 as it starts and 0:01 in its last second", () => {
    assert.equal(face(clock({played: 0}), at(0)).time, "7:00");
    assert.equal(face(clock({played: 0}), at(0.2)).time, "7:00");
    assert.equal(face(clock(), at(0)).time, "5:20");
    assert.equal(face(clock(), at(319.5)).time, "0:01");
  });

  it("shows the extra time played after the bell, and 0:00 at the horn", () => {
    speak("en");
    const bell = face(clock(), at(332.7));
    assert.deepEqual([bell.time, bell.phase, bell.caption], ["+0:12", "extra", "Bell: extra time"]);
    speak("es");
    assert.deepEqual([face(clock(), at(400)).time, face(clock(), at(400)).caption], ["0:00", "Bocina: fin del chukker"]);
  });

  it("says when the clock is stopped, between chukkers and at the end, in the language chosen", () => {
    const caption = (lang, fields) => { speak(lang); return face(clock(fields), at(30)).caption; };
    assert.deepEqual([caption("en", {running: false}), caption("es", {running: false})], ["Clock stopped", "Reloj detenido"]);
    assert.equal(face(clock({running: false}), at(30)).time, "5:20");
    assert.equal(caption("en", {phase: "between", running: false}), "Between chukkers");
    assert.equal(caption("es", {phase: "ended", running: false}), "Final");
    assert.equal(caption("en", {phase: "before", chukker: null, played: 0, running: false}), "Not started");
    assert.equal(face(clock({phase: "before", chukker: null, played: 0, running: false}), at(0)).time, "7:00");
  });

  it("says nothing while the clock runs in play", () => {
    speak("en");
    assert.equal(face(clock(), at(10)).caption, "");
  });
});

describe("the clock beside an event", () => {
  it("reads as the command line's timeline", () => {
    assert.equal(clockLabel({chukker: 2, played: 418.25}), "2 · 6:58.250");
    assert.equal(clockLabel({chukker: null, played: 0}), "- · 0:00.000");
    assert.equal(minutes(65.0004, true), "1:05.000");
  });
});
