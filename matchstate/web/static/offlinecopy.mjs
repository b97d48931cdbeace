// Whether this device keeps a copy of this page that a reload opens while the server does not answer, as the
// service worker tells it. Nothing runs on import: page.mjs starts the watch; the console reads the state for
// its link banner.

const FIRST_RETRY_MS = 2000;  // a copy the worker could not make is asked for again, less often each time
const LAST_RETRY_MS = 60000;

/**
 * ``state``: "kept" (or nothing to keep: a page the worker does not keep); "keeping", a page the worker keeps
 * with no copy yet (the first visit, before the worker has installed; or its fetch of the page failed, and it
 * is asked again); "unkept", where no worker could be installed; "insecure", plain HTTP under a name other than
 * this device's own, where no worker runs. Each change dispatches "change".
 */
class OfflineCopy extends EventTarget {
  state = "kept";

  set(state) {
    if (state === this.state) return;
    this.state = state;
    this.dispatchEvent(new Event("change"));
  }
}

export const offlineCopy = new OfflineCopy();

/** Register the service worker, ask it to keep this page, and follow what it says in ``offlineCopy``. */
export function watchOfflineCopy() {
  if (!window.isSecureContext) offlineCopy.set("insecure");
  if (!("serviceWorker" in navigator)) {
    if (window.isSecureContext) offlineCopy.set("unkept");
    return;
  }
  const workers = navigator.serviceWorker;
  const ask = () => workers.ready.then((registration) => registration.active?.postMessage({keep: location.pathname}));
  let answered = false, retry = null, wait = FIRST_RETRY_MS;
  workers.addEventListener("message", (event) => {
    if (event.data?.kept !== location.pathname) return;
    answered = true;
    if (event.data.ok !== false) {
      offlineCopy.set("kept");
      return;
    }
    offlineCopy.set("keeping");
    retry ??= setTimeout(() => {
      retry = null;
      wait = Math.min(2 * wait, LAST_RETRY_MS);
      ask();
    }, wait);
  });
  // A page the worker did not serve (a first visit, or a reload that bypassed it) may have no copy yet.
  if (document.body.hasAttribute("data-kept-offline") && !workers.controller) {
    caches.match(location.pathname).then((copy) => {
      if (!copy && !answered && offlineCopy.state === "kept") offlineCopy.set("keeping");  // nothing said yet
    });
  }
  // updateViaCache "none": every check for a new version asks the server, not the browser's cache.
  workers.register("/sw.js", {scope: "/", updateViaCache: "none"}).then((registration) => {
    // A worker that fails to install (its files not kept: storage full, say) is dropped; with none before it,
    // nothing keeps the pages.
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "redundant" && !registration.active) offlineCopy.set("unkept");
    });
  }, (err) => {
    // A tablet that does not trust the server's certificate, though told to go on, gets no worker.
    console.warn("no service worker: this page will not open offline", err);
    offlineCopy.set("unkept");
  });
  // Asked of the worker there is, and again of a new one as it takes over (one from before this asking
  // answers nothing; the new one tells the pages open as it activates, too).
  ask();
  workers.addEventListener("controllerchange", ask);
  workers.startMessages();
}
