// The language the rulings are shown in, chosen by the toggle at the top of every page.

const listeners = [];

export function lang() { return localStorage.getItem("matchstate:lang") || "en"; }

export function setLang(value) {
  localStorage.setItem("matchstate:lang", value);
  document.documentElement.lang = value;
  listeners.forEach((f) => f(value));
}

export function onLang(f) { listeners.push(f); }

/** Wire the toggle (#lang), where the page has one. */
export function wireToggle(toggle) {
  if (!toggle) return;
  document.documentElement.lang = lang();  // the language chosen before, on every page
  const show = () => { toggle.textContent = lang() === "en" ? "Español" : "English"; };
  toggle.addEventListener("click", () => { setLang(lang() === "en" ? "es" : "en"); show(); });
  show();
}
