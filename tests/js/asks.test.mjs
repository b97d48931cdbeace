// Where a slip is likely, the console asks first; and the 20 seconds' end is the console's to log.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";

import {discardQuestion, question, relogQuestion} from "../../matchstate/web/static/asks.mjs";
import {secondsLeft, tickDue} from "../../matchstate/web/static/countdown.mjs";

const penalty2 = {penalty: "2", to: "Blue", yards_to_goal: 30, from: "center", defended: false};

describe("questions before logging", () => {
  it("asks before a hit no Play preceded, offering to log Play first", () => {
    const asked = question("hit", {player: 3, contact: "hit"}, {awaiting_play: true, free_hit: penalty2});
    assert.match(asked.text, /hit before “Play”/);
    assert.deepEqual(asked.actions.map((a) => a.id), ["play-first", "anyway", "cancel"]);
  });

  it("logs a hit after Play, or with no free hit known, at once", () => {
    assert.equal(question("hit", {}, {awaiting_play: false, free_hit: penalty2}), null);
    assert.equal(question("hit", {}, {awaiting_play: null, free_hit: null}), null);
    assert.equal(question("goal", {team: "Blue"}, {awaiting_play: true, free_hit: penalty2}), null);
  });

  it("asks before a chukker's edge out of order, and before a chukker after the last when the score is not tied", () => {
    speak("en");
    const between = {phase: "between", chukker: 6, timing: {chukkers: 6}, teams: ["Blue", "Red"], score: {Blue: 4, Red: 2}};
    const ended = question("chukker.end", {chukker: 6}, between);
    assert.equal(ended.title, "No chukker is in play");
    assert.deepEqual(ended.actions.map((a) => [a.id, a.label]), [["confirm", "Log the end anyway"], ["cancel", "Cancel"]]);
    // rarely meant: Cancel is the answer it recommends, and a reflex Enter gives
    assert.deepEqual(ended.actions.map((a) => [a.id, Boolean(a.primary)]), [["confirm", false], ["cancel", true]]);
    const seventh = question("chukker.start", {chukker: 7}, between);
    assert.equal(seventh.title, "The 6 chukkers are played");
    assert.match(seventh.text, /not tied \(Blue 4 – Red 2\)/);
    assert.equal(question("chukker.start", {chukker: 7}, {...between, score: {Blue: 3, Red: 3}}), null);  // a tie
    const playing = {...between, phase: "play", chukker: 3};
    assert.match(question("chukker.start", {chukker: 4}, playing).text, /Chukker 4 would start now/);
    assert.equal(question("chukker.end", {chukker: 3}, playing), null);
    assert.equal(question("chukker.end", {chukker: 1}, {...between, phase: "before", chukker: null}), null);
    assert.equal(question("chukker.start", {chukker: 4}, {...playing, phase: "between"}), null);
  });

  it("asks an official to confirm a decision, naming the option's outcome", () => {
    const options = [{outcome: {en: "Penalty 2 again", es: "Penal 2 otra vez"}}, {outcome: {en: "Penalty 1 to Blue", es: "Penal 1"}}];
    const asked = question("decide", {option: 2}, {awaiting_play: null, free_hit: null, options});
    assert.match(asked.text, /option 2: Penalty 1 to Blue/);
  });

  it("asks before the end of a match over a free hit in progress, naming it", () => {
    const asked = question("match.end", {}, {awaiting_play: true, free_hit: penalty2});
    assert.match(asked.text, /Penalty 2 to Blue, from the centre, 30 yards from goal, undefended is in progress/);
  });

  it("asks before an award that would replace a free hit not yet taken, Cancel first; not once it is taken", () => {
    speak("en");
    const knockIn = {penalty: "knockin", to: "Blue", yards_to_goal: 300, from: null, defended: true};
    const asked = question("knockin.award", {to: "Red"}, {awaiting_play: true, free_hit: knockIn});
    assert.equal(asked.title, "Replace the free hit in progress?");
    assert.match(asked.text, /^Knock-in to Blue, 300 yards from goal is awarded and not yet taken\. Logging Knock-in \(To Red\) replaces it/);
    assert.deepEqual(asked.actions.map((a) => [a.id, Boolean(a.primary)]), [["confirm", false], ["cancel", true]]);
    assert.equal(question("penalty.award", {penalty: "4", to: "Red"}, {awaiting_play: false, free_hit: knockIn}).title,
      "Replace the free hit in progress?", "after Play, before the stroke, too");
    assert.equal(question("penalty.award", {penalty: "1", to: "Red"}, {awaiting_play: true, free_hit: knockIn}), null,
      "Penalty 1 is a goal: the free hit stays");
    assert.equal(question("knockin.award", {to: "Red"}, {awaiting_play: null, free_hit: knockIn}), null, "taken: none waits");
    assert.equal(question("knockin.award", {to: "Red"}, {awaiting_play: null, free_hit: null}), null);
  });

  it("asks before the end of any match, naming the result that will stand", () => {
    const asked = question("match.end", {}, {awaiting_play: null, free_hit: null, teams: ["Blue", "Red"],
      score: {Blue: 7, Red: 2}});
    assert.equal(asked.title, "End the match?");
    assert.match(asked.text, /The result will stand at Blue 7 – Red 2/);
    assert.deepEqual(asked.actions.map((a) => a.id), ["confirm", "cancel"]);
  });

  it("asks before a goal or an award after the horn, and not before it or for another event", () => {
    const over = {awaiting_play: null, free_hit: null, phase: "over", chukker: 3};
    const goal = question("goal", {team: "Blue", player: 2}, over);
    assert.equal(goal.title, "The horn has gone");
    assert.match(goal.text, /Chukker 3's time has run out.*flagged “after the horn”/);
    assert.deepEqual(goal.actions.map((a) => a.id), ["confirm", "cancel"]);
    for (const award of ["penalty.award", "knockin.award"]) {
      assert.match(question(award, {to: "Red"}, over).text, /taken after the next chukker's start/);
    }
    for (const phase of ["play", "extra", "between"]) assert.equal(question("goal", {team: "Blue"}, {...over, phase}), null);
    assert.equal(question("chukker.end", {chukker: 3}, over), null);
    assert.equal(question("ball.out", {}, over), null);
  });

  it("asks before discarding, naming what is discarded", () => {
    const one = discardQuestion([{type: "goal", team: "Blue", player: 1, at: "x", id: "y"}]);
    assert.equal(one.title, "Discard Goal?");
    assert.deepEqual(one.items, ["Goal (Team Blue, Player 1)"]);
    assert.equal(discardQuestion([{type: "play"}, {type: "hit"}]).title, "Discard these 2 events?");
  });

  it("shows the new time and id of an event logged again", () => {
    const asked = relogQuestion([{before: {type: "goal", team: "Red", at: "2026-11-29T15:00:00.000Z", id: "a"},
      after: {type: "goal", team: "Red", at: "2026-11-29T15:04:00.000Z", id: "web-b"}}]);
    assert.match(asked.items[0], /Goal \(Team Red\): at 2026-11-29T15:04:00.000Z \(logged at 2026-11-29T15:00:00.000Z\), id web-b/);
  });

  it("asks in the language chosen, the outcome of the Umpire's option too", () => {
    speak("es");
    try {
      const options = [{outcome: {en: "Penalty 2 again", es: "Penal 2 otra vez"}}];
      const asked = question("decide", {option: 1}, {awaiting_play: null, free_hit: null, options});
      assert.match(asked.text, /opción 1: Penal 2 otra vez/);
      assert.equal(question("goal", {team: "Blue"}, {phase: "over", chukker: 3}).title, "Sonó la bocina");
      assert.equal(discardQuestion([{type: "play"}, {type: "hit"}]).actions[1].label, "Conservarlos");
    } finally {
      speak("en");
    }
  });
});

describe("the 20 seconds", () => {
  const called = {state: "play_called", timed: true, play_at: "2026-11-29T15:00:00.000Z"};
  const play = Date.parse(called.play_at);

  it("counts down from Play, only where the 20 seconds bind", () => {
    assert.equal(secondsLeft(called, play + 5500, 20), 14.5);
    assert.equal(secondsLeft({...called, timed: false}, play, 20), null);
    assert.equal(secondsLeft({...called, state: "live"}, play, 20), null);
  });

  it("is due for the clock check only once they have run out: 20.0 seconds is in time", () => {
    assert.equal(tickDue(called, play + 20_000, 20), false);
    assert.equal(tickDue(called, play + 20_100, 20), false);
    assert.equal(tickDue(called, play + 20_150, 20), true);
  });
});
