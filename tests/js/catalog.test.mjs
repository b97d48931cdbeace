// The pages' words: the one catalog (data/words.toml) as every page carries it, read by catalog.mjs.
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {describe, it} from "node:test";

import "./catalog.mjs";
import {has, t} from "../../matchstate/web/static/catalog.mjs";
import {setLang} from "../../matchstate/web/static/lang.mjs";

// A phrase filled in as the server's matchstate.words fills it (the venv's python).
const python = (code) => execFileSync(process.env.PYTHON || "python", ["-c", code], {encoding: "utf-8"});
const FILLED = "from matchstate.words import phrase; print(phrase('outcome', 'goal', 'es', team='Club: {Blue}'))";

describe("a phrase from the catalog", () => {
  it("is in the language chosen, with its fields filled in as the server fills them", () => {
    setLang("en");
    assert.equal(t("outcome", "goal", {team: "Red"}), "Goal to Red");
    setLang("es");
    assert.equal(t("outcome", "goal", {team: "Club: {Blue}"}), python(FILLED).trim());
    assert.equal(document.cookie, "matchstate_lang=es; path=/; max-age=31536000; samesite=lax", "the server is told");
  });

  it("names a phrase that is not in the catalog, rather than showing nothing", () => {
    assert.equal(has("outcome", "goal"), true);
    assert.equal(has("outcome", "nothing"), false);
    assert.throws(() => t("outcome", "nothing"), /no phrase outcome\.nothing/);
  });
});

describe("an event in a line", () => {
  it("names a clock's settings in words, and a team's goals by handicap by the team's own name", async () => {
    const {describeEvent} = await import("../../matchstate/web/static/words.mjs");
    setLang("es");
    const start = {type: "match.start", clock: {chukker_seconds: 420, extra_seconds: 30}, handicap_goals: {Los_Pumas: 1}};
    const line = describeEvent(start);
    assert.match(line, /Reloj cada chukker \(s\) 420; extra \(s\) 30,/);
    assert.match(line, /Goles por hándicap Los_Pumas 1/);
    assert.doesNotMatch(line, /chukker_seconds|extra_seconds/);  // the log's own names, shown as they were
  });
});

describe("a goal count", () => {
  it("is written as the server's pages write it, on every page that shows a score", async () => {
    const {goals, score} = await import("../../matchstate/web/static/show.mjs");
    const python = (n) => execFileSync(process.env.PYTHON || "python", ["-c",
      `from matchstate.tournaments.standings import goals; print(goals(${n}))`], {encoding: "utf-8"}).trim();
    for (const n of [7, 7.5, 0.5, -0.5, -2.5]) assert.equal(goals(n), python(n));
    assert.equal(score(["Blue", "Red"], {Blue: 5.5, Red: 3}), "Blue 5½ – Red 3");  // the records list said 5.5
    assert.equal(goals(undefined), "");  // said "NaN½"
  });
});
