// What the modules under test are given in the browser: storage, and a server to send to.

/** localStorage's interface over a Map. */
export function memoryStorage() {
  const items = new Map();
  return {
    getItem: (name) => (items.has(name) ? items.get(name) : null),
    setItem: (name, value) => { items.set(name, String(value)); },
    removeItem: (name) => { items.delete(name); },
  };
}

/**
 * A server that answers each send with the next of ``answers`` (a {status, data} object, "down" for no
 * answer at all, or a function of the body); once they run out, it records each event as the next seq.
 */
export function fakeServer(answers = [], firstSeq = 2) {
  const server = {sent: [], recorded: [], seq: firstSeq - 1};
  server.send = async (body, key) => {
    server.sent.push({...body, key});
    let answer = answers.length ? answers.shift() : null;
    if (typeof answer === "function") answer = answer(body);
    if (answer === "down") throw new TypeError("Failed to fetch");
    if (answer) return answer;
    server.seq += 1;
    server.recorded.push(body.event);
    return {status: 201, data: {seq: server.seq, event: {seq: server.seq, ...body.event}, match: {seq: server.seq}}};
  };
  return server;
}

export const noSleep = async () => {};

let clock = Date.parse("2026-11-29T15:00:00.000Z");

/** An event as the console logs it, a second after the one before. */
export function logged(type, fields = {}) {
  clock += 1000;
  return {type, at: new Date(clock).toISOString(), id: `web-${type}-${clock}`, ...fields};
}
