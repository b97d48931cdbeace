// The provisional fold: where the match stands with the events waiting in the outbox counted.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {fold} from "../../matchstate/web/static/fold.mjs";
import {logged} from "./fakes.mjs";

// The rule set's numbers as the server gives them for a USPA match on a 300-yard field (GET /api/matches/{code}).
const spot = (penalty, yards, from = null, defended = true) => ({penalty, yards_to_goal: yards, from, defended});
const USPA = {
  fixed: {"2c": spot("2", 30, "center", false), 3: spot("3", 40), 4: spot("4", 60), 6: spot("6", 60),
    "5b": spot("5b", 150), knockin: spot("knockin", 300)},
  timed: ["2", "3", "4", "5a", "5b", "6"], yellow_card_goal: ["2"],
};
const idle = {
  seq: 9, state: "idle", teams: ["Blue", "Red"], score: {Blue: 1, Red: 2}, free_hit: null, play_at: null,
  timed: false, window_seconds: 20, free_hit_rules: USPA,
};

function after(...events) { return fold(idle, events); }

function at(event, ms) { return {...event, at: new Date(ms).toISOString()}; }

describe("a free hit's plain course", () => {
  it("follows a Penalty 3 from its award to the goal it gives", () => {
    const award = logged("penalty.award", {penalty: "3", to: "Blue"});
    const steps = [award, logged("ball.place"), logged("play"), logged("hit", {player: 3, contact: "hit"}),
      logged("goal", {team: "Blue", player: 3})];
    const folded = after(...steps);
    assert.deepEqual(folded.rows.map((row) => row.state), ["awarded", "placed", "play_called", "live", "idle"]);
    assert.deepEqual(folded.rows[0].free_hit, {penalty: "3", to: "Blue", yards_to_goal: 40, from: null, defended: true});
    assert.equal(folded.rows[2].play_at, steps[2].at);
    assert.equal(folded.rows[2].timed, true);
    assert.deepEqual(folded.score, {Blue: 2, Red: 2});
    assert.equal(folded.free_hit, null);
    assert.equal(folded.sure, true);
    assert.equal(folded.provisional, true);
    assert.deepEqual(folded.rows.map((row) => row.id), steps.map((e) => e.id));
  });

  it("puts each free hit on the spot the log format fixes", () => {
    const spot = (fields) => after(logged("penalty.award", {to: "Red", ...fields})).free_hit;
    assert.deepEqual(spot({penalty: "2"}), {penalty: "2", to: "Red", from: "center", yards_to_goal: 30, defended: false});
    assert.equal(spot({penalty: "2", from: "spot", yards_to_goal: 45}).yards_to_goal, 45);
    assert.equal(spot({penalty: "2", from: "spot", yards_to_goal: 45}).defended, true);
    assert.equal(spot({penalty: "4"}).yards_to_goal, 60);
    assert.equal(spot({penalty: "5a", yards_to_goal: 110}).yards_to_goal, 110);
    assert.equal(spot({penalty: "5b"}).yards_to_goal, 150);
    assert.equal(spot({penalty: "6"}).yards_to_goal, 60);
  });

  it("takes every number from the match's rule set, none of its own", () => {
    // A club's conditions on a 280-yard field: its Penalty 3 undefended, its 5.b at half the field, 30 seconds.
    const club = {...USPA, fixed: {...USPA.fixed, 3: spot("3", 40, null, false), "5b": spot("5b", 140)},
      timed: ["2", "3"], yellow_card_goal: []};
    const folded = (...events) => fold({...idle, window_seconds: 30, free_hit_rules: club}, events);
    assert.equal(folded(logged("penalty.award", {penalty: "3", to: "Red"})).free_hit.defended, false);
    assert.equal(folded(logged("penalty.award", {penalty: "5b", to: "Red"})).free_hit.yards_to_goal, 140);
    assert.equal(folded(logged("penalty.award", {penalty: "4", to: "Red"})).timed, false);
    const yellow = folded(logged("penalty.award", {penalty: "2", to: "Blue", card: "yellow"}));
    assert.deepEqual([yellow.state, yellow.free_hit.penalty], ["awarded", "2"]);  // no goal by its yellow card here
    const play = at(logged("play"), 0);
    const hit = at(logged("hit", {player: 3, contact: "hit"}), 25_000);  // late by USPA's 20 s, not by 30
    assert.equal(folded(logged("penalty.award", {penalty: "3", to: "Blue"}), play, hit).state, "live");
  });

  it("is sure of nothing but the goals with a view that lacks the rule set's numbers", () => {
    const kept = {...idle};
    delete kept.free_hit_rules;  // a console's snapshot kept from before the server gave them
    const folded = fold(kept, [logged("penalty.award", {penalty: "3", to: "Red"}), logged("goal", {team: "Red"})]);
    assert.deepEqual([folded.sure, folded.state, folded.score], [false, null, {Blue: 1, Red: 3}]);
  });

  it("gives a knock-in from the back line, with no 20 seconds", () => {
    const folded = after(logged("knockin.award", {to: "Red"}), logged("play"));
    assert.deepEqual(folded.free_hit, {penalty: "knockin", to: "Red", yards_to_goal: 300, from: null, defended: true});
    assert.equal(folded.state, "play_called");
    assert.equal(folded.timed, false);
  });

  it("counts Penalty 1, and a Penalty 2 with a yellow card, as a goal at once", () => {
    assert.deepEqual(after(logged("penalty.award", {penalty: "1", to: "Red"})).score, {Blue: 1, Red: 3});
    const yellow = after(logged("penalty.award", {penalty: "2", to: "Blue", card: "yellow"}));
    assert.deepEqual([yellow.score.Blue, yellow.state], [2, "idle"]);
  });

  it("gives the defending team a knock-in when the ball goes over the back line", () => {
    const folded = after(logged("penalty.award", {penalty: "4", to: "Blue"}), logged("play"),
      logged("hit", {player: 1, contact: "hit"}), logged("ball.out", {over: "backline"}));
    assert.equal(folded.state, "awarded");
    assert.equal(folded.free_hit.penalty, "knockin");
    assert.equal(folded.free_hit.to, "Red");
  });

  it("starts from where the server left the match", () => {
    const called = {...idle, state: "play_called", free_hit: {penalty: "2", to: "Red", yards_to_goal: 30, from: "center", defended: false},
      play_at: "2026-11-29T15:00:00.000Z", timed: true};
    const folded = fold(called, [at(logged("hit", {player: 2, contact: "hit"}), Date.parse(called.play_at) + 19_000)]);
    assert.equal(folded.state, "live");
  });

  it("says nothing is provisional when nothing waits", () => {
    const folded = fold(idle, []);
    assert.equal(folded.provisional, false);
    assert.deepEqual([folded.state, folded.score], ["idle", idle.score]);
  });
});

