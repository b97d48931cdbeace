// The one catalog of words (data/words.toml), whose sections a page's scripts use each page's script runs
// first (catalog-console.mjs, say, made by the server, which sets globalThis.matchstateCatalog): the same
// phrases the server renders with, in English and Spanish.

import {lang} from "./lang.mjs";

let CATALOG = null;

function catalog() {
  CATALOG ??= globalThis.matchstateCatalog;
  return CATALOG;
}

/** A phrase in ``language``, its {fields} filled in (where a page shows both languages side by side). */
export function phraseIn(language, section, key, fields = {}) {
  const phrase = catalog()[section]?.[key];
  if (!phrase) throw new Error(`no phrase ${section}.${key} in the catalog`);
  return phrase[language].replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** A phrase in the language chosen, its {fields} filled in: t("outcome", "goal", {team: "Red"}). */
export const t = (section, key, fields = {}) => phraseIn(lang(), section, key, fields);

/** Does the catalog have this phrase? (A state or an event type the server knows and the page may not.) */
export const has = (section, key) => Boolean(catalog()[section]?.[key]);

const ATTRIBUTES = {tLabel: "aria-label", tPlaceholder: "placeholder", tTitle: "title"};

// "section.key" as an element names it (a key may hold dots itself: "event.chukker.start"), with the
// element's data-t-fields.
function said(element, name) {
  const at = element.dataset[name].indexOf(".");
  const fields = element.dataset.tFields ? JSON.parse(element.dataset.tFields) : {};
  return t(element.dataset[name].slice(0, at), element.dataset[name].slice(at + 1), fields);
}

/** Put every data-t phrase under root in the language chosen: text, and the attributes named above. */
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-t], [data-t-label], [data-t-placeholder], [data-t-title]")) {
    if (element.dataset.t) element.textContent = said(element, "t");
    for (const [name, attribute] of Object.entries(ATTRIBUTES)) {
      if (element.dataset[name]) element.setAttribute(attribute, said(element, name));
    }
  }
}
