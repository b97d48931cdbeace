// The records page: find matches by team, event, venue, player, date and standing; create a match and show its
// keys, once.

import {$, el, submitOnce} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {api, denied, reason} from "./http.mjs";
import {onLang} from "./lang.mjs";
import {withKey} from "./keys.mjs";
import {LEAGUE_KEY} from "./leaguekey.mjs";
import {deviceId} from "./events.mjs";
import {pageClock} from "./clock.mjs";
import {events, stateName} from "./words.mjs";
import {ask} from "./dialog.mjs";
import {goals} from "./show.mjs";

const clock = pageClock();
// What the list and the new match's panel show, drawn again in the other language when the toggle changes.
const drawn = {list: () => {}, created: () => {}};

// The list as read so far: its rows, the cursor of the page after them (null: no more), and a failed read's
// answer (null: none; "unanswered": no answer).
let listed = {rows: [], next: null, failed: null};

// On a private server the list is the league's: read with the league key the page holds (typed or remembered).
const listKey = () => (document.body.dataset.private !== undefined ? $("new").elements.league_key.value.trim() : "");

let asked = 0;  // the reads begun: the answer to one a later read overtook is dropped

/** Read the list as the search asks, from its first page, or (``more``) the page after those shown. */
async function search({more = false} = {}) {
  const mine = ++asked;
  const params = new URLSearchParams(new FormData($("search")));
  if (more) {
    params.set("cursor", listed.next);
  } else {
    history.replaceState(null, "", `?${params}`);
  }
  let reply;
  try {
    reply = await api(`/api/matches?${params}`, {key: listKey()});
  } catch (err) {
    reply = null;
  }
  // An Enter both submits and changes the field: two searches at once, whose rows were both shown.
  if (mine !== asked) return;
  if (!more) listed = {rows: [], next: null, failed: null};
  if (reply && reply.status === 200) {
    const next = reply.headers.get("X-Next-Cursor");  // URL-encoded, as a URL carries it
    listed = {rows: [...listed.rows, ...reply.data], next: next === null ? null : decodeURIComponent(next), failed: null};
  } else {
    listed.failed = reply === null ? "unanswered" : reply;
  }
  drawn.list = drawList;  // from the first answer on: the language toggle draws the list again
  drawn.list();
}

function drawList() {
  const line = (attrs, text) => el("tr", {}, el("td", {colspan: 6, ...attrs}, text));
  // A match whose stored row cannot be read back: named in its place, with what the server says of it.
  const unreadable = (match) => line({class: "refused", dataset: {unreadable: match.code}}, reason(match));
  const {rows, failed} = listed;
  const failure = failed === null ? [] : failed === "unanswered" ? [line({class: "refused"}, t("records", "unanswered"))]
    : [line({}, denied(failed) ? t("records", "league-to-list", {reason: reason(failed.data)}) : reason(failed.data))];
  $("matches").replaceChildren(...rows.map((match) => (match.unreadable ? unreadable(match) : row(match))), ...failure,
    ...(rows.length || failed ? [] : [line({class: "quiet"}, t("records", "none"))]));
  $("more").hidden = listed.next === null || failed !== null;
}

function row(match) {
  const path = `/matches/${encodeURIComponent(match.code)}`;
  const apiPath = `/api${path}`;
  return el("tr", {},
    el("td", {}, el("a", {href: `${path}/review`}, match.code)),
    el("td", {}, match.date),
    el("td", {}, t("common", "versus", {one: match.teams[0], two: match.teams[1]})),
    el("td", {class: "num"}, match.teams.map((team) => goals(match.score[team])).join(" – ")),
    el("td", {}, standing(match), el("span", {class: "quiet"}, ` · ${stateName(match.state)} · ${events(match.events)}`)),
    el("td", {class: "links"},
      el("a", {href: `${path}/console`}, t("common", "console")), el("a", {href: `${path}/review`}, t("common", "review")),
      el("a", {href: `${path}/scoreboard`}, t("common", "scoreboard")),
      el("a", {href: `${path}/sheet`}, t("common", "sheet")), el("a", {href: `${apiPath}/log.jsonl`}, "JSONL"),
      el("a", {href: `${apiPath}/log.csv`}, "CSV"),
      // Nothing logged but its match.start: it may still be corrected or removed, with the league key.
      ...(match.events === 1 ? [
        el("button", {type: "button", class: "small", dataset: {act: "correct"}, onclick: () => startCorrection(match.code)},
          t("records", "correct")),
        el("button", {type: "button", class: "small", dataset: {act: "remove"}, onclick: () => removeMatch(match.code)},
          t("records", "remove"))] : [])));
}

// What the page says of the last thing done with the league key, drawn again when the language changes.
function say(message, refused = false) {
  drawn.created = () => $("created").replaceChildren(el("p", {class: refused ? "refused" : "done"}, message()));
  drawn.created();
}

