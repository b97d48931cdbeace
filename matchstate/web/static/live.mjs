// A page's log of stored events and its newest view of the match, kept up to date live.

/**
 * The events a page has seen and the newest view of the match: an event may come both in an answer
 * and on the live stream, and views may arrive out of order.
 */
export function tracker() {
  const known = {view: null, log: []};
  known.seen = (row, match) => {
    if (row) known.merge([row]);
    if (match && (!known.view || match.seq >= known.view.seq)) known.view = match;
  };
  // Add stored events to the log, each once, in seq order.
  known.merge = (rows) => {
    const last = known.log.length ? known.log[known.log.length - 1].seq : 0;
    if (rows.every((row, i) => row.seq === last + 1 + i)) {  // the usual case: the next ones
      known.log.push(...rows);
      return;
    }
    const bySeq = new Map(known.log.map((row) => [row.seq, row]));
    for (const row of rows) bySeq.set(row.seq, row);
    known.log = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  };
  known.lastAt = () => (known.log.length ? known.log[known.log.length - 1].at : null);
  return known;
}

/** Follow the match live (server-sent events); the browser reconnects by itself and resumes. */
export function listen(code, afterSeq, key, {onAppend, onOpen, onError}) {
  const params = new URLSearchParams({after_seq: afterSeq});
  if (key) params.set("key", key);
  const source = new EventSource(`/api/matches/${encodeURIComponent(code)}/stream?${params}`);
  source.addEventListener("append", (e) => {
    const {event, match} = JSON.parse(e.data);
    onAppend(event, match);
  });
  source.addEventListener("open", onOpen);
  source.addEventListener("error", onError);
  return source;
}

/** The match a page shows: its root element (which carries data-code), its code, its API path. */
export function matchPage(root) {
  const code = root.dataset.code;
  return {root, code, base: `/api/matches/${encodeURIComponent(code)}`};
}
