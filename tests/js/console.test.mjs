// The console's ideas, each in a module of its own, loaded here without a page: which buttons there are and
// which are enabled, what one tap logs, what "Undo" takes back, which ruling the panel shows, what the banner
// says. (The page itself, consolepage.mjs, is driven in the browser tests.)
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";
import {logged, memoryStorage} from "./fakes.mjs";

import {buttonLabel, buttonTypes, enabledType, prefilled, shortcutType} from "../../matchstate/web/static/buttons.mjs";
import {brief, lastUndoable, undoable, undoForm, undoLabel} from "../../matchstate/web/static/undo.mjs";
import {freeHitSince, shownRuling} from "../../matchstate/web/static/rulingpanel.mjs";
import {answering, linkBanner} from "../../matchstate/web/static/banner.mjs";

const AT = "2026-11-29T15:10:00.000Z";
const clock = (fields) => ({chukker: 2, played: 100, running: true, phase: "play", at: AT, chukker_seconds: 420,
  extra_seconds: 30, chukkers: 6, ...fields});
const penalty2 = {penalty: "2", to: "Blue", yards_to_goal: 30, from: "center", defended: false};
const row = (seq, type, fields = {}) => ({seq, type, role: "scorer", event: {type, ...fields}, ...fields});

describe("the console's page", () => {
  it("is loaded by a test without a page: importing it starts nothing", async () => {
    globalThis.sessionStorage ??= memoryStorage();
    const {ConsolePage} = await import("../../matchstate/web/static/consolepage.mjs");
    assert.equal(typeof ConsolePage.prototype.start, "function");
    assert.equal(typeof ConsolePage.prototype.render, "function");
  });
});

describe("the buttons", () => {
  it("keep their places whatever the server lists, and a type it adds later goes last", () => {
    const forms = {"match.start": [], "match.end": [], "goal": [], "new.type": [], "penalty.award": [], "hit": []};
    assert.deepEqual(buttonTypes(forms), ["penalty.award", "hit", "goal", "match.end", "new.type"]);
  });

  it("take a shortcut only for a type the server has", () => {
    assert.equal(shortcutType("g", {goal: []}), "goal");
    assert.equal(shortcutType("g", {hit: []}), null);
    assert.equal(shortcutType("q", {goal: []}), null);
  });

  it("are enabled as the engine accepts, or every one while events wait or the server is away", () => {
    const now = {role: "scorer", officialOnly: [], waiting: false, online: true, accepted: ["goal"]};
    assert.equal(enabledType("goal", now), true);
    assert.equal(enabledType("hit", now), false);
    assert.equal(enabledType("hit", {...now, waiting: true}), true);
    assert.equal(enabledType("hit", {...now, online: false}), true);
    assert.equal(enabledType("void", {...now, accepted: []}), true);
  });

  it("offer what only an official logs to an official alone, whatever the engine accepts", () => {
    const officialOnly = ["chukker.confirm", "decide", "review.outcome", "video.sync"];
    for (const type of officialOnly) {
      const now = {officialOnly, waiting: false, online: true, accepted: [type]};
      assert.equal(enabledType(type, {...now, role: "scorer"}), false, type);
      assert.equal(enabledType(type, {...now, role: "scorer", waiting: true, online: false}), false, type);
      assert.equal(enabledType(type, {...now, role: "official", waiting: true}), true, type);
    }
  });

  it("log a chukker's edge with the number the button names", () => {
    speak("en");
    const inPlay = {timing: clock({}), free_hit: null};
    assert.deepEqual(prefilled("chukker.end", inPlay, AT, () => 1), {chukker: 2});
    const between = {timing: clock({phase: "between", running: false}), free_hit: null};
    assert.deepEqual(prefilled("chukker.start", between, AT, () => 1), {chukker: 3});
    assert.equal(buttonLabel("chukker.start", between, AT, "Undo"), "Chukker 3 start");
    assert.equal(buttonLabel("void", between, AT, "Undo goal"), "Undo goal");
  });

  it("make a stroke a clean hit by the usual player, and a goal in a free hit the hitting team's", () => {
    const now = {timing: clock({}), free_hit: penalty2};
    assert.deepEqual(prefilled("hit", now, AT, (freeHit) => (freeHit.to === "Blue" ? 3 : 1)), {contact: "hit", player: 3});
    assert.deepEqual(prefilled("goal", now, AT, () => 3), {team: "Blue"});
    assert.deepEqual(prefilled("goal", {...now, free_hit: null}, AT, () => 3), {});
    assert.deepEqual(prefilled("hit", {...now, free_hit: null}, AT, () => 3), {contact: "hit"});
  });
});

