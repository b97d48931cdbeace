// The officials' review of a call (log format 1.2) in one line, as the scoreboard and the scorer's console show it.

import {t} from "./catalog.mjs";
import {eventName} from "./words.mjs";

// The review open, else the latest decided (log format 1.2), in words: "Review: Goal, Blue #3 — overturned".
/** ``known``: a page's tracker of the match (live.mjs). */
export function reviewLine(known) {
  const {review, reviews} = known.view.officials || {};
  const latest = (reviews || []).find((r) => r.seq === review) || (reviews || []).at(-1);
  const about = latest && known.log.find((row) => row.seq === latest.about);
  if (!about) return "";
  const {team, player} = about.event;
  const who = team && player ? t("scoreboard-review", "player", {team, player}) : team || "";
  const event = [eventName(about.type), who].filter(Boolean).join(", ");
  return latest.outcome ? t("scoreboard-review", "decided", {event, outcome: t("officials", latest.outcome)})
    : t("scoreboard-review", "open", {event});
}
