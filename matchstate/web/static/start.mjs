// Where the installed app opens (/console): the console of the match in progress. The server says which
// matches are in play (else about to start); this device's last console goes first among them, and is the one opened when the
// server does not answer (the service worker keeps it). With none, the records page.

import {LAST_CONSOLE} from "./page.mjs";

const WAIT_MS = 3000;

async function inPlay() {
  const asked = new AbortController();
  const timer = setTimeout(() => asked.abort(), WAIT_MS);
  try {
    const reply = await fetch("/api/matches?sort=-created&limit=100", {signal: asked.signal});
    if (!reply.ok) return null;
    const open = (await reply.json()).filter((match) => !match.unreadable && match.status !== "finished");
    open.sort((a, b) => (b.status === "in_play") - (a.status === "in_play"));  // stable: newest first in each
    return open.map((match) => `/matches/${encodeURIComponent(match.code)}/console`);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const kept = localStorage.getItem(LAST_CONSOLE);
const playing = await inPlay();
let target = "/";
if (playing === null) target = kept || "/";
else if (playing.length) target = playing.includes(kept) ? kept : playing[0];
location.replace(target);
