// The console's event buttons: their places, their shortcuts, which are enabled, and what a chukker's edge
// or a stroke is logged with by one tap. Nothing here touches the page.

import {t} from "./catalog.mjs";
import {chukkerNumbers, reading} from "./chukker.mjs";
import {label} from "./words.mjs";

// The buttons' places: a free hit's course first, then what goes wrong, then the officials' and the
// match's own events; a type the server adds later goes after these, so no button ever moves.
const ORDER = [
  "penalty.award", "knockin.award", "ball.place", "play", "hit", "goal", "ball.out", "ball.stop", "whistle",
  "dribble", "approach.abort", "ball.retee", "position.improper", "player.return", "player.play", "card",
  "tick", "void", "decide", "chukker.start", "chukker.end", "clock.stop", "clock.start", "match.end",
];
export const SHORTCUTS = {
  "penalty.award": "a", "knockin.award": "k", "ball.place": "b", "play": "p", "hit": "h", "goal": "g",
  "ball.stop": "s", "ball.out": "o", "dribble": "d", "approach.abort": "x", "ball.retee": "r",
  "position.improper": "i", "player.return": "n", "player.play": "y", "card": "c", "decide": "e",
  "whistle": "w", "void": "u", "tick": "t", "chukker.start": "[", "chukker.end": "]",
  "clock.stop": ",", "clock.start": ".", "match.end": "m",
};
export const CHUKKER_EDGES = new Set(["chukker.start", "chukker.end"]);  // logged in one tap: the number is known

/** The types that get a button (every one the server's forms give but the start), in their places. */
export function buttonTypes(forms) {
  return Object.keys(forms).filter((type) => type !== "match.start")
    .sort((a, b) => (ORDER.indexOf(a) + 1 || 999) - (ORDER.indexOf(b) + 1 || 999));
}

/** The type a key stands for, where the server has that type (null: none). */
export function shortcutType(key, forms) {
  const type = Object.keys(SHORTCUTS).find((shortcut) => SHORTCUTS[shortcut] === key);
  return type && forms[type] ? type : null;
}

/**
 * Whether a type's button is enabled: the types the engine accepts now (``accepted``); while events wait
 * here (``waiting``) or the server is away every type, as the server rules on arrival. A type only an official
 * logs (``officialOnly``, as the server says: a decision, a review's outcome, a chukker's confirmation, a video
 * sync) is enabled for an official alone, so a scorer's mis-tap is never refused and left holding the queue;
 * "Undo" always is.
 */
export function enabledType(type, {role, officialOnly, waiting, online, accepted}) {
  if (officialOnly.includes(type) && role !== "official") return false;
  if (type === "void") return true;
  return waiting || !online ? true : accepted.includes(type);
}

/** The number a chukker's start or end logs at ``at``: the next chukker's, or the one's in play. */
export function edgeNumber(type, timing, at) {
  const numbers = chukkerNumbers(reading(timing, Date.parse(at)));
  return type === "chukker.start" ? numbers.start : numbers.end;
}

/**
 * What the match makes likely, so the usual case is one tap: a chukker's start is the next one's, its end
 * the one in play; a stroke is a clean hit by ``usual``'s player; a goal in a free hit is the hitting team's.
 * ``now``: the match as shown (its ``timing`` and ``free_hit``); ``usual``: the player who usually takes a free hit.
 */
export function prefilled(type, now, at, usual) {
  if (CHUKKER_EDGES.has(type)) return {chukker: edgeNumber(type, now.timing, at)};
  if (type === "hit") return {contact: "hit", ...(now.free_hit ? {player: usual(now.free_hit)} : {})};
  return type === "goal" && now.free_hit ? {team: now.free_hit.to} : {};
}

/** A button's words: a chukker's edge names the number its one tap logs ("Chukker 3 start"); "Undo" what it
 * would take back (``undo``). */
export function buttonLabel(type, now, at, undo) {
  if (type === "void") return undo;
  return CHUKKER_EDGES.has(type) ? t("taps", type.replace(".", "-"), {chukker: edgeNumber(type, now.timing, at)})
    : label(type);
}
