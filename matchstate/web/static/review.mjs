// The officials' review: the timeline, live, each event with the clock and its flags; the flagged events
// alone, one click away; a ruling's chain of events and its clauses in both languages; deciding a pending
// choice (after a confirmation) and voiding an event with the official key; whether the hash chain
// verifies, checked as the page opens and on demand, naming the first bad row.
//
// Keyboard: the timeline is one Tab stop (a roving tabindex): the arrow keys, Home and End move along its
// rows, Enter or Space selects one; the one void action is the selected row's, so Tab never walks through
// a button per row; a skip link at the top goes straight to the timeline.
//
// From log format 1.2, beside the timeline: the match's video (reviewvideo.mjs), pinned to the log by a
// video.sync on a selected row; a review asked from the selected row, decided, and an overturned call carried
// out by its void and award; each chukker's score confirmed or corrected; the audit window counting down.

import {$, el, focusedControl, messenger, refocus} from "./dom.mjs";
import {api, denied} from "./http.mjs";
import {t} from "./catalog.mjs";
import {refusal} from "./refusal.mjs";
import {key, keyLinks, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {listen, matchPage, tracker} from "./live.mjs";
import {eventItem, showNow, time} from "./show.mjs";
import {describeEvent, details, eventName, roleName} from "./words.mjs";
import {newEvent} from "./events.mjs";
import {logAlarm} from "./logalarm.mjs";
import "./sitouts.mjs";
import {pageClock} from "./clock.mjs";
import {question} from "./asks.mjs";
import {ask} from "./dialog.mjs";
import {clockLabel} from "./chukkerclock.mjs";
import {flagMeaning} from "./flags.mjs";
import {videoPanel} from "./reviewvideo.mjs";
import {clipTime, pinnedSeconds} from "./clips.mjs";
import {askers, chukkerScores, countdownText, matchEnd, windowLeft} from "./officials.mjs";
import {filled, formContent, formKeys, missing, showMissing, showUnfit, unfit} from "./quickform.mjs";
import {asideQuestion, handedPanel, relogQuestion, timerMark} from "./reviewseat.mjs";
import {thisDevice} from "./seat.mjs";

const {root, code, base} = matchPage($("review"));
const clock = pageClock();
const known = tracker();
let selected = null;      // the explanation of the selected ruling
let verifyTimer = null;
let flaggedOnly = false;  // the timeline shows the flagged events alone
let badSeq = null;        // the first row the chain check found wrong
let cursor = null;        // the seq of the row the keyboard is on (the timeline's one Tab stop)
let playing = null;       // the seq of the row the clip playing shows
let forms = null;         // the event forms (GET /api/event-types), for the award that carries out a review
let seat = {timer_ticks: {}, handed: []};  // the scoring seat's marks and what was handed here (GET .../seat)
const SEAT_EVERY_MS = 5000;

const seeCheckpoint = logAlarm($("log-alarm"), code);  // the league log's watch: it checks the latest one now

async function official(type, fields, at = clock.stamp(known.lastAt())) {
  return logEvent(newEvent(type, fields, at));
}

// Log an event with the official key: one of the official's, or one a console held and handed here as it was.
async function logEvent(event) {
  const type = event.type;
  let reply;
  try {
    reply = await api(`${base}/events`, {method: "POST", body: {event, expected_seq: known.view.seq}, key: key(code)});
  } catch (err) {
    say(() => t("review", "not-sent"));
    return;
  }
  if (reply.status === 200 || reply.status === 201) {
    seeCheckpoint(reply.data.checkpoint);
    known.seen(reply.data.event, reply.data.match);
    say(() => t("review", "recorded", {seq: reply.data.seq, event: eventName(type)}));
    render();
    focusRecorded(reply.data.seq);
    return true;
  }
  say(() => t("review", "not-recorded", {status: reply.status, reason: refusal(reply.data),
    extra: reply.status === 409 ? t("review", "moved-on", {seq: reply.data.current_seq}) : ""}));
}

const say = messenger();  // the page's message, said again in the language chosen

// Log now, after a confirmation, an event handed here that the log has moved past: as it was it would be refused
// (earlier than the event before it), as a console's own "log it again now" would be. Its id stays: it was never
// logged.
async function relog(item) {
  const at = clock.stamp(known.lastAt());
  const {action} = await ask(relogQuestion(item, at, known.view.seq));
  if (action === "confirm") await logEvent({...item.event, at});
}

// Set aside, after a confirmation, an event handed here that is not to be logged (one the engine refuses, say): the
// server keeps who did it and when, and no page lists it as waiting again.
async function setAside(item) {
  const {action} = await ask(asideQuestion(item));
  if (action !== "confirm") return;
  let reply;
  try {
    reply = await api(`${base}/seat/handed/${encodeURIComponent(item.event.id)}/set-aside`,
      {method: "POST", body: thisDevice(), key: key(code)});
  } catch (err) {
    say(() => t("review", "not-sent"));
    return;
  }
  if (reply.status !== 200) {
    say(() => t("seat", "aside-failed", {status: reply.status, reason: refusal(reply.data)}));
    return;
  }
  seat = reply.data;
  say(() => t("seat", "aside-done", {event: describeEvent(item.event)}));
  render();
}

function voidEvent(row, reason = "") {
  const dialog = $("void");
  dialog.querySelector(".what").textContent = `#${row.seq} ${eventName(row.type)} ${details(row.event)}`;
  dialog.querySelector("input").value = reason;
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
  const row = known.log.find((r) => r.seq === seq);
  if (row) video.seek(row);  // every synced clip plays from a few seconds before it
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

// Where the control the official used went with what it did (a chukker's Confirm, a handed event's "Log it", the
// choice's options), the keyboard goes on from the row recorded, not from the page's start.
function focusRecorded(seq) {
  if (document.activeElement && document.activeElement !== document.body) return;
  cursor = seq;
  const row = stopRow();
  if (row) moveCursor(row);
}

// The keyboard on ``row``: the cursor's row, the timeline's one Tab stop, focused.
function moveCursor(row) {
  $("timeline").querySelectorAll("tr[data-seq]").forEach((other) => { other.tabIndex = other === row ? 0 : -1; });
  cursor = Number(row.dataset.seq);
  row.focus();
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
    moveCursor(rows[Math.max(0, Math.min(rows.length - 1, to))]);
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
  // The problems are the store's own words (`matchstate verify`'s, in English): said so, and marked as English, so a
  // screen reader reads them as English on the Spanish page.
  $("chain-text").replaceChildren(...(ok
    ? [t("review", "chain-verified", {events})]
    : [t("review", "chain-bad"), badRow ? t("review", "chain-bad-at") : "", badRow || "", ": ",
      t("review", "chain-problems"), " ", el("span", {class: "chain-problems", lang: "en"}, problems.join("; "))]));
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
      selected && selected.event.seq === row.seq ? "selected" : "", playing === row.seq ? "playing" : ""].join(" "),
    dataset: {seq: row.seq},
    id: `seq-${row.seq}`,
    tabindex: "-1",
    "aria-current": selected && selected.event.seq === row.seq ? "true" : playing === row.seq ? "time" : null,
    onclick: (e) => { if (!e.target.closest("button, a")) select(row.seq); },
  },
  el("td", {class: "seq"}, `#${row.seq}`),
  el("td", {class: "at"}, time(row.at), video.moments(row).map(({clip, at}) =>
    el("span", {class: "moment", dataset: {clip}}, `${clip} ${clipTime(at)}`))),
  el("td", {class: "clock"}, row.clock ? clockLabel(row.clock) : "—"),
  el("td", {}, el("strong", {}, eventName(row.type)), " ", el("code", {class: "type", translate: "no"}, row.type), " ",
    el("span", {class: "quiet"}, details(row.event)), reviewBadge(row),
    isFlagged(row) ? flagList(row.flags, lang()) : null, timerMark(seat, row)),
  rulingCell(row.ruling),
  el("td", {class: "who"}, row.by || "—", el("br"), el("span", {class: "quiet"},
    `${roleName(row.role)} · ${row.received_at ? time(row.received_at) : "—"}`)),
  // One void action, the selected row's: Tab goes past the timeline, not through a button per row.
  el("td", {}, row.type === "match.start" || known.view.void.includes(row.seq)
    || !(selected && selected.event.seq === row.seq) ? null
    : el("button", {type: "button", class: "small", dataset: {act: "void"}, onclick: () => voidEvent(row)},
      t("review", "void", {seq: row.seq})))));
}

