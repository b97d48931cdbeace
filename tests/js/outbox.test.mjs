// The outbox keeps every event until the server records it or the scorer decides its fate.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {Outbox} from "../../matchstate/web/static/outbox.mjs";
import {fakeServer, logged, memoryStorage, noSleep} from "./fakes.mjs";

function outboxOn(server, {storage = memoryStorage(), lastKnownAt = () => null, sleeps = []} = {}) {
  const recorded = [];
  const outbox = new Outbox({storage, name: "outbox", send: server.send, lastKnownAt,
    onRecorded: (data) => recorded.push(data.seq), sleep: async (ms) => { sleeps.push(ms); }});
  return {outbox, recorded, storage};
}

describe("sending in order", () => {
  it("sends each event once, in the order logged, each expecting the seq the one before it made", async () => {
    const server = fakeServer([], 8);
    const {outbox, recorded} = outboxOn(server);
    const events = [logged("penalty.award", {penalty: "3", to: "Blue"}), logged("play"), logged("hit", {player: 3})];
    events.forEach((event) => outbox.add(event, 7));
    await outbox.pump();
    assert.deepEqual(server.recorded.map((e) => e.id), events.map((e) => e.id));
    assert.deepEqual(server.sent.map((body) => body.expected_seq), [7, 8, 9]);
    assert.deepEqual(recorded, [8, 9, 10]);
    assert.deepEqual(outbox.items, []);
    assert.equal(outbox.needsAttention, false);
  });

  it("takes the seq of the match as this device knows it only for an event logged with nothing waiting", async () => {
    const server = fakeServer([], 5);
    const {outbox} = outboxOn(server);
    outbox.add(logged("play"), 4);
    outbox.add(logged("hit"), 99);  // the view moved on meanwhile: the queue's own order counts
    await outbox.pump();
    assert.deepEqual(server.sent.map((body) => body.expected_seq), [4, 5]);
  });

  it("keeps what waits in storage, where another tab, or the page reloaded, finds it", () => {
    const storage = memoryStorage();
    const first = outboxOn(fakeServer(), {storage}).outbox;
    const event = logged("goal", {team: "Blue"});
    first.add(event, 3);
    const second = outboxOn(fakeServer(), {storage}).outbox;
    assert.deepEqual(second.events, [event]);
  });

  it("reads the first console's outbox, a list of {event, expected_seq}", async () => {
    const storage = memoryStorage();
    const events = [logged("play"), logged("hit")];
    storage.setItem("outbox", JSON.stringify(events.map((event, i) => ({event, expected_seq: 6 + i}))));
    const server = fakeServer([], 7);
    const {outbox} = outboxOn(server, {storage});
    await outbox.pump();
    assert.deepEqual(server.sent.map((body) => [body.event.id, body.expected_seq]), [[events[0].id, 6], [events[1].id, 7]]);
  });
});

