// A request that gives up: fetch with a deadline, so a server (or a network) that goes silent is found out
// within it, as an unanswered request, rather than never.

// Longer than the server's own wait on its database (10 s by default), so that a server whose database is
// silent answers 503 first, and the page can tell the two apart.
export const REQUEST_TIMEOUT_MS = 15000;

/**
 * fetch(path, init), aborted after ``ms``: it then rejects as a network failure does.
 * @param {string} path
 * @param {RequestInit} [init]
 * @param {number} [ms]
 */
export async function fetchWithin(path, init = {}, ms = REQUEST_TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("no answer in time", "TimeoutError")), ms);
  try {
    const response = await fetch(path, {...init, signal: controller.signal});
    // The body is read under the same deadline: a server can fall silent halfway through an answer too.
    const type = response.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await response.json() : await response.text();
    return {response, data};
  } finally {
    clearTimeout(timer);
  }
}
