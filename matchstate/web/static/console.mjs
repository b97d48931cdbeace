// The scorer's console: a button for every event type, always in the same place (disabled where the
// engine accepts none now), a quick form for the fields, the chukker clock with its bell and horn, the
// 20 seconds counted down and expired by themselves, and the outbox, which keeps each event until the
// server records it or the scorer decides its fate. Offline, it shows the events waiting with the score,
// free hit and clock they imply (provisional). Every receipt the server signs is kept on the device.

import {deviceId, newEvent} from "./events.mjs";
import {$, el} from "./dom.mjs";
import {api, denied} from "./http.mjs";
import {key, keyLinks, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {has, t} from "./catalog.mjs";
import {refusal} from "./refusal.mjs";
import {matchPage, listen, tracker} from "./live.mjs";
import {eventItem, score, time} from "./show.mjs";
import {describeEvent, describeFreeHit, events, label, stateName} from "./words.mjs";
import {discardQuestion, question, relogQuestion} from "./asks.mjs";
import {OwnEvents, secondsLeft, tickDue, windowPlay} from "./countdown.mjs";
import {defaults, filled, focusFirst, formContent, formKeys, missing, showMissing} from "./quickform.mjs";
import {earlier, notBefore, pageClock} from "./clock.mjs";
import {Outbox} from "./outbox.mjs";
import {beep, bell, horn, wake} from "./cue.mjs";
import {fold} from "./fold.mjs";
import {Cues, chukkerNumbers, foldClock, reading, shownClock} from "./chukker.mjs";
import {Receipts} from "./receipts.mjs";
import {ask} from "./dialog.mjs";
import {flagLabel, flagMeaning} from "./flags.mjs";
import {fitText} from "./fit.mjs";
import {reviewLine} from "./reviewline.mjs";
import {HEARD_EVERY_MS, Seat, deviceLabel, seatDevice} from "./seat.mjs";
import {heldPanel, seatLine, takeSeat} from "./seatview.mjs";
import "./sitouts.mjs";
import {PLAYERS, awardEvents, awardFields, gridBy, isAward, sentBy, usualPlayer} from "./taps.mjs";
import {intervalReading, intervalStart} from "./interval.mjs";

// The buttons' places: a free hit's course first, then what goes wrong, then the officials' and the
// match's own events; a type the server adds later goes after these, so no button ever moves.
const ORDER = [
  "penalty.award", "knockin.award", "ball.place", "play", "hit", "goal", "ball.out", "ball.stop", "whistle",
  "dribble", "approach.abort", "ball.retee", "position.improper", "player.return", "player.play", "card",
  "tick", "void", "decide", "chukker.start", "chukker.end", "clock.stop", "clock.start", "match.end",
];
const SHORTCUTS = {
  "penalty.award": "a", "knockin.award": "k", "ball.place": "b", "play": "p", "hit": "h", "goal": "g",
  "ball.stop": "s", "ball.out": "o", "dribble": "d", "approach.abort": "x", "ball.retee": "r",
  "position.improper": "i", "player.return": "n", "player.play": "y", "card": "c", "decide": "e",
  "whistle": "w", "void": "u", "tick": "t", "chukker.start": "[", "chukker.end": "]",
  "clock.stop": ",", "clock.start": ".", "match.end": "m",
};
// The engine's flags, as the latest events show them: what an official should look at.
const CHUKKER_EDGES = new Set(["chukker.start", "chukker.end"]);  // logged in one tap: the number is known
const GUARD_MS = 600;           // a second tap this soon after one is taken as the same tap, and ignored
const CLOCK_EVERY_MS = 10 * 60 * 1000;
const RECENT = 6;               // recorded events shown under the buttons (every waiting one is shown too)
const KEPT_ROWS = 60;           // recorded events kept on this device for a console opened offline
const SCORE_SMALLEST_PX = 15;   // the score is made no smaller than this to fit its line; it wraps instead
const GOAL_SMALLEST_PX = 11;    // nor a quick goal's team (a button a seventh of the row wide on a tablet)

const {root, code, base} = matchPage($("console"));
const SNAPSHOT = `matchstate:console:${code}`;
const clock = pageClock();
const receipts = new Receipts(localStorage, `matchstate:receipts:${code}`);
let logWatch = null;             // the league log's watch (logalarm.mjs): loaded once the console is ready
const own = new OwnEvents(sessionStorage, `matchstate:own:${code}`);  // what this tab logged: its "Play"s are its to time
const cues = new Cues();        // the bell and the horn, each once per chukker
const known = tracker();        // the match as the server last told it, and the stored events seen
let forms = null;               // each event type's fields, from the API
let rules = {};                 // Rule 36's clauses by id, for the cites
let role = null;                // the role the key holds, "scorer" or "official", as the server says
let streamUp = false;           // the live stream is open
let everUp = false;             // it has been, since the page opened
let notice = null;              // what the scorer should know of the last thing done
let form = null;                // the quick form open: {type, values, at, ...}
let guardUntil = 0;
let tickedFor = null;           // the "Play" whose 20 seconds the console has expired itself
let catchingUp = false;
let returnTo = null;            // the button whose form is open: the focus goes back to it
let keyRefused = false;         // the server refuses the key held

// The match's scoring seat: only the console that holds it logs the automatic clock check.
const seat = new Seat({storage: localStorage, code, device: seatDevice(localStorage, deviceId),
  label: deviceLabel(navigator.userAgent, Math.min(screen.width, screen.height), navigator.maxTouchPoints > 0),
  put: (ask, handed = []) => api(`${base}/seat`, {method: "PUT", key: key(code),
    body: {device: seat.device, label: seat.label, ask, handed}})});

const outbox = new Outbox({
  storage: localStorage,
  name: `matchstate:outbox:${code}`,
  send: (body, otherKey) => api(`${base}/events`, {method: "POST", body, key: otherKey || key(code),
    headers: seat.headers(body.event)}),
  holding: () => seat.holds(outbox.items.length),
  lastKnownAt: () => known.lastAt(),
  movedOn: (basis) => {
    const ours = new Set(outbox.events.map((event) => event.id));  // one of them recorded, its answer lost
    const others = known.log.some((row) => row.seq > basis && !ours.has(row.device_id));
    return others ? known.view.seq : null;
  },
  onRecorded: (data) => {
    own.add(data.event.device_id); receipts.add(data.receipt); seeCheckpoint(data.checkpoint); known.seen(data.event, data.match);
    save();
  },
  onChange: () => { if (outbox.conflict) catchUp(); render(); },
});

// -- where the match stands --------------------------------------------------------------

// The match as the console shows it: the server's view, with what waits in the outbox folded in
// (``timing``: the chukker clock, to be read at an instant).
function shown() {
  const view = known.view;
  const waiting = outbox.events;
  const folded = fold(view, waiting);
  let text;
  if (!folded.provisional) text = view.free_hit_text ? view.free_hit_text[lang()] : t("console", "no-free-hit");
  else if (folded.free_hit) text = describeFreeHit(folded.free_hit);
  else text = t("console", folded.sure ? "no-free-hit" : "free-hit-on-arrival");
  return {...view, ...folded, text, timing: foldClock(view.clock, waiting)};
}

// The last event's time this device knows of: no event is stamped before it.
function floor() {
  const waiting = outbox.events;
  const last = known.lastAt();
  const queued = waiting.length ? waiting[waiting.length - 1].at : null;
  if (!queued) return last;
  return !last || earlier(last, queued) ? queued : last;
}

// The last standing event this key may void: an official's any; a scorer's only the scorer's own.
function lastUndoable() {
  const standing = known.log.filter(undoable);
  return standing.length ? standing[standing.length - 1] : null;
}

// Whether this key may void a recorded event: an official's any that stands; a scorer's own.
const undoable = (row) => row.type !== "void" && row.type !== "match.start" && !known.view.void.includes(row.seq)
  && (role === "official" || row.role === "scorer");

// Undo any past event of the list, after one question that names it: logged as a void of it.
async function undoRow(row) {
  const {action} = await ask({
    title: t("taps", "undo-title", {seq: row.seq, what: brief(row.event)}),
    text: t("console", "void-note", {seq: row.seq, event: describeEvent(row.event)}),
    actions: [{id: "confirm", label: t("taps", "undo-confirm"), danger: true}, {id: "cancel", label: t("form", "cancel")}],
  });
  if (action !== "confirm") return;
  record("void", {seq: row.seq, reason: t("console", "void-reason")}, clock.stamp(floor()));
}

// Whether the server answers: its live stream is open, and what waits here is not failing to go.
// (A device that knows it has no network is offline, idle or not: its stream may not have noticed yet.)
const online = () => navigator.onLine && streamUp
  && (!outbox.items.length || outbox.link === "up" || outbox.link === "unknown");

// The types the engine accepts now; while events wait (or the server is away) every type: it rules on arrival.
function enabled(type) {
  if (type === "decide" && role !== "official") return false;  // only an official decides
  if (type === "void") return true;
  return outbox.items.length || !online() ? true : known.view.accepted.includes(type);
}

// -- logging -----------------------------------------------------------------------------

// A tap, or a shortcut (``keyed``: a key held down repeats, and is ignored, so the guard is the pointer's).
function tap(type, keyed = false) {
  if (!keyed && Date.now() < guardUntil) {
    notice = t("console", "tap-ignored", {event: label(type)});  // said, so a dropped tap is never a mystery
    render();
    return;
  }
  if (!enabled(type)) return;
  guard();
  wake();
  open(type);
}

// A tap on the quick row: "Play", a clean hit by a player, a goal for a team, each one tap, logged with
// what the match makes likely (asked first where a slip is likely, as any event).
function quickTap(type, fields) {
  if (Date.now() < guardUntil) {
    notice = t("console", "tap-ignored", {event: label(type)});
    render();
    return;
  }
  if (!enabled(type)) return;
  guard();
  wake();
  notice = null;
  const at = clock.stamp(floor());
  if (form) closeForm();  // the quick row is the usual case: a form left open was not meant
  log(type, fields, at);
}

// The quick row, built once the teams are known: its places never change, only what is enabled and marked.
function buildQuick() {
  const box = $("quick");
  if (box.children.length) return;
  const button = (type, fields, cls) => el("button", {type: "button", class: `big quick ${cls}`,
    dataset: {quick: type, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))},
    onclick: () => quickTap(type, fields)});
  box.replaceChildren(
    button("play", {}, "play"),
    ...PLAYERS.map((player) => button("hit", {player, contact: "hit"}, "hit")),
    ...known.view.teams.map((team) => button("goal", {team}, "goal")));
}

