// The outbox: every event the scorer logs, kept in storage until the server has recorded it or the
// scorer has decided its fate. Nothing here touches the page: storage, sending and sleeping are given
// to it, so Node's test runner drives it as the console does.
//
// Kept in storage under one name, as JSON: {basis, items, conflict}
//   basis     the seq the match is expected at before the first item (item i is sent with basis + i)
//   items     [{event, attempts, refused}] in the order logged; refused is null, or why the server (or the
//             outbox, for an event timed before the last one recorded) will not take it: {status, reason},
//             and the server's {words} in each language where it gives them
//   conflict  null, or {current_seq} when the match moved on while events waited here
// Storage is the truth: each operation reads it first, so two tabs of one console stay in step.
// The first item that is refused holds the ones behind it, since they were logged after it.

import {earlier} from "./clock.mjs";
import {reason} from "./http.mjs";

const RETRY_FIRST_MS = 250;
const RETRY_MOST_MS = 2000;
// Answers that say "not now", never "no": too many requests, a body too slow to arrive, the server
// unavailable. The event is sent again after the answer's Retry-After (seconds, or a date).
const NOT_NOW = new Set([408, 429, 503]);
const RETRY_AFTER_DEFAULT_MS = 3000;
const RETRY_AFTER_MOST_MS = 120_000;

