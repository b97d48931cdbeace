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
    if (serverWords()) location.reload();
  });
}
