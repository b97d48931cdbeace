// The records page: find matches by team, event, venue, player, date and standing; create a match and show its
// keys, once.

import {$, el} from "./dom.mjs";
import {api, reason} from "./http.mjs";
import {withKey} from "./keys.mjs";
import {deviceId} from "./events.mjs";
import {pageClock} from "./clock.mjs";

const clock = pageClock();

async function search() {
  const params = new URLSearchParams(new FormData($("search")));
  history.replaceState(null, "", `?${params}`);
  const list = $("matches");
  let reply;
  try {
    reply = await api(`/api/matches?${params}`);
  } catch (err) {
    list.replaceChildren(el("tr", {}, el("td", {colspan: 6, class: "refused"}, "The server does not answer: no match list.")));
    return;
  }
  if (reply.status !== 200) {
    list.replaceChildren(el("tr", {}, el("td", {colspan: 6}, reason(reply.data))));
    return;
  }
  list.replaceChildren(...(reply.data.length ? reply.data.map(row)
    : [el("tr", {}, el("td", {colspan: 6, class: "quiet"}, "No match found."))]));
}

function row(match) {
  const path = `/matches/${encodeURIComponent(match.code)}`;
  const apiPath = `/api${path}`;
  return el("tr", {},
    el("td", {}, el("a", {href: `${path}/review`}, match.code)),
    el("td", {}, match.date),
    el("td", {}, match.teams.join(" v ")),
    el("td", {class: "num"}, match.teams.map((team) => match.score[team]).join(" – ")),
    el("td", {}, standing(match), el("span", {class: "quiet"}, ` · ${match.state.replace("_", " ")} · ${match.events} events`)),
    el("td", {class: "links"},
      el("a", {href: `${path}/console`}, "console"), el("a", {href: `${path}/review`}, "review"),
      el("a", {href: `${path}/scoreboard`}, "scoreboard"),
      el("a", {href: `${path}/sheet`}, "score sheet"), el("a", {href: `${apiPath}/log.jsonl`}, "JSONL"),
      el("a", {href: `${apiPath}/log.csv`}, "CSV")));
}

function standing(match) {
  if (match.status !== "finished") return match.status.replace("_", " ");
  return match.winner ? `finished · ${match.winner} won` : "finished · tied";
}

function startEvent(form) {
  const data = new FormData(form);
  const teams = [data.get("team1").trim(), data.get("team2").trim()];
  const text = (name) => (data.get(name) || "").trim() || undefined;
  const handicapGoals = {};
  const rosters = {};
  teams.forEach((team, t) => {
    const goals = Number(data.get(`goals${t + 1}`) || 0);
    if (goals) handicapGoals[team] = goals;
    const players = [1, 2, 3, 4].map((n) => {
      const name = text(`name${t + 1}_${n}`);
      const handicap = data.get(`hcp${t + 1}_${n}`);
      return name ? {player: n, name, handicap: Number(handicap || 0)} : null;
    }).filter(Boolean);
    if (players.length) rosters[team] = players;
  });
  const officials = (data.get("officials") || "").split(",").map((s) => s.trim()).filter(Boolean);
  return {
    type: "match.start", at: clock.stamp(), id: deviceId(),
    match: data.get("match").trim(), teams, field_length: Number(data.get("field_length") || 300),
    penalty3_defended: data.get("penalty3_defended") === "on", handicap_goals: handicapGoals,
    chukkers: Number(data.get("chukkers") || 6), event: text("event"), venue: text("venue"),
    officials: officials.length ? officials : undefined,
    rosters: Object.keys(rosters).length ? rosters : undefined,
  };
}

const LEAGUE_KEY = "matchstate:league-key";

// The league key as the form gives it; kept in this browser's storage only when the person asks.
function leagueKey(form) {
  const key = form.elements.league_key.value.trim();
  if (form.elements.remember.checked) localStorage.setItem(LEAGUE_KEY, key);
  else localStorage.removeItem(LEAGUE_KEY);
  return key;
}

async function create(e) {
  e.preventDefault();
  const out = $("created");
  let reply;
  try {
    reply = await api("/api/matches", {method: "POST", body: startEvent(e.target), key: leagueKey(e.target)});
  } catch (err) {
    out.replaceChildren(el("p", {class: "refused"}, "Not created: the server does not answer. Try again when it does."));
    return;
  }
  if (reply.status !== 201) {
    const why = reply.status === 401 || reply.status === 403
      ? "the league key is missing or is not this league's" : reason(reply.data);
    out.replaceChildren(el("p", {class: "refused"}, `Not created (${reply.status}): ${why}`));
    if (reply.status === 401 || reply.status === 403) e.target.elements.league_key.focus();
    return;
  }
  const {code, scorer_key: scorer, official_key: officialKey, links} = reply.data;
  out.replaceChildren(el("div", {class: "keys"},
    el("h3", {}, `Match ${code} created`),
    el("p", {}, "These keys are shown only now: copy them or open the links (each carries its key)."),
    el("dl", {}, el("dt", {}, "Scorer key"), el("dd", {}, el("code", {class: "scorer-key"}, scorer)),
      el("dt", {}, "Official key"), el("dd", {}, el("code", {class: "official-key"}, officialKey))),
    el("p", {class: "links"},
      el("a", {href: `${links.console}#key=${encodeURIComponent(scorer)}`}, "Open the scorer's console"),
      el("a", {href: `${links.review}#key=${encodeURIComponent(officialKey)}`}, "Open the officials' review"),
      el("a", {href: withKey(links.sheet, officialKey)}, "Score sheet"))));
  search();
}

const form = $("search");
const params = new URLSearchParams(location.search);
for (const name of ["team", "event", "venue", "player", "date", "status", "state"]) {
  form.elements[name].value = params.get(name) || "";
}
form.addEventListener("submit", (e) => { e.preventDefault(); search(); });
form.addEventListener("change", search);
$("new").addEventListener("submit", create);
const remembered = localStorage.getItem(LEAGUE_KEY);
if (remembered) {
  $("new").elements.league_key.value = remembered;
  $("new").elements.remember.checked = true;
}
clock.measure();
search();