describe("retries", () => {
  it("retries an event the server did not answer, backing off, and records it once", async () => {
    const sleeps = [];
    const server = fakeServer(["down", "down", {status: 500, data: {detail: "bug"}}]);
    const {outbox} = outboxOn(server, {sleeps});
    const event = logged("goal", {team: "Red"});
    outbox.add(event, 1);
    await outbox.pump();
    assert.equal(server.sent.length, 4);
    assert.ok(server.sent.every((body) => body.event.id === event.id && body.expected_seq === 1));
    assert.deepEqual(sleeps, [250, 500, 1000]);
    assert.equal(server.recorded.length, 1);
    assert.equal(outbox.link, "up");
  });

  it("says the link is down while no answer comes, and failing while the server answers 5xx", async () => {
    const seen = [];
    const server = fakeServer(["down", {status: 500, data: {detail: "bug"}}]);
    const outbox = new Outbox({storage: memoryStorage(), name: "o", send: server.send,
      sleep: async () => { seen.push(outbox.link); }});
    outbox.add(logged("play"), 1);
    await outbox.pump();
    assert.deepEqual(seen, ["down", "failing"]);
  });

  it("sends again after Retry-After what the server has no time for now (429, 408, 503), never taking it as a refusal", async () => {
    const sleeps = [];
    const seen = [];
    const server = fakeServer([
      {status: 429, data: {detail: "too many requests"}, headers: new Headers({"Retry-After": "7"})},
      {status: 408, data: {detail: "the body came too slowly"}, headers: new Headers()},
      {status: 503, data: {detail: "stopped", words: {en: "stopped", es: "detenido"}, stopped: true},
        headers: new Headers({"Retry-After": "1"})},
      {status: 503, data: {detail: "busy", words: {en: "busy", es: "ocupada"}}, headers: new Headers({"Retry-After": "1"})},
      {status: 429, data: {detail: "too many requests"},
        headers: new Headers({"Retry-After": new Date(Date.now() + 60_000).toUTCString()})},
    ]);
    const outbox = new Outbox({storage: memoryStorage(), name: "o", send: server.send,
      sleep: async (ms) => { sleeps.push(ms); seen.push([outbox.link, outbox.needsAttention, outbox.unavailable]); }});
    const event = logged("goal", {team: "Blue"});
    outbox.add(event, 1);
    await outbox.pump();
    assert.equal(sleeps[0], 7000);
    assert.equal(sleeps[1], 3000, "no Retry-After: a few seconds");
    assert.equal(sleeps[2], 1000);
    assert.equal(sleeps[3], 1000);
    assert.ok(sleeps[4] > 55_000 && sleeps[4] <= 60_000, sleeps[4]);
    // A 503 says the server cannot write now: its database does not answer, or (stopped, with its words for
    // why) its witnesses stopped its writes. The outbox waits as asked, and keeps the event.
    const stopped = {en: "stopped", es: "detenido"};
    assert.deepEqual(seen, [["busy", false, null], ["busy", false, null], ["database", false, stopped],
      ["database", false, null], ["busy", false, null]]);
    assert.deepEqual(server.recorded.map((e) => e.id), [event.id]);
    assert.ok(server.sent.every((body) => body.event.id === event.id && body.expected_seq === 1));
    assert.equal(outbox.link, "up");
  });

  it("takes a retried send's 200 (the server had it already) as recorded", async () => {
    const server = fakeServer([{status: 200, data: {seq: 4, duplicate: true, event: {seq: 4}, match: {seq: 4}}}]);
    const {outbox, recorded} = outboxOn(server);
    outbox.add(logged("play"), 3);
    outbox.add(logged("hit"), 3);
    await outbox.pump();
    assert.deepEqual(recorded, [4, server.seq]);
    assert.equal(server.sent[1].expected_seq, 4);
  });

  it("sends one event at a time, however often it is asked to", async () => {
    const server = fakeServer();
    const {outbox} = outboxOn(server);
    outbox.add(logged("play"), 1);
    await Promise.all([outbox.pump(), outbox.pump(), outbox.pump()]);
    assert.equal(server.sent.length, 1);
  });
});

