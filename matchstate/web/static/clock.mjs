// Time the server can trust: this device's clock corrected by its measured offset from the server's,
// and never earlier than the last event known (the log takes no event earlier than the one before it).

import {api} from "./http.mjs";

const SAVED = "matchstate:clock";
const SAMPLES = 3;

/** Milliseconds since the epoch, rounded up: "…:10.2505Z" is 1 ms after "…:10.250Z", not equal to it. */
export function ceilMs(iso) {
  const ms = Date.parse(iso);
  const fraction = /\.(\d+)/.exec(iso);
  return fraction && /[1-9]/.test(fraction[1].slice(3)) ? ms + 1 : ms;
}

/** Whether ``at`` (to the ms, as this device writes it) is earlier than ``than`` (any precision). */
export function earlier(at, than) {
  return Date.parse(at) < ceilMs(than);
}

/** ``at``, or the first ms not earlier than ``floor`` (ISO, or null for none) if it is earlier. */
export function notBefore(at, floor) {
  return floor && earlier(at, floor) ? new Date(ceilMs(floor)).toISOString() : at;
}

export class ServerClock {
  /**
   * @param {object} options
   * @param {() => Promise<string>} options.fetchTime  the server's time now, ISO (GET /api/time)
   * @param {{getItem(name: string): string|null, setItem(name: string, value: string): void}} options.storage
   * @param {() => number} [options.localNow]
   */
  constructor({fetchTime, storage, localNow = () => Date.now()}) {
    Object.assign(this, {fetchTime, storage, localNow});
    const saved = JSON.parse(storage.getItem(SAVED) || "null");
    this.offset = saved ? saved.offset : 0;   // server minus device, in ms; kept for a console opened offline
    this.measured = Boolean(saved);
  }

  /** The server's time now, as far as this device can tell, in ms. */
  now() { return this.localNow() + this.offset; }

  /**
   * Ask the server its time a few times; the answer that came back fastest gives the offset, taken at
   * the middle of its round trip. Resolves to the offset, or null if the server did not answer.
   */
  async measure(samples = SAMPLES) {
    let best = null;
    for (let i = 0; i < samples; i++) {
      const sent = this.localNow();
      let server;
      try {
        server = Date.parse(await this.fetchTime());
      } catch (err) {
        return null;
      }
      const back = this.localNow();
      if (best === null || back - sent < best.trip) best = {trip: back - sent, offset: server - (sent + back) / 2};
    }
    this.offset = Math.round(best.offset);
    this.measured = true;
    this.storage.setItem(SAVED, JSON.stringify({offset: this.offset, trip: best.trip}));
    return this.offset;
  }

  /** The `at` for an event logged now: the server's time, but never before ``floor`` (ISO, or null). */
  stamp(floor = null) {
    return notBefore(new Date(this.now()).toISOString(), floor);
  }
}

let shared = null;

/** This page's clock, measured against the server's (GET /api/time); its offset is kept in localStorage. */
export function pageClock() {
  shared ||= new ServerClock({
    storage: localStorage,
    fetchTime: async () => {
      const reply = await api("/api/time");
      if (reply.status !== 200) throw new Error(`GET /api/time answered ${reply.status}`);
      return reply.data.now;
    },
  });
  return shared;
}