// What each quick button says and whether it is enabled now; the usual player and the hitting team marked.
function renderQuick(now) {
  const hitting = now.free_hit ? now.free_hit.to : null;
  const player = now.free_hit ? usual(now.free_hit) : null;
  for (const button of $("quick").children) {
    const type = button.dataset.quick;
    button.disabled = !enabled(type);
    if (type === "play") button.textContent = label("play");
    if (type === "hit") {
      button.textContent = t("taps", "quick-hit", {player: button.dataset.player});
      button.classList.toggle("usual", Number(button.dataset.player) === player);
    }
    if (type === "goal") {
      button.textContent = t("taps", "quick-goal", {team: button.dataset.team});
      button.classList.toggle("usual", button.dataset.team === hitting);
      fitText(button, GOAL_SMALLEST_PX);  // as it now reads: the usual team's is bold, so wider
    }
  }
}

// Ignore taps for a moment: a double tap, or a tap on "Log" landing again on the button under it.
function guard() {
  guardUntil = Date.now() + GUARD_MS;
  $("buttons").classList.add("guarded");
  $("quick").classList.add("guarded");
  clearTimeout(guard.timer);
  guard.timer = setTimeout(() => ["buttons", "quick"].forEach((id) => $(id).classList.remove("guarded")), GUARD_MS);
}

