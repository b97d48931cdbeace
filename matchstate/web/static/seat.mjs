// The match's scoring seat, held on the server (PUT /api/matches/{code}/seat): the one console that logs the
// automatic clock check. A console opening a match no one scores takes it; another watches until its scorer
// takes it, after a confirmation that names the holder. The device's id is made once and kept on the device.
// The seat's timer marks its clock checks with the request header X-Console-Timer, outside the event.

import {t} from "./catalog.mjs";
import {deviceId, recorder} from "./events.mjs";
import {denied} from "./http.mjs";

export const HEARD_EVERY_MS = 5000;  // how often the console says it is still there
export const TIMER_HEADER = "X-Console-Timer";

/** This device's id for the seat: made once, kept in ``storage``. */
export function seatDevice(storage, make) {
  let id = storage.getItem("matchstate:device");
  if (!id) {
    id = make();
    storage.setItem("matchstate:device", id);
  }
  return id;
}

const LABEL_MOST = 80;  // the characters the server keeps of a label

/**
 * What a device is, as the other console's confirmation names it: "Tablet · Chrome", "Phone · Safari", and
 * the scorer's name where it is given ("Tablet · Chrome · Ana"): two tablets alike are told apart by who holds them.
 * @param {string} agent  the user agent
 * @param {number} width  the screen's shorter side, in CSS px
 * @param {boolean} touch  whether it has a touch screen
 * @param {string} [name]  the scorer's name, as the console's "Your name" holds it
 */
export function deviceLabel(agent, width, touch, name = "") {
  const kind = !touch ? "Computer" : width < 600 ? "Phone" : "Tablet";
  const browsers = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
  const found = browsers.find(([mark]) => agent.includes(mark));
  const label = [kind, found ? found[1] : "Browser", name.trim()].filter(Boolean).join(" · ");
  return [...label].slice(0, LABEL_MOST).join("");
}

/** This browser as the seat knows a device, {device, label}: its id, and what it is with the name set on it now. */
export function thisDevice() {
  return {device: seatDevice(localStorage, deviceId),
    label: deviceLabel(navigator.userAgent, Math.min(screen.width, screen.height), navigator.maxTouchPoints > 0,
      recorder())};
}

const LABEL_WORDS = {Computer: "device-computer", Phone: "device-phone", Tablet: "device-tablet", Browser: "device-browser"};

/** A device's label as the reader's language says it ("Tableta · Chrome · Ana"): kept in English as the device
 * made it, its kind and its browser said again where the page shows it; the scorer's name as it was typed. */
export function shownLabel(label) {
  return String(label).split(" · ")
    .map((part, index) => (index < 2 && Object.hasOwn(LABEL_WORDS, part) ? t("seat", LABEL_WORDS[part]) : part))
    .join(" · ");
}

/** The events handed to the review (``handed``, as the seat's answer gives them) that ``log`` does not hold yet. */
export function handedWaiting(handed, log) {
  const logged = new Set(log.map((row) => row.device_id));
  return handed.filter((item) => !logged.has(item.event.id));
}

/**
 * The seat as this console knows it, and its timer's clock checks waiting to be sent (kept in ``storage``
 * by event id, so a reload sends them marked as they were logged).
 */
export class Seat {
  /**
   * @param {object} options
   * @param {{getItem(name: string): string|null, setItem(name: string, value: string): void}} options.storage
   * @param {string} options.code  the match
   * @param {string} options.device  this device's id
   * @param {(ask: string, handed: object[]) => Promise<{status: number, data: any}>} options.put  the seat's PUT (rejects offline)
   */
  constructor({storage, code, device, put}) {
    Object.assign(this, {storage, device, put});
    this.name = `matchstate:timer:${code}`;
    this.holder = null;   // {device, label, heard_seconds_ago, ...} as the server last said, or null
    this.mine = null;     // whether this device holds the seat; null until the server says
    this.stale = true;    // not heard from the server since the page opened or the network went away
    this.released = false;  // the scorer chose to send what waits though this console lacks the seat
    this.handed = [];     // the events consoles handed to the review, as the server last said
  }

  /** Ask the server: ``open`` (take a free seat), ``heard`` (still here) or ``take``. Resolves to the answer. */
  async sit(ask, handed = []) {
    let reply;
    try {
      reply = await this.put(ask, handed);
    } catch (err) {
      this.stale = true;
      return null;
    }
    this.stale = false;  // any answer: the network is back, whatever the server could do
    if (reply.status === 200) {
      this.holder = reply.data.holder;
      this.mine = reply.data.yours;
      this.handed = reply.data.handed;
      if (this.mine) this.released = false;
    } else if (denied(reply) || reply.status === 404) {
      this.mine = null;  // a key refused (revoked, say), or a match removed, holds no seat: asked for afresh after
    }
    return reply;
  }

  /** The network went away: what the seat is now is unknown until the server answers again. */
  lost() {
    this.stale = true;
    this.released = false;
  }

  /**
   * Whether what waits in the outbox is held for the scorer rather than sent: this console does not hold
   * the seat (or has not heard since the network came back), so its events are shown to the scorer first.
   */
  holds(waiting) {
    return waiting > 0 && (this.stale || this.mine === false) && !this.released;
  }

  /** Whether the scorer is to be asked about what waits: the server says another console holds the seat. */
  lacks(waiting) {
    return waiting > 0 && !this.stale && this.mine === false && !this.released;
  }

  /** The scorer sends what waits as it was: the outbox goes on until the seat changes again. */
  release() { this.released = true; }

  /** A clock check the seat's timer logged, ``elapsed`` s after the window opened: sent marked as such. */
  timed(id, elapsed) {
    const kept = this.#timed();
    kept[id] = Math.round(elapsed * 1000) / 1000;
    const ids = Object.keys(kept).slice(-50);
    this.storage.setItem(this.name, JSON.stringify(Object.fromEntries(ids.map((one) => [one, kept[one]]))));
  }

  /** The request headers an event is sent with: the timer's mark, for a clock check the timer logged. */
  headers(event) {
    const elapsed = this.#timed()[event.id];
    return elapsed === undefined ? {} : {[TIMER_HEADER]: `device=${this.device}; elapsed=${elapsed.toFixed(3)}`};
  }

  #timed() { return JSON.parse(this.storage.getItem(this.name) || "{}"); }
}