/** How long an answer asks to wait before sending again, in ms (its Retry-After, else a few seconds). */
export function retryAfterMs(reply, now = Date.now()) {
  const value = reply.headers && typeof reply.headers.get === "function" ? reply.headers.get("Retry-After") : null;
  let ms = RETRY_AFTER_DEFAULT_MS;
  if (value && /^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else if (value && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(Math.max(ms, 0), RETRY_AFTER_MOST_MS);
}

export class Outbox {
  /**
   * @param {object} options
   * @param {{getItem(name: string): string|null, setItem(name: string, value: string): void}} options.storage
   * @param {string} options.name  the storage name
   * @param {(body: {event: object, expected_seq: number}, key?: string) => Promise<{status: number, data: any, headers?: Headers}>} options.send
   *        rejects when the server cannot be reached
   * @param {() => string|null} [options.lastKnownAt]  the `at` of the last event recorded that this device knows of
   * @param {(basis: number) => number|null} [options.movedOn]  the match's seq, if this device knows it moved on
   *        past ``basis`` by events that are not in this outbox (another device's); else null
   * @param {(data: any) => void} [options.onRecorded]  the server's answer for each event recorded
   * @param {() => void} [options.onChange]
   * @param {() => boolean} [options.holding]  whether the page holds what waits for the scorer (a console
   *        without the scoring seat shows it first): nothing is sent meanwhile
   * @param {(ms: number) => Promise<void>} [options.sleep]
   */
  constructor({storage, name, send, lastKnownAt = () => null, movedOn = () => null, onRecorded = () => {},
    onChange = () => {}, holding = () => false, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))}) {
    Object.assign(this, {storage, name, send, lastKnownAt, movedOn, onRecorded, onChange, holding, sleep});
    this.link = "unknown";   // "up", "down" (no answer), "failing" (the server answers 5xx), "database" (503: its
                             // database does not answer) or "busy" (it asks to wait: 408, 429), as the last send found
    this.unavailable = null; // the words of a 503 that says the server's writes are stopped (``stopped``: its
                             // witnesses saw another log), not that its database is slow: an operator must act
    this.inFlight = null;    // the id of the event being sent
    this.pumping = false;
  }

  // -- reading ----------------------------------------------------------------------------

  read() {
    const saved = JSON.parse(this.storage.getItem(this.name) || "null");
    if (Array.isArray(saved)) {  // the console's first outbox: a list of {event, expected_seq}
      return {basis: saved.length ? saved[0].expected_seq : 0,
        items: saved.map(({event}) => ({event, attempts: 0, refused: null})), conflict: null};
    }
    return saved || {basis: 0, items: [], conflict: null};
  }

  get items() { return this.read().items; }
  get conflict() { return this.read().conflict; }
  get events() { return this.items.map((item) => item.event); }

  // The first item, when it waits for the scorer (refused) rather than for the server.
  get held() {
    const head = this.items[0];
    return head && head.refused ? head : null;
  }

  // Whether anything waits for the scorer: a conflict to answer or a refused event.
  get needsAttention() { return Boolean(this.conflict || this.held); }

  // -- logging ----------------------------------------------------------------------------

  /** Queue an event logged now; ``knownSeq`` is the match's last seq as this device knows it. */
  add(event, knownSeq) {
    this.#change((state) => {
      if (!state.items.length) state.basis = knownSeq;
      state.items.push({event, attempts: 0, refused: null});
    });
  }

  /**
   * Take back the last event logged, which the server has not recorded. Refused (false) while it is on
   * its way: the answer decides whether it was recorded.
   */
  takeBack(id) {
    const items = this.items;
    if (!items.length || items[items.length - 1].event.id !== id || this.inFlight === id) return false;
    this.#change((state) => {
      state.items.pop();
      if (!state.items.length) state.conflict = null;
    });
    return true;
  }

  /** The scorer discards an event that waits here (after a confirmation, which is the page's). */
  discard(id) {
    let found = null;
    this.#change((state) => {
      const i = state.items.findIndex((item) => item.event.id === id);
      if (i >= 0 && this.inFlight !== id) [found] = state.items.splice(i, 1);
      if (!state.items.length) state.conflict = null;  // nothing left to send after the events it moved on by
    });
    return found;
  }

  /** Discard everything that waits (the scorer's answer to a conflict: the match moved on without them). */
  discardAll() {
    const dropped = this.items;
    this.#change((state) => { state.items = []; state.conflict = null; });
    return dropped;
  }

  /** The scorer's answer to a conflict: send what waits after the events the match moved on by. */
  sendAfter(currentSeq) {
    this.#change((state) => { state.basis = currentSeq; state.conflict = null; });
  }

  /** Try the refused first event again as it is (say, once the right key is entered). */
  retry(id) {
    this.#change((state) => {
      const head = state.items[0];
      if (head && head.event.id === id) head.refused = null;
    });
  }

  /**
   * What "log it again now" would send: the held event with ``at`` and a new ``id``, and each event
   * behind it that would then be earlier than the one before, at that time too (in order, keeping
   * their ids: none of them was ever sent). The page shows this before the scorer consents.
   * @param {string} at   the new time
   * @param {string} id   the new device id for the held event
   */
  relogPlan(at, id) {
    const items = this.items;
    if (!items.length) return [];
    const plan = [{before: items[0].event, after: {...items[0].event, at, id}}];
    for (const item of items.slice(1)) {
      if (!earlier(item.event.at, at)) break;
      plan.push({before: item.event, after: {...item.event, at}});
    }
    return plan;
  }

  /** Log again, as planned by relogPlan: the events change in place and the first goes out next. */
  relog(plan) {
    this.#change((state) => {
      plan.forEach(({before, after}, i) => {
        const item = state.items[i];
        if (!item || item.event.id !== before.id) throw new Error("the outbox changed since the plan was made");
        state.items[i] = {event: after, attempts: 0, refused: null};
      });
      state.conflict = null;
    });
  }

  /**
   * Hand the held event to an official, who enters the official key on this device: it is sent once
   * with that key (never kept). Recorded, it leaves the outbox; refused again, it stays, with the new reason.
   */
  async handOver(id, key) {
    const state = this.read();
    const head = state.items[0];
    if (!head || head.event.id !== id) return null;
    let reply;
    try {
      reply = await this.send({event: head.event, expected_seq: state.basis}, key);
    } catch (err) {
      reply = null;
    }
    this.#answered(head, reply);
    return reply;
  }

  // -- sending ----------------------------------------------------------------------------

  /**
   * Send the items in order, each until the server answers; a lost answer is safe to retry, since the
   * server records one event per device id. Stops at a refusal or a conflict, which wait for the scorer.
   */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    let delay = RETRY_FIRST_MS;
    try {
      for (;;) {
        const state = this.read();
        const head = state.items[0];
        if (!head || head.refused || state.conflict || this.holding()) break;
        // What the server would answer with 409 or 422, known here already: nothing is sent to learn it.
        const moved = this.movedOn(state.basis);
        if (moved !== null) {
          this.#change((now) => { now.conflict = {current_seq: moved}; });
          break;
        }
        const last = this.lastKnownAt();
        if (last && earlier(head.event.at, last)) {
          this.#refuse(head.event.id, {status: "early",
            reason: `it was logged at ${head.event.at}, before the last event recorded (${last}), and the log `
              + "takes no event earlier than the one before it"});
          break;
        }
        this.inFlight = head.event.id;
        let reply;
        try {
          reply = await this.send({event: head.event, expected_seq: state.basis});
        } catch (err) {
          reply = null;
        } finally {
          this.inFlight = null;
        }
        const wait = this.#answered(head, reply);
        if (wait === null) {
          delay = RETRY_FIRST_MS;
        } else {
          this.onChange();
          await this.sleep(wait ?? delay);
          if (wait === undefined) delay = Math.min(delay * 2, RETRY_MOST_MS);
        }
      }
    } finally {
      this.pumping = false;
      this.onChange();
    }
  }

  // What an answer (null: none came) does to the item sent. Null where the server answered it; else the
  // item is sent again, after the ms the server asked to wait, or (undefined) after the pump's back-off.
  #answered(item, reply) {
    const id = item.event.id;
    const notNow = reply && NOT_NOW.has(reply.status);
    if (!reply || reply.status >= 500 || notNow) {
      // A 503 is the server's word that its database is unreachable; no answer at all, the server is.
      this.link = reply && reply.status === 503 ? "database" : notNow ? "busy" : reply ? "failing" : "down";
      this.unavailable = this.link === "database" && reply.data?.stopped ? reply.data.words ?? null : null;
      this.#change((state) => {
        const found = state.items.find((other) => other.event.id === id);
        if (found) found.attempts += 1;
      });
      return notNow ? retryAfterMs(reply) : undefined;
    }
    this.link = "up";
    if (reply.status === 200 || reply.status === 201) {
      this.#change((state) => {
        state.items = state.items.filter((other) => other.event.id !== id);
        state.basis = reply.data.seq;
      });
      this.onRecorded(reply.data);
    } else if (reply.status === 409 && reply.data && reply.data.current_seq !== undefined) {
      this.#change((state) => { state.conflict = {current_seq: reply.data.current_seq}; });
    } else {
      // The server's words for it in each language, where it gives them (the page shows the one chosen).
      const words = reply.data && reply.data.words ? {words: reply.data.words} : {};
      this.#refuse(id, {status: reply.status, reason: reason(reply.data), ...words});
    }
    return null;
  }

  #refuse(id, refused) {
    this.#change((state) => {
      const found = state.items.find((item) => item.event.id === id);
      if (found) found.refused = refused;
    });
  }

  #change(edit) {
    const state = this.read();
    edit(state);
    this.storage.setItem(this.name, JSON.stringify(state));
    this.onChange();
  }
}
