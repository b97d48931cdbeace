// Fewer taps: the usual player for a stroke, an award's own fields, the events an award's form logs, and the
// interval between chukkers counted down from the chukker's end.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";
import {awardEvents, awardFields, gridBy, sentBy, usualPlayer} from "../../matchstate/web/static/taps.mjs";
import {intervalFollows, intervalReading} from "../../matchstate/web/static/interval.mjs";

const row = (type, event, ruling = null) => ({type, event: {type, ...event}, ruling});
const TEAMS = ["Blue", "Red"];

describe("the usual player", () => {
  it("is the team's last taker of the same kind of free hit", () => {
    const rows = [row("knockin.award", {to: "Red"}), row("hit", {player: 4}),
      row("penalty.award", {to: "Red", penalty: "3"}), row("hit", {player: 2}),
      row("penalty.award", {to: "Blue", penalty: "2"}), row("hit", {player: 1})];
    assert.equal(usualPlayer(rows, "Red", true), 4);
    assert.equal(usualPlayer(rows, "Red", false), 2);
    assert.equal(usualPlayer(rows, "Blue", false), 1);
  });

  it("follows a free hit a ruling awards", () => {
    const rows = [row("penalty.award", {to: "Blue", penalty: "3"}), row("play", {}),
      row("tick", {}, {kind: "award", to: "Red", penalty: "5a"}), row("hit", {player: 3})];
    assert.equal(usualPlayer(rows, "Red", false), 3);
  });

  it("is by habit where the team has taken none: the back's knock-in, the #3's penalty", () => {
    assert.equal(usualPlayer([], "Blue", true), 4);
    assert.equal(usualPlayer([], "Blue", false), 3);
  });
});

describe("an award's form", () => {
  const fields = [{name: "penalty"}, {name: "to"}, {name: "card", kind: "choice", choices: ["yellow"]}];

  it("asks the card's colour and player, and the whistle, on while the clock runs", () => {
    const asked = awardFields("penalty.award", fields, true);
    assert.deepEqual(asked.map((f) => f.name), ["penalty", "to", "card", "card_player", "whistle"]);
    assert.deepEqual(asked[2].choices, ["yellow", "red"]);
    assert.equal(asked[4].default, true);
    assert.deepEqual(awardFields("knockin.award", [{name: "to"}], false).map((f) => [f.name, f.default]),
      [["to", undefined], ["whistle", false]]);
  });

  it("logs the whistle, the award with its yellow card, then the card to the fouling team's player", () => {
    assert.deepEqual(awardEvents("penalty.award", {penalty: "2", to: "Blue", card: "yellow", card_player: 2,
      whistle: true}, TEAMS), [["whistle", {}], ["penalty.award", {penalty: "2", to: "Blue", card: "yellow"}],
      ["card", {team: "Red", player: 2, colour: "yellow"}]]);
  });

  it("logs a red card as a card alone: the award has no field for it", () => {
    assert.deepEqual(awardEvents("penalty.award", {penalty: "4", to: "Red", card: "red", card_player: 1,
      whistle: false}, TEAMS), [["penalty.award", {penalty: "4", to: "Red"}],
      ["card", {team: "Blue", player: 1, colour: "red"}]]);
  });

  it("is logged by the team chosen; a ball's line and a stroke's contact log their own", () => {
    assert.equal(sentBy("penalty.award"), "to");
    assert.equal(sentBy("ball.out"), "over");
    assert.equal(sentBy("hit"), "contact");
    assert.equal(sentBy("goal"), null);
  });

  it("takes a penalty's number with its team in one tap; a knock-in, its team alone", () => {
    assert.equal(gridBy("penalty.award"), "penalty");
    assert.equal(gridBy("knockin.award"), null);
    assert.equal(gridBy("ball.out"), null);
  });
});

describe("the interval", () => {
  const clock = {chukker_seconds: 420, extra_seconds: 30, chukkers: 6};
  const END = "2026-11-29T15:20:00.000Z";
  const at = (seconds) => Date.parse(END) + seconds * 1000;

  it("counts three minutes down from the chukker's end, then says it has run over", () => {
    speak("en");
    assert.deepEqual(intervalReading(clock, 1, END, at(0.4)).time, "3:00");
    const late = intervalReading(clock, 1, END, at(192));
    assert.deepEqual([late.time, late.caption, late.halftime], ["+0:12", "interval over", false]);
  });

  it("follows every chukker but the last, and the last too where the score is level (an extra chukker follows)", () => {
    const twoChukkers = {...clock, chukkers: 2};
    assert.equal(intervalFollows(twoChukkers, 1, {Blue: 3, Red: 1}), true);
    assert.equal(intervalFollows(twoChukkers, 2, {Blue: 3, Red: 1}), false);
    assert.equal(intervalFollows(twoChukkers, 2, {Blue: 2.5, Red: 2.5}), true);
    assert.equal(intervalFollows(twoChukkers, 3, {Blue: 4, Red: 3}), false);  // an extra chukker, decided
  });

  it("gives halftime five, in Spanish too", () => {
    speak("es");
    const half = intervalReading(clock, 3, END, at(60));
    assert.deepEqual([half.time, half.caption, half.halftime], ["4:00", "entretiempo", true]);
    speak("en");
  });
});