// The league key the form holds, or the focus on its box with what it is needed for.
function leagueKeyFor(form, what) {
  const key = leagueKey(form);
  if (!key) {
    say(() => t("records", "league-needed", {what}), true);
    form.elements.league_key.focus();
  }
  return key;
}

// Put a match.start into the new-match form, to correct it.
function fill(form, start) {
  const set = (name, value) => { form.elements[name].value = value ?? ""; };
  for (const name of ["match", "event", "venue", "field_length", "chukkers"]) set(name, start[name]);
  set("officials", (start.officials || []).join(", "));
  form.elements.penalty3_defended.checked = start.penalty3_defended ?? true;
  start.teams.forEach((team, t) => {
    set(`team${t + 1}`, team);
    set(`goals${t + 1}`, (start.handicap_goals || {})[team]);
    for (const n of [1, 2, 3, 4]) {
      const player = ((start.rosters || {})[team] || []).find((p) => p.player === n);
      set(`name${t + 1}_${n}`, player && player.name);
      set(`hcp${t + 1}_${n}`, player && player.handicap);
    }
  });
  const clock = start.clock ? `${start.clock.chukker_seconds}/${start.clock.extra_seconds}` : null;
  const preset = [...form.elements.clock.options].find((option) => option.value === clock);
  set("clock", clock === null ? form.elements.clock.options[0].value : preset ? clock : "own");
  if (clock !== null && !preset) {
    set("chukker_seconds", start.clock.chukker_seconds);
    set("extra_seconds", start.clock.extra_seconds);
  }
  form.querySelector(".own-clock").hidden = form.elements.clock.value !== "own";
}

// The match.start being corrected, as stored: what the form does not show of it (its rule set, its challenges) is
// kept as it was, where the correction dropped it (the rules of a club's match became the default set's).
let stored = null;

// Correcting: the form holds the match's match.start, its code fixed, until it is saved or another is made.
function correcting(form, code) {
  if (code) form.dataset.correcting = code;
  else delete form.dataset.correcting;
  if (!code) stored = null;
  form.elements.match.readOnly = Boolean(code);
  form.querySelector("button.primary").textContent = t("records", code ? "save-correction" : "create");
}

async function startCorrection(code) {
  const reply = await api(`/api/matches/${encodeURIComponent(code)}/events`);
  if (reply.status !== 200) return say(() => reason(reply.data), true);
  const form = $("new");
  stored = reply.data[0].event;
  fill(form, stored);
  correcting(form, code);
  say(() => t("records", "correcting", {code}));
  form.elements.team1.focus();
}

async function saveCorrection(form) {
  const code = form.dataset.correcting;
  const key = leagueKeyFor(form, t("records", "correct"));
  if (!key) return;
  const answer = await ask({title: t("records", "correct-title", {code}), text: t("records", "correct-text"),
    input: {label: t("records", "reason")},
    actions: [{id: "confirm", label: t("records", "save-correction"), primary: true}, {id: "cancel", label: t("form", "cancel")}]});
  if (answer.action !== "confirm") return;
  const {type, at, id, ...unshown} = stored;  // the form's own fields, each as it is now, on top
  const reply = await api(`/api/matches/${encodeURIComponent(code)}`,
    {method: "PUT", body: {start: {...unshown, ...startEvent(form)}, reason: answer.value}, key});
  if (reply.status !== 200) return say(() => t("records", "not-corrected", {status: reply.status, why: reason(reply.data)}), true);
  correcting(form, null);
  const remember = form.elements.remember.checked;
  form.reset();  // the match's fields; the league key stays for what the record keeper does next
  form.elements.league_key.value = key;
  form.elements.remember.checked = remember;
  say(() => t("records", "corrected", {code}));
  search();
}

async function removeMatch(code) {
  const key = leagueKeyFor($("new"), t("records", "remove"));
  if (!key) return;
  const answer = await ask({title: t("records", "remove-title", {code}), text: t("records", "remove-text"),
    input: {label: t("records", "reason")},
    actions: [{id: "confirm", label: t("records", "remove"), danger: true}, {id: "cancel", label: t("form", "cancel")}]});
  if (answer.action !== "confirm") return;
  const reply = await api(`/api/matches/${encodeURIComponent(code)}`, {method: "DELETE", body: {reason: answer.value}, key});
  if (reply.status !== 200) return say(() => t("records", "not-removed", {status: reply.status, why: reason(reply.data)}), true);
  say(() => t("records", "removed", {code}));
  search();
}

function standing(match) {
  if (match.status !== "finished") return t("standing", match.status);
  return match.winner ? t("standing", "won", {team: match.winner}) : t("standing", "tied");
}