function open(type) {
  notice = null;
  returnTo = type;
  const at = clock.stamp(floor());  // the moment of the tap, not of the "Log" after the form
  if (type === "void") return openUndo(at);
  const fields = fieldsOf(type, at);
  const values = {...defaults(fields), ...prefilled(type, at)};
  if (!fields.length || CHUKKER_EDGES.has(type)) {  // a chukker's edge: its number is the one its button names
    form = null;
    log(type, filled(fields, values), at);
    return;
  }
  form = {type, fields, values, at, sendBy: sentBy(type), grid: gridBy(type)};
  render();
  focusFirst($("form"));
}

// The form closes (logged, or cancelled): the focus goes back to the button that opened it.
function closeForm() {
  form = null;
  render();
  focusButton(returnTo);
}

// Focus an event's button, or where it is disabled the next one enabled after it (the free hit's course).
function focusButton(type) {
  const buttons = [...$("buttons").children];
  const from = Math.max(0, buttons.findIndex((button) => button.dataset.type === type));
  const next = [...buttons.slice(from), ...buttons.slice(0, from)].find((button) => !button.disabled);
  if (next) next.focus();
}

// What the match makes likely, so the usual case is one tap: a chukker's start is the next one's, its end
// the one in play; a stroke is a clean hit; a goal in a free hit is the hitting team's.
function prefilled(type, at) {
  const now = shown();
  if (CHUKKER_EDGES.has(type)) return {chukker: edgeNumber(type, now, at)};
  if (type === "hit") return {contact: "hit", ...(now.free_hit ? {player: usual(now.free_hit)} : {})};
  return type === "goal" && now.free_hit ? {team: now.free_hit.to} : {};
}

// A type's fields as its form asks them: an award's with the card's player and the whistle (the clock at
// the tap says whether it runs), the rest as the log format gives them.
function fieldsOf(type, at) {
  const fields = forms[type] || [];
  return isAward(type) ? awardFields(type, fields, reading(shown().timing, Date.parse(at)).running) : fields;
}

// The player who usually takes this free hit (see taps.mjs), from the standing events known.
const usual = (freeHit) => usualPlayer(known.log.filter((row) => !known.view.void.includes(row.seq)),
  freeHit.to, freeHit.penalty === "knockin");

function openUndo(at) {
  const waiting = outbox.items;
  if (waiting.length) {
    const last = waiting[waiting.length - 1].event;
    form = {type: "void", takeBack: last, values: {}, at, action: t("console", "take-back"),
      note: t("console", "take-back-note", {event: describeEvent(last), time: time(last.at)})};
  } else {
    const last = lastUndoable();
    if (!last) {
      form = null;
      notice = t("console", role === "official" ? "nothing-to-undo" : "nothing-to-undo-scorer");
      render();
      return;
    }
    form = {type: "void", values: {seq: last.seq, reason: t("console", "void-reason")}, at,
      action: t("console", "undo-named", {what: brief(last.event)}),
      note: t("console", "void-note", {seq: last.seq, event: describeEvent(last.event)})};
  }
  render();
  focusFirst($("form"));
}

// An event in a few words, for the undo that takes it back: "Goal, Blue #3", "Penalty 3, Red".
function brief(event) {
  const team = event.team ?? event.to;
  const player = event.player ? `#${event.player}` : null;
  const who = [team, player].filter(Boolean).join(" ");
  return [event.penalty ? t("penalty", event.penalty) : label(event.type), who].filter(Boolean).join(", ");
}

// What "Undo" would take back now: the last event waiting here, else the last this key may void.
function undoLabel() {
  const waiting = outbox.events;
  if (waiting.length) return t("console", "take-back-named", {what: brief(waiting[waiting.length - 1])});
  const last = lastUndoable();
  return last ? t("console", "undo-named", {what: brief(last.event)}) : label("void");
}

function sendForm() {
  if (!form) return;
  if (form.takeBack) {
    const taken = form.takeBack;
    notice = outbox.takeBack(taken.id) ? t("console", "taken-back", {event: describeEvent(taken)})
      : t("console", "on-its-way", {event: label(taken.type)});
    closeForm();
    return;
  }
  const fields = form.fields || forms[form.type];
  const lacking = missing(fields, form.values);
  if (lacking.length) {
    showMissing($("form"), lacking);  // nothing is lost: the form stays as it was, with what is missing
    return;
  }
  const {type, values, at} = form;
  guard();
  closeForm();
  if (!isAward(type)) {
    log(type, filled(fields, values), at);
    return;
  }
  const logged = awardEvents(type, filled(fields, values), known.view.teams);
  const main = logged.findIndex(([kind]) => kind === type);
  log(type, logged[main][1], at, logged.slice(0, main), logged.slice(main + 1));
}

