// The console's link banner: whether the server answers, and what waits here to be recorded.

import {t} from "./catalog.mjs";
import {lang} from "./lang.mjs";
import {events} from "./words.mjs";

/**
 * Whether the server answers: the device has a network, the live stream is open (``streamUp``), and what
 * waits in ``outbox`` is not failing to go. (A device that knows it has no network is offline, idle or not:
 * its stream may not have noticed yet.)
 */
export function answering(outbox, {onLine, streamUp}) {
  return onLine && streamUp && (!outbox.items.length || outbox.link === "up" || outbox.link === "unknown");
}

/**
 * The banner for ``outbox`` as {kind, text, seeBelow}: ``kind`` "warn" (something needs the scorer, shown
 * below), "offline", "ok", or "" (connecting, sending, or online but this page not kept for a reload yet).
 * ``everUp``: the live stream has been open since the page opened; ``online``: :func:`answering`;
 * ``keeping``: this device has no copy of this page yet (offlinecopy.mjs); ``seatless``: what waits is held here,
 * unsent, since another console holds the scoring seat (the attention panel below asks the scorer); ``handed``: the
 * events handed to the review that it has not logged yet (not recorded, so "every event recorded" is not said);
 * ``gone``: the server no longer holds the match (removed), whatever else is so.
 */
export function linkBanner(outbox, {everUp, online, keeping = false, seatless = false, handed = 0, gone = false}) {
  const waiting = outbox.items.length;
  if (gone) {
    return {kind: "warn", text: waiting ? t("console", waiting === 1 ? "match-gone-kept-one" : "match-gone-kept",
      {events: events(waiting)}) : t("console", "match-gone")};
  }
  if (outbox.needsAttention || (seatless && waiting)) {
    return {kind: "warn", seeBelow: true,
      text: t("console", outbox.conflict ? "banner-moved-on" : "banner-not-recorded", {events: events(waiting)})};
  }
  if (!everUp && outbox.link === "unknown") return {kind: "", text: t("console", "connecting")};
  if (!online) {
    const why = outbox.link === "database" ? outbox.unavailable?.[lang()] ?? t("faults", "link-database")
      : t("console", {failing: "link-failing", busy: "link-busy"}[outbox.link] || "link-offline");
    return {kind: "offline",
      text: waiting ? t("console", waiting === 1 ? "offline-kept-one" : "offline-kept", {why, events: events(waiting)})
        : t("console", "offline-empty", {why})};
  }
  if (waiting) return {kind: "", text: t("console", "sending", {count: waiting})};
  if (keeping) return {kind: "", text: t("console", "online-keeping")};
  if (handed) return {kind: "ok", text: t("console", handed === 1 ? "online-handed-one" : "online-handed",
    {events: events(handed)})};
  return {kind: "ok", text: t("console", "online")};
}
