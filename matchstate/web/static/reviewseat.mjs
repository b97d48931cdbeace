// The scoring seat in the review: which clock checks the seat's timer logged (a person's tap is not marked),
// and the events a console without the seat held offline and handed here, in time order, to log as they were (or
// now, where the log has moved past them) or (one the engine refuses, say) to set aside, never logged.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {earlier} from "./clock.mjs";
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
 * (``onLog``: as it was; ``onRelog``: now, where the log has moved past its time, so that as it was it would be
 * refused) and set it aside (``onAside``). */
export function handedPanel(seat, log, onLog, onRelog, onAside) {
  const waiting = handedWaiting(seat.handed, log);
  if (!waiting.length) return [];
  const last = log.length ? log[log.length - 1] : null;
  const labels = [...new Set(waiting.map((item) => shownLabel(item.label)))].join(", ");
  const action = (act, item, onclick, words, fields) => el("button", {type: "button", class: "small",
    dataset: {act, id: item.event.id}, onclick}, t("seat", words, fields));
  const logs = (item) => last && earlier(item.event.at, last.at)
    ? action("relog-handed", item, () => onRelog(item), "review-relog", {seq: last.seq})
    : action("log-handed", item, () => onLog(item.event), "review-log");
  return [el("h2", {}, t("seat", "review-handed-title")),
    el("p", {}, t("seat", "review-handed-text", {label: labels})),
    el("ol", {class: "handed"}, waiting.map((item) => el("li", {}, `${time(item.event.at)} ${describeEvent(item.event)} `,
      logs(item), " ", action("aside-handed", item, () => onAside(item), "review-aside"))))];
}

/** Before logging now an event handed to the review that the log has moved past (its ``at`` earlier than the last
 * event's, ``seq``): it is logged at ``at`` instead of the time it was logged on its console. */
export function relogQuestion(item, at, seq) {
  return {title: t("seat", "relog-title", {seq}),
    text: t("seat", "relog-text", {was: time(item.event.at), label: shownLabel(item.label), seq, at: time(at)}),
    items: [`${time(item.event.at)} ${describeEvent(item.event)} · ${shownLabel(item.label)}`],
    actions: [{id: "confirm", label: t("seat", "relog-confirm", {at: time(at)}), primary: true},
      {id: "cancel", label: t("seat", "aside-keep")}]};
}

/** Before setting aside an event handed to the review: it is never logged. Keeping it listed is the answer a
 * reflex Enter gives. */
export function asideQuestion(item) {
  return {title: t("seat", "aside-title"), text: t("seat", "aside-text"),
    items: [`${time(item.event.at)} ${describeEvent(item.event)} · ${shownLabel(item.label)}`],
    actions: [{id: "confirm", label: t("seat", "review-aside"), danger: true},
      {id: "cancel", label: t("seat", "aside-keep"), primary: true}]};
}
