// Whose 20 seconds they are: only the console that logged the "Play" logs the clock check that ends them.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {OwnEvents, windowPlay} from "../../matchstate/web/static/countdown.mjs";
import {memoryStorage} from "./fakes.mjs";

const play = (id, at) => ({type: "play", at, id});

describe("the window's Play", () => {
  it("is the Play logged at the time the window began, recorded or waiting", () => {
    const rows = [{event: play("a", "2026-11-29T15:00:01.000Z")}, {event: play("b", "2026-11-29T15:00:05.000Z")}];
    assert.equal(windowPlay({play_at: "2026-11-29T15:00:05+00:00"}, rows, []).id, "b");
    assert.equal(windowPlay({play_at: "2026-11-29T15:00:09.000Z"}, rows, [play("c", "2026-11-29T15:00:09.000Z")]).id, "c");
    assert.equal(windowPlay({play_at: null}, rows, []), null);
    assert.equal(windowPlay({play_at: "2026-11-29T15:00:07.000Z"}, rows, []), null, "a Play this device never saw");
  });
});

describe("a tab's own events", () => {
  it("are kept across a reload of the tab, and another tab's are not its own", () => {
    const storage = memoryStorage();
    const mine = new OwnEvents(storage, "matchstate:own:m-1");
    mine.add("web-1");
    assert.equal(new OwnEvents(storage, "matchstate:own:m-1").has("web-1"), true);
    assert.equal(new OwnEvents(memoryStorage(), "matchstate:own:m-1").has("web-1"), false);
  });

  it("keep the latest few hundred", () => {
    const mine = new OwnEvents(memoryStorage(), "own");
    for (let i = 0; i <= OwnEvents.KEPT; i++) mine.add(`web-${i}`);
    assert.equal(mine.has("web-0"), false);
    assert.equal(mine.has(`web-${OwnEvents.KEPT}`), true);
  });
});
