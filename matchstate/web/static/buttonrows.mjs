// The console's two rows of buttons as the page shows them: one button per event type (buttons.mjs says
// which, where and with what words), and the quick row ("Play", a clean hit by each player, a goal for each
// team). Their places never change; only what is enabled, marked and said.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {fitText} from "./fit.mjs";
import {SHORTCUTS} from "./buttons.mjs";
import {PLAYERS} from "./taps.mjs";
import {label} from "./words.mjs";

const GOAL_SMALLEST_PX = 11;  // a quick goal's team is made no smaller (a button a seventh of the row wide on a tablet)

/** A button for each of ``types`` in ``box``, each calling ``onTap(type)``; built again only where the types
 * changed (a new version served), never for a state. Whether it built them. */
export function buildEventButtons(box, types, onTap) {
  if ([...box.children].map((button) => button.dataset.type).join() === types.join()) return false;
  box.replaceChildren(...types.map((type) => el("button", {
    type: "button", class: "big event", dataset: {type}, onclick: () => onTap(type),
  }, el("span", {class: "what"}, label(type)), SHORTCUTS[type] ? el("kbd", {}, SHORTCUTS[type]) : null)));
  return true;
}

/** Each event button's words, ``labelOf(type)``, and its shortcut's hint, in the language chosen. */
export function nameEventButtons(box, labelOf) {
  for (const button of box.children) {
    const type = button.dataset.type;
    button.querySelector(".what").textContent = labelOf(type);
    button.title = SHORTCUTS[type] ? t("console", "shortcut", {key: SHORTCUTS[type]}) : "";
  }
}

/** The quick row in ``box``, once the ``teams`` are known; a button calls ``onTap(type, fields)``. */
export function buildQuickRow(box, teams, onTap) {
  if (box.children.length) return;
  const button = (type, fields, cls) => el("button", {type: "button", class: `big quick ${cls}`,
    dataset: {quick: type, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))},
    onclick: () => onTap(type, fields)});
  box.replaceChildren(
    button("play", {}, "play"),
    ...PLAYERS.map((player) => button("hit", {player, contact: "hit"}, "hit")),
    ...teams.map((team) => button("goal", {team}, "goal")));
}

/** What each quick button says and whether it is enabled (``enabled(type)``); the usual ``player`` and the
 * ``hitting`` team marked. */
export function showQuickRow(box, {enabled, hitting, player}) {
  for (const button of box.children) {
    const type = button.dataset.quick;
    button.disabled = !enabled(type);
    if (type === "play") button.textContent = label("play");
    if (type === "hit") {
      button.textContent = t("taps", "quick-hit", {player: button.dataset.player});
      button.classList.toggle("usual", Number(button.dataset.player) === player);
    }
    if (type === "goal") {
      button.textContent = t("taps", "quick-goal", {team: button.dataset.team});
      button.classList.toggle("usual", button.dataset.team === hitting);
    }
  }
  fitQuickGoals(box);  // as they now read: the usual team's is bold, so wider
}

/** The quick goals' team names made to fit their buttons (again after the window's size changes). */
export function fitQuickGoals(box) {
  box.querySelectorAll(".goal").forEach((button) => fitText(button, GOAL_SMALLEST_PX));
}