describe("where the engine rules, the fold does not guess", () => {
  it("leaves the end of a free hit to the engine while a defending-team violation waits on it", () => {
    const live = {...idle, state: "live", timed: true, waiting: [{code: "early-play", team: "Red", prevented_goal: false}],
      free_hit: {penalty: "4", to: "Blue", yards_to_goal: 60, from: null, defended: true}};
    for (const end of [logged("goal", {team: "Blue"}), logged("ball.out", {over: "backline"}), logged("whistle")]) {
      assert.equal(fold(live, [end]).sure, false, end.type);  // an increased penalty, or a choice, may follow
    }
    assert.equal(fold({...live, waiting: []}, [logged("whistle")]).state, "idle");
  });

  it("leaves the state unknown after a hit before Play, and still counts the goals after it", () => {
    const folded = after(logged("penalty.award", {penalty: "2", to: "Blue"}), logged("hit", {player: 1, contact: "hit"}),
      logged("goal", {team: "Red"}));
    assert.equal(folded.rows[1].sure, false);
    assert.equal(folded.state, null);
    assert.equal(folded.sure, false);
    assert.deepEqual(folded.score, {Blue: 1, Red: 3});
  });

  it("leaves it unknown after the 20 seconds ran out, by a late hit or a clock check", () => {
    const play = logged("play");
    const start = Date.parse(play.at);
    const award = at(logged("penalty.award", {penalty: "3", to: "Blue"}), start - 1000);
    const inTime = fold(idle, [award, play, at(logged("tick"), start + 20_000)]);
    assert.equal(inTime.state, "play_called", "exactly 20.0 seconds is in time");
    const lateTick = fold(idle, [award, play, at(logged("tick"), start + 20_001)]);
    assert.equal(lateTick.sure, false);
    const lateHit = fold(idle, [award, play, at(logged("hit", {player: 1, contact: "hit"}), start + 25_000)]);
    assert.equal(lateHit.sure, false);
  });

  it("does not judge violations, voids, choices or a deliberate miss", () => {
    const award = logged("penalty.award", {penalty: "2", to: "Blue"});
    for (const event of [logged("position.improper", {team: "Red"}), logged("void", {seq: 4, reason: "x"}),
      logged("approach.abort", {how: "passed"}), logged("ball.retee"), logged("dribble")]) {
      assert.equal(after(award, event).sure, false, event.type);
    }
    const miss = after(award, logged("play"), logged("hit", {player: 1, contact: "miss"}));
    assert.equal(miss.sure, false);
  });

  it("does not guess what a whistle before the stroke does", () => {
    const folded = after(logged("penalty.award", {penalty: "3", to: "Red"}), logged("play"), logged("whistle"));
    assert.equal(folded.sure, false);
  });

  it("guesses nothing while the Umpire must choose", () => {
    const folded = fold({...idle, state: "choosing"}, [logged("goal", {team: "Blue"})]);
    assert.equal(folded.sure, false);
  });
});

describe("whether a free hit awaits Play", () => {
  it("knows it from the award, the call and the stroke", () => {
    const folded = after(logged("penalty.award", {penalty: "4", to: "Blue"}), logged("ball.place"), logged("play"),
      logged("hit", {player: 2, contact: "hit"}));
    assert.deepEqual(folded.rows.map((row) => row.awaiting_play), [true, true, false, null]);
    assert.equal(fold({...idle, state: "placed"}, []).awaiting_play, true);
  });

  it("still knows it with the state unknown", () => {
    const folded = after(logged("penalty.award", {penalty: "2", to: "Blue"}), logged("position.improper", {team: "Red"}),
      logged("penalty.award", {penalty: "3", to: "Red"}));
    assert.equal(folded.sure, false);
    assert.equal(folded.awaiting_play, true);
    assert.equal(after(logged("penalty.award", {penalty: "2", to: "Blue"}), logged("dribble"), logged("play")).awaiting_play, false);
  });
});
