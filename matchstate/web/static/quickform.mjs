// The console's quick form for an event's fields, built from the log format's field list
// (GET /api/event-types): a row of big choices for a team, a player, a flag or a choice; a number pad
// for yards. Its "Log" button stays in view: the form is a sheet pinned to the bottom of the screen.

import {el} from "./dom.mjs";
import {label} from "./words.mjs";

/** The values a new form starts with: each field's default. */
export function defaults(fields) {
  const values = {};
  for (const field of fields) {
    if (field.default !== null && typeof field.default !== "object") values[field.name] = field.default;
  }
  return values;
}

/** The required fields still empty. */
export function missing(fields, values) {
  return fields.filter((f) => f.required && (values[f.name] ?? "") === "");
}

/** The fields to log: those given a value. */
export function filled(values) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== ""));
}

function choices(type, field, view, lang) {
  if (type === "decide") return view.options.map((option, i) => [i + 1, `${i + 1}. ${option.outcome[lang]}`]);
  if (field.kind === "team") return view.teams.map((team) => [team, team]);
  if (field.kind === "player") return [1, 2, 3, 4].map((n) => [n, String(n)]);
  if (field.kind === "flag") return [[false, "no"], [true, "yes"]];
  if (field.kind === "choice") return field.choices.map((choice) => [choice, choice]);
  return null;
}

function control(form, field, view, lang, rerender) {
  const options = choices(form.type, field, view, lang);
  if (options) {
    return el("div", {class: "choices", dataset: {field: field.name}},
      options.map(([value, text]) => el("button", {
        type: "button", class: form.values[field.name] === value ? "choice on" : "choice",
        dataset: {value: String(value)},
        onclick: () => {
          const again = form.values[field.name] === value && !field.required && field.default === null;
          form.values[field.name] = again ? null : value;
          rerender();
        },
      }, text)));
  }
  const numeric = ["yards", "count", "number"].includes(field.kind);
  return el("input", {
    type: numeric ? "number" : "text", inputmode: numeric ? "decimal" : null, dataset: {field: field.name},
    value: form.values[field.name] ?? "",
    oninput: (e) => { form.values[field.name] = numeric && e.target.value !== "" ? Number(e.target.value) : e.target.value; },
  });
}

/**
 * The form's content: a heading, the fields, and the actions.
 * @param {{type: string, values: object, note?: string, action?: string}} form  ``note``: a line under the
 *   heading; ``action``: the Log button's words
 * @param {object[]} fields
 * @param {{view: object, lang: string, onSend: () => void, onCancel: () => void, rerender: () => void}} context
 */
export function formContent(form, fields, {view, lang, onSend, onCancel, rerender}) {
  return [
    el("h2", {}, label(form.type)),
    form.note ? el("p", {class: "note"}, form.note) : null,
    el("div", {class: "fields"}, fields.map((field) => el("label", {class: "field"},
      el("span", {class: "name"}, field.name.replaceAll("_", " "), field.required ? " *" : ""),
      control(form, field, view, lang, rerender)))),
    el("div", {class: "actions"},
      el("p", {class: "missing"}),
      el("button", {type: "button", id: "send", class: "big primary", onclick: onSend}, form.action || `Log ${label(form.type)}`),
      el("button", {type: "button", class: "big", onclick: onCancel}, "Cancel")),
  ].filter(Boolean);
}