// The review in progress, in the timeline: the event under review and its request.
function reviewBadge(row) {
  const open = openReview();
  if (!open) return null;
  if (row.seq === open.about) return el("span", {class: "badge under-review"}, " ", t("review-officials", "under-review"));
  if (row.seq === open.seq) return el("span", {class: "badge reviewing"}, " ", t("review-officials", "reviewing"));
  return null;
}

const officialsNow = () => known.view.officials || {};

/** The open review, {seq, about, asked_by, outcome: null}, or null. */
function openReview() {
  const {review, reviews} = officialsNow();
  return review == null ? null : (reviews || []).find((r) => r.seq === review) || null;
}

const rowOf = (seq) => known.log.find((row) => row.seq === seq) || null;
const askerName = (asker) => (known.view.teams.includes(asker) ? t("review-officials", "team-asker", {team: asker})
  : t("officials", asker));

// Ask for a review of the selected row; a team with no challenge left is refused here, before anything is sent.
async function askReview(row, who) {
  if (who.refused) {
    say(() => t("review-officials", "no-challenge", {team: who.asker}));
    return;
  }
  // The button pressed is drawn away with the ask: the keyboard goes on at the review's note, then its outcomes.
  if (await official("review.request", {about: row.seq, asked_by: who.asker}) && $("review-note")) $("review-note").focus();
}

