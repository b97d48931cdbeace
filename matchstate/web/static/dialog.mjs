// Asking the person: a modal dialog for a question of asks.mjs, answered with one of its actions.

import {el} from "./dom.mjs";

/**
 * Show ``question`` ({title, text, items, actions, input}) and resolve to {action, value} once answered;
 * Escape answers "cancel". ``input``: {label, type} asks for a value too (say, a key), needed for every
 * action but "cancel".
 */
export function ask(question) {
  const dialog = el("dialog", {id: "ask", class: "ask"});
  const input = question.input
    ? el("input", {type: question.input.type || "text", name: "value", autocomplete: "off", required: true})
    : null;
  const form = el("form", {method: "dialog"},
    el("h2", {}, question.title),
    question.text ? el("p", {}, question.text) : null,
    question.items && question.items.length ? el("ul", {class: "items"}, question.items.map((item) => el("li", {}, item))) : null,
    input ? el("label", {class: "field"}, question.input.label, input) : null,
    el("menu", {}, question.actions.map((action) => el("button", {
      value: action.id, dataset: {action: action.id},
      class: action.primary ? "big primary" : action.danger ? "big danger" : "big",
      formnovalidate: action.id === "cancel" ? true : null,
    }, action.label))));
  dialog.append(form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve({action: dialog.returnValue || "cancel", value: input ? input.value.trim() : null});
    });
    dialog.showModal();
    // The answer it recommends, or else Cancel: a reflex Enter on a risky question does nothing it did not mean.
    (input || form.querySelector("button.primary") || form.querySelector('button[value="cancel"]')
      || form.querySelector("button")).focus();
  });
}
