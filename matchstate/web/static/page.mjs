// What every page runs: the language toggle, and the service worker that keeps the console, review and
// records pages for a server that does not answer, with what it says of this page (offlinecopy.mjs).

import {$} from "./dom.mjs";
import {translate} from "./catalog.mjs";
import {wireToggle} from "./lang.mjs";
import {offlineCopy, watchOfflineCopy} from "./offlinecopy.mjs";

wireToggle($("lang"), () => translate());

// A print button (the score sheet's): wired here, as the Content-Security-Policy runs no inline handler.
for (const button of document.querySelectorAll("[data-print]")) button.addEventListener("click", () => print());

// The installed app opens at /console (start.mjs): the console this device had open last comes first.
export const LAST_CONSOLE = "matchstate:last-console";
if (document.body.dataset.page === "console") localStorage.setItem(LAST_CONSOLE, location.pathname);

// The banners of base.html that say whether a reload while the server does not answer would open this page,
// where the page has them (the console says "keeping" in its own link banner, which moves no button).
const showCopy = () => {
  for (const id of ["insecure", "unkept", "keeping"]) if ($(id)) $(id).hidden = offlineCopy.state !== id;
};
offlineCopy.addEventListener("change", showCopy);
watchOfflineCopy();
showCopy();
