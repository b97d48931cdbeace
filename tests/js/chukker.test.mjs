// The chukker clock the console shows is read from the match's clock and the server's time, never kept.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import "./catalog.mjs";

import {Cues, chukkerNumbers, foldClock, minutes, reading, shownClock} from "../../matchstate/web/static/chukker.mjs";

const AT = "2026-11-29T15:10:00.000Z";
const T = Date.parse(AT);
const short = (fields) => ({chukker: 1, played: 0, running: true, phase: "play", at: AT,
  chukker_seconds: 60, extra_seconds: 10, chukkers: 4, ...fields});

describe("reading the clock", () => {
  it("adds the server's time since the last event while it runs, to the millisecond", () => {
    const now = reading(short({played: 12.5}), T + 30_250);
    assert.equal(now.played, 42.75);
    assert.equal(now.running, true);
    assert.equal(now.phase, "play");
  });

  it("reads the time played at the last event while stopped, however long ago that was", () => {
    assert.equal(reading(short({played: 30, running: false}), T + 600_000).played, 30);
  });

  it("rings the bell at exactly chukker_seconds and the horn at exactly chukker_seconds + extra_seconds", () => {
    const clock = short({played: 50});
    assert.equal(reading(clock, T + 9_999).phase, "play");
    assert.equal(reading(clock, T + 10_000).phase, "extra");
    assert.equal(reading(clock, T + 19_999).phase, "extra");
    assert.equal(reading(clock, T + 20_000).phase, "over");
    assert.equal(reading(short({extra_seconds: 0, played: 59}), T + 1000).phase, "over");
  });

  it("keeps the phase the server gave where time does not decide it", () => {
    assert.equal(reading(short({phase: "over", played: 62}), T + 1000).phase, "over");  // extra time ended early
    for (const phase of ["before", "between", "ended"]) {
      const now = reading(short({phase, played: 71, running: false}), T + 5000);
      assert.equal(now.phase, phase);
      assert.equal(now.played, 71);
    }
  });

  it("never goes back when this device's clock is behind the last event", () => {
    assert.equal(reading(short({played: 40}), T - 5000).played, 40);
  });

  it("reads a match from before the clock (a snapshot kept by an older console) as before the first chukker", () => {
    assert.deepEqual(reading(undefined, T), {chukker: null, played: 0, running: false, phase: "before"});
  });
});

describe("showing it", () => {
  it("shows whole seconds as m:ss", () => {
    assert.equal(minutes(0), "0:00");
    assert.equal(minutes(59.999), "0:59");
    assert.equal(minutes(418.25), "6:58");
    assert.equal(minutes(3600), "60:00");
  });

  it("names the phase: play, the bell, the horn, between chukkers", () => {
    const shown = shownClock({chukker: 2, played: 425, running: true, phase: "extra"});
    assert.deepEqual(shown, {chukker: "2", time: "7:05", running: "running", phase: "bell"});
    assert.equal(shownClock({chukker: null, played: 0, running: false, phase: "before"}).chukker, "–");
    assert.equal(shownClock({chukker: 2, played: 431, running: false, phase: "over"}).phase, "horn");
  });

  it("pre-fills the next chukker's number, and the one in play to end", () => {
    assert.deepEqual(chukkerNumbers({chukker: null}), {start: 1, end: 1});
    assert.deepEqual(chukkerNumbers({chukker: 3}), {start: 4, end: 3});
  });
});

describe("the events waiting on this device", () => {
  const at = (seconds) => new Date(T + seconds * 1000).toISOString();

  it("start a chukker, stop and run the clock, end the chukker and the match", () => {
    const before = {chukker: null, played: 0, running: false, phase: "before", at: AT,
      chukker_seconds: 60, extra_seconds: 10, chukkers: 4};
    const started = foldClock(before, [{type: "chukker.start", chukker: 1, at: at(5)}]);
    assert.equal(reading(started, T + 25_000).played, 20);
    const stopped = foldClock(started, [{type: "clock.stop", at: at(25)}, {type: "goal", team: "Blue", at: at(40)}]);
    assert.equal(reading(stopped, T + 90_000).played, 20);
    assert.equal(stopped.running, false);
    const again = foldClock(stopped, [{type: "clock.start", at: at(50)}]);
    assert.equal(reading(again, T + 95_000).played, 65);
    assert.equal(reading(again, T + 95_000).phase, "extra");
    const ended = foldClock(again, [{type: "chukker.end", chukker: 1, at: at(110)}]);
    assert.deepEqual(reading(ended, T + 200_000), {chukker: 1, played: 80, running: false, phase: "between"});
    assert.equal(foldClock(ended, [{type: "match.end", at: at(120)}]).phase, "ended");
  });

  it("end extra time at a goal in a chukker before the last; a whistle stops the clock and a stroke runs it", () => {
    const extra = short({played: 62});
    assert.equal(reading(foldClock(extra, [{type: "goal", team: "Red", at: at(1)}]), T + 2000).phase, "over");
    assert.equal(reading(foldClock(short({played: 62, chukker: 4}), [{type: "ball.stop", at: at(1)}]), T + 2000).phase, "extra");
    const whistled = foldClock(short({played: 10}), [{type: "whistle", at: at(2)}]);
    assert.equal(whistled.running, false);
    const struck = foldClock(whistled, [{type: "hit", player: 1, at: at(30)}]);
    assert.equal(reading(struck, T + 40_000).played, 22);
  });
});

describe("the bell and the horn", () => {
  it("ring once each per chukker, as the clock passes them", () => {
    const cues = new Cues();
    const heard = (chukker, phase) => cues.due({chukker, phase});
    assert.deepEqual(heard(1, "play"), []);
    assert.deepEqual(heard(1, "extra"), ["bell"]);
    assert.deepEqual(heard(1, "extra"), []);
    assert.deepEqual(heard(1, "over"), ["horn"]);
    assert.deepEqual(heard(1, "extra"), []);  // a void took the goal that ended extra time back
    assert.deepEqual(heard(1, "over"), [], "one horn a chukker");
    assert.deepEqual(heard(1, "between"), []);
    assert.deepEqual(heard(2, "play"), []);
    assert.deepEqual(heard(2, "over"), ["horn"], "no extra time: the horn alone");
  });

  it("ring nothing for a clock already past them when the console opens", () => {
    const cues = new Cues();
    assert.deepEqual(cues.due({chukker: 3, phase: "over"}), []);
    assert.deepEqual(cues.due({chukker: 3, phase: "over"}), []);
  });
});