function startEvent(form) {
  const data = new FormData(form);
  const teams = [data.get("team1").trim(), data.get("team2").trim()];
  const text = (name) => (data.get(name) || "").trim() || undefined;
  // Goals by handicap are given only as typed (a team's box left empty gives it none); with both boxes
  // empty none are given, and the engine derives them from the rosters' handicaps.
  const typed = teams.map((team, t) => [team, (data.get(`goals${t + 1}`) || "").trim()]).filter(([, goals]) => goals);
  const handicapGoals = typed.length ? Object.fromEntries(typed.map(([team, goals]) => [team, Number(goals)])) : undefined;
  const rosters = {};
  teams.forEach((team, t) => {
    const players = [1, 2, 3, 4].map((n) => {
      const name = text(`name${t + 1}_${n}`);
      const handicap = data.get(`hcp${t + 1}_${n}`);
      return name ? {player: n, name, handicap: Number(handicap || 0)} : null;
    }).filter(Boolean);
    if (players.length) rosters[team] = players;
  });
  const officials = (data.get("officials") || "").split(",").map((s) => s.trim()).filter(Boolean);
  const preset = data.get("clock");
  const [chukkerSeconds, extraSeconds] = preset === "own"
    ? [data.get("chukker_seconds"), data.get("extra_seconds")] : preset.split("/");
  return {
    type: "match.start", at: clock.stamp(), id: deviceId(),
    match: data.get("match").trim(), teams, field_length: Number(data.get("field_length") || 300),
    penalty3_defended: data.get("penalty3_defended") === "on", handicap_goals: handicapGoals,
    chukkers: Number(data.get("chukkers") || 6), event: text("event"), venue: text("venue"),
    clock: {chukker_seconds: Number(chukkerSeconds), extra_seconds: Number(extraSeconds || 0)},
    officials: officials.length ? officials : undefined,
    rosters: Object.keys(rosters).length ? rosters : undefined,
  };
}

// The league key as the form gives it; kept in this browser's storage only when the person asks.
function leagueKey(form) {
  const key = form.elements.league_key.value.trim();
  if (form.elements.remember.checked) localStorage.setItem(LEAGUE_KEY, key);
  else localStorage.removeItem(LEAGUE_KEY);
  return key;
}

async function create(e) {
  if (e.target.dataset.correcting) return saveCorrection(e.target);
  const out = $("created");
  let reply;
  try {
    reply = await api("/api/matches", {method: "POST", body: startEvent(e.target), key: leagueKey(e.target)});
  } catch (err) {
    drawn.created = () => out.replaceChildren(el("p", {class: "refused"}, t("records", "not-sent")));
    drawn.created();
    return;
  }
  if (reply.status !== 201) {
    const keyless = reply.status === 401 || reply.status === 403;
    drawn.created = () => out.replaceChildren(el("p", {class: "refused"}, t("records", "not-created",
      {status: reply.status, why: keyless ? t("records", "league-refused") : reason(reply.data)})));
    drawn.created();
    if (keyless) e.target.elements.league_key.focus();
    return;
  }
  drawn.created = () => out.replaceChildren(keys(reply.data));
  drawn.created();
  search();
}

// A new match's keys, shown once, with the links that carry them.
function keys({code, scorer_key: scorer, official_key: officialKey, links}) {
  return el("div", {class: "keys"},
    el("h3", {}, t("records", "created", {code})),
    el("p", {}, t("records", "keys-once")),
    el("dl", {}, el("dt", {}, t("records", "scorer-key")), el("dd", {}, el("code", {class: "scorer-key"}, scorer)),
      el("dt", {}, t("records", "official-key")), el("dd", {}, el("code", {class: "official-key"}, officialKey))),
    el("p", {class: "links"},
      el("a", {href: `${links.console}#key=${encodeURIComponent(scorer)}`}, t("records", "open-console")),
      el("a", {href: `${links.review}#key=${encodeURIComponent(officialKey)}`}, t("records", "open-review")),
      el("a", {href: withKey(links.sheet, officialKey)}, t("records", "open-sheet"))));
}

const form = $("search");
const params = new URLSearchParams(location.search);
for (const name of ["team", "event", "venue", "player", "date", "status", "state", "sort"]) {
  form.elements[name].value = params.get(name) || (name === "sort" ? "-created" : "");
}
form.addEventListener("submit", (e) => { e.preventDefault(); search(); });
form.addEventListener("change", () => search());
$("more").addEventListener("click", () => search({more: true}));
// A private server's list is read again with the league key once it is given.
$("new").elements.league_key.addEventListener("change", () => { if (listKey()) search(); });
submitOnce($("new"), create);
// The club's own clock asks for its two settings; a preset needs none.
$("new").elements.clock.addEventListener("change", (e) => {
  document.querySelector("#new .own-clock").hidden = e.target.value !== "own";
});
onLang(() => { drawn.list(); drawn.created(); });
const remembered = localStorage.getItem(LEAGUE_KEY);
if (remembered) {
  $("new").elements.league_key.value = remembered;
  $("new").elements.remember.checked = true;
}
clock.measure();
search();
