// matchstate's service worker: it keeps the console, review, scoreboard and records pages, their files and the
// reference data they read, so a reload or a new tab opens them while the server does not answer.
// Network first (the server's answer is the truth), the kept copy when none comes. Each version of
// the pages and files has its own cache, named by their hash: a new version served installs itself
// and drops the old.
const VERSION = {{ version|tojson }};
const CACHE = `matchstate-${VERSION}`;
const PRECACHE = {{ precache|tojson }};
const STATIC_VERSION = {{ static_version|tojson }};  // the ?v= of the static files' URLs (see web/assets.py)
const PAGE = new RegExp({{ kept_page|tojson }});  // the pages kept as they are visited (web/offline.py)
const NETWORK_WAIT_MS = 3000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("matchstate-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    // The pages open before this worker ran were not fetched through it: keep them too, and tell each.
    for (const client of await self.clients.matchAll({type: "window", includeUncontrolled: true})) {
      await tell(client, new URL(client.url).pathname);
    }
  })());
});

// Each page asks once it has a worker (offlinecopy.mjs), as one that opened while this worker took over was
// neither fetched through it nor open when it looked; the answer tells the page whether it is kept.
self.addEventListener("message", (event) => {
  if (typeof event.data?.keep === "string") event.waitUntil(tell(event.source, event.data.keep));
});

async function tell(client, path) {
  client?.postMessage({kept: path, ok: await keep(path)});
}

// Keep the page at path: whether it is kept (false where it could not be, null: not a page this worker keeps).
async function keep(path) {
  if (!keeps(path)) return null;
  try {
    const cache = await caches.open(CACHE);
    if (!(await cache.match(path))) await cache.add(path);
    return true;
  } catch {
    return false;
  }
}

function keeps(path) {
  return PAGE.test(path) || PRECACHE.includes(path);
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/static/") && url.searchParams.get("v") === STATIC_VERSION) {
    event.respondWith(keptFirst(event.request, path + url.search));
  } else if (keeps(path) || path.startsWith("/static/")) {
    event.respondWith(networkFirst(event.request, path));
  }
});

// A static file under its versioned URL never changes: the kept copy, without asking the network.
async function keptFirst(request, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(key, response.clone());
  return response;
}

// The network's answer; where none comes in NETWORK_WAIT_MS (or the network fails), the kept copy. A page with no
// kept copy waits for the network as long as it takes: on a slow network, a page opened for the first time
// failed after 3 s though its answer was on its way.
async function networkFirst(request, path) {
  const cache = await caches.open(CACHE);
  const answered = fetch(request, {cache: "no-cache"}).then(async (response) => {
    if (response.ok) await cache.put(path, response.clone());
    return response;
  });
  try {
    return await Promise.race([answered,
      new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in time")), NETWORK_WAIT_MS))]);
  } catch {
    return (await cache.match(path)) ?? answered;
  }
}
