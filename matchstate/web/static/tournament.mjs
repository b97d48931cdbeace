// The public tournament page: each fixture's score kept live through its match's stream.

import {listen} from "./live.mjs";
import {t} from "./catalog.mjs";

// A goal count as the server's pages write it (tournaments.standings.goals): 7, 7½.
const goals = (n) => (Number.isInteger(n) ? String(n) : `${n < 0 ? "-" : ""}${Math.trunc(Math.abs(n))}½`);

function follow(row) {
  const {match, seq, home, away} = row.dataset;
  const score = row.querySelector("[data-score]");
  const status = row.querySelector("[data-status]");
  listen(match, Number(seq) || 0, "", {
    onAppend(_event, view) {
      if (!view || !view.score || !(home in view.score)) return;
      score.textContent = `${goals(view.score[home])} – ${goals(view.score[away])}`;
      const now = view.ended ? "ended" : "playing";
      row.classList.remove("scheduled", "playing", "ended", "level");
      row.classList.add(now);
      status.textContent = t("tournament", `status-${now}`);
    },
    onOpen() {},
    onError() {},
  });
}

for (const row of document.querySelectorAll(".fixture-row[data-match]")) {
  if (!row.classList.contains("ended") && !row.classList.contains("stale")) follow(row);  // a level one is played on
}
