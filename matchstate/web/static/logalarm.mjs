// What a page does with each league log checkpoint the server gives (an append's answer): it keeps the latest in
// localStorage, per origin and log, takes a newer one only with a consistency proof (logproof.mjs), and on a fork
// or a rollback says so plainly in English and Spanish and offers the misbehaviour report to download, which
// `matchstate verify --report FILE` checks with no server.
import {el} from "./dom.mjs";
import {phraseIn} from "./catalog.mjs";
import {LogWatch} from "./logproof.mjs";

async function consistency(from, to) {
  const reply = await fetch(`/api/log/consistency?from=${from}&to=${to}`, {headers: {Accept: "application/json"}});
  if (reply.status === 400) return null;  // the server holds fewer leaves than a tree it signed
  if (!reply.ok) throw new Error(`consistency: HTTP ${reply.status}`);
  return (await reply.json()).proof;
}

async function logKey() {
  try {
    const reply = await fetch("/api/log/key", {headers: {Accept: "application/json"}});
    return reply.ok ? (await reply.json()).vkey : null;
  } catch {
    return null;  // then the proofs alone are checked
  }
}

async function latest() {
  const reply = await fetch("/api/log/checkpoint");
  return reply.ok ? reply.text() : null;
}

/** The function that checks each checkpoint given, showing any alarm in ``box`` (hidden until then); the log's
 * latest checkpoint is checked at once, so a page opened on a store restored from an older copy says so. */
export function logAlarm(box, name) {
  const watch = logKey().then((vkey) => new LogWatch(localStorage, location.origin, consistency, vkey));
  let queue = Promise.resolve();
  const see = (note) => {
    if (!note) return queue;
    queue = queue.then(async () => {
      const {status, report} = await (await watch).see(note);
      if (report) show(box, status, report, name);
      return status;
    }).catch(() => null);  // no answer to the proof's request: the next checkpoint asks again
    return queue;
  };
  latest().then(see, () => null);
  return see;
}

function show(box, status, report, name) {
  const href = URL.createObjectURL(new Blob([JSON.stringify(report, null, 1) + "\n"], {type: "application/json"}));
  const said = (key) => ["en", "es"].map((language) => el("p", {lang: language}, phraseIn(language, "log-watch", key)));
  box.replaceChildren(...said(status),
    el("a", {href, download: `misbehaviour-${name}.json`, class: "button small"}, phraseIn("en", "log-watch", "download"),
      " / ", phraseIn("es", "log-watch", "download")));
  box.hidden = false;
}