// Log an event, asking first where a slip is likely; ``before`` and ``after`` ([type, fields] each) are
// logged with it, at its time (an award's whistle and card), or not at all if it is not.
async function log(type, fields, at, before = [], after = []) {
  const now = shown();
  const asked = question(type, fields, {...now, ...reading(now.timing, Date.parse(at))});
  const all = () => [...before, [type, fields], ...after].forEach(([kind, values]) => record(kind, values, at));
  if (!asked) {
    all();
    return;
  }
  render();
  const {action} = await ask(asked);
  if (action === "play-first") {
    record("play", {}, at);
    all();
  } else if (action === "anyway" || action === "confirm") {
    all();
  }
  render();
}

function record(type, fields, at, timer = null) {
  const event = newEvent(type, fields, notBefore(at, floor()));
  own.add(event.id);
  if (timer !== null) seat.timed(event.id, timer);  // the seat's timer, seconds after the window opened
  outbox.add(event, known.view.seq);
  save();
  render();
  outbox.pump();
}

// -- what waits for the scorer -------------------------------------------------------------

// The match moved on while events waited: learn what it moved on by, to show it and time against it.
async function catchUp() {
  if (catchingUp) return;
  catchingUp = true;
  try {
    const after = known.log.length ? known.log[known.log.length - 1].seq : 0;
    const [viewReply, logReply] = await Promise.all([api(base, {key: key(code)}),
      api(`${base}/events?after_seq=${after}`, {key: key(code)})]);
    if (logReply.status === 200) known.merge(logReply.data);
    if (viewReply.status === 200) known.seen(null, viewReply.data);
    save();
  } catch (err) {
    // the server went away again: the conflict waits, and is shown with what is known
  } finally {
    catchingUp = false;
    render();
  }
}

async function relog() {
  const plan = outbox.relogPlan(clock.stamp(known.lastAt()), deviceId());
  const {action} = await ask(relogQuestion(plan));
  if (action !== "confirm") return;
  const conflict = outbox.conflict;
  if (conflict) outbox.sendAfter(conflict.current_seq);
  try {
    outbox.relog(plan);
    notice = null;
  } catch (err) {
    notice = t("console", "relog-changed");
  }
  render();
  outbox.pump();
}

async function discard(events, drop) {
  const {action} = await ask(discardQuestion(events));
  if (action !== "confirm") return;
  drop();
  notice = t("console", "discarded", {events: events.map(describeEvent).join("; ")});
  render();
  outbox.pump();
}

async function handOver(item) {
  const {action, value} = await ask({
    title: t("console", "hand-over-title"),
    text: t("console", "hand-over-text", {event: describeEvent(item.event)}),
    input: {label: t("console", "official-key"), type: "password"},
    actions: [{id: "confirm", label: t("console", "hand-over-confirm"), primary: true},
      {id: "cancel", label: t("form", "cancel")}],
  });
  if (action !== "confirm" || !value) return;
  const reply = await outbox.handOver(item.event.id, value);
  notice = reply && (reply.status === 200 || reply.status === 201)
    ? t("console", "recorded-by-official", {seq: reply.data.seq, event: describeEvent(item.event)}) : null;
  render();
  outbox.pump();
}

function attention() {
  const conflict = outbox.conflict;
  const waiting = outbox.items;
  if (seat.lacks(waiting.length)) return heldPanel(seat, outbox.events, {onSend: sendHeld, onHand: handHeld, onTake: take});
  if (conflict) {
    const basis = outbox.read().basis;
    const moved = known.log.filter((row) => row.seq > basis);
    const early = waiting.length && known.lastAt() && earlier(waiting[0].event.at, known.lastAt());
    return [
      el("h2", {}, t("console", "moved-on")),
      el("p", {}, t("console", moved.length ? "moved-on-by" : "moved-on-to",
        {events: events(waiting.length), seq: conflict.current_seq})),
      el("ul", {class: "moved"}, moved.map((row) => el("li", {}, `#${row.seq} ${time(row.at)} ${describeEvent(row.event)}`
        + ` (${row.role || t("console", "no-role")}${row.by ? `, ${row.by}` : ""})`))),
      early ? el("p", {}, t("console", "moved-on-early")) : null,
      el("div", {class: "actions"},
        early ? el("button", {type: "button", class: "big primary", dataset: {act: "relog"}, onclick: relog},
          t("console", "relog-all"))
          : el("button", {type: "button", class: "big primary", dataset: {act: "send-after"},
            onclick: () => { outbox.sendAfter(conflict.current_seq); outbox.pump(); }}, t("console", "send-after")),
        el("button", {type: "button", class: "big danger", dataset: {act: "discard"},
          onclick: () => discard(outbox.events, () => outbox.discardAll())}, t("console", "discard-all"))),
    ];
  }
  const held = outbox.held;
  if (!held) return [];
  const byKey = held.refused.status === 401 || held.refused.status === 403;
  const behind = waiting.length - 1;
  return [
    el("h2", {}, t("console", "needs-attention")),
    el("p", {class: "what"}, t("console", "not-recorded", {event: describeEvent(held.event), time: time(held.event.at)})),
    el("p", {class: "reason"}, held.refused.status === "early"
      ? t("console", "says-console", {reason: t("console", "refused-early", {at: held.event.at, last: known.lastAt()})})
      : t("console", "says-server", {reason: held.refused.words?.[lang()] ?? held.refused.reason})),
    behind ? el("p", {}, t("console", behind === 1 ? "behind-one" : "behind-many", {events: events(behind)})) : null,
    byKey ? el("p", {class: "quiet"}, t("console", "wrong-key")) : null,
    el("div", {class: "actions"},
      byKey ? el("button", {type: "button", class: "big primary", dataset: {act: "retry"},
        onclick: () => { outbox.retry(held.event.id); outbox.pump(); }}, t("console", "send-again"))
        : el("button", {type: "button", class: "big primary", dataset: {act: "relog"}, onclick: relog}, t("console", "relog-one")),
      byKey ? el("button", {type: "button", class: "big", dataset: {act: "hand-over"}, onclick: () => handOver(held)},
        t("console", "hand-over")) : null,
      el("button", {type: "button", class: "big danger", dataset: {act: "discard"},
        onclick: () => discard([held.event], () => outbox.discard(held.event.id))}, t("console", "discard-one"))),
  ];
}