describe("undo", () => {
  const view = {void: [4]};
  const log = [row(1, "match.start"), row(2, "goal", {team: "Blue", player: 3}),
    {...row(3, "penalty.award", {penalty: "3", to: "Red"}), role: "official"}, row(4, "hit"), row(5, "void", {seq: 4})];

  it("lets a scorer void only the scorer's own standing events, an official any that stands", () => {
    assert.deepEqual(log.filter((r) => undoable(r, view, "scorer")).map((r) => r.seq), [2]);
    assert.deepEqual(log.filter((r) => undoable(r, view, "official")).map((r) => r.seq), [2, 3]);
    assert.equal(lastUndoable(log, view, "scorer").seq, 2);
    assert.equal(lastUndoable(log, view, "official").seq, 3);
    assert.equal(lastUndoable(log.slice(0, 1), view, "official"), null);
  });

  it("names what it takes back in a few words", () => {
    speak("en");
    assert.equal(brief({type: "goal", team: "Blue", player: 3}), "Goal, Blue #3");
    assert.equal(brief({type: "penalty.award", penalty: "3", to: "Red"}), "Penalty 3, Red");
    assert.equal(undoLabel([], lastUndoable(log, view, "scorer")), "Undo: Goal, Blue #3");
  });

  it("takes back the last event still waiting here before voiding a recorded one", () => {
    speak("en");
    const waiting = [logged("play"), logged("goal", {team: "Red"})];
    const form = undoForm(waiting, lastUndoable(log, view, "scorer"), AT);
    assert.equal(form.takeBack, waiting[1]);
    assert.match(undoLabel(waiting, null), /Red/);
    const voiding = undoForm([], lastUndoable(log, view, "scorer"), AT);
    assert.deepEqual([voiding.takeBack, voiding.values.seq], [undefined, 2]);
    assert.equal(undoForm([], null, AT), null);
  });
});

describe("the ruling panel", () => {
  const ruled = (seq, type, kind) => ({seq, type, ruling: {kind, text: {en: kind}, cite: []}});

  it("shows the latest ruling on the free hit in progress, from its award on", () => {
    const log = [ruled(2, "hit", "live"), {seq: 3, type: "penalty.award"}, ruled(4, "hit", "live"), {seq: 5, type: "play"}];
    const view = {free_hit: penalty2, void: []};
    assert.equal(freeHitSince(view, log), 3);
    assert.equal(shownRuling(view, log).ruled.seq, 4);
    assert.equal(shownRuling(view, log.slice(0, 2)).ruled, null);  // nothing ruled yet on this free hit
  });

  it("counts a ruling that awarded a free hit as where it began, and nothing voided", () => {
    const log = [{seq: 2, type: "penalty.award"}, ruled(3, "approach.abort", "award"), ruled(4, "hit", "live")];
    assert.equal(freeHitSince({free_hit: penalty2, void: [4]}, log), 3);
    assert.equal(shownRuling({free_hit: penalty2, void: [4]}, log).ruled.seq, 3);
  });

  it("with no free hit in progress shows the last event's ruling, and none after a goal", () => {
    const view = {free_hit: null, void: []};
    assert.equal(shownRuling(view, [ruled(2, "card", "goal")]).ruled.seq, 2);
    assert.deepEqual(shownRuling(view, [ruled(2, "hit", "live"), {seq: 3, type: "goal"}]), {since: null, ruled: null});
  });

  it("shows nothing ruled on a free hit awarded on this device and not recorded yet, not the last one's ruling", () => {
    const log = [{seq: 2, type: "penalty.award"}, ruled(3, "hit", "live")];
    const view = {free_hit: penalty2, void: []};
    assert.equal(shownRuling(view, log, [{type: "goal", team: "Blue"}]).ruled.seq, 3, "no award held: as recorded");
    assert.deepEqual(shownRuling(view, log, [{type: "goal"}, {type: "penalty.award", penalty: "4", to: "Red"}]),
      {since: 4, ruled: null});
    assert.equal(shownRuling(view, log, [{type: "penalty.award", penalty: "1", to: "Red"}]).ruled.seq, 3,
      "Penalty 1 is a goal: it begins no free hit");
  });
});

