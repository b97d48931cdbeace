// What every page shares: the API, the match keys kept in this browser, the language, small DOM helpers.
"use strict";

const MS = (() => {
  const store = window.localStorage;
  const listeners = [];

  // Build an element: el("button", {class: "big", onclick: f}, "text", child...).
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  }

  function lang() { return store.getItem("matchstate:lang") || "en"; }

  function setLang(value) {
    store.setItem("matchstate:lang", value);
    document.documentElement.lang = value;
    listeners.forEach((f) => f(value));
  }

  function onLang(f) { listeners.push(f); }

  // Keys are kept per page and match, so one browser may hold the console's scorer key and the review's official key.
  const keyName = (code) => `matchstate:key:${document.body.dataset.page}:${code}`;

  function key(code) { return store.getItem(keyName(code)) || ""; }

  function setKey(code, value) {
    if (value) store.setItem(keyName(code), value);
    else store.removeItem(keyName(code));
  }

  // A link made at creation carries the key in its #fragment, which never reaches the server: keep it, hide it.
  function takeKeyFromLink(code) {
    const found = new URLSearchParams(location.hash.slice(1)).get("key");
    if (found) {
      setKey(code, found);
      history.replaceState(null, "", location.pathname + location.search);
    }
  }

  // On a private server a link to the sheet or an export must carry the key (no header can go with a
  // link); only there, so that keys stay out of URLs, histories and logs elsewhere.
  function withKey(url, value) {
    return document.body.dataset.private !== undefined && value ? `${url}?key=${encodeURIComponent(value)}` : url;
  }

  // Give each link marked data-keyed this match's key (data-keyed keeps the link's own href).
  function keyLinks(code) {
    for (const link of document.querySelectorAll("a[data-keyed]")) {
      link.dataset.keyed ||= link.getAttribute("href");
      link.href = withKey(link.dataset.keyed, key(code));
    }
  }

  // Whether the server wants a (right) key for what was asked.
  const denied = (reply) => reply.status === 401 || reply.status === 403;

  // Call the API; resolves to {status, data}; a network failure rejects.
  async function api(path, {method = "GET", body, code} = {}) {
    const headers = {Accept: "application/json"};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (code && key(code)) headers.Authorization = `Bearer ${key(code)}`;
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    const type = response.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await response.json() : await response.text();
    return {status: response.status, data};
  }

  // Why the server said no: its `detail`, which FastAPI's own validation gives as a list.
  function reason(data) {
    return typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail ?? data);
  }

  // A random id for an event, made here so a retried send is recorded once (crypto.randomUUID needs https).
  function deviceId() {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // A new event as this device logs it: its time, a device id, the name set on this device.
  function newEvent(type, fields) {
    const event = {type, at: new Date().toISOString(), id: deviceId(), ...fields};
    const by = store.getItem("matchstate:by");
    if (by) event.by = by;
    return event;
  }

  function time(iso) {
    const d = new Date(iso);
    return d.toLocaleTimeString([], {hour12: false}) + "." + String(d.getMilliseconds()).padStart(3, "0")[0];
  }

  function score(view) {
    return view.teams.map((team) => `${team} ${view.score[team]}`).join(" – ");
  }

  // An event's own fields, for a timeline: "penalty=3, to=Blue"; long values (rosters) cut short.
  function details(event) {
    const brief = (value) => {
      const text = typeof value === "object" ? JSON.stringify(value) : String(value);
      return text.length > 40 ? text.slice(0, 39) + "…" : text;
    };
    return Object.entries(event)
      .filter(([name]) => !["type", "at", "id", "by"].includes(name))
      .map(([name, value]) => `${name}=${brief(value)}`)
      .join(", ");
  }

  const $ = (id) => document.getElementById(id);

  // The match now, as every match page shows it at the top: score, state, free hit.
  function showNow(view) {
    $("score").textContent = score(view);
    $("state").textContent = view.state.replace("_", " ");
    $("freehit").textContent = view.free_hit_text ? view.free_hit_text[lang()] : "No free hit in progress";
  }

  // A stored event in a list: seq, time, type, its fields, and its ruling under it.
  function eventItem(row, attrs = {}) {
    return el("li", attrs, `#${row.seq} ${time(row.at)} ${row.type} `, el("span", {class: "quiet"}, details(row.event)),
      row.ruling ? el("div", {class: "ruling-line"}, row.ruling.text[lang()]) : null);
  }

  // The match a page shows: its root element (which carries data-code), its code, its API path.
  function matchPage(id) {
    const root = $(id);
    const code = root.dataset.code;
    return {root, code, base: `/api/matches/${encodeURIComponent(code)}`};
  }

  // A page's log of stored events and its newest view of the match: an event may come both in an
  // answer and on the live stream, and views may arrive out of order.
  function tracker() {
    const known = {view: null, log: []};
    known.seen = (row, match) => {
      if (!known.log.some((other) => other.seq === row.seq)) {
        known.log.push(row);
        known.log.sort((a, b) => a.seq - b.seq);
      }
      if (match && (!known.view || match.seq >= known.view.seq)) known.view = match;
    };
    return known;
  }

  // Follow the match live (server-sent events); the browser reconnects by itself and resumes.
  function listen(code, afterSeq, {onAppend, onOpen, onError}) {
    const params = new URLSearchParams({after_seq: afterSeq});
    if (key(code)) params.set("key", key(code));
    const source = new EventSource(`/api/matches/${encodeURIComponent(code)}/stream?${params}`);
    source.addEventListener("append", (e) => {
      const {event, match} = JSON.parse(e.data);
      onAppend(event, match);
    });
    source.addEventListener("open", onOpen);
    source.addEventListener("error", onError);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const toggle = $("lang");
    if (!toggle) return;
    const show = () => { toggle.textContent = lang() === "en" ? "Español" : "English"; };
    toggle.addEventListener("click", () => { setLang(lang() === "en" ? "es" : "en"); show(); });
    show();
  });

  return {el, $, reason, lang, setLang, onLang, key, setKey, takeKeyFromLink, withKey, keyLinks, denied, api, newEvent,
    time, score, details, showNow, eventItem, matchPage, tracker, listen};
})();