// -- showing -----------------------------------------------------------------------------

function status() {
  const waiting = outbox.items.length;
  if (outbox.needsAttention) {
    return el("div", {class: "banner warn"}, t("console", outbox.conflict ? "banner-moved-on" : "banner-not-recorded",
      {events: events(waiting)}), " ", el("a", {href: "#attention"}, t("console", "see-below")));
  }
  if (!everUp && outbox.link === "unknown") return el("div", {class: "banner"}, t("console", "connecting"));
  if (!online()) {
    const why = outbox.link === "database" ? outbox.unavailable?.[lang()] ?? t("faults", "link-database")
      : t("console", {failing: "link-failing", busy: "link-busy"}[outbox.link] || "link-offline");
    return el("div", {class: "banner offline"}, waiting
      ? t("console", "offline-kept", {why, events: events(waiting)}) : t("console", "offline-empty", {why}));
  }
  if (waiting) return el("div", {class: "banner"}, t("console", "sending", {count: waiting}));
  return el("div", {class: "banner ok"}, t("console", "online"));
}

// The officials' review in progress (log format 1.2): until its outcome the engine takes only what a review
// allows, so the buttons it refuses are disabled, and this says why.
function reviewInProgress() {
  if (!(known.view.officials || {}).review) return [];
  return [el("p", {class: "review-open"}, t("console-review", "open", {review: reviewLine(known)}))];
}

// The defending team's violations that wait for the free hit to close (the engine rules on them then).
function waitingFouls() {
  return (known.view.waiting || []).map((foul) => el("p", {class: "waiting-foul"}, t("console", "waiting", {
    violation: (has("reason", foul.code) ? t("reason", foul.code, {against: foul.team}) : `${foul.team}: ${foul.code}`)
      + (foul.prevented_goal ? t("ruling", "goal_prevented") : ""),
  })));
}

// Where the free hit in progress began (its award, or the ruling that awarded it): the ruling panel shows
// nothing from before it. Null while none is in progress: the panel shows the last ruling, which closed one.
function freeHitSince() {
  if (!known.view.free_hit) return null;
  const standing = known.log.filter((row) => !known.view.void.includes(row.seq));
  const began = standing.filter((row) => row.type === "penalty.award" || row.type === "knockin.award"
    || (row.ruling && (row.ruling.kind === "award" || row.ruling.kind === "rehit"))).pop();
  return began ? began.seq : null;
}

// The ruling the panel shows: the latest that stands on the free hit in progress (from its award on); with
// none in progress, the last event's, where that event closed one with a ruling (a Penalty 1, say), so a
// free hit closed otherwise (a goal, a whistle) clears the panel rather than leave "Ball in play" up.
function shownRuling() {
  const since = freeHitSince();
  const standing = known.log.filter((row) => row.type !== "void" && !known.view.void.includes(row.seq));
  if (since === null) {
    const last = standing[standing.length - 1];
    return {since, ruled: last && last.ruling ? last : null};
  }
  return {since, ruled: standing.filter((row) => row.ruling && row.seq >= since).pop() || null};
}

// A rule's clause as the panel and its full view show it: its id and heading, its text under them.
function citation(id) {
  return el("details", {class: "cite"}, el("summary", {}, rules[id] ? `${id} · ${rules[id].heading[lang()]}` : id),
    rules[id] ? el("p", {}, rules[id].text[lang()]) : null);
}

// The ruling on a screen of its own, however long: the panel keeps its size, so no button moves.
function readInFull(row) {
  ask({title: `#${row.seq} ${label(row.type)}`, text: row.ruling.text[lang()],
    items: row.ruling.cite.map((id) => (rules[id] ? `${id} · ${rules[id].heading[lang()]}: ${rules[id].text[lang()]}` : id)),
    actions: [{id: "cancel", label: t("console", "ruling-close"), primary: true}]});
}

// The ruling, with its rule and a way to read it in full; under it, the last thing done.
function rulingPanel() {
  const {since, ruled} = shownRuling();
  const parts = [];
  if (notice) parts.push(el("p", {class: "notice"}, notice));
  if (ruled) {
    parts.push(el("p", {class: "what"}, `#${ruled.seq} ${label(ruled.type)} `,
      el("button", {type: "button", class: "link full", onclick: () => readInFull(ruled)}, t("console", "ruling-full"))),
    el("p", {class: "text"}, ruled.ruling.text[lang()]), ...ruled.ruling.cite.map(citation));
  } else {
    parts.push(el("p", {class: "quiet"}, t("console", since === null ? "no-ruling" : "no-ruling-yet")));
  }
  return parts;
}

