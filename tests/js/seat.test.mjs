// The scoring seat as a console knows it: the device's label, when its outbox is held, the timer's mark.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";
import {Seat, deviceLabel, seatDevice, shownLabel} from "../../matchstate/web/static/seat.mjs";
import {memoryStorage} from "./fakes.mjs";

const CHROME_ANDROID = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const SAFARI_IPAD = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";

const seatWith = (put, storage = memoryStorage()) => new Seat({storage, code: "m", device: "dev-1", put});

describe("the seat's device", () => {
  it("is named by its kind and browser", () => {
    assert.equal(deviceLabel(CHROME_ANDROID, 800, true), "Tablet · Chrome");
    assert.equal(deviceLabel(CHROME_ANDROID, 390, true), "Phone · Chrome");
    assert.equal(deviceLabel(SAFARI_IPAD, 820, true), "Tablet · Safari");
    assert.equal(deviceLabel("curl", 1920, false), "Computer · Browser");
  });

  it("carries the scorer's name, so that two tablets alike are told apart, within what the server keeps", () => {
    assert.equal(deviceLabel(CHROME_ANDROID, 800, true, " Ana "), "Tablet · Chrome · Ana");
    assert.equal(deviceLabel(CHROME_ANDROID, 800, true, "  "), "Tablet · Chrome");
    const long = deviceLabel(CHROME_ANDROID, 800, true, "ñ".repeat(100));
    assert.equal([...long].length, 80);
  });

  it("keeps its id once made", () => {
    const storage = memoryStorage();
    assert.equal(seatDevice(storage, () => "a"), "a");
    assert.equal(seatDevice(storage, () => "b"), "a");
  });
});

describe("a device's label as a page shows it", () => {
  it("says the device's kind and an unknown browser in the reader's language, the scorer's name as typed", () => {
    speak("es");
    assert.equal(shownLabel("Tablet · Chrome · Ana"), "Tableta · Chrome · Ana");
    assert.equal(shownLabel("Computer · Browser"), "Computadora · Navegador");
    assert.equal(shownLabel("Phone · Safari · Tablet"), "Teléfono · Safari · Tablet", "a name is not a word to translate");
    speak("en");
    assert.equal(shownLabel("Tablet · Chrome · Ana"), "Tablet · Chrome · Ana");
  });
});

describe("what waits on a console", () => {
  it("is held until the server says this console holds the seat, and shown when another holds it", async () => {
    let yours = true;
    const seat = seatWith(async () => ({status: 200, data: {holder: {label: "Phone · Safari"}, yours}}));
    assert.ok(seat.holds(2), "not heard yet");
    await seat.sit("open");
    assert.ok(!seat.holds(2) && !seat.lacks(2));
    seat.lost();
    assert.ok(seat.holds(2) && !seat.lacks(2), "offline: held, nothing asked yet");
    yours = false;
    await seat.sit("heard");
    assert.ok(seat.holds(2) && seat.lacks(2), "the seat was taken meanwhile: the scorer is asked");
    assert.ok(!seat.holds(0), "nothing waits");
    seat.release();
    assert.ok(!seat.holds(2) && !seat.lacks(2), "sent as they were");
  });

  it("is not held by a server that cannot say (its answer is not 200)", async () => {
    const seat = seatWith(async () => ({status: 503, data: {}}));
    await seat.sit("open");
    assert.ok(!seat.holds(1));
  });

  it("is held while the network is away", async () => {
    const seat = seatWith(async () => { throw new TypeError("offline"); });
    await seat.sit("open");
    assert.ok(seat.holds(1));
  });

  it("is not said to be this console's once the server refuses its key (revoked), whoever held the seat", async () => {
    let status = 200;
    const seat = seatWith(async () => ({status, data: {holder: {label: "Tablet · Chrome"}, yours: true}}));
    await seat.sit("open");
    assert.equal(seat.mine, true);
    for (status of [401, 403]) {
      seat.mine = true;
      await seat.sit("heard");
      assert.equal(seat.mine, null, `after a ${status}`);
    }
  });
});

describe("the timer's mark", () => {
  it("goes with the clock checks the timer logged, and only those, across a reload", () => {
    const storage = memoryStorage();
    seatWith(null, storage).timed("tick-1", 20.15);
    const again = seatWith(null, storage);
    assert.deepEqual(again.headers({id: "tick-1"}), {"X-Console-Timer": "device=dev-1; elapsed=20.150"});
    assert.deepEqual(again.headers({id: "goal-1"}), {});
  });
});