describe("a conflict: the match moved on while events waited", () => {
  it("stops and asks; sent after the events it moved on by, they expect its seq", async () => {
    const server = fakeServer([{status: 409, data: {detail: "match m is at seq 12, not 11", current_seq: 12}}], 13);
    const {outbox} = outboxOn(server);
    const events = [logged("goal", {team: "Blue"}), logged("chukker.end", {chukker: 2})];
    events.forEach((event) => outbox.add(event, 11));
    await outbox.pump();
    assert.deepEqual(outbox.conflict, {current_seq: 12});
    assert.equal(outbox.needsAttention, true);
    assert.deepEqual(outbox.events, events);
    await outbox.pump();  // asked again, it still waits for the scorer
    assert.equal(server.sent.length, 1);

    outbox.sendAfter(12);
    await outbox.pump();
    assert.deepEqual(server.sent.slice(1).map((body) => body.expected_seq), [12, 13]);
    assert.deepEqual(server.recorded.map((e) => e.id), events.map((e) => e.id));
  });

  it("stops and asks without sending when it knows the match moved on already (the live stream told it)", async () => {
    const server = fakeServer();
    let moved = null;
    const outbox = new Outbox({storage: memoryStorage(), name: "o", send: server.send, sleep: noSleep,
      movedOn: (basis) => (moved !== null && moved > basis ? moved : null)});
    outbox.add(logged("goal", {team: "Blue"}), 11);
    moved = 12;
    await outbox.pump();
    assert.equal(server.sent.length, 0);
    assert.deepEqual(outbox.conflict, {current_seq: 12});
    outbox.sendAfter(12);
    await outbox.pump();
    assert.deepEqual(server.sent.map((body) => body.expected_seq), [12]);
  });

  it("does not send an event logged before the last one recorded: it waits, with the reason", async () => {
    const events = [logged("goal", {team: "Blue", player: 1}), logged("chukker.end", {chukker: 2})];
    const voidAt = new Date(Date.parse(events[1].at) + 5000).toISOString();  // an official's void, later
    const server = fakeServer([{status: 409, data: {current_seq: 12}}], 13);
    let last = "2026-11-29T14:00:00Z";
    const {outbox} = outboxOn(server, {lastKnownAt: () => last});
    events.forEach((event) => outbox.add(event, 11));
    await outbox.pump();
    last = voidAt;  // the console learnt of the void
    outbox.sendAfter(12);
    await outbox.pump();
    assert.equal(server.sent.length, 1, "nothing sent that the log would refuse");
    assert.equal(outbox.held.event.id, events[0].id);
    assert.equal(outbox.held.refused.status, "early");
    assert.match(outbox.held.refused.reason, /before the last event recorded/);
  });

  it("logs it again now with the scorer's consent: a new time and id, the events behind it re-timed after it", async () => {
    const events = [logged("goal", {team: "Blue", player: 1}), logged("chukker.end", {chukker: 2})];
    const now = new Date(Date.parse(events[1].at) + 9000).toISOString();
    const server = fakeServer([], 13);
    const {outbox} = outboxOn(server, {lastKnownAt: () => new Date(Date.parse(now) - 1000).toISOString()});
    events.forEach((event) => outbox.add(event, 12));
    await outbox.pump();
    assert.ok(outbox.held);

    const plan = outbox.relogPlan(now, "web-new");
    assert.deepEqual(plan.map(({after}) => [after.type, after.at, after.id]),
      [["goal", now, "web-new"], ["chukker.end", now, events[1].id]]);
    assert.deepEqual(outbox.events, events, "a plan changes nothing until consented");
    outbox.relog(plan);
    await outbox.pump();
    assert.deepEqual(server.recorded.map((e) => [e.type, e.at, e.id, e.team]),
      [["goal", now, "web-new", "Blue"], ["chukker.end", now, events[1].id, undefined]]);
    assert.deepEqual(outbox.items, []);
  });

  it("re-times only the events that would come before the new time", () => {
    const events = [logged("goal", {team: "Blue"}), logged("play"), logged("hit")];
    const {outbox} = outboxOn(fakeServer());
    events.forEach((event) => outbox.add(event, 1));
    const plan = outbox.relogPlan(events[1].at, "web-again");
    assert.equal(plan.length, 1, "the play is not earlier than the new time: it keeps its own");
  });

  it("refuses a plan made before the outbox changed", () => {
    const {outbox} = outboxOn(fakeServer());
    const event = logged("goal", {team: "Blue"});
    outbox.add(event, 1);
    const plan = outbox.relogPlan(event.at, "web-x");
    outbox.discard(event.id);
    outbox.add(logged("play"), 1);
    assert.throws(() => outbox.relog(plan), /changed since the plan/);
  });

  it("discards everything with the scorer's answer, and the conflict with it", async () => {
    const server = fakeServer([{status: 409, data: {current_seq: 9}}]);
    const {outbox} = outboxOn(server);
    outbox.add(logged("goal", {team: "Red"}), 8);
    outbox.add(logged("play"), 8);
    await outbox.pump();
    assert.equal(outbox.discardAll().length, 2);
    assert.deepEqual(outbox.read(), {basis: 8, items: [], conflict: null});
  });
});