async function decideReview(outcome) {
  const open = openReview();
  const note = $("review-note") ? $("review-note").value.trim() : "";
  if (await official("review.outcome", note ? {outcome, note} : {outcome}) && outcome === "overturned") {
    const row = rowOf(open.about);
    if (row) voidEvent(row, overturnedReason(row.seq));  // straight to its void
  }
}

// The reason a void that carries out an overturned call is stored with: the review that overturned it, not
// the instruction the panel shows.
function overturnedReason(about) {
  const review = [...(officialsNow().reviews || [])].reverse()  // findLast: not on an iPad before iOS 15.4
    .find((one) => one.about === about && one.outcome === "overturned");
  return t("review-officials", "overturned-reason", {seq: review ? review.seq : about});
}

// The award that carries out an overturned call: the console's form for a penalty.award, in a dialog.
async function award() {
  if (!forms) forms = (await api("/api/event-types")).data;
  const dialog = $("award");
  const form = {type: "penalty.award", values: {}, action: t("review-officials", "award-log")};
  const fields = forms["penalty.award"];
  const send = async () => {
    const lacking = missing(fields, form.values);
    if (lacking.length) { showMissing(dialog, lacking); return; }
    const wrong = unfit(fields, form.values, {fieldLength: known.view.start.field_length});
    if (wrong.length) { showUnfit(dialog, wrong); return; }
    dialog.close();
    await official("penalty.award", filled(fields, form.values));
  };
  dialog.replaceChildren(...formContent(form, fields, {view: known.view, lang: lang(), freeHit: null, onSend: send,
    onCancel: () => dialog.close()}));
  dialog.querySelector("h2").textContent = t("review-officials", "award-title");
  if (!dialog.dataset.keyed) { formKeys(dialog, {onSend: () => dialog.querySelector("#send").click(), onCancel: () => dialog.close()}); dialog.dataset.keyed = "1"; }
  dialog.showModal();
}

// What may follow an overturn while it is carried out: its void, and what the clock and the video do meanwhile.
const CARRYING_OUT = new Set(["void", "tick", "video.sync", "clock.stop", "clock.start"]);

/** The seq of the event the last review overturned, until the match moves on from its outcome (the award that
 * replaces it, or any other event of play), or null: read from the log, so the step to carry it out is still
 * shown after a reload, and on another official's page. */
function carryOut() {
  const reviews = officialsNow().reviews || [];
  const last = reviews[reviews.length - 1];
  if (!last || last.outcome !== "overturned") return null;
  const voided = new Set(known.view.void);
  const decided = [...known.log].reverse().find((row) => row.type === "review.outcome" && !voided.has(row.seq));
  const since = decided ? decided.seq : last.seq;
  const movedOn = known.log.some((row) => row.seq > since && !CARRYING_OUT.has(row.type) && !voided.has(row.seq));
  return movedOn ? null : last.about;
}

