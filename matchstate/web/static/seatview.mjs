// The scoring seat on the console's page: who holds it, the one confirmation that takes it from another
// device, and what a console without the seat does with the events it held offline (send them as they were,
// or hand them to the official's review: never re-stamped).

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {ask} from "./dialog.mjs";
import {shownLabel} from "./seat.mjs";
import {time} from "./show.mjs";
import {describeEvent} from "./words.mjs";

/** The seat's line: this console holds it, or it watches the holder (with the button to take the seat). */
export function seatLine(seat, onTake) {
  if (seat.mine === null || (seat.mine && !seat.holder)) return [];
  if (seat.mine) return [el("p", {class: "seat mine"}, t("seat", "holder-you"))];
  const words = seat.holder ? t("seat", "watching", {label: shownLabel(seat.holder.label), seconds: heardAgo(seat)})
    : t("seat", "no-seat");
  return [el("p", {class: "seat watching"}, words, " ",
    el("button", {type: "button", class: "small", dataset: {act: "take-seat"}, onclick: onTake}, t("seat", "take")))];
}

const heardAgo = (seat) => Math.round(seat.holder.heard_seconds_ago);

/**
 * Take the seat, after one confirmation that names the holder and when it was last heard from; ``event`` (its
 * words) where the scorer tapped it on a console that only watches: the question is asked at the tap, not once
 * the event is held. Resolves to whether the seat is now this console's, or null where the scorer said no.
 */
export async function takeSeat(seat, event = null) {
  if (seat.holder && !seat.mine) {
    const words = {label: shownLabel(seat.holder.label), seconds: heardAgo(seat)};
    const {action} = await ask({title: t("seat", "take-title"),
      text: event ? t("seat", "take-to-log", {...words, event}) : t("seat", "take-text", words),
      actions: [{id: "confirm", label: t("seat", event ? "take-and-log" : "take"), primary: true},
        {id: "cancel", label: t("form", "cancel")}]});
    if (action !== "confirm") return null;
  }
  const reply = await seat.sit("take");
  return Boolean(reply && reply.status === 200 && seat.mine);
}

/**
 * What waits on a console without the seat, shown before anything is sent: the events in time order as they
 * were logged, and the scorer's two ways: send them as they were, or hand them to the review.
 */
export function heldPanel(seat, events, {onSend, onHand, onTake}) {
  const sorted = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const one = sorted.length === 1 ? "-one" : "";  // "Send it as it was", not "them"
  return [
    el("h2", {}, t("seat", "held-title")),
    el("p", {}, t("seat", `held-text${one}`, {label: seat.holder ? shownLabel(seat.holder.label) : t("seat", "nobody")})),
    el("ul", {class: "held"}, sorted.map((event) => el("li", {}, `${time(event.at)} ${describeEvent(event)}`))),
    el("div", {class: "actions"},
      el("button", {type: "button", class: "big primary", dataset: {act: "send-held"}, onclick: onSend}, t("seat", `held-send${one}`)),
      el("button", {type: "button", class: "big", dataset: {act: "hand-review"}, onclick: onHand}, t("seat", `held-review${one}`)),
      el("button", {type: "button", class: "big", dataset: {act: "take-seat"}, onclick: onTake}, t("seat", "take"))),
  ];
}
