// The officials' review: the timeline, live, each event with the clock and its flags; the flagged events
// alone, one click away; a ruling's chain of events and its clauses in both languages; deciding a pending
// choice (after a confirmation) and voiding an event with the official key; whether the hash chain
// verifies, checked as the page opens and on demand, naming the first bad row.
//
// Keyboard: the timeline is one Tab stop (a roving tabindex): the arrow keys, Home and End move along its
// rows, Enter or Space selects one; the one void action is the selected row's, so Tab never walks through
// a button per row; a skip link at the top goes straight to the timeline.

import {$, el} from "./dom.mjs";
import {api, denied} from "./http.mjs";
import {t} from "./catalog.mjs";
import {refusal} from "./refusal.mjs";
import {key, keyLinks, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {listen, matchPage, tracker} from "./live.mjs";
import {eventItem, showNow, time} from "./show.mjs";
import {details, eventName} from "./words.mjs";
import {newEvent} from "./events.mjs";
import "./sitouts.mjs";
import {pageClock} from "./clock.mjs";
import {question} from "./asks.mjs";
import {ask} from "./dialog.mjs";
import {clockLabel} from "./chukkerclock.mjs";
import {flagMeaning} from "./flags.mjs";

const {root, code, base} = matchPage($("review"));
const clock = pageClock();
const known = tracker();
let selected = null;      // the explanation of the selected ruling
let verifyTimer = null;
let flaggedOnly = false;  // the timeline shows the flagged events alone
let badSeq = null;        // the first row the chain check found wrong
let cursor = null;        // the seq of the row the keyboard is on (the timeline's one Tab stop)

async function official(type, fields) {
  const event = newEvent(type, fields, clock.stamp(known.lastAt()));
  let reply;
  try {
    reply = await api(`${base}/events`, {method: "POST", body: {event, expected_seq: known.view.seq}, key: key(code)});
  } catch (err) {
    say(t("review", "not-sent"));
    return;
  }
  if (reply.status === 200 || reply.status === 201) {
    known.seen(reply.data.event, reply.data.match);
    say(t("review", "recorded", {seq: reply.data.seq, event: eventName(type)}));
    render();
    return;
  }
  const extra = reply.status === 409 ? t("review", "moved-on", {seq: reply.data.current_seq}) : "";
  say(t("review", "not-recorded", {status: reply.status, reason: refusal(reply.data), extra}));
}

function say(text) { $("message").textContent = text; }

function voidEvent(row) {
  const dialog = $("void");
  dialog.querySelector(".what").textContent = `#${row.seq} ${eventName(row.type)} ${details(row.event)}`;
  dialog.querySelector("input").value = "";
  dialog.onclose = () => {
    const why = dialog.querySelector("input").value.trim();
    if (dialog.returnValue === "void" && why) official("void", {seq: row.seq, reason: why});
    focusRow();  // back where the keyboard was, not the top of the page
  };
  dialog.showModal();
}

async function decide(option) {
  const {action} = await ask(question("decide", {option}, known.view));
  if (action === "confirm") official("decide", {option});
}

async function select(seq) {
  cursor = seq;
  const reply = await api(`${base}/rulings/${seq}`, {key: key(code)});
  selected = reply.status === 200 ? reply.data : null;
  render();
}

// The row the keyboard is on: the cursor's, else the selected one, else the last.
function stopRow() {
  const rows = [...$("timeline").querySelectorAll("tr[data-seq]")];
  return rows.find((row) => Number(row.dataset.seq) === cursor)
    || rows.find((row) => row.classList.contains("selected")) || rows[rows.length - 1] || null;
}

function focusRow() {
  const row = stopRow();
  if (row) row.focus();
}

// The timeline's keys: arrows, Home and End move the cursor; Enter or Space selects its row.
function timelineKeys(e) {
  const row = e.target.closest("tr[data-seq]");
  if (!row || e.target !== row || e.ctrlKey || e.metaKey || e.altKey) return;
  const rows = [...$("timeline").querySelectorAll("tr[data-seq]")];
  const i = rows.indexOf(row);
  const to = {ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: rows.length - 1}[e.key];
  if (to !== undefined) {
    e.preventDefault();
    const next = rows[Math.max(0, Math.min(rows.length - 1, to))];
    rows.forEach((other) => { other.tabIndex = other === next ? 0 : -1; });
    cursor = Number(next.dataset.seq);
    next.focus();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    select(Number(row.dataset.seq));
  }
}

function scheduleVerify() {
  clearTimeout(verifyTimer);
  verifyTimer = setTimeout(verify, 500);
}

// Ask the server to check the chain again (it does on every request), and name the first bad row.
async function verify() {
  const box = $("chain");
  box.className = "chain checking";
  $("chain-text").textContent = t("review", "chain-checking");
  let reply;
  try {
    reply = await api(`${base}/verify`, {key: key(code)});
  } catch (err) {
    box.className = "chain";
    $("chain-text").textContent = t("review", "chain-unreachable");
    return;
  }
  if (reply.status !== 200) {
    box.className = "chain";
    $("chain-text").textContent = t("review", "chain-not-checked", {reason: refusal(reply.data)});
    return;
  }
  const {ok, events, problems, bad_seq: bad} = reply.data;
  badSeq = ok ? null : bad;
  box.className = ok ? "chain ok" : "chain bad";
  const badRow = bad === null ? null
    : el("a", {href: `#seq-${bad}`, class: "bad-row", onclick: (e) => { e.preventDefault(); show(bad); }},
      t("review", "bad-row", {seq: bad}));
  $("chain-text").replaceChildren(...(ok
    ? [t("review", "chain-verified", {events})]
    : [t("review", "chain-bad"), badRow ? t("review", "chain-bad-at") : "", badRow || "", `: ${problems.join("; ")}`]));
  if (known.view) render();
}

// Bring an event's row into view and select it (the whole timeline shown, if it was filtered).
function show(seq) {
  flaggedOnly = false;
  render();
  const row = document.querySelector(`#timeline tr[data-seq="${seq}"]`);
  if (row) row.scrollIntoView({block: "center"});
  select(seq);
}

const isFlagged = (row) => row.flags.length > 0;

function flagList(flags, language) {
  return el("ul", {class: "flags"}, flags.map((flag) => el("li", {class: "flag", dataset: {flag}, lang: language},
    flagMeaning(flag, language))));
}

// The filter's button: how many events are flagged, and whether the timeline shows them alone.
function flagFilter() {
  const count = known.log.filter(isFlagged).length;
  const button = $("flagged");
  button.textContent = flaggedOnly ? t("review", "show-every", {count: known.log.length})
    : t("review", "flagged", {count});
  button.setAttribute("aria-pressed", String(flaggedOnly));
  button.classList.toggle("has-flags", count > 0);
}

function rulingCell(ruling) {
  if (!ruling) return el("td", {class: "quiet"}, "—");
  return el("td", {}, el("div", {}, ruling.text[lang()]),
    el("div", {class: "cites"}, ruling.cite.map((id) => el("code", {}, id))));
}

function timeline() {
  const rows = flaggedOnly ? known.log.filter(isFlagged) : known.log;
  if (!rows.length) return [el("tr", {}, el("td", {colspan: 7, class: "quiet"}, t("review", "none-flagged")))];
  return rows.map((row) => el("tr", {
    class: [known.view.void.includes(row.seq) ? "struck" : "", row.ruling ? "has-ruling" : "",
      isFlagged(row) ? "flagged" : "", row.seq === badSeq ? "bad" : "",
      selected && selected.event.seq === row.seq ? "selected" : ""].join(" "),
    dataset: {seq: row.seq},
    id: `seq-${row.seq}`,
    tabindex: "-1",
    "aria-current": selected && selected.event.seq === row.seq ? "true" : null,
    onclick: (e) => { if (!e.target.closest("button, a")) select(row.seq); },
  },
  el("td", {class: "seq"}, `#${row.seq}`),
  el("td", {class: "at"}, time(row.at)),
  el("td", {class: "clock"}, row.clock ? clockLabel(row.clock) : "—"),
  el("td", {}, el("strong", {}, eventName(row.type)), " ", el("code", {class: "type", translate: "no"}, row.type), " ",
    el("span", {class: "quiet"}, details(row.event)),
    isFlagged(row) ? flagList(row.flags, lang()) : null),
  rulingCell(row.ruling),
  el("td", {class: "who"}, row.by || "—", el("br"), el("span", {class: "quiet"},
    `${row.role ? t("review", `role-${row.role}`) : t("console", "no-role")} · ${row.received_at ? time(row.received_at) : "—"}`)),
  // One void action, the selected row's: Tab goes past the timeline, not through a button per row.
  el("td", {}, row.type === "match.start" || known.view.void.includes(row.seq)
    || !(selected && selected.event.seq === row.seq) ? null
    : el("button", {type: "button", class: "small", dataset: {act: "void"}, onclick: () => voidEvent(row)},
      t("review", "void", {seq: row.seq})))));
}

function detail() {
  if (!selected) return [el("p", {class: "quiet"}, t("review", "select-hint"))];
  const {event, led_to: ledTo, clauses} = selected;
  const ruling = event.ruling;
  return [
    el("h2", {}, `#${event.seq} ${eventName(event.type)}`),
    ruling ? el("div", {class: "both"}, el("p", {lang: "en"}, ruling.text.en), el("p", {lang: "es"}, ruling.text.es))
      : el("p", {class: "quiet"}, t("review", "no-ruling")),
    event.flags.length ? el("div", {class: "both flagged-detail"}, flagList(event.flags, "en"), flagList(event.flags, "es"))
      : null,
    el("h3", {}, t("review", "led-to")),
    el("ol", {class: "chain-of-events"}, ledTo.map((row) => eventItem(row))),
    el("h3", {}, t("review", "cited")),
    ...clauses.map((c) => el("section", {class: "clause"}, el("h4", {}, el("code", {}, c.id)),
      el("div", {class: "both"},
        el("div", {lang: "en"}, el("strong", {}, c.heading.en), el("p", {}, c.text.en)),
        el("div", {lang: "es"}, el("strong", {}, c.heading.es), el("p", {}, c.text.es))))),
  ];
}

function choice() {
  if (known.view.state !== "choosing") return [];
  return [el("h2", {}, t("review", "must-choose")),
    ...known.view.options.map((option, i) => el("button", {
      type: "button", class: "big primary", dataset: {option: i + 1}, onclick: () => decide(i + 1),
    }, `${i + 1}. ${option.text[lang()]}`))];
}

function render() {
  document.title = `${t("review", "title")} · ${code}`;
  showNow(known.view);
  $("choice").replaceChildren(...choice());
  $("choice").hidden = known.view.state !== "choosing";
  const pane = $("pane");
  const following = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 8;  // at the bottom: stay there
  const onRow = document.activeElement && document.activeElement.closest("#timeline tr[data-seq]");
  $("timeline").replaceChildren(...timeline());
  const stop = stopRow();
  if (stop) stop.tabIndex = 0;
  if (onRow) focusRow();  // the rows are new: the keyboard stays on its row
  flagFilter();
  if (following) pane.scrollTop = pane.scrollHeight;
  $("detail").replaceChildren(...detail());
}

// Read the match; a private server's match needs a key even for that: then ask for it.
async function load() {
  let viewReply, logReply;
  try {
    [viewReply, logReply] = await Promise.all([api(base, {key: key(code)}), api(`${base}/events`, {key: key(code)})]);
  } catch (err) {
    say(t("review", "trying-again"));
    setTimeout(load, 2000);
    return;
  }
  if (denied(viewReply)) {
    say(t("review", "enter-key", {reason: refusal(viewReply.data)}));
    $("key").focus();
    return;
  }
  say("");
  known.merge(logReply.data);
  known.seen(null, viewReply.data);
  begin();
}

// Once the match is read: show it, follow it live, check its chain.
function begin() {
  render();
  const live = $("live");
  listen(code, known.view.seq, key(code), {
    onAppend: (event, match) => { known.seen(event, match); render(); scheduleVerify(); },
    onOpen: () => { live.dataset.t = "review.live"; live.textContent = t("review", "live"); live.className = "pill ok";
      clock.measure(); },
    onError: () => { live.dataset.t = "review.reconnecting"; live.textContent = t("review", "reconnecting");
      live.className = "pill warn"; },
  });
  verify();
  onLang(() => { render(); verify(); });
  root.classList.add("ready");
}

$("recheck").addEventListener("click", verify);
$("timeline").addEventListener("keydown", timelineKeys);
$("skip").addEventListener("click", (e) => { e.preventDefault(); focusRow(); });
$("flagged").addEventListener("click", () => { flaggedOnly = !flaggedOnly; render(); });
// A page brought back from the browser's cache has not been checked since it was left.
addEventListener("pageshow", (e) => { if (e.persisted && known.view) verify(); });

takeKeyFromLink(code);
keyLinks(code);
const keyInput = $("key");
keyInput.value = key(code);
keyInput.addEventListener("change", () => {
  setKey(code, keyInput.value.trim());
  keyLinks(code);
  if (!known.view) load();
});
load();
