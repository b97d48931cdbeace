// The quick form's fields: which are needed with the values chosen so far (a Penalty 5.a needs its yards),
// and what a form logs.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import "./catalog.mjs";
import {applies, defaults, filled, missing, needed, unfit} from "../../matchstate/web/static/quickform.mjs";

// penalty.award's fields as GET /api/event-types gives them.
const AWARD = [
  {name: "penalty", kind: "choice", required: true, default: null, choices: ["1", "2", "3", "4", "5a", "5b", "6"]},
  {name: "to", kind: "team", required: true, default: null, choices: null},
  {name: "from", kind: "choice", required: false, default: "center", choices: ["center", "spot"],
    applies_when: [{penalty: "2"}]},
  {name: "yards_to_goal", kind: "yards", required: false, default: null, choices: null, must: "yards-to-goal",
    required_when: [{penalty: "2", from: "spot"}, {penalty: "5a", from: "center"}, {penalty: "5a", from: "spot"}]},
];
// A distance's field (an approach abort's closest yards, say), as the server gives it.
const DISTANCE = {name: "closest_yards", kind: "yards", required: true, default: null, choices: null, must: "distance"};
const yards = AWARD[3];

describe("the quick form", () => {
  it("needs a Penalty 5.a's yards, and a Penalty 2's only from the spot", () => {
    assert.equal(needed(yards, {...defaults(AWARD), penalty: "3"}), false);
    assert.equal(needed(yards, {...defaults(AWARD), penalty: "5a"}), true);
    assert.equal(needed(yards, {...defaults(AWARD), penalty: "2"}), false);
    assert.equal(needed(yards, {...defaults(AWARD), penalty: "2", from: "spot"}), true);
  });

  it("says what is still missing, and logs only the fields given", () => {
    const values = {...defaults(AWARD), penalty: "5a", to: "Red"};
    assert.deepEqual(missing(AWARD, values).map((f) => f.name), ["yards_to_goal"]);
    assert.deepEqual(missing(AWARD, {...values, yards_to_goal: 40}), []);
    assert.deepEqual(filled(AWARD, {...values, yards_to_goal: ""}), {penalty: "5a", to: "Red"});
  });

  it("refuses the yards the server would, greater than 0 and less than the field's length, as it words them", () => {
    const values = {...defaults(AWARD), penalty: "5a", to: "Red"};
    for (const wrong of [0, -5, 300, 400]) {
      const [found, ...more] = unfit(AWARD, {...values, yards_to_goal: wrong}, {fieldLength: 300});
      assert.equal(found.field.name, "yards_to_goal");
      assert.equal(found.must, "a number of yards greater than 0 and less than the field length, 300");
      assert.deepEqual(more, []);
    }
    assert.deepEqual(unfit(AWARD, {...values, yards_to_goal: 299.5}, {fieldLength: 300}), []);
    const [distance] = unfit([DISTANCE], {closest_yards: -1}, {fieldLength: 300});
    assert.equal(distance.must, "a number of yards, 0 or more");
    assert.deepEqual(unfit([DISTANCE], {closest_yards: 0}, {fieldLength: 300}), []);
  });

  it("logs a place (from) with a Penalty 2 only, the one penalty the log gives one", () => {
    const values = {...defaults(AWARD), to: "Red"};
    assert.equal(applies(AWARD[2], {...values, penalty: "2"}), true);
    assert.equal(applies(AWARD[2], {...values, penalty: "4"}), false);
    assert.deepEqual(filled(AWARD, {...values, penalty: "2"}), {penalty: "2", to: "Red", from: "center"});
    assert.deepEqual(filled(AWARD, {...values, penalty: "4"}), {penalty: "4", to: "Red"});
  });
});