function recent(now) {
  const waiting = outbox.items;
  const pending = waiting.map((item, i) => {
    const row = now.rows[i];
    const where = row.free_hit && row.sure ? [stateName(row.state), describeFreeHit(row.free_hit)] : [stateName(row.sure ? row.state : null)];
    const after = [score(known.view.teams, row.score), ...where].join(" · ");
    return el("li", {class: item.refused ? "waiting held" : "waiting pending", dataset: {id: item.event.id}},
      el("span", {class: "tag"}, t("console", item.refused ? "tag-held" : "tag-pending")),
      ` ${time(item.event.at)} ${describeEvent(item.event)}`,
      el("div", {class: "provisional-line"}, t("console", "provisional-line", {after})));
  });
  const recorded = known.log.slice(-RECENT).map((row) => {
    const voided = known.view.void.includes(row.seq);
    const item = eventItem(row, {class: voided ? "struck" : null});
    if (row.flags && row.flags.length) item.prepend(...row.flags.map((flag) => el("span", {class: "tag flag", title: flagMeaning(flag, lang())}, flagLabel(flag, lang()))), " ");
    // A void is what it is, whoever logged it: the official's said so, never the scorer's "Undo".
    if (row.type === "void") {
      item.prepend(el("span", {class: "tag void"}, t("console", row.role === "official" ? "tag-void-official"
        : "tag-void", {seq: row.event.seq})), " ");
    } else if (voided) {
      item.prepend(el("span", {class: "tag void"}, t("console", "tag-voided")), " ");
    }
    if (undoable(row)) {
      item.append(" ", el("button", {type: "button", class: "small undo", dataset: {seq: String(row.seq)},
        onclick: () => undoRow(row)}, t("taps", "undo")));
    }
    return item;
  });
  return [...pending.reverse(), ...recorded.reverse()];
}

// The chukker clock, read again from the match's clock at each render: and the bell or the horn where it
// has just passed one.
function renderChukkerClock(now) {
  const box = $("chukker-clock");
  const at = reading(now.timing, clock.now());
  const words = shownClock(at);
  box.dataset.phase = at.phase;
  box.dataset.running = String(at.running);
  box.querySelector(".chukker b").textContent = words.chukker;
  box.querySelector(".time").textContent = words.time;
  box.querySelector(".running").textContent = words.running;
  box.querySelector(".phase").textContent = words.phase;
  const ended = at.phase === "between" ? intervalStart(known.log, known.view.void, outbox.events) : null;
  box.classList.toggle("interval", Boolean(ended));
  if (ended) {
    const interval = intervalReading({...known.view.clock, ...now.timing}, ended.chukker, ended.at, clock.now());
    box.dataset.late = String(interval.left <= 0);
    box.querySelector(".time").textContent = interval.time;
    box.querySelector(".running").textContent = interval.caption;  // the phase stays: between chukkers
  }
  for (const cue of cues.due(at)) (cue === "bell" ? bell : horn)();
}

function renderCountdown(now) {
  const box = $("countdown");
  const left = secondsLeft(now, clock.now(), known.view.window_seconds);
  box.classList.toggle("idle", left === null);
  box.classList.toggle("late", left !== null && left <= 0);
  box.classList.toggle("hurry", left !== null && left > 0 && left <= 5);
  box.querySelector(".seconds").textContent = left === null ? "20.0" : left > 0 ? left.toFixed(1) : "0.0";
  box.querySelector(".note").textContent = left !== null && left <= 0 && !seat.mine ? t("seat", "countdown-up-watching")
    : t("console", left === null ? "countdown-idle" : left > 0 ? "countdown-running"
      : timesWindow(now) ? "countdown-up" : "countdown-up-theirs");
  box.querySelector(".bar i").style.width = `${left === null ? 0 : Math.max(0, left / known.view.window_seconds) * 100}%`;
}

// Whether this tab times the window that runs: it logged its "Play". Another console left open knows nothing
// of a stroke this one holds offline, so it never logs the clock check that would rule the time run out.
function timesWindow(now) {
  const play = windowPlay(now, known.log, outbox.events);
  return seat.mine === true && play !== null && own.has(play.id);
}

// The 20 seconds ran out with no stroke: log the clock check at once, so the engine rules now. Not while a
// form is open: the event being entered was tapped earlier, and goes first.
function expire(now) {
  if (form || document.querySelector("dialog[open]") || tickedFor === now.play_at || !timesWindow(now)
    || !tickDue(now, clock.now(), known.view.window_seconds)) return;
  tickedFor = now.play_at;
  beep();
  notice = t("console", "ticked");
  const at = clock.stamp(floor());
  record("tick", {}, at, (Date.parse(at) - Date.parse(now.play_at)) / 1000);
}

function everyTenth() {
  if (!known.view) return;
  const now = shown();
  renderChukkerClock(now);
  renderCountdown(now);
  expire(now);
}

// The form is rebuilt only when it changes: a render for the outbox or the live stream must not take
// the input from under the scorer's finger.
let shownForm = null;

function renderForm(force = false) {
  const box = $("form");
  if (form === shownForm && !force) return;
  shownForm = form;
  box.hidden = !form;
  if (!form) {
    box.replaceChildren();
    return;
  }
  const fields = form.takeBack ? [] : form.fields || forms[form.type];
  box.replaceChildren(...formContent(form, fields, {view: known.view, lang: lang(), freeHit: shown().free_hit,
    onSend: sendForm, onCancel: closeForm}));
}

