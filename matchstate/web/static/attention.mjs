// What waits for the scorer below the buttons: events held while another console holds the seat, the match
// moved on while events waited (a conflict), or an event the server refused. Each panel names what happened
// and offers what can be done; nothing waiting is ever dropped without the scorer's say.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {earlier} from "./clock.mjs";
import {lang} from "./lang.mjs";
import {heldPanel} from "./seatview.mjs";
import {time} from "./show.mjs";
import {describeEvent, events, roleName} from "./words.mjs";

const button = (act, cls, onclick, words) => el("button", {type: "button", class: `big ${cls}`, dataset: {act}, onclick},
  words);

// The match moved on while events waited: what it moved on by, and a way on (sent after, relogged, discarded).
function movedOn(page, conflict) {
  const {outbox, known} = page;
  const waiting = outbox.items;
  const basis = outbox.read().basis;
  const moved = known.log.filter((row) => row.seq > basis);
  const early = waiting.length && known.lastAt() && earlier(waiting[0].event.at, known.lastAt());
  const one = waiting.length === 1;  // "Discard it", "esperaba": not "them", "esperaban"
  return [
    el("h2", {}, t("console", "moved-on")),
    el("p", {}, t("console", `${moved.length ? "moved-on-by" : "moved-on-to"}${one ? "-one" : ""}`,
      {events: events(waiting.length), seq: conflict.current_seq})),
    el("ul", {class: "moved"}, moved.map((row) => el("li", {}, `#${row.seq} ${time(row.at)} ${describeEvent(row.event)}`
      + ` (${roleName(row.role)}${row.by ? `, ${row.by}` : ""})`))),
    early ? el("p", {}, t("console", "moved-on-early")) : null,
    el("div", {class: "actions"},
      early ? button("relog", "primary", () => page.relog(), t("console", one ? "relog-after-one" : "relog-all"))
        : button("send-after", "primary", () => { outbox.sendAfter(conflict.current_seq); outbox.pump(); },
          t("console", one ? "send-after-one" : "send-after")),
      button("discard", "danger", () => page.discard(outbox.events, () => outbox.discardAll()),
        t("console", one ? "discard-one" : "discard-all"))),
  ];
}

// The server refused the first event waiting: why, in its words, and what can be done with it.
function refused(page, held) {
  const {outbox, known} = page;
  const byKey = held.refused.status === 401 || held.refused.status === 403;
  const behind = outbox.items.length - 1;
  return [
    el("h2", {}, t("console", "needs-attention")),
    el("p", {class: "what"}, t("console", "not-recorded", {event: describeEvent(held.event), time: time(held.event.at)})),
    el("p", {class: "reason"}, held.refused.status === "early"
      ? t("console", "says-console", {reason: t("console", "refused-early", {at: held.event.at, last: known.lastAt()})})
      : t("console", "says-server", {reason: held.refused.words?.[lang()] ?? held.refused.reason})),
    behind ? el("p", {}, t("console", behind === 1 ? "behind-one" : "behind-many", {events: events(behind)})) : null,
    byKey ? el("p", {class: "quiet"}, t("console", "wrong-key")) : null,
    el("div", {class: "actions"},
      byKey ? button("retry", "primary", () => { outbox.retry(held.event.id); outbox.pump(); }, t("console", "send-again"))
        : button("relog", "primary", () => page.relog(), t("console", "relog-one")),
      byKey ? button("hand-over", "", () => page.handOver(held), t("console", "hand-over")) : null,
      button("discard", "danger", () => page.discard([held.event], () => outbox.discard(held.event.id)),
        t("console", "discard-one"))),
  ];
}

/** The attention panel's content for the console ``page`` (empty: nothing waits for the scorer). */
export function attention(page) {
  const {outbox, seat} = page;
  if (seat.lacks(outbox.items.length)) {
    return heldPanel(seat, outbox.events,
      {onSend: () => page.sendHeld(), onHand: () => page.handHeld(), onTake: () => page.take()});
  }
  if (outbox.conflict) return movedOn(page, outbox.conflict);
  return outbox.held ? refused(page, outbox.held) : [];
}
