// The public tournament page: every fixture's score kept live through one stream for the whole tournament. One
// stream a match would take a connection each, and a browser opens six to a server (HTTP/1.1): a match day's
// opened matches would take them all, from this page's later fixtures and from every other tab.

import {t} from "./catalog.mjs";
import {goals} from "./show.mjs";

const STATUSES = ["waiting", "scheduled", "playing", "ended", "level", "stale", "removed"];
const rows = new Map([...document.querySelectorAll(".fixture-row")].map((row) => [row.dataset.fixture, row]));

function show(row, status, score) {
  const {home, away} = row.dataset;
  if (score && home in score && away in score) {
    row.querySelector("[data-score]").textContent = `${goals(score[home])} – ${goals(score[away])}`;
  }
  row.classList.remove(...STATUSES);
  row.classList.add(status);
  row.querySelector("[data-status]").textContent = t("tournament", `status-${status}`);
}

// A fixture as the tournament stands now: its match may be new (opened since the page was made), its teams
// known since.
function progressed(fixture) {
  const row = rows.get(fixture.id);
  if (!row || (fixture.match === row.dataset.match && fixture.seq < Number(row.dataset.seq))) return;
  for (const side of ["home", "away"]) {
    if (fixture[side]) {
      row.dataset[side] = fixture[side];
      row.querySelector(`.fixture-teams .${side}`).textContent = fixture[side];
    }
  }
  if (fixture.match && fixture.match !== row.dataset.match) {
    row.dataset.match = fixture.match;
    let link = row.querySelector("a");
    if (!link) {
      link = row.appendChild(document.createElement("a"));
      link.textContent = t("tournament", "scoreboard");
    }
    link.href = `/matches/${encodeURIComponent(fixture.match)}/scoreboard`;
    link.setAttribute("aria-label", t("tournament", "scoreboard-of", {home: row.dataset.home, away: row.dataset.away}));
  }
  row.dataset.seq = fixture.seq;
  show(row, fixture.status, fixture.score);
}

// An event appended to a fixture's match, with the match after it (an older one than the row shows is let be).
// Whether a match that ends sends a team on or leaves a knockout level is the tournament's to say: the stream
// sends its progress after an append that ends a match or reopens it, and until then the row says what it said.
function appended(match) {
  const row = [...rows.values()].find((each) => each.dataset.match === match.code);
  if (!row || row.matches(".stale, .removed") || match.seq < Number(row.dataset.seq)) return;
  row.dataset.seq = match.seq;
  show(row, match.ended ? STATUSES.find((status) => row.classList.contains(status)) : "playing", match.score);
}

const section = document.getElementById("tournament");
const unsettled = [...rows.values()].some((row) => !row.matches(".ended, .stale, .removed"));
if (section && unsettled) {
  const key = new URLSearchParams(location.search).get("key");  // a private server's page is opened with it
  const params = key ? `?${new URLSearchParams({key})}` : "";
  const source = new EventSource(`/api/tournaments/${encodeURIComponent(section.dataset.slug)}/stream${params}`);
  source.addEventListener("progress", (e) => JSON.parse(e.data).fixtures.forEach(progressed));
  source.addEventListener("append", (e) => appended(JSON.parse(e.data).match));
}
