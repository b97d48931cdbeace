// The scoring seat in the review: which clock checks the seat's timer logged (a person's tap is not marked),
// and the events a console without the seat held offline and handed here, in time order, to log as they were.

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

/** The events handed to the review that are not logged yet, oldest first, each with the action that logs it. */
export function handedPanel(seat, log, onLog) {
  const waiting = handedWaiting(seat.handed, log);
  if (!waiting.length) return [];
  const labels = [...new Set(waiting.map((item) => shownLabel(item.label)))].join(", ");
  return [el("h2", {}, t("seat", "review-handed-title")),
    el("p", {}, t("seat", "review-handed-text", {label: labels})),
    el("ol", {class: "handed"}, waiting.map((item) => el("li", {}, `${time(item.event.at)} ${describeEvent(item.event)} `,
      el("button", {type: "button", class: "small", dataset: {act: "log-handed", id: item.event.id},
        onclick: () => onLog(item.event)}, t("seat", "review-log")))))];
}