function reviewOpen() {
  const open = openReview();
  if (!open) {
    const about = carryOut();
    if (about === null) return [];
    const row = rowOf(about);
    const voided = known.view.void.includes(about);
    return [el("p", {class: "carry-out"}, t("review-officials", "carry-out", {seq: about})),
      voided || !row ? null : el("button", {type: "button", class: "small", dataset: {act: "carry-void"},
        onclick: () => voidEvent(row, overturnedReason(about))}, t("review-officials", "void-it", {seq: about})),
      " ", el("button", {type: "button", class: "small", dataset: {act: "award"}, onclick: award}, t("review-officials", "award"))];
  }
  const about = rowOf(open.about);
  return [
    el("p", {class: "open-review"}, el("strong", {}, t("review-officials", "open", {seq: open.about,
      event: about ? `${eventName(about.type)} (${details(about.event)})` : "", asker: askerName(open.asked_by)}))),
    about && about.ruling ? el("div", {class: "both"}, el("p", {lang: "en"}, about.ruling.text.en),
      el("p", {lang: "es"}, about.ruling.text.es)) : null,
    el("label", {}, t("review-officials", "note"), " ", el("input", {id: "review-note", type: "text"})),
    el("p", {class: "outcomes"}, t("review-officials", "decide"), " ",
      ["stands", "overturned", "no-decision"].map((outcome) => el("button", {type: "button", class: "small",
        dataset: {outcome}, onclick: () => decideReview(outcome)}, t("officials", outcome)))),
  ];
}

function reviewAsk() {
  if (openReview()) return [];
  const row = selected ? rowOf(selected.event.seq) : null;
  if (!row || row.type === "match.start" || known.view.void.includes(row.seq)) {
    return [el("p", {class: "quiet"}, t("review-officials", "ask-select"))];
  }
  return [el("p", {class: "asks"}, t("review-officials", "ask", {seq: row.seq}), " ",
    askers(known.view.teams, officialsNow().challenges_left).map((who) => el("button", {
      type: "button", class: "small", dataset: {asker: who.asker}, "aria-disabled": who.refused ? "true" : null,
      onclick: () => askReview(row, who)},
    who.team ? t("review-officials", who.left === 1 ? "by-team-one" : "by-team", {team: who.asker, left: who.left})
      : t("review-officials", `by-${who.asker}`))))];
}

// What the official has typed into a chukker's confirmation ("chukker/team" to value): kept when a live event
// draws the list again, so nothing typed is lost; forgotten once that confirmation is sent.
const typed = new Map();

// Each chukker ended: its state, and its score to confirm or correct: the score right after its chukker.end, as
// the server folds it (what a confirmation is compared with), never the score now.
function chukkerRows() {
  const ends = chukkerScores(officialsNow());
  if (!ends.length) return [el("li", {class: "quiet"}, t("review-officials", "none-ended"))];
  return ends.map(({chukker, score, state}) => {
    // The score at the chukker's end, each box named by its team: unnamed, they read as the chukker's own goals.
    const inputs = known.view.teams.map((team) => el("input", {type: "number", min: "0", step: "0.5", required: true,
      value: typed.get(`${chukker}/${team}`) ?? String(score[team] ?? ""), dataset: {team, chukker},
      oninput: (e) => typed.set(`${chukker}/${team}`, e.target.value),
      "aria-label": t("review-officials", "score-of", {team, n: chukker})}));
    const confirm = (e) => {
      e.preventDefault();
      known.view.teams.forEach((team) => typed.delete(`${chukker}/${team}`));
      official("chukker.confirm", {chukker, score: Object.fromEntries(inputs.map((input) =>
        [input.dataset.team, Number(input.value)]))});
    };
    return el("li", {dataset: {chukker, state}},
      el("form", {onsubmit: confirm}, t("review-officials", "chukker", {n: chukker}), " ",
        el("span", {class: state}, t("officials", state)), " ", t("review-officials", "score-at-end"), " ",
        inputs.flatMap((input) => [el("label", {class: "team-score"}, input.dataset.team, " ", input), " "]),
        el("button", {class: "small"}, t("review-officials", "confirm"))),
      state === "queried" ? el("p", {class: "query", role: "status"}, t("review-officials", "query")) : null);
  });
}

function challengesText() {
  const left = officialsNow().challenges_left || {};
  return t("review-officials", "challenges", {teams: known.view.teams.map((team) => `${team} ${left[team] ?? 0}`).join(", ")});
}

