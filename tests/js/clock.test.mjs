// The console's clock: the server's time, as this device can tell it, never before the last event known.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {ServerClock, ceilMs, earlier, notBefore} from "../../matchstate/web/static/clock.mjs";
import {memoryStorage} from "./fakes.mjs";

describe("times to the millisecond", () => {
  it("rounds a finer time up, so an event stamped from it is not earlier", () => {
    assert.equal(ceilMs("2026-11-29T15:00:10.2505+00:00") - ceilMs("2026-11-29T15:00:10.250Z"), 1);
    assert.equal(ceilMs("2026-11-29T15:00:10.250000+00:00"), Date.parse("2026-11-29T15:00:10.250Z"));
    assert.equal(earlier("2026-11-29T15:00:10.250Z", "2026-11-29T15:00:10.250001+00:00"), true);
    assert.equal(earlier("2026-11-29T15:00:10.251Z", "2026-11-29T15:00:10.250001+00:00"), false);
    assert.equal(earlier("2026-11-29T15:00:10.250Z", "2026-11-29T15:00:10.250Z"), false, "the same time is no earlier");
  });

  it("moves a time up to the floor, never down", () => {
    assert.equal(notBefore("2026-11-29T15:00:00.000Z", "2026-11-29T15:00:02.5001+00:00"), "2026-11-29T15:00:02.501Z");
    assert.equal(notBefore("2026-11-29T15:00:03.000Z", "2026-11-29T15:00:02.500Z"), "2026-11-29T15:00:03.000Z");
    assert.equal(notBefore("2026-11-29T15:00:03.000Z", null), "2026-11-29T15:00:03.000Z");
  });
});

describe("the offset from the server's clock", () => {
  it("takes the offset from the fastest round trip, at its middle", async () => {
    let local = 1_000_000;
    const trips = [[40, 5000], [10, 5003], [30, 4990]];  // [round trip ms, server ahead by ms at the middle]
    let i = 0;
    const clock = new ServerClock({storage: memoryStorage(), localNow: () => local, fetchTime: async () => {
      const [trip, ahead] = trips[i++];
      const server = local + trip / 2 + ahead;
      local += trip;
      return new Date(server).toISOString();
    }});
    assert.equal(await clock.measure(), 5003);
    assert.equal(clock.now(), local + 5003);
  });

  it("stamps events with the server's time, even from a device an hour behind", async () => {
    const server = Date.parse("2026-11-29T15:00:00.000Z");
    const clock = new ServerClock({storage: memoryStorage(), localNow: () => server - 3_600_000,
      fetchTime: async () => new Date(server).toISOString()});
    await clock.measure();
    assert.equal(clock.stamp(), "2026-11-29T15:00:00.000Z");
  });

  it("never stamps an event before the last one known, whatever the clock says", () => {
    const clock = new ServerClock({storage: memoryStorage(), localNow: () => Date.parse("2026-11-29T15:00:00Z"),
      fetchTime: async () => { throw new Error("unused"); }});
    assert.equal(clock.stamp("2026-11-29T15:00:04.000Z"), "2026-11-29T15:00:04.000Z");
  });

  it("keeps the offset for a console opened while the server does not answer", async () => {
    const storage = memoryStorage();
    const first = new ServerClock({storage, localNow: () => 0, fetchTime: async () => new Date(7000).toISOString()});
    await first.measure(1);
    const offline = new ServerClock({storage, localNow: () => 0, fetchTime: async () => { throw new TypeError("down"); }});
    assert.equal(offline.offset, 7000);
    assert.equal(await offline.measure(), null);
    assert.equal(offline.offset, 7000, "no answer leaves the offset known as it was");
  });
});
