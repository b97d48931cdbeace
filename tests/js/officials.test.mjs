// The officials' record as the review reads it: who may ask for a review, the match.end in force and the
// audit window after it, each chukker confirmed, queried or not yet.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {askers, chukkerScores, countdownText, matchEnd, windowLeft} from "../../matchstate/web/static/officials.mjs";

const END_AT = "2026-11-29T16:00:00.000Z";
const row = (seq, type, fields = {}) => ({seq, type, at: END_AT, event: {type, ...fields}, clock: {chukker: 1}});

describe("who may ask for a review", () => {
  it("is the umpire, the referee, and a team only while it has a challenge left", () => {
    const who = askers(["Blue", "Red"], {Blue: 1, Red: 0});
    assert.deepEqual(who.map((w) => [w.asker, w.refused]), [["umpire", false], ["referee", false], ["Blue", false], ["Red", true]]);
    assert.equal(who[2].left, 1);
  });

  it("refuses every team where the match gave no challenges", () => {
    assert.ok(askers(["Blue", "Red"], undefined).filter((w) => w.team).every((w) => w.refused && w.left === 0));
  });
});

describe("the audit window", () => {
  it("counts 900 seconds down from the match.end in force, then stays at 0", () => {
    const at = Date.parse(END_AT);
    assert.equal(windowLeft(END_AT, at), 900);
    assert.equal(windowLeft(END_AT, at + 60_500), 839.5);
    assert.equal(windowLeft(END_AT, at + 901_000), 0);
    assert.equal(countdownText(839.5), "14:00");
    assert.equal(countdownText(900), "15:00");
  });

  it("runs from the latest match.end that no void struck", () => {
    const log = [row(1, "match.start"), row(9, "match.end"), row(10, "void", {seq: 9}), row(11, "match.end")];
    assert.equal(matchEnd(log, [9]).seq, 11);
    assert.equal(matchEnd(log, [9, 11]), null);
  });
});

describe("the chukkers to confirm", () => {
  it("are the chukkers the engine counts ended, in order, each with its score at its end and its state", () => {
    // In order as numbers (10 after 2), whatever order the server's JSON gave them in.
    const officials = {chukker_scores: {"10": {Blue: 5, Red: 4}, "2": {Blue: 1, Red: 1}, "1": {Blue: 1, Red: 0}},
      confirmed: [2], queried: [1]};
    assert.deepEqual(chukkerScores(officials).map((c) => [c.chukker, c.state, c.score]),
      [[1, "queried", {Blue: 1, Red: 0}], [2, "confirmed", {Blue: 1, Red: 1}], [10, "unconfirmed", {Blue: 5, Red: 4}]]);
    assert.deepEqual(chukkerScores({}), []);
    assert.deepEqual(chukkerScores(undefined), []);
  });
});