// One button per event type the log format has, in ORDER; built again only if the server's types change
// (a new version served), never for a state.
function buildButtons() {
  const types = Object.keys(forms).filter((type) => type !== "match.start")
    .sort((a, b) => (ORDER.indexOf(a) + 1 || 999) - (ORDER.indexOf(b) + 1 || 999));
  const built = [...$("buttons").children].map((button) => button.dataset.type);
  if (built.join() === types.join()) return;
  $("buttons").replaceChildren(...types.map((type) => el("button", {
    type: "button", class: "big event", dataset: {type}, onclick: () => tap(type),
  }, el("span", {class: "what"}, label(type)), SHORTCUTS[type] ? el("kbd", {}, SHORTCUTS[type]) : null)));
  nameButtons();
}

// The number a chukker's start or end logs at ``at``: the next chukker's, or the one's in play.
function edgeNumber(type, now, at) {
  const numbers = chukkerNumbers(reading(now.timing, Date.parse(at)));
  return type === "chukker.start" ? numbers.start : numbers.end;
}

// The buttons' words, in the language chosen; the undo's names what it would take back, a chukker's start
// or end the number its one tap logs ("Chukker 3 start").
function nameButtons(now = shown()) {
  const at = clock.stamp(floor());
  for (const button of $("buttons").children) {
    const type = button.dataset.type;
    button.querySelector(".what").textContent = type === "void" ? undoLabel()
      : CHUKKER_EDGES.has(type) ? t("taps", type.replace(".", "-"), {chukker: edgeNumber(type, now, at)})
        : label(type);
    button.title = SHORTCUTS[type] ? t("console", "shortcut", {key: SHORTCUTS[type]}) : "";
  }
}

function render() {
  if (!known.view || !forms) return;
  document.title = `${t("console", "title")} · ${code}`;
  const now = shown();
  const left = secondsLeft(now, clock.now(), known.view.window_seconds);
  $("score").textContent = score(known.view.teams, now.score);
  $("state").textContent = stateName(now.state);
  $("provisional").hidden = !now.provisional;
  fitText($("score"), SCORE_SMALLEST_PX);  // after the pills beside it, which take their width first
  $("freehit").textContent = now.text;
  $("waiting").replaceChildren(...reviewInProgress(), ...waitingFouls());
  $("link").replaceChildren(status());
  $("seat").replaceChildren(...seatLine(seat, take));
  renderKeyBox();
  $("ruling").replaceChildren(...rulingPanel());
  const focused = document.activeElement;
  for (const button of $("buttons").children) {
    button.disabled = !enabled(button.dataset.type);
    button.classList.toggle("primary", button.dataset.type === "tick" && left !== null && left <= 0);
  }
  nameButtons(now);
  // A button the keyboard was on that the engine no longer accepts: the focus goes on to the next.
  if (focused && focused.disabled && focused.parentElement === $("buttons")) focusButton(focused.dataset.type);
  $("choosing").hidden = !(now.state === "choosing" && role !== "official");
  const needs = attention().filter(Boolean);
  $("attention").hidden = !needs.length;
  $("attention").replaceChildren(...needs);
  $("recent").replaceChildren(...recent(now));
  renderQuick(now);
  renderForm();
  renderChukkerClock(now);
  renderCountdown(now);
  renderReceipt();
}

// The last receipt, discreetly: its seq, and its entry in the league log (or the key that signed it, before the log).
function renderReceipt() {
  const last = receipts.last;
  const index = last?.proof?.match(/^index (\d+)$/m)?.[1];
  $("receipt").textContent = !last ? t("console", "no-receipt")
    : last.proof ? t("log-watch", "receipt", {seq: last.seq, index}) : t("console", "receipt", {seq: last.seq, key: last.key});
  $("download-receipts").disabled = !last;
}

