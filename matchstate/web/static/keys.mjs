// The match keys kept in this browser, per page and match, so one browser may hold the console's
// scorer key and the review's official key.

const keyName = (code) => `matchstate:key:${document.body.dataset.page}:${code}`;

// Whether this server keeps its matches private: reading one needs one of its keys (`serve --private`).
const isPrivate = () => document.body.dataset.private !== undefined;

export function key(code) { return localStorage.getItem(keyName(code)) || ""; }

export function setKey(code, value) {
  if (value) localStorage.setItem(keyName(code), value);
  else localStorage.removeItem(keyName(code));
}

// The key a read of this match sends: a private server's reads need one, and a public server's read the
// same without it, as the page's first reads were named for the browser to fetch at once (<link
// rel="preload">, which sends no key): with one, each would be fetched twice.
export function readKey(code) { return isPrivate() ? key(code) : ""; }

// A link made at creation carries the key in its #fragment, which never reaches the server: keep it, hide it.
export function takeKeyFromLink(code) {
  const found = new URLSearchParams(location.hash.slice(1)).get("key");
  if (found) {
    setKey(code, found);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

// On a private server a link to the sheet or an export must carry the key (no header can go with a
// link); only there, so that keys stay out of URLs, histories and logs elsewhere.
export function withKey(url, value) {
  return isPrivate() && value ? `${url}?key=${encodeURIComponent(value)}` : url;
}

// Give each link marked data-keyed this match's key (data-keyed keeps the link's own href).
export function keyLinks(code) {
  for (const link of document.querySelectorAll("a[data-keyed]")) {
    link.dataset.keyed ||= link.getAttribute("href");
    link.href = withKey(link.dataset.keyed, key(code));
  }
}
