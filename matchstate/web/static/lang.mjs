// The language the pages speak, chosen by the toggle at the top of every page: kept on this device and
// in a cookie, so the server renders the same language (the score sheet and the statistics are its own).

const listeners = [];
const KEY = "matchstate:lang";

const LANGUAGES = ["en", "es"];

/** The language chosen with the toggle; until one is, the first of ours the browser's own list names
 * ("es-AR" is Spanish), as the server reads its Accept-Language; else English. */
export function lang() {
  const chosen = localStorage.getItem(KEY);
  if (LANGUAGES.includes(chosen)) return chosen;
  const browser = globalThis.navigator ?? {};
  const asked = browser.languages?.length ? browser.languages : [browser.language ?? ""];
  return asked.map((tag) => String(tag).toLowerCase().split("-")[0]).find((name) => LANGUAGES.includes(name)) ?? "en";
}

function remember(value) {
  document.cookie = `matchstate_lang=${value}; path=/; max-age=31536000; samesite=lax`;
}

export function setLang(value) {
  localStorage.setItem(KEY, value);
  remember(value);
  document.documentElement.lang = value;
  listeners.forEach((f) => f(value));
}

/** Call f with the language each time the toggle changes it. */
export function onLang(f) { listeners.push(f); }

const serverWords = () => document.body.dataset.rendered === "server";

/** Wire the toggle (#lang): a page the server rendered in another language than the one chosen on this
 * device is rendered again; a page's own words follow each change (see catalog.mjs). */
export function wireToggle(toggle, translate) {
  remember(lang());
  const rendered = document.documentElement.lang;
  document.documentElement.lang = lang();
  // Only when the cookie took, or a browser that refuses cookies would reload for ever.
  if (serverWords() && rendered !== lang() && document.cookie.includes(`matchstate_lang=${lang()}`)) {
    location.reload();
  }
  translate();
  onLang(translate);
  if (!toggle) return;
  toggle.addEventListener("click", () => {
    setLang(lang() === "en" ? "es" : "en");
    if (serverWords()) {
      keepTyped();
      location.reload();
    }
  });
}

// What was typed in a page's forms, kept across the reload a change of language makes of a page the server words
// (a tournament's fields, a result pasted at the desk): the reload emptied them. Never a key (a password field).
const TYPED = "matchstate:typed";
const typedField = (field) => field.name && !["password", "hidden", "file", "submit", "button"].includes(field.type);

function keepTyped() {
  const forms = Object.fromEntries([...document.querySelectorAll("form[id]")].map((form) => [form.id,
    [...form.elements].filter(typedField).map((field) => [field.name, field.type === "checkbox" ? field.checked
      : field.value])]));
  sessionStorage.setItem(TYPED, JSON.stringify({path: location.pathname, forms}));
}

let typedBefore = null;  // read, and taken out, by the page's first restoreTyped

function typedOnThisPage() {
  if (typedBefore === null) {
    const kept = JSON.parse(sessionStorage.getItem(TYPED) || "null");
    sessionStorage.removeItem(TYPED);
    typedBefore = kept && kept.path === location.pathname ? kept.forms : {};
  }
  return typedBefore;
}

/** Put back what was typed in the form ``id`` before the language changed: the n-th field of each name takes the
 * n-th value kept under that name. ``make(entries)``: a page that makes fields as it goes (a tournament's teams)
 * makes those the entries need first. */
export function restoreTyped(id, make = () => {}) {
  const entries = typedOnThisPage()[id];
  const form = document.getElementById(id);
  if (!entries || !form) return;
  make(entries);
  const seen = {};
  for (const [name, value] of entries) {
    const field = [...form.elements].filter((element) => element.name === name && typedField(element))[seen[name] ?? 0];
    seen[name] = (seen[name] ?? 0) + 1;
    if (!field) continue;
    if (field.type === "checkbox") field.checked = Boolean(value); else field.value = value;
  }
}
