// Whether a reload while the server does not answer would open this page, as the service worker tells it.
// Nothing runs on import: page.mjs starts the watch; the console reads the state for its link banner.

/**
 * ``state``: "kept" (or a page the worker does not keep); "keeping", a page the worker keeps loaded without it
 * (the first visit, or a reload that bypassed it), until the worker has kept it; "unkept", where no worker could
 * be installed or keep the page; "insecure", plain HTTP under a name other than this device's own, where no
 * worker runs. Each change dispatches "change".
 */
class Keeping extends EventTarget {
  state = "kept";

  set(state) {
    if (state === this.state) return;
    this.state = state;
    this.dispatchEvent(new Event("change"));
  }
}

export const keeping = new Keeping();

/** Register the service worker, ask it to keep this page, and follow what it says in ``keeping``. */
export function watchKeeping() {
  if (!window.isSecureContext) keeping.set("insecure");
  if (!("serviceWorker" in navigator)) {
    if (window.isSecureContext) keeping.set("unkept");
    return;
  }
  const workers = navigator.serviceWorker;
  if (document.body.hasAttribute("data-offline") && !workers.controller) keeping.set("keeping");
  workers.addEventListener("message", (event) => {
    if (event.data?.kept === location.pathname) keeping.set(event.data.ok === false ? "unkept" : "kept");
  });
  // updateViaCache "none": every check for a new version asks the server, not the browser's cache.
  workers.register("/sw.js", {scope: "/", updateViaCache: "none"}).then((registration) => {
    // A worker that fails to install (its files not kept: storage full, say) is dropped; with none before it,
    // nothing keeps the pages.
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "redundant" && !registration.active) keeping.set("unkept");
    });
  }, (err) => {
    // A tablet that does not trust the server's certificate, though told to go on, gets no worker.
    console.warn("no service worker: this page will not open offline", err);
    keeping.set("unkept");
  });
  // Each page asks to be kept once there is a worker, and is told whether it is (sw.js).
  workers.ready.then((registration) => registration.active?.postMessage({keep: location.pathname}));
  workers.startMessages();
}