describe("the link banner", () => {
  const outbox = (fields) => ({items: [], link: "unknown", needsAttention: false, conflict: null, ...fields});

  it("says the server answers only with a network, an open stream, and nothing failing to go", () => {
    assert.equal(answering(outbox({}), {onLine: true, streamUp: true}), true);
    assert.equal(answering(outbox({}), {onLine: false, streamUp: true}), false);
    assert.equal(answering(outbox({}), {onLine: true, streamUp: false}), false);
    assert.equal(answering(outbox({items: [{}], link: "down"}), {onLine: true, streamUp: true}), false);
    assert.equal(answering(outbox({items: [{}], link: "up"}), {onLine: true, streamUp: true}), true);
  });

  it("connects, then is online, offline with what it keeps, or sending", () => {
    speak("en");
    assert.equal(linkBanner(outbox({}), {everUp: false, online: false}).text, "Connecting…");
    assert.equal(linkBanner(outbox({link: "up"}), {everUp: true, online: true}).kind, "ok");
    const kept = linkBanner(outbox({items: [{}, {}], link: "down"}), {everUp: true, online: false});
    assert.equal(kept.kind, "offline");
    assert.match(kept.text, /2 events/);
    assert.equal(linkBanner(outbox({items: [{}], link: "up"}), {everUp: true, online: true}).kind, "");
  });

  it("does not say every event is recorded while events handed to the review wait for the official", () => {
    speak("en");
    const online = {everUp: true, online: true};
    assert.equal(linkBanner(outbox({link: "up"}), {...online, handed: 2}).text,
      "Online: every event sent is recorded; 2 events handed to the review wait for the official to log them.");
    speak("es");
    assert.equal(linkBanner(outbox({link: "up"}), {...online, handed: 1}).text,
      "En línea: todo lo enviado está registrado; 1 evento pasado a la revisión espera que el oficial lo registre.");
    speak("en");
    assert.equal(linkBanner(outbox({link: "up"}), {...online, handed: 0}).text, "Online: every event recorded.");
  });

  it("says the match is gone from the server, and what this device keeps of it, before anything else", () => {
    speak("en");
    const gone = linkBanner(outbox({link: "down"}), {everUp: true, online: false, gone: true});
    assert.deepEqual([gone.kind, gone.text],
      ["warn", "The server no longer holds this match: it was removed. Nothing waits on this device."]);
    speak("es");
    assert.equal(linkBanner(outbox({items: [{}], link: "down"}), {everUp: true, online: false, gone: true}).text,
      "El servidor ya no tiene este partido: fue eliminado. 1 evento guardado en este dispositivo, sin enviar.");
    speak("en");
  });

  it("says one event kept offline in the singular, in Spanish too", () => {
    speak("es");
    const one = linkBanner(outbox({items: [{}], link: "down"}), {everUp: true, online: false}).text;
    assert.match(one, /: 1 evento guardado aquí, se envía cuando/);
    assert.match(linkBanner(outbox({items: [{}, {}], link: "down"}), {everUp: true, online: false}).text,
      /: 2 eventos guardados aquí, se envían cuando/);
    speak("en");
  });

  it("says online but no copy on this device yet until the service worker has kept the page", () => {
    speak("en");
    const keeping = linkBanner(outbox({link: "up"}), {everUp: true, online: true, keeping: true});
    assert.deepEqual([keeping.kind, keeping.text], ["", "Online. No copy on this device yet: a reload needs the server."]);
    // What waits to be sent, or the server not answering, says more.
    assert.match(linkBanner(outbox({items: [{}], link: "up"}), {everUp: true, online: true, keeping: true}).text, /Sending 1/);
    assert.equal(linkBanner(outbox({link: "down"}), {everUp: true, online: false, keeping: true}).kind, "offline");
  });

  it("says what the database said when it is down, and sends the scorer below when something waits", () => {
    speak("en");
    const stopped = linkBanner(outbox({link: "database", unavailable: {en: "The disk is full."}}),
      {everUp: true, online: false});
    assert.match(stopped.text, /The disk is full\./);
    const refused = linkBanner(outbox({items: [{}], needsAttention: true}), {everUp: true, online: true});
    assert.deepEqual([refused.kind, refused.seeBelow], ["warn", true]);
    // Held here while another console holds the scoring seat: not "Sending", which it is not.
    const seatless = linkBanner(outbox({items: [{}], link: "up"}), {everUp: true, online: true, seatless: true});
    assert.deepEqual([seatless.kind, seatless.seeBelow], ["warn", true]);
    assert.match(seatless.text, /^Not recorded: needs your attention/);
  });
});
