// The officials' review: the timeline, live, each event with the clock and its flags; the flagged events
// alone, one click away; a ruling's chain of events and its clauses in both languages; deciding a pending
// choice (after a confirmation) and voiding an event with the official key; whether the hash chain
// verifies, checked as the page opens and on demand, naming the first bad row.

import {$, el} from "./dom.mjs";
import {api, denied, reason} from "./http.mjs";
import {key, keyLinks, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {listen, matchPage, tracker} from "./live.mjs";
import {eventItem, showNow, time} from "./show.mjs";
import {details} from "./words.mjs";
import {newEvent} from "./events.mjs";
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

async function official(type, fields) {
  const event = newEvent(type, fields, clock.stamp(known.lastAt()));
  let reply;
  try {
    reply = await api(`${base}/events`, {method: "POST", body: {event, expected_seq: known.view.seq}, key: key(code)});
  } catch (err) {
    say("The server does not answer: nothing was recorded; try again.");
    return;
  }
  if (reply.status === 200 || reply.status === 201) {
    known.seen(reply.data.event, reply.data.match);
    say(`Recorded #${reply.data.seq} ${type}.`);
    render();
    return;
  }
  const extra = reply.status === 409 ? ` (the match is at #${reply.data.current_seq}: look again and retry)` : "";
  say(`Not recorded (${reply.status}): ${reason(reply.data)}${extra}`);
}

function say(text) { $("message").textContent = text; }

function voidEvent(row) {
  const dialog = $("void");
  dialog.querySelector(".what").textContent = `#${row.seq} ${row.type} ${details(row.event)}`;
  dialog.querySelector("input").value = "";
  dialog.onclose = () => {
    const why = dialog.querySelector("input").value.trim();
    if (dialog.returnValue === "void" && why) official("void", {seq: row.seq, reason: why});
  };
  dialog.showModal();
}

async function decide(option) {
  const {action} = await ask(question("decide", {option}, known.view));
  if (action === "confirm") official("decide", {option});
}

async function select(seq) {
  const reply = await api(`${base}/rulings/${seq}`, {key: key(code)});
  selected = reply.status === 200 ? reply.data : null;
  render();
}

function scheduleVerify() {
  clearTimeout(verifyTimer);
  verifyTimer = setTimeout(verify, 500);
}

// Ask the server to check the chain again (it does on every request), and name the first bad row.
async function verify() {
  const box = $("chain");
  box.className = "chain checking";
  $("chain-text").textContent = "Chain: checking…";
  let reply;
  try {
    reply = await api(`${base}/verify`, {key: key(code)});
  } catch (err) {
    box.className = "chain";
    $("chain-text").textContent = "Chain: not checked (server unreachable)";
    return;
  }
  if (reply.status !== 200) {
    box.className = "chain";
    $("chain-text").textContent = `Chain: not checked (${reason(reply.data)})`;
    return;
  }
  const {ok, events, problems, bad_seq: bad} = reply.data;
  badSeq = ok ? null : bad;
  box.className = ok ? "chain ok" : "chain bad";
  const badRow = bad === null ? null
    : el("a", {href: `#seq-${bad}`, class: "bad-row", onclick: (e) => { e.preventDefault(); show(bad); }}, `row #${bad}`);
  $("chain-text").replaceChildren(...(ok
    ? [`Chain verified: ${events} events, every ruling as the engine gives it`]
    : ["Chain does not verify", badRow ? " at " : "", badRow || "", `: ${problems.join("; ")}`]));
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
  button.textContent = flaggedOnly ? `Show every event (${known.log.length})` : `Flagged events: ${count}`;
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
  if (!rows.length) return [el("tr", {}, el("td", {colspan: 7, class: "quiet"}, "No event is flagged."))];
  return rows.map((row) => el("tr", {
    class: [known.view.void.includes(row.seq) ? "struck" : "", row.ruling ? "has-ruling" : "",
      isFlagged(row) ? "flagged" : "", row.seq === badSeq ? "bad" : "",
      selected && selected.event.seq === row.seq ? "selected" : ""].join(" "),
    dataset: {seq: row.seq},
    id: `seq-${row.seq}`,
    onclick: (e) => { if (!e.target.closest("button, a")) select(row.seq); },
  },
  el("td", {class: "seq"}, `#${row.seq}`),
  el("td", {class: "at"}, time(row.at)),
  el("td", {class: "clock"}, row.clock ? clockLabel(row.clock) : "—"),
  el("td", {}, el("strong", {}, row.type), " ", el("span", {class: "quiet"}, details(row.event)),
    isFlagged(row) ? flagList(row.flags, lang()) : null),
  rulingCell(row.ruling),
  el("td", {class: "who"}, row.by || "—", el("br"), el("span", {class: "quiet"},
    `${row.role || "no role"} · ${row.received_at ? time(row.received_at) : "—"}`)),
  el("td", {}, row.type === "match.start" || known.view.void.includes(row.seq) ? null
    : el("button", {type: "button", class: "small", onclick: () => voidEvent(row)}, "Void…"))));
}

function detail() {
  if (!selected) return [el("p", {class: "quiet"}, "Select an event to see the events that led to its ruling and the rules it cites.")];
  const {event, led_to: ledTo, clauses} = selected;
  const ruling = event.ruling;
  return [
    el("h2", {}, `#${event.seq} ${event.type}`),
    ruling ? el("div", {class: "both"}, el("p", {lang: "en"}, ruling.text.en), el("p", {lang: "es"}, ruling.text.es))
      : el("p", {class: "quiet"}, "This event gave no ruling."),
    event.flags.length ? el("div", {class: "both flagged-detail"}, flagList(event.flags, "en"), flagList(event.flags, "es"))
      : null,
    el("h3", {}, "Events that led to it"),
    el("ol", {class: "chain-of-events"}, ledTo.map((row) => eventItem(row))),
    el("h3", {}, "Rules cited"),
    ...clauses.map((c) => el("section", {class: "clause"}, el("h4", {}, el("code", {}, c.id)),
      el("div", {class: "both"},
        el("div", {lang: "en"}, el("strong", {}, c.heading.en), el("p", {}, c.text.en)),
        el("div", {lang: "es"}, el("strong", {}, c.heading.es), el("p", {}, c.text.es))))),
  ];
}

function choice() {
  if (known.view.state !== "choosing") return [];
  return [el("h2", {}, "The Umpire must choose"),
    ...known.view.options.map((option, i) => el("button", {
      type: "button", class: "big primary", dataset: {option: i + 1}, onclick: () => decide(i + 1),
    }, `${i + 1}. ${option.text[lang()]}`))];
}

function render() {
  showNow(known.view);
  $("choice").replaceChildren(...choice());
  $("choice").hidden = known.view.state !== "choosing";
  const pane = $("pane");
  const following = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 8;  // at the bottom: stay there
  $("timeline").replaceChildren(...timeline());
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
    say("The server does not answer: trying again…");
    setTimeout(load, 2000);
    return;
  }
  if (denied(viewReply)) {
    say(`${reason(viewReply.data)}: enter the match's key above.`);
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
    onOpen: () => { live.textContent = "live"; live.className = "pill ok"; clock.measure(); },
    onError: () => { live.textContent = "reconnecting…"; live.className = "pill warn"; },
  });
  verify();
  onLang(render);
  root.classList.add("ready");
}

$("recheck").addEventListener("click", verify);
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