describe("a refusal", () => {
  it("keeps an event the engine refuses, with the server's reason, and holds the ones behind it", async () => {
    const detail = "hit makes no sense in state idle: no free hit is awaiting its stroke";
    const server = fakeServer([{status: 422, data: {detail}}]);
    const {outbox} = outboxOn(server);
    const events = [logged("hit", {player: 2}), logged("goal", {team: "Blue"})];
    events.forEach((event) => outbox.add(event, 5));
    await outbox.pump();
    assert.deepEqual(outbox.held.refused, {status: 422, reason: detail});
    assert.equal(outbox.needsAttention, true);
    assert.equal(server.sent.length, 1);
    assert.deepEqual(outbox.events, events);
  });

  it("gives FastAPI's own validation detail, a list, as text", async () => {
    const server = fakeServer([{status: 422, data: {detail: [{loc: ["body", "event"], msg: "Field required"}]}}]);
    const {outbox} = outboxOn(server);
    outbox.add(logged("play"), 1);
    await outbox.pump();
    assert.match(outbox.held.refused.reason, /Field required/);
  });

  it("keeps an event refused for its key; sent again (the right key entered), it is recorded", async () => {
    const server = fakeServer([{status: 403, data: {detail: "only an official may void an event recorded by the official"}}]);
    const {outbox} = outboxOn(server);
    const event = logged("void", {seq: 7, reason: "wrong option"});
    outbox.add(event, 7);
    await outbox.pump();
    assert.equal(outbox.held.refused.status, 403);
    outbox.retry(event.id);
    await outbox.pump();
    assert.deepEqual(server.recorded, [event]);
  });

  it("hands an event to an official: sent once with the key the official enters, never kept", async () => {
    const server = fakeServer([{status: 403, data: {detail: "only an official may"}}], 8);
    const storage = memoryStorage();
    const {outbox} = outboxOn(server, {storage});
    const event = logged("void", {seq: 7, reason: "wrong option"});
    outbox.add(event, 7);
    outbox.add(logged("penalty.award", {penalty: "3", to: "Blue"}), 7);
    await outbox.pump();
    const reply = await outbox.handOver(event.id, "official-key");
    assert.equal(reply.status, 201);
    assert.equal(server.sent[1].key, "official-key");
    assert.ok(!JSON.stringify(storage.getItem("outbox")).includes("official-key"));
    await outbox.pump();
    assert.deepEqual(server.recorded.map((e) => e.type), ["void", "penalty.award"]);
    assert.equal(server.sent[2].key, undefined, "the rest go with the console's own key");
  });

  it("keeps a handed-over event the server refuses again, with the new reason", async () => {
    const server = fakeServer([{status: 403, data: {detail: "scorer key"}}, {status: 403, data: {detail: "wrong key"}}]);
    const {outbox} = outboxOn(server);
    const event = logged("decide", {option: 1});
    outbox.add(event, 3);
    await outbox.pump();
    await outbox.handOver(event.id, "not-the-key");
    assert.equal(outbox.held.refused.reason, "wrong key");
  });
});

describe("discarding and taking back", () => {
  it("discards a refused event, and the ones behind it go on", async () => {
    const server = fakeServer([{status: 422, data: {detail: "refused"}}], 6);
    const {outbox} = outboxOn(server);
    const events = [logged("hit", {player: 2}), logged("penalty.award", {penalty: "4", to: "Red"})];
    events.forEach((event) => outbox.add(event, 5));
    await outbox.pump();
    assert.deepEqual(outbox.discard(events[0].id).event, events[0]);
    await outbox.pump();
    assert.deepEqual(server.recorded, [events[1]]);
    assert.equal(server.sent[1].expected_seq, 5, "nothing was recorded for the discarded one");
  });

  it("takes back the last event logged, never sent", () => {
    const {outbox} = outboxOn(fakeServer());
    const events = [logged("play"), logged("goal", {team: "Blue"})];
    events.forEach((event) => outbox.add(event, 1));
    assert.equal(outbox.takeBack(events[0].id), false, "only the last one");
    assert.equal(outbox.takeBack(events[1].id), true);
    assert.deepEqual(outbox.events, [events[0]]);
  });

  it("does not take back an event on its way: its answer decides whether it was recorded", async () => {
    let answer;
    const send = () => new Promise((resolve) => { answer = resolve; });
    const outbox = new Outbox({storage: memoryStorage(), name: "o", send, sleep: noSleep});
    const event = logged("goal", {team: "Blue"});
    outbox.add(event, 1);
    const pumping = outbox.pump();
    await Promise.resolve();
    assert.equal(outbox.inFlight, event.id);
    assert.equal(outbox.takeBack(event.id), false);
    assert.equal(outbox.discard(event.id), null);
    answer({status: 201, data: {seq: 2}});
    await pumping;
    assert.deepEqual(outbox.items, []);
  });
});