// Every receipt kept for this match, as JSON Lines: what `matchstate verify --receipts FILE` reads.
function downloadReceipts() {
  const link = el("a", {href: URL.createObjectURL(new Blob([receipts.jsonLines()], {type: "application/jsonl"})),
    download: `receipts-${code}.jsonl`});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// -- keys, loading, following ----------------------------------------------------------------

// The shortcuts, outside the form (whose keys are its own, see quickform.mjs) and any field.
function onKey(e) {
  if (document.querySelector("dialog[open]") || e.target.closest("#form, input, textarea")
    || e.ctrlKey || e.metaKey || e.altKey) return;
  if (form && e.key === "Escape") { closeForm(); return; }
  const type = Object.keys(SHORTCUTS).find((shortcut) => SHORTCUTS[shortcut] === e.key);
  if (type && forms[type]) {
    e.preventDefault();
    if (!e.repeat) tap(type, true);
  }
}

function settings() {
  const keyInput = $("key");
  keyInput.value = key(code);
  keyInput.addEventListener("change", () => {
    setKey(code, keyInput.value.trim());
    keyLinks(code);
    if (!known.view) {
      load();
      return;
    }
    renderKeyBox();
    learnRole();
    const held = outbox.held;
    if (held && (held.refused.status === 401 || held.refused.status === 403)) outbox.retry(held.event.id);
    outbox.pump();
  });
  const byInput = $("by");
  byInput.value = localStorage.getItem("matchstate:by") || "";
  byInput.addEventListener("change", () => localStorage.setItem("matchstate:by", byInput.value.trim()));
}

// What the key may do here; kept as it was while the server does not answer.
async function learnRole() {
  if (!key(code)) {
    role = null;
  } else {
    const reply = await api(`${base}/role`, {key: key(code)}).catch(() => null);
    if (reply) role = reply.status === 200 ? reply.data.role : null;
    keyRefused = Boolean(reply && denied(reply));
  }
  save();
  render();
}

// A private server's match needs a key even to be read: ask for it; setting it loads the match.
function askKey(why) {
  keyRefused = true;
  renderKeyBox(why);
  $("key").focus();
}

// With no key held, or one the server refuses, the key's field is at the top, open, with why: nothing
// logged could be recorded. Once a key is taken, it goes back under "Key and name".
function renderKeyBox(why = null) {
  const box = $("keybox");
  const field = $("key").closest("label");
  const wanted = !key(code) || keyRefused;
  box.hidden = !wanted;
  if (wanted) {
    $("keybox-why").textContent = why ? t("console", "key-refused-because", {why})
      : t("console", key(code) ? "key-refused" : "no-key");
    if (field.parentElement !== box) box.append(field);
  } else if (field.parentElement === box) {
    root.querySelector(".settings .fields").prepend(field);
  }
}

// What this device knew of the match, for a console opened while the server does not answer.
function save() {
  if (!known.view) return;
  localStorage.setItem(SNAPSHOT, JSON.stringify({view: known.view, log: known.log.slice(-KEPT_ROWS), role, forms}));
}

function restore() {
  const saved = JSON.parse(localStorage.getItem(SNAPSHOT) || "null");
  if (!saved || !saved.forms) return false;
  known.view = saved.view;
  known.log = saved.log;
  role = saved.role;
  forms = saved.forms;
  return true;
}

async function load() {
  let replies;
  try {
    replies = await Promise.all([api("/api/event-types"), api("/api/rules"), api(base, {key: key(code)}),
      api(`${base}/events`, {key: key(code)})]);
  } catch (err) {
    if (!root.classList.contains("ready")) {
      $("link").replaceChildren(el("div", {class: "banner offline"}, t("console", "nothing-kept")));
    }
    setTimeout(load, 2000);
    return;
  }
  const [formsReply, rulesReply, viewReply, logReply] = replies;
  if (denied(viewReply)) {
    askKey(refusal(viewReply.data));
    return;
  }
  forms = formsReply.data;
  rules = rulesReply.data;
  known.merge(logReply.data);
  known.seen(null, viewReply.data);
  save();
  await learnRole();
  begin();
}

// The seat: asked for where this device has not heard yet (taken if no one holds it), else kept.
async function heard() {
  if (!key(code) || keyRefused) return;
  const reply = await seat.sit(seat.mine === null ? "open" : "heard");
  if (!reply && outbox.items.length) outbox.link = "down";  // what waits is held, unsent: the seat's ask found no server
  render();
  outbox.pump();
}

async function take() {
  if (await takeSeat(seat)) notice = null;
  render();
  outbox.pump();
}

// A console without the seat sends what it held as it was logged: the server rules on each at its own time.
function sendHeld() {
  seat.release();
  render();
  outbox.pump();
}

// ...or hands it to the official's review, which lists it in time order to log as it was.
async function handHeld() {
  const held = outbox.events;
  const reply = await seat.sit("heard", held);
  if (reply && reply.status === 200) {
    outbox.discardAll();
    notice = t("seat", "handed", {events: held.map(describeEvent).join("; ")});
  } else {
    notice = t("seat", "not-handed");
  }
  render();
}

// Once the match is known (from the server, or as this device last knew it): follow it live, send what waits.
function begin() {
  if (root.classList.contains("ready")) {
    buildButtons();
    buildQuick();
    render();
    outbox.pump();
    return;
  }
  buildButtons();
  buildQuick();
  listen(code, known.view.seq, key(code), {
    onAppend: (event, match) => { known.seen(event, match); save(); render(); },
    onOpen: () => { streamUp = everUp = true; clock.measure(); render(); heard(); },
    // A stream that fails before it ever opened is the first answer there is: no server (not "connecting").
    onError: () => { streamUp = false; if (outbox.link === "unknown") outbox.link = "down"; render(); },
  });
  document.addEventListener("keydown", onKey);
  formKeys($("form"), {onSend: sendForm, onCancel: closeForm});
  $("download-receipts").addEventListener("click", downloadReceipts);
  document.addEventListener("pointerdown", wake, {once: true});
  // another tab of this console changed the outbox
  window.addEventListener("storage", (e) => { if (e.key === outbox.name) render(); });
  window.addEventListener("resize", () => {
    fitText($("score"), SCORE_SMALLEST_PX);
    document.querySelectorAll("#quick .goal").forEach((button) => fitText(button, GOAL_SMALLEST_PX));
  });
  window.addEventListener("offline", () => { seat.lost(); render(); });
  window.addEventListener("online", () => { render(); heard(); });
  onLang(() => { render(); renderForm(true); });
  if (!key(code)) $("key").focus();
  setInterval(everyTenth, 100);
  setInterval(heard, HEARD_EVERY_MS);
  heard();
  setInterval(() => clock.measure(), CLOCK_EVERY_MS);
  root.classList.add("ready");
  render();
  outbox.pump();
  // Not needed to score, so not in the first load: it checks the log's latest checkpoint as it starts.
  logWatch ??= import("./logalarm.mjs").then(({logAlarm}) => logAlarm($("log-alarm"), code));
}

function seeCheckpoint(note) {
  logWatch?.then((see) => see(note));
}

takeKeyFromLink(code);
keyLinks(code);
settings();
if (restore()) begin();
load();