// The audit window after the match.end in force, counted down on the server's time.
function windowText() {
  const end = matchEnd(known.log, known.view.void);
  if (!end) return "";
  const left = windowLeft(end.at, clock.now());
  return left > 0 ? t("review-officials", "window-open", {left: countdownText(left)}) : t("review-officials", "window-closed");
}

function renderOfficials() {
  // The note of the review open is drawn again with each render (the live stream's too): what is typed in it
  // stays (and the focus, as render keeps it on any control).
  const note = $("review-note");
  const typed = note ? note.value : "";
  $("review-open").replaceChildren(...reviewOpen().filter((part) => part !== null));  // null: a part not shown
  if ($("review-note")) $("review-note").value = typed;
  $("review-ask").replaceChildren(...reviewAsk());
  $("challenges").textContent = challengesText();
  $("window").textContent = windowText();
  $("chukkers").replaceChildren(...chukkerRows());  // a box typed in keeps the focus as render keeps any control's
}

// The row the clip playing shows, marked as it plays (without drawing the timeline again).
function markPlaying(seq) {
  if (seq === playing) return;
  playing = seq;
  for (const row of $("timeline").querySelectorAll("tr[data-seq]")) {
    const on = Number(row.dataset.seq) === seq;
    row.classList.toggle("playing", on);
    if (!row.classList.contains("selected")) {
      if (on) row.setAttribute("aria-current", "time"); else row.removeAttribute("aria-current");
    }
  }
}

const video = videoPanel({
  clips: () => (known.view ? officialsNow().clips || [] : []),
  rows: () => known.log,
  selected: () => (selected ? rowOf(selected.event.seq) : null),
  pin: (clip, position, row) => {
    const at = clock.stamp(known.lastAt());
    official("video.sync", {clip, clip_seconds: pinnedSeconds(position, row ? row.at : at, at)}, at);
  },
  shown: markPlaying,
});

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
    ruling && !clauses.length ? el("p", {class: "quiet no-clause"}, t("review", "no-clause")) : null,
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
    }, `${i + 1}. ${option.outcome[lang()]}`))];  // what each gives: its reason, and the cell, are the choice's own
}

function render() {
  const kept = focusedControl();
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
  $("detail").replaceChildren(...detail().filter(Boolean));  // a part it leaves out is null, never the text "null"
  renderOfficials();
  $("handed").replaceChildren(...handedPanel(seat, known.log, logEvent, relog, setAside));
  $("handed").hidden = !$("handed").children.length;
  video.render();
  refocus(kept);
}

// The seat's marks and what was handed here, read again now and then (they are not in the match's log).
async function readSeat() {
  const reply = await api(`${base}/seat`, {key: key(code)}).catch(() => null);
  if (reply && reply.status === 200) seat = reply.data;
  render();
}

// Read the match; a private server's match needs a key even for that: then ask for it.
async function load() {
  let viewReply, logReply;
  try {
    [viewReply, logReply] = await Promise.all([api(base, {key: key(code)}), api(`${base}/events`, {key: key(code)})]);
  } catch (err) {
    say(() => t("review", "trying-again"));
    setTimeout(load, 2000);
    return;
  }
  if (denied(viewReply)) {
    say(() => t("review", "enter-key", {reason: refusal(viewReply.data)}));
    $("key").focus();
    return;
  }
  say(() => "");
  known.merge(logReply.data);
  known.seen(null, viewReply.data);
  begin();
}

// Once the match is read: show it, follow it live, check its chain.
function begin() {
  render();
  const live = $("live");
  listen(code, known.view.seq, key(code), {
    onAppend: (event, match) => {
      known.seen(event, match);
      render();
      scheduleVerify();
      if (event.type === "tick") readSeat();
    },
    onOpen: () => { live.dataset.t = "review.live"; live.textContent = t("review", "live"); live.className = "pill ok";
      clock.measure(); },
    onError: () => { live.dataset.t = "review.reconnecting"; live.textContent = t("review", "reconnecting");
      live.className = "pill warn"; },
  });
  verify();
  onLang(() => { render(); verify(); say.again(); });
  setInterval(() => { $("window").textContent = windowText(); }, 1000);
  readSeat();
  setInterval(readSeat, SEAT_EVERY_MS);
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
