// The scoring seat in the review: which clock checks the seat's timer logged (a person's tap is not marked),
// and the events a console without the seat held offline and handed here, in time order, to log as they were or
// (one the engine refuses, say) to set aside, never logged.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {handedWaiting, shownLabel} from "./seat.mjs";
import {time} from "./show.mjs";
import {describeEvent} from "./words.mjs";

/** The timer's mark on a row it logged: "logged by the console's timer, 20.2 s after “Play”". */
export function timerMark(seat, row) {
  const timed = seat.timer_ticks[row.device_id];
  if (!timed) return null;
  return el("span", {class: "timer-mark"}, " · ", t("seat", "timer", {seconds: timed.elapsed.toFixed(1)}));
}

/** The events handed to the review that are not logged yet, oldest first, each with the actions that log it
 * (``onLog``) and set it aside (``onAside``). */
export function handedPanel(seat, log, onLog, onAside) {
  const waiting = handedWaiting(seat.handed, log);
  if (!waiting.length) return [];
  const labels = [...new Set(waiting.map((item) => shownLabel(item.label)))].join(", ");
  const action = (act, item, onclick, words) => el("button", {type: "button", class: "small",
    dataset: {act, id: item.event.id}, onclick}, t("seat", words));
  return [el("h2", {}, t("seat", "review-handed-title")),
    el("p", {}, t("seat", "review-handed-text", {label: labels})),
    el("ol", {class: "handed"}, waiting.map((item) => el("li", {}, `${time(item.event.at)} ${describeEvent(item.event)} `,
      action("log-handed", item, () => onLog(item.event), "review-log"), " ",
      action("aside-handed", item, () => onAside(item), "review-aside"))))];
}

/** Before setting aside an event handed to the review: it is never logged. Keeping it listed is the answer a
 * reflex Enter gives. */
export function asideQuestion(item) {
  return {title: t("seat", "aside-title"), text: t("seat", "aside-text"),
    items: [`${time(item.event.at)} ${describeEvent(item.event)} · ${shownLabel(item.label)}`],
    actions: [{id: "confirm", label: t("seat", "review-aside"), danger: true},
      {id: "cancel", label: t("seat", "aside-keep"), primary: true}]};
}
