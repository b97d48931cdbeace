// The scoreboard for spectators: one match (data-code) or every match being played now, each with its
// teams, the score with goals by handicap, the chukker, the running clock and the last ruling in plain
// words, live over the match's stream. On a private server it asks for a key like every other page.

import {$, el, messenger} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {api, denied, reason} from "./http.mjs";
import {key, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {listen, tracker} from "./live.mjs";
import {pageClock} from "./clock.mjs";
import {face} from "./chukkerclock.mjs";
import {intervalReading, intervalStart} from "./interval.mjs";
import {reviewLine} from "./reviewline.mjs";
import {goals} from "./show.mjs";

const root = $("scoreboard");
const single = root.dataset.code;       // one match's board; absent: every match in play
const KEYED = single ?? "*";            // whose key this page keeps: the match's, or the league's for the list
const LIST_EVERY_MS = 20_000;           // how often the list of matches in play is asked again
const clock = pageClock();
const follows = new Map();              // code -> {known, source, board}



const say = messenger();  // the page's message, said again in the language chosen

function newBoard(code) {
  const part = (name) => el("div", {class: name});
  const side = (n) => el("div", {class: `side side-${n}`}, part("team"), part("goals"), part("hcp"));
  const board = el("section", {class: "board", dataset: {code}},
    el("div", {class: "face"}, part("title"), side(1), el("div", {class: "middle"}, part("chukker"), part("time"),
      part("caption")), side(2), el("p", {class: "last"}, el("span", {class: "label"}), " ", el("span", {class: "outcome"}),
      " ", el("span", {class: "review", "aria-live": "polite"}))));
  $("boards").append(board);
  return board;
}

// The last ruling that stands (a voided event's is struck out with it).
function lastRuling(known) {
  for (let i = known.log.length - 1; i >= 0; i--) {
    const row = known.log[i];
    if (row.ruling && !known.view.void.includes(row.seq)) return row.ruling;
  }
  return null;
}

function render(follow) {
  const {known, board} = follow;
  const view = known.view;
  const find = (selector) => board.querySelector(selector);
  // The event and the venue (a field of its own, on a day of many matches); the code where neither is given.
  find(".title").textContent = [view.start.event, view.start.venue].filter(Boolean).join(" · ") || view.code;
  const handicap = view.start.handicap_goals || {};
  view.teams.forEach((team, i) => {
    find(`.side-${i + 1} .team`).textContent = team;
    find(`.side-${i + 1} .goals`).textContent = goals(view.score[team]);
    find(`.side-${i + 1} .hcp`).textContent = handicap[team] ? t("scoreboard", "handicap", {goals: goals(handicap[team])}) : "";
  });
  const ruling = lastRuling(known);
  find(".last .label").textContent = ruling ? t("scoreboard", "last") : "";
  find(".last .outcome").textContent = ruling ? ruling.outcome[lang()] : t("scoreboard", "none");
  find(".review").textContent = reviewLine(known);
  tick(follow);
}

// The clock, run on to now by this device's clock corrected to the server's.
function tick({known, board}) {
  const view = known.view;
  const now = face(view.clock, clock.now());
  const find = (selector) => board.querySelector(selector);
  find(".chukker").textContent = now.chukker === null ? "" : t("scoreboard", "chukker", {n: now.chukker});
  const result = view.winner ? t("common", "won", {team: view.winner}) : t("scoreboard", "tied");
  // Between chukkers, the interval counted down from the chukker's end, where one follows it (interval.mjs).
  const ended = now.phase === "between" ? intervalStart(view.clock, view.score, known.log, view.void) : null;
  const interval = ended ? intervalReading(view.clock, ended.chukker, ended.at, clock.now()) : null;
  find(".time").textContent = interval ? interval.time : now.time;
  find(".caption").textContent = interval ? interval.caption
    : now.phase === "ended" ? `${now.caption} · ${result}` : now.caption;
  board.dataset.phase = now.phase;
}

function liveState() {
  const sources = [...follows.values()].map((follow) => follow.source);
  const pill = $("live");
  const open = sources.length > 0 && sources.every((source) => source.readyState === EventSource.OPEN);
  pill.textContent = t("common", open ? "live" : sources.length ? "reconnecting" : "waiting");
  pill.className = open ? "pill ok" : "pill warn";
}

// Read a match and follow it live; false when its key is wanted.
async function follow(code) {
  const base = `/api/matches/${encodeURIComponent(code)}`;
  const [viewReply, logReply] = await Promise.all([api(base, {key: key(KEYED)}), api(`${base}/events`, {key: key(KEYED)})]);
  if (denied(viewReply)) return false;
  if (viewReply.status !== 200) {
    say(() => reason(viewReply.data));
    return true;
  }
  const known = tracker();
  known.merge(logReply.data);
  known.seen(null, viewReply.data);
  const entry = {known, board: newBoard(code), source: null};
  follows.set(code, entry);
  entry.source = listen(code, known.view.seq, key(KEYED), {
    onAppend: (event, match) => { known.seen(event, match); render(entry); },
    onOpen: liveState, onError: liveState,
  });
  render(entry);
  return true;
}

function unfollow(code) {
  const entry = follows.get(code);
  entry.source.close();
  entry.board.remove();
  follows.delete(code);
}

function askForKey(words) {
  $("keyform").hidden = false;
  say(words);
  $("key").focus();
}

async function openOne() {
  try {
    if (!(await follow(single))) askForKey(() => t("scoreboard", "private-match"));
    else { $("keyform").hidden = true; say(() => ""); }
  } catch (err) {
    say(() => t("common", "no-answer"));
    setTimeout(openOne, 2000);
  }
}

// Every match in play: follow the new ones, drop the ones no longer in play.
async function openAll() {
  let reply;
  try {
    reply = await api("/api/matches?status=in_play", {key: key(KEYED)});
  } catch (err) {
    say(() => t("common", "no-answer"));
    setTimeout(openAll, 2000);
    return;
  }
  if (denied(reply)) {
    askForKey(() => t("scoreboard", "private-league"));
    return;
  }
  $("keyform").hidden = true;
  const playing = new Set(reply.data.filter((match) => !match.unreadable).map((match) => match.code));
  for (const code of [...follows.keys()]) if (!playing.has(code)) unfollow(code);
  for (const code of playing) if (!follows.has(code)) await follow(code);
  root.dataset.count = follows.size;
  say(() => (follows.size ? "" : t("scoreboard", "nothing")));
  liveState();
  setTimeout(openAll, LIST_EVERY_MS);
}

if (single) takeKeyFromLink(single);
$("key").value = key(KEYED);
$("keyform").addEventListener("submit", (e) => {
  e.preventDefault();
  setKey(KEYED, $("key").value.trim());
  if (single) openOne(); else openAll();
});
onLang(() => {
  follows.forEach(render);
  say.again();
  liveState();
});
setInterval(() => follows.forEach(tick), 250);
clock.measure();
await (single ? openOne() : openAll());
root.classList.add("ready");
