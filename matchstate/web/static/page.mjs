// What every page runs: the language toggle, and the service worker that keeps the console, review and
// records pages for a server that does not answer.

import {$} from "./dom.mjs";
import {translate} from "./catalog.mjs";
import {wireToggle} from "./lang.mjs";

wireToggle($("lang"), () => translate());

// A print button (the score sheet's): wired here, as the Content-Security-Policy runs no inline handler.
for (const button of document.querySelectorAll("[data-print]")) button.addEventListener("click", () => print());

// The installed app opens at /console (start.mjs): the console this device had open last comes first.
export const LAST_CONSOLE = "matchstate:last-console";
if (document.body.dataset.page === "console") localStorage.setItem(LAST_CONSOLE, location.pathname);

// Plain HTTP under any name but this device's own: no service worker, so no reload while the server is down.
if (!window.isSecureContext && $("insecure")) $("insecure").hidden = false;

if ("serviceWorker" in navigator) {
  // updateViaCache "none": every check for a new version asks the server, not the browser's cache.
  navigator.serviceWorker.register("/sw.js", {scope: "/", updateViaCache: "none"}).catch((err) => {
    console.warn("no service worker: this page will not open offline", err);
  });
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({keep: location.pathname}));
}
