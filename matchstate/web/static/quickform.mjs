// The console's quick form for an event's fields, built from the log format's field list
// (GET /api/event-types): a radio group of big choices for a team, a player (named from the match's
// rosters), a flag or a choice; a number pad for yards. Its "Log" button stays in view: the form is a
// sheet pinned to the bottom of the screen.
//
// Keyboard: a choice group is one Tab stop, its arrow keys move and select; Space selects (or clears an
// optional choice); Enter selects the option focused where its needed group has none chosen, then logs the event
// only when every field needed is given, else it says what is still needed and goes to the first of them;
// Escape cancels. Choosing never redraws the form, so the
// focus stays where it is.

import {el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {choiceName, fieldName, label} from "./words.mjs";
import {PLAYERS, fouling, sendLabel} from "./taps.mjs";
import {askers} from "./officials.mjs";

/** The values a new form starts with: each field's default. */
export function defaults(fields) {
  const values = {};
  for (const field of fields) {
    if (field.default !== null && typeof field.default !== "object") values[field.name] = field.default;
  }
  return values;
}

/** Whether a field must be given, with the values chosen so far: it is required, or one of its
 * ``required_when`` (say, a Penalty 5.a's yards) holds. */
export function needed(field, values) {
  return field.required || (field.required_when || [])
    .some((when) => Object.entries(when).every(([name, value]) => values[name] === value));
}

/** The fields needed that are still empty. */
export function missing(fields, values) {
  return fields.filter((f) => needed(f, values) && (values[f.name] ?? "") === "");
}

// A typed number the server would refuse, by the bounds its field's check names (``must``: GET /api/event-types),
// worded as the refusal is: refused here, the scorer fixes it in the form, where sent it would be refused and hold
// every event after it.
const BOUNDS = {
  "yards-to-goal": (yards, {fieldLength}) => yards > 0 && yards < fieldLength,
  "distance": (yards) => yards >= 0,
};

/** The fields given a number the server would refuse, each with what it must be (``fieldLength``: the match's). */
export function unfit(fields, values, {fieldLength}) {
  return fields.filter((field) => applies(field, values) && BOUNDS[field.must] && typeof values[field.name] === "number"
    && !BOUNDS[field.must](values[field.name], {fieldLength}))
    .map((field) => ({field, must: t("must", field.must, {length: fieldLength})}));
}

/** Whether a field has a meaning with the values chosen so far (a Penalty 2's ``from``, say): its
 * ``applies_when`` is null, or one of them holds. */
export function applies(field, values) {
  return !field.applies_when
    || field.applies_when.some((when) => Object.entries(when).every(([name, value]) => values[name] === value));
}

/** The fields to log, in the log format's order: those given a value that have a meaning with the others. */
export function filled(fields, values) {
  return Object.fromEntries(fields.filter((field) => applies(field, values))
    .map((field) => [field.name, values[field.name]])
    .filter(([, value]) => value !== undefined && value !== null && value !== ""));
}

// The team whose player a field names: the one chosen in the form, else (a hit) the free hit's; a card's
// player is the fouling team's.
function teamOf(type, field, values, view, freeHit) {
  if (field.name === "card_player") return fouling(view.teams, values.to);
  return values.team ?? values.to ?? (type === "hit" && freeHit ? freeHit.to : null);
}

function playerText(view, team, n) {
  const roster = team && view.start && view.start.rosters ? view.start.rosters[team] || [] : [];
  const found = roster.find((entry) => entry.player === n);
  return found && found.name ? t("form", "player-named", {number: n, name: found.name}) : String(n);
}

function choices(form, field, {view, lang, freeHit, official = false}) {
  if (form.type === "decide") return view.options.map((option, i) => [i + 1, `${i + 1}. ${option.outcome[lang]}`]);
  if (field.kind === "team") return view.teams.map((team) => [team, team]);
  // A review asked by a team (its challenge) is a scorer's to log; one the umpire or referee asks, an official's.
  if (field.kind === "asker") {
    return askers(view.teams, {}).filter((asker) => asker.team || official)
      .map(({asker, team}) => [asker, team ? asker : choiceName(asker)]);
  }
  if (field.kind === "player") {
    const team = teamOf(form.type, field, form.values, view, freeHit);
    return PLAYERS.map((n) => [n, playerText(view, team, n)]);
  }
  if (field.kind === "flag") return [[false, t("form", "no")], [true, t("form", "yes")]];
  if (field.kind === "choice") {
    return field.choices.map((choice) => [choice, choiceName(choice)]);
  }
  return null;
}

const KEYS_BACK = new Set(["ArrowLeft", "ArrowUp"]);
const KEYS_ON = new Set(["ArrowRight", "ArrowDown"]);

// A radio group: one Tab stop (the chosen option, or the first), arrows move and select; a tap on an option
// also calls ``tapped`` (the keys' choices leave the focus where it is).
function radioGroup(form, field, options, nameId, changed, tapped) {
  const radios = options.map(([value, text]) => {
    const radio = el("button", {type: "button", role: "radio", class: "choice", dataset: {value: String(value)}}, text);
    radio.choice = value;
    return radio;
  });
  const box = el("div", {class: "choices", role: "radiogroup", "aria-labelledby": nameId, dataset: {field: field.name}},
    radios);
  const mark = () => {
    const chosen = radios.findIndex((radio) => form.values[field.name] === radio.choice);
    radios.forEach((radio, i) => {
      radio.setAttribute("aria-checked", String(i === chosen));
      radio.classList.toggle("on", i === chosen);
      radio.tabIndex = i === chosen || (chosen < 0 && i === 0) ? 0 : -1;
    });
  };
  const choose = (radio, toggle) => {
    const again = toggle && form.values[field.name] === radio.choice && !field.required && field.default === null;
    form.values[field.name] = again ? null : radio.choice;
    mark();
    changed();
  };
  for (const radio of radios) radio.addEventListener("click", () => { choose(radio, true); tapped(); });
  box.addEventListener("keydown", (e) => {
    const i = radios.indexOf(e.target);
    if (i < 0) return;
    // Enter on the option the focus landed on, where none is chosen yet and one is needed, means it: chosen, then
    // the form's Enter. An optional choice left empty stays empty (a goal with no player, an award with no card).
    if (e.key === "Enter" && form.values[field.name] == null && needed(field, form.values)) choose(radios[i], false);
    let next = null;
    if (KEYS_BACK.has(e.key)) next = (i - 1 + radios.length) % radios.length;
    else if (KEYS_ON.has(e.key)) next = (i + 1) % radios.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = radios.length - 1;
    if (next === null) return;
    e.preventDefault();
    radios[next].focus();
    choose(radios[next], false);
  });
  mark();
  // The players' names follow the team chosen: relabelled in place, never rebuilt.
  box.relabel = (context) => {
    const fresh = choices(form, field, context);
    radios.forEach((radio, i) => { radio.textContent = fresh[i][1]; });
  };
  return box;
}

function input(form, field, changed) {
  const numeric = ["yards", "count", "number"].includes(field.kind);
  return el("input", {
    type: numeric ? "number" : "text", inputmode: numeric ? "decimal" : null, dataset: {field: field.name},
    value: form.values[field.name] ?? "", "aria-labelledby": `field-${field.name}-name`,
    oninput: (e) => {
      form.values[field.name] = numeric && e.target.value !== "" ? Number(e.target.value) : e.target.value;
      changed();
    },
  });
}

/** Where the focus goes in a form: a field's own stop (its chosen option, or its input). */
const stopOf = (control) => (control.matches("input") ? control : control.querySelector('[tabindex="0"]'));

/** Put the focus on the form's grid of Log buttons where it has one (the award's main choice), else its first
 * field but a number given already (an undo's event #: a reason typed there went into it), or (no fields) its Log
 * button, the first where it has one per choice. A text given already (the undo's reason) is selected, so that
 * what is typed takes its place. */
export function focusFirst(box) {
  const given = (control) => control.matches('input[type="number"]') && control.value !== "";
  const first = box.querySelector(".sends.grid")
    || [...box.querySelectorAll(".fields [data-field]")].find((control) => !given(control));
  const stop = first ? stopOf(first) : box.querySelector(".actions .primary");
  stop.focus();
  if (stop.matches('input[type="text"]')) stop.select();
}

/** Say which needed fields are still empty, mark them, and go to the first; what was entered stays. */
export function showMissing(box, lacking) {
  showWrong(box, lacking, t("form", "still-needed", {fields: lacking.map((field) => fieldName(field.name)).join(", ")}));
}

/** Say what the fields given a number the server would refuse must be (:func:`unfit`), as showMissing does. */
export function showUnfit(box, wrong) {
  showWrong(box, wrong.map(({field}) => field), wrong.map(({field, must}) => `${fieldName(field.name)}: `
    + t("refusal", "must", {what: must, value: box.querySelector(`[data-field="${field.name}"]`).value})).join(" "));
}

function showWrong(box, fields, text) {
  for (const control of box.querySelectorAll(".fields [data-field]")) {
    const wrong = fields.some((field) => field.name === control.dataset.field);
    if (wrong) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
  box.querySelector(".missing").textContent = text;
  stopOf(box.querySelector(`[data-field="${fields[0].name}"]`)).focus();
}

/**
 * The form's content: a heading, the fields, and the actions.
 * @param {{type: string, values: object, note?: string, action?: string, sendBy?: string}} form  ``note``: a
 *   line under the heading; ``action``: the Log button's words; ``sendBy``: the field chosen by the Log
 *   button, one per choice (an award's team, a ball's line)
 * @param {object[]} fields
 * @param {{view: object, lang: string, freeHit: object|null, official?: boolean, onSend: () => void,
 *   onCancel: () => void}} context  ``official``: the form is an official's (a review the umpire asks is theirs)
 *   ``freeHit``: the free hit in progress, as the console shows it (whose team hits)
 */
export function formContent(form, fields, context) {
  const {onSend, onCancel} = context;
  const parts = [];
  // A field whose meaning hangs on the grid's choice (a Penalty 2's ``from``) is given before that tap: shown.
  const shows = (field) => applies(field, form.values)
    || (Boolean(form.grid) && (field.applies_when || []).some((when) => form.grid in when));
  // Said only while some field shown is marked needed (a ball placed's flags have defaults: no mark, no legend).
  const legend = el("p", {class: "legend quiet"}, t("form", "legend"));
  const changed = () => {
    legend.hidden = !parts.some(({field}) => needed(field, form.values));
    for (const {field, control, need, row} of parts) {
      // A field with no meaning keeps its place, unseen: nothing under the scorer's finger moves.
      if (row) {
        row.classList.toggle("moot", !shows(field));
        row.inert = !shows(field);
      }
      const must = needed(field, form.values);
      need.hidden = !must;
      control.setAttribute("aria-required", String(must));
      if (control.relabel && field.kind === "player") control.relabel(context);
    }
    if (sends) sends.relabel();
  };
  // A tap that makes a typed field needed (a Penalty 5.a's yards) goes on to it, so the keypad comes up at once.
  const onward = () => {
    const next = parts.find(({field, control}) => control.matches("input") && needed(field, form.values)
      && (form.values[field.name] ?? "") === "");
    if (next) next.control.focus();
  };
  const byName = (name) => fields.find((field) => field.name === name);
  const sends = !form.sendBy ? null : form.grid ? gridSends(form, byName(form.sendBy), byName(form.grid), context,
    () => changed()) : choiceSends(form, byName(form.sendBy), context, () => changed());
  const rows = fields.filter((field) => field.name !== form.sendBy && field.name !== form.grid).map((field) => {
    const nameId = `field-${field.name}-name`;
    const options = choices(form, field, context);
    const control = options ? radioGroup(form, field, options, nameId, changed, onward)
      : input(form, field, changed);
    const need = el("span", {class: "need", "aria-hidden": "true"}, " *");
    const part = {field, control, need, row: null};
    parts.push(part);
    part.row = el(options ? "div" : "label", {class: "field"},
      el("span", {class: "name", id: nameId}, fieldName(field.name), need), control);
    return part.row;
  });
  changed();
  const content = [
    el("h2", {id: "form-title"}, label(form.type)),
    form.note ? el("p", {class: "note"}, form.note) : null,
    el("div", {class: "fields"}, rows),
    el("div", {class: "actions"},
      el("p", {class: "missing", role: "alert"}),
      sends || el("button", {type: "button", id: "send", class: "big primary", onclick: onSend},
        form.action || t("form", "log", {event: label(form.type)})),
      el("button", {type: "button", class: "big", dataset: {act: "cancel"}, onclick: onCancel}, t("form", "cancel")),
      legend),
  ].filter(Boolean);
  return content;
}

// The Log buttons of a form whose last choice logs it, one per choice: an award's team (an award is two taps
// after its button), a ball's line. An award's say whether the whistle goes with it, as its field stands; a
// card's player is named from the team's roster once a team is tapped (where the player is still needed).
function choiceSends(form, field, context, changed) {
  const options = choices(form, field, context);
  const buttons = options.map(([value, text]) => {
    const button = el("button", {type: "button", class: "big primary send-choice", tabindex: 0,
      dataset: {value: String(value)}, onclick: () => {
        form.values[field.name] = value;
        changed();
        context.onSend();
      }});
    button.choiceText = text;
    return button;
  });
  const box = el("div", {class: "sends", dataset: {field: field.name}}, buttons);
  box.relabel = () => buttons.forEach((button) => { button.textContent = sendLabel(form, field, button.choiceText); });
  return box;
}

const GRID_MOVES = {ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0]};

// The Log buttons of a form whose tap gives two fields at once, as a grid: a row per choice of ``field`` (an
// award's team, with the whistle as its Log buttons say), a button per choice of ``across`` (the penalty). A
// tap logs it, or (a Penalty 5.a with no yards yet) says what is still needed, the tap's choice kept and
// marked. One Tab stop: the arrows move along a row and between rows, Home and End to a row's ends.
function gridSends(form, field, across, context, changed) {
  const columns = choices(form, across, context);
  const lines = choices(form, field, context).map(([value, text], row) => {
    const name = el("span", {class: "send-to", id: `send-to-${row}`});
    const buttons = columns.map(([choice, shown]) => {
      const button = el("button", {type: "button", class: "big primary send-choice", tabindex: -1,
        dataset: {value: String(choice)}, onclick: () => {
          form.values[across.name] = choice;
          form.values[field.name] = value;
          mark();
          changed();
          context.onSend();
        }}, shown);
      button.choice = [choice, value];
      return button;
    });
    return {text, name, buttons, box: el("div", {class: "send-row", role: "group", "aria-labelledby": name.id,
      dataset: {field: field.name, value: String(value)}}, name, buttons)};
  });
  const all = lines.flatMap((line) => line.buttons);
  const mark = () => {
    const chosen = all.findIndex((button) => button.choice[0] === form.values[across.name]
      && button.choice[1] === form.values[field.name]);
    all.forEach((button, i) => {
      button.setAttribute("aria-pressed", String(i === chosen));
      button.tabIndex = i === Math.max(chosen, 0) ? 0 : -1;
    });
  };
  const box = el("div", {class: "sends grid", dataset: {field: across.name}}, lines.map((line) => line.box));
  box.addEventListener("keydown", (e) => {
    const at = all.indexOf(e.target);
    if (at < 0) return;
    const [row, column] = [Math.floor(at / columns.length), at % columns.length];
    let next = null;
    if (GRID_MOVES[e.key]) {
      const [down, right] = GRID_MOVES[e.key];
      next = ((row + down + lines.length) % lines.length) * columns.length
        + (column + right + columns.length) % columns.length;
    } else if (e.key === "Home") next = row * columns.length;
    else if (e.key === "End") next = row * columns.length + columns.length - 1;
    if (next === null) return;
    e.preventDefault();
    all.forEach((button, i) => { button.tabIndex = i === next ? 0 : -1; });
    all[next].focus();
  });
  box.relabel = () => lines.forEach((line) => { line.name.textContent = sendLabel(form, field, line.text); });
  mark();
  return box;
}

/** The form's own keys: Enter logs (from a field or a choice; a button's Enter is its own), Escape cancels. */
export function formKeys(box, {onSend, onCancel}) {
  box.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Enter" && (e.target.matches("input") || e.target.getAttribute("role") === "radio")) {
      e.preventDefault();
      onSend();
    }
  });
}
