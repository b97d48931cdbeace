// What every page runs: the language toggle, and the service worker that keeps the console, review and
// records pages for a server that does not answer (or a warning where none can).

import {$} from "./dom.mjs";
import {translate} from "./catalog.mjs";
import {wireToggle} from "./lang.mjs";

wireToggle($("lang"), () => translate());

// A print button (the score sheet's): wired here, as the Content-Security-Policy runs no inline handler.
for (const button of document.querySelectorAll("[data-print]")) button.addEventListener("click", () => print());

// The installed app opens at /console (start.mjs): the console this device had open last comes first.
export const LAST_CONSOLE = "matchstate:last-console";
if (document.body.dataset.page === "console") localStorage.setItem(LAST_CONSOLE, location.pathname);

// A warning banner of base.html, where the page has it.
const warn = (id) => {
  if ($(id)) $(id).hidden = false;
};

// Plain HTTP under any name but this device's own: no service worker, so no reload while the server is down.
if (!window.isSecureContext) warn("insecure");
else if (!("serviceWorker" in navigator)) warn("unkept");

if ("serviceWorker" in navigator) {
  // updateViaCache "none": every check for a new version asks the server, not the browser's cache.
  navigator.serviceWorker.register("/sw.js", {scope: "/", updateViaCache: "none"}).then((registration) => {
    // A worker that fails to install (its files not kept: storage full, say) is dropped; with none before it,
    // nothing keeps the pages.
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "redundant" && !registration.active) warn("unkept");
    });
  }, (err) => {
    // A tablet that does not trust the server's certificate, though told to go on, gets no worker.
    console.warn("no service worker: this page will not open offline", err);
    warn("unkept");
  });
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({keep: location.pathname}));
}
