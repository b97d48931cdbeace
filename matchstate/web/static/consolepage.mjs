// The scorer's console as a page: the match as the server last told it and what waits in the outbox, shown
// and kept in step. A button for every event type, always in the same place (disabled where the engine
// accepts none now, buttons.mjs), a quick form for the fields, the chukker clock with its bell and horn, the
// 20 seconds counted down and expired by themselves, and the outbox, which keeps each event until the server
// records it or the scorer decides its fate (attention.mjs). Offline, it shows the events waiting with the
// score, free hit and clock they imply (provisional). Every receipt the server signs is kept on the device.
// Nothing runs on import: console.mjs starts the page.

import {deviceId, newEvent} from "./events.mjs";
import {$, el} from "./dom.mjs";
import {api, denied} from "./http.mjs";
import {key, keyLinks, readKey, setKey, takeKeyFromLink} from "./keys.mjs";
import {lang, onLang} from "./lang.mjs";
import {has, t} from "./catalog.mjs";
import {refusal} from "./refusal.mjs";
import {matchPage, listen, tracker} from "./live.mjs";
import {score} from "./show.mjs";
import {describeEvent, describeFreeHit, label, stateName} from "./words.mjs";
import {discardQuestion, question, relogQuestion} from "./asks.mjs";
import {OwnEvents, secondsLeft, tickDue, windowPlay} from "./countdown.mjs";
import {defaults, filled, focusFirst, formContent, formKeys, missing, showMissing, showUnfit, unfit} from "./quickform.mjs";
import {earlier, notBefore, pageClock} from "./clock.mjs";
import {Outbox} from "./outbox.mjs";
import {beep, wake} from "./cue.mjs";
import {fold} from "./fold.mjs";
import {Cues, foldClock, reading} from "./chukker.mjs";
import {Receipts} from "./receipts.mjs";
import {ask} from "./dialog.mjs";
import {fitText} from "./fit.mjs";
import {reviewLine} from "./reviewline.mjs";
import {HEARD_EVERY_MS, Seat, handedWaiting, thisDevice} from "./seat.mjs";
import {seatLine, takeSeat} from "./seatview.mjs";
import {awardEvents, awardFields, gridBy, isAward, sentBy, usualPlayer} from "./taps.mjs";
import {CHUKKER_EDGES, buttonLabel, buttonTypes, enabledType, prefilled, shortcutType} from "./buttons.mjs";
import {buildEventButtons, buildQuickRow, fitQuickGoals, nameEventButtons, showQuickRow} from "./buttonrows.mjs";
import {lastUndoable, undoForm, undoLabel, undoQuestion} from "./undo.mjs";
import {recentList} from "./recentlist.mjs";
import {showChukkerClock, showCountdown} from "./clockboxes.mjs";
import {rulingPanel} from "./rulingpanel.mjs";
import {answering, linkBanner} from "./banner.mjs";
import {offlineCopy} from "./offlinecopy.mjs";
import {attention} from "./attention.mjs";

const GUARD_MS = 600;           // a second tap this soon on the same button is taken as the same tap, and ignored
const CLOCK_EVERY_MS = 10 * 60 * 1000;
const KEPT_ROWS = 60;           // recorded events kept on this device for a console opened offline
const KEPT_RULES = "matchstate:rules";  // Rule 36's clauses, as the server last gave them
const SCORE_SMALLEST_PX = 15;   // the score is made no smaller than this to fit its line; it wraps instead

// Focus the button at ``from`` among ``buttons``, or where it is disabled the next one enabled after it; where none
// is, the ruling (the match ended, say): never the page's start, where a keyboard would begin again.
function focusEnabled(buttons, from) {
  ([...buttons.slice(from), ...buttons.slice(0, from)].find((button) => !button.disabled) || $("ruling")).focus();
}

export class ConsolePage {
  /** The console of the match whose page element is ``root`` (its ``data-code``). */
  constructor(root) {
    const {code, base} = matchPage(root);
    this.root = root;
    this.code = code;
    this.base = base;
    this.snapshotName = `matchstate:console:${code}`;
    this.clock = pageClock();
    this.receipts = new Receipts(localStorage, `matchstate:receipts:${code}`);
    this.own = new OwnEvents(sessionStorage, `matchstate:own:${code}`);  // what this tab logged: its "Play"s are its to time
    this.cues = new Cues();         // the bell and the horn, each once per chukker
    this.known = tracker();         // the match as the server last told it, and the stored events seen
    this.logWatch = null;           // the league log's watch (logalarm.mjs): loaded once the console is ready
    this.forms = null;              // each event type's fields, from the API
    this.rules = {};                // Rule 36's clauses by id, for the cites
    this.role = null;               // the role the key holds, "scorer" or "official", as the server says
    // The event types only an official logs, from the page itself: a console that has never reached /role (opened
    // offline from its snapshot, or cut between its first answers) offers none of them to a key not yet known.
    this.officialOnly = root.dataset.officialOnly.split(" ");
    this.streamUp = false;          // the live stream is open
    this.everUp = false;            // it has been, since the page opened
    this.notice = null;             // what the scorer should know of the last thing done: its words, made in the
                                    // language shown when drawn
    this.form = null;               // the quick form open: {type, values, at, ...}
    this.shownForm = null;          // the form as last built: rebuilt only when it changes
    this.guarded = null;            // the last tap's guard: {until, button, wide} (see guard)
    this.guardTimer = null;
    this.tickedFor = null;          // the "Play" whose 20 seconds the console has expired itself
    this.catchingUp = false;
    this.returnTo = null;           // the button whose form is open: the focus goes back to it
    this.keyRefused = false;        // the server refuses the key held
    this.gone = false;              // the server no longer holds the match (removed), as its seat last said
    // The match's scoring seat: only the console that holds it logs the automatic clock check.
    this.seat = new Seat({storage: localStorage, code, device: thisDevice().device,
      put: (asked, handed = []) => api(`${base}/seat`, {method: "PUT", key: key(code),
        body: {device: this.seat.device, label: this.seatLabel(), ask: asked, handed}})});
    this.outbox = new Outbox({
      storage: localStorage,
      name: `matchstate:outbox:${code}`,
      send: (body, otherKey) => api(`${base}/events`, {method: "POST", body, key: otherKey || key(code),
        headers: this.seat.headers(body.event)}),
      // A key the server refuses holds no seat: what waits is sent, so that its refusal is shown and held. A match
      // removed holds what waits here, unsent, as its banner says.
      holding: () => this.gone || (!this.keyRefused && this.seat.holds(this.outbox.items.length)),
      lastKnownAt: () => this.known.lastAt(),
      movedOn: (basis) => {
        const ours = new Set(this.outbox.events.map((event) => event.id));  // one of them recorded, its answer lost
        const others = this.known.log.some((row) => row.seq > basis && !ours.has(row.device_id));
        return others ? this.known.view.seq : null;
      },
      onRecorded: (data) => {
        this.own.add(data.event.device_id);
        this.receipts.add(data.receipt);
        this.logWatch?.then((see) => see(data.checkpoint));
        this.known.seen(data.event, data.match);
        this.save();
      },
      onChange: () => { if (this.outbox.conflict) this.catchUp(); this.render(); },
    });
  }

  /** Open the console: from what this device kept, at once, and from the server as soon as it answers. */
  start() {
    takeKeyFromLink(this.code);
    keyLinks(this.code);
    this.settings();
    if (this.restore()) this.begin();
    this.load();
  }

  // -- where the match stands --------------------------------------------------------------

  // The match as the console shows it: the server's view, with what waits in the outbox folded in
  // (``timing``: the chukker clock, to be read at an instant).
  shown() {
    const view = this.known.view;
    const waiting = this.outbox.events;
    const folded = fold(view, waiting);
    const none = t("console", (folded.state ?? view.state) === "choosing" ? "umpire-chooses" : "no-free-hit");
    let text;
    if (!folded.provisional) text = view.free_hit_text ? view.free_hit_text[lang()] : none;
    else if (folded.free_hit) text = describeFreeHit(folded.free_hit);
    else text = folded.sure ? none : t("console", "free-hit-on-arrival");
    return {...view, ...folded, text, timing: foldClock(view.clock, waiting)};
  }

  // The last event's time this device knows of: no event is stamped before it.
  floor() {
    const waiting = this.outbox.events;
    const last = this.known.lastAt();
    const queued = waiting.length ? waiting[waiting.length - 1].at : null;
    if (!queued) return last;
    return !last || earlier(last, queued) ? queued : last;
  }

  online() {
    return answering(this.outbox, {onLine: navigator.onLine, streamUp: this.streamUp});
  }

  enabled(type) {
    return enabledType(type, {role: this.role, officialOnly: this.officialOnly, waiting: this.outbox.items.length > 0, online: this.online(),
      accepted: this.known.view.accepted});
  }

  lastUndoable() {
    return lastUndoable(this.known.log, this.known.view, this.role);
  }

  // The player who usually takes this free hit (see taps.mjs), from the standing events known.
  usual(freeHit) {
    return usualPlayer(this.known.log.filter((row) => !this.known.view.void.includes(row.seq)),
      freeHit.to, freeHit.penalty === "knockin");
  }

  // -- logging -----------------------------------------------------------------------------

  // A tap, or a shortcut (``keyed``: a key held down repeats, and is ignored, so the guard is the pointer's).
  tap(type, keyed = false) {
    if (!keyed && this.ignored(type, type)) return;
    if (!this.enabled(type)) return;
    wake();
    this.open(type);
    this.guard(type, Boolean(this.form));  // a form opened over the buttons: any tap under the finger is guarded
  }

  // A tap on the quick row: "Play", a clean hit by a player, a goal for a team, each one tap, logged with
  // what the match makes likely (asked first where a slip is likely, as any event).
  quickTap(type, fields) {
    const button = `${type} ${JSON.stringify(fields)}`;
    if (this.ignored(type, button) || !this.enabled(type)) return;
    // The quick row's places are fixed, so another tap is meant; unless it closes a form under the finger.
    this.guard(button, Boolean(this.form));
    wake();
    this.notice = null;
    const at = this.clock.stamp(this.floor());
    if (this.form) this.closeForm();  // the quick row is the usual case: a form left open was not meant
    this.log(type, fields, at);
  }

  // A tap inside the guard is taken as the one before, and said, so that a dropped tap is never a mystery: a
  // second tap on the same button, or any tap just after a form opened or closed under the finger. A tap on
  // another button is meant. Timed by the page's steady clock: a device clock set back stops no tap.
  ignored(type, button) {
    const guarded = this.guarded;
    if (!guarded || performance.now() >= guarded.until || (!guarded.wide && guarded.button !== button)) return false;
    this.notice = () => t("console", guarded.wide ? "tap-too-soon" : "tap-ignored", {event: label(type)});
    this.render();
    return true;
  }

  // Guard taps for a moment after one on ``button``: its double tap, or (``wide``: a form opened or closed, so
  // another button now lies under the finger) any tap. The rows are marked while it lasts (a test waits on it).
  guard(button, wide) {
    this.guarded = {until: performance.now() + GUARD_MS, button, wide};
    clearTimeout(this.guardTimer);
    $("buttons").classList.add("guarded");
    $("quick").classList.add("guarded");
    this.guardTimer = setTimeout(() => ["buttons", "quick"].forEach((id) => $(id).classList.remove("guarded")), GUARD_MS);
  }

  open(type) {
    this.notice = null;
    this.returnTo = type;
    const at = this.clock.stamp(this.floor());  // the moment of the tap, not of the "Log" after the form
    if (type === "void") {
      this.openUndo(at);
      return;
    }
    const fields = this.fieldsOf(type, at);
    const values = {...defaults(fields), ...prefilled(type, this.shown(), at, (freeHit) => this.usual(freeHit))};
    if (!fields.length || CHUKKER_EDGES.has(type)) {  // a chukker's edge: its number is the one its button names
      this.form = null;
      this.log(type, filled(fields, values), at);
      return;
    }
    this.form = {type, fields, values, at, sendBy: sentBy(type), grid: gridBy(type)};
    this.render();
    focusFirst($("form"));
  }

  openUndo(at) {
    this.form = undoForm(this.outbox.events, this.lastUndoable(), at);
    if (!this.form) this.notice = () => t("console", this.role === "official" ? "nothing-to-undo" : "nothing-to-undo-scorer");
    this.render();
    if (this.form) focusFirst($("form"));
  }

  // Undo any past event of the list, after one question that names it: logged as a void of it.
  async undoRow(row) {
    const {action} = await ask(undoQuestion(row));
    if (action !== "confirm" || !(await this.seated("void"))) return;
    this.record("void", {seq: row.seq, reason: t("console", "void-reason")}, this.clock.stamp(this.floor()));
  }

  // The form closes (logged, or cancelled): the focus goes back to the button that opened it.
  closeForm() {
    this.form = null;
    this.render();
    this.focusButton(this.returnTo);
  }

  // Focus an event's button, or where it is disabled the next one enabled after it (the free hit's course).
  focusButton(type) {
    const buttons = [...$("buttons").children];
    focusEnabled(buttons, Math.max(0, buttons.findIndex((button) => button.dataset.type === type)));
  }

  // A type's fields as its form asks them: an award's with the card's player and the whistle (the clock at
  // the tap says whether it runs), the rest as the log format gives them.
  fieldsOf(type, at) {
    const fields = this.forms[type] || [];
    return isAward(type) ? awardFields(type, fields, reading(this.shown().timing, Date.parse(at)).running) : fields;
  }

  sendForm() {
    const form = this.form;
    if (!form) return;
    if (form.takeBack) {
      const taken = form.takeBack;
      const back = this.outbox.takeBack(taken.id);
      this.notice = () => (back ? t("console", "taken-back", {event: describeEvent(taken)})
        : t("console", "on-its-way", {event: label(taken.type)}));
      this.closeForm();
      return;
    }
    const fields = form.fields || this.forms[form.type];
    const lacking = missing(fields, form.values);
    if (lacking.length) {
      showMissing($("form"), lacking);  // nothing is lost: the form stays as it was, with what is missing
      return;
    }
    const wrong = unfit(fields, form.values, {fieldLength: this.known.view.start.field_length});
    if (wrong.length) {
      showUnfit($("form"), wrong);  // as a missing field: the form stays, and nothing is logged, the whistle neither
      return;
    }
    const {type, values, at} = form;
    this.guard(type, true);  // the form closes: the buttons come back under the finger that tapped "Log"
    this.closeForm();
    if (!isAward(type)) {
      this.log(type, filled(fields, values), at, [], [], form);
      return;
    }
    const logged = awardEvents(type, filled(fields, values), this.known.view.teams);
    const main = logged.findIndex(([kind]) => kind === type);
    this.log(type, logged[main][1], at, logged.slice(0, main), logged.slice(main + 1), form);
  }

  // Log an event, asking first where a slip is likely; ``before`` and ``after`` ([type, fields] each) are
  // logged with it, at its time (an award's whistle and card), or not at all if it is not.
  async log(type, fields, at, before = [], after = [], form = null) {
    if (!(await this.seated(type))) {
      if (form) {  // the form sent is open again as it was: what was filled in is not lost
        this.form = form;
        this.render();
        focusFirst($("form"));
      }
      return;
    }
    const now = this.shown();
    const asked = question(type, fields, {...now, ...reading(now.timing, Date.parse(at))});
    const all = () => [...before, [type, fields], ...after].forEach(([kind, values]) => this.record(kind, values, at));
    if (!asked) {
      all();
      return;
    }
    this.render();
    const {action} = await ask(asked);
    if (action === "play-first") {
      this.record("play", {}, at);
      all();
    } else if (action === "anyway" || action === "confirm") {
      all();
    }
    this.render();
    // The answer gave the focus back to where it was before the question, which the event may have disabled (the
    // match ended, say).
    if (!document.activeElement || document.activeElement === document.body) this.focusButton(type);
  }

  // Whether to log ``type`` here: a console that watches would hold it unsent, so the scorer takes the seat first,
  // or logs nothing. Offline (the seat as last heard), or where the seat cannot be taken (no server), it is logged
  // and held, as anything logged offline.
  async seated(type) {
    if (this.seat.mine !== false || this.seat.stale || this.seat.released) return true;
    const taken = await takeSeat(this.seat, label(type));
    this.render();
    return taken !== null;
  }

  record(type, fields, at, timer = null) {
    const event = newEvent(type, fields, notBefore(at, this.floor()));
    this.own.add(event.id);
    if (timer !== null) this.seat.timed(event.id, timer);  // the seat's timer, seconds after the window opened
    this.outbox.add(event, this.known.view.seq);
    this.save();
    this.render();
    this.outbox.pump();
  }

  // -- what waits for the scorer (the attention panel's actions) ----------------------------

  // The match moved on while events waited: learn what it moved on by, to show it and time against it.
  async catchUp() {
    if (this.catchingUp) return;
    this.catchingUp = true;
    try {
      const after = this.known.log.length ? this.known.log[this.known.log.length - 1].seq : 0;
      const [viewReply, logReply] = await Promise.all([api(this.base, {key: key(this.code)}),
        api(`${this.base}/events?after_seq=${after}`, {key: key(this.code)})]);
      if (logReply.status === 200) this.known.merge(logReply.data);
      if (viewReply.status === 200) this.known.seen(null, viewReply.data);
      this.save();
    } catch (err) {
      // the server went away again: the conflict waits, and is shown with what is known
    } finally {
      this.catchingUp = false;
      this.render();
    }
  }

  async relog() {
    const plan = this.outbox.relogPlan(this.clock.stamp(this.known.lastAt()), deviceId());
    const {action} = await ask(relogQuestion(plan));
    if (action !== "confirm") return;
    const conflict = this.outbox.conflict;
    if (conflict) this.outbox.sendAfter(conflict.current_seq);
    try {
      this.outbox.relog(plan);
      this.notice = null;
    } catch (err) {
      this.notice = () => t("console", "relog-changed");
    }
    this.render();
    this.outbox.pump();
  }

  async discard(events, drop) {
    const {action} = await ask(discardQuestion(events));
    if (action !== "confirm") return;
    drop();
    this.notice = () => t("console", "discarded", {events: events.map(describeEvent).join("; ")});
    this.render();
    this.focusOnwards();  // a redraw while the question was open may have taken its button already
    this.outbox.pump();
  }

  // Where the panel the keyboard answered has gone (a discard confirmed), and the focus fell to the page's start:
  // on to what still needs the scorer, else to what was done.
  focusOnwards() {
    if (document.activeElement && document.activeElement !== document.body) return;
    ($("attention").querySelector("button") || $("ruling")).focus();
  }

  async handOver(item) {
    const {action, value} = await ask({
      title: t("console", "hand-over-title"),
      text: t("console", "hand-over-text", {event: describeEvent(item.event)}),
      input: {label: t("console", "official-key"), type: "password"},
      actions: [{id: "confirm", label: t("console", "hand-over-confirm"), primary: true},
        {id: "cancel", label: t("form", "cancel")}],
    });
    if (action !== "confirm" || !value) return;
    const reply = await this.outbox.handOver(item.event.id, value);
    this.notice = reply && (reply.status === 200 || reply.status === 201)
      ? () => t("console", "recorded-by-official", {seq: reply.data.seq, event: describeEvent(item.event)}) : null;
    this.render();
    this.outbox.pump();
  }

  // -- the seat ------------------------------------------------------------------------------

  // Asked for where this device has not heard yet (taken if no one holds it), else kept.
  async heard() {
    if (!key(this.code) || this.keyRefused) return;
    const reply = await this.seat.sit(this.seat.mine === null ? "open" : "heard");
    if (!reply && this.outbox.items.length) this.outbox.link = "down";  // what waits is held, unsent: no server
    if (reply && denied(reply)) this.keyRefused = true;  // revoked since: the key's field asks for the new one
    if (reply) this.gone = reply.status === 404;  // removed: said, where its stream would say only "offline"
    this.render();
    this.outbox.pump();
  }

  async take() {
    if (await takeSeat(this.seat)) this.notice = null;
    this.render();
    this.outbox.pump();
  }

  // A console without the seat sends what it held as it was logged: the server rules on each at its own time.
  sendHeld() {
    this.seat.release();
    this.render();
    this.outbox.pump();
  }

  // ...or hands it to the official's review, which lists it in time order to log as it was.
  async handHeld() {
    const held = this.outbox.events;
    const reply = await this.seat.sit("heard", held);
    if (reply && reply.status === 200) {
      this.outbox.discardAll();
      this.notice = () => t("seat", "handed", {events: held.map(describeEvent).join("; ")});
    } else {
      this.notice = () => t("seat", "not-handed");
    }
    this.render();
  }

  // -- showing -----------------------------------------------------------------------------

  status() {
    const {kind, text, seeBelow} = linkBanner(this.outbox,
      {everUp: this.everUp, online: this.online(), keeping: offlineCopy.state === "keeping",
        seatless: this.seat.lacks(this.outbox.items.length), gone: this.gone,
        handed: handedWaiting(this.seat.handed, this.known.log).length});
    return el("div", {class: kind ? `banner ${kind}` : "banner"}, text,
      ...(seeBelow ? [" ", el("a", {href: "#attention"}, t("console", "see-below"))] : []));
  }

  // The officials' review in progress (log format 1.2): until its outcome the engine takes only what a review
  // allows, so the buttons it refuses are disabled, and this says why.
  reviewInProgress() {
    if (!(this.known.view.officials || {}).review) return [];
    return [el("p", {class: "review-open"}, t("console-review", "open", {review: reviewLine(this.known)}))];
  }

  // The defending team's violations that wait for the free hit to close (the engine rules on them then).
  waitingFouls() {
    return (this.known.view.waiting || []).map((foul) => el("p", {class: "waiting-foul"}, t("console", "waiting", {
      violation: (has("reason", foul.code) ? t("reason", foul.code, {against: foul.team}) : `${foul.team}: ${foul.code}`)
        + (foul.prevented_goal ? t("ruling", "goal_prevented") : ""),
    })));
  }

  // The chukker clock and the 20 seconds, read again from the match's clock at each render.
  renderClocks(now) {
    const {known} = this;
    const nowMs = this.clock.now();
    showChukkerClock($("chukker-clock"), now.timing, nowMs, {known, waiting: this.outbox.events, cues: this.cues});
    showCountdown($("countdown"), secondsLeft(now, nowMs, known.view.window_seconds), known.view.window_seconds,
      {seated: this.seat.mine, times: this.timesWindow(now)});
  }

  // Whether this tab times the window that runs: it logged its "Play". Another console left open knows nothing
  // of a stroke this one holds offline, so it never logs the clock check that would rule the time run out.
  timesWindow(now) {
    const play = windowPlay(now, this.known.log, this.outbox.events);
    return this.seat.mine === true && play !== null && this.own.has(play.id);
  }

  // The 20 seconds ran out with no stroke: log the clock check at once, so the engine rules now. Not while a
  // form is open: the event being entered was tapped earlier, and goes first.
  expire(now) {
    if (this.form || document.querySelector("dialog[open]") || this.tickedFor === now.play_at || !this.timesWindow(now)
      || !tickDue(now, this.clock.now(), this.known.view.window_seconds)) return;
    this.tickedFor = now.play_at;
    beep();
    this.notice = () => t("console", "ticked");
    const at = this.clock.stamp(this.floor());
    this.record("tick", {}, at, (Date.parse(at) - Date.parse(now.play_at)) / 1000);
  }

  everyTenth() {
    if (!this.known.view) return;
    const now = this.shown();
    this.renderClocks(now);
    this.expire(now);
  }

  // The form is rebuilt only when it changes: a render for the outbox or the live stream must not take
  // the input from under the scorer's finger.
  renderForm(force = false) {
    const box = $("form");
    const form = this.form;
    if (form === this.shownForm && !force) return;
    this.shownForm = form;
    box.hidden = !form;
    if (!form) {
      box.replaceChildren();
      return;
    }
    const fields = form.takeBack ? [] : form.fields || this.forms[form.type];
    box.replaceChildren(...formContent(form, fields, {view: this.known.view, lang: lang(), freeHit: this.shown().free_hit,
      official: this.role === "official", onSend: () => this.sendForm(), onCancel: () => this.closeForm()}));
  }

  buildButtons() {
    if (buildEventButtons($("buttons"), buttonTypes(this.forms), (type) => this.tap(type))) this.nameButtons();
  }

  // The buttons' words, in the language chosen; the undo's names what it would take back, a chukker's start
  // or end the number its one tap logs ("Chukker 3 start").
  nameButtons(now = this.shown()) {
    const at = this.clock.stamp(this.floor());
    const undo = undoLabel(this.outbox.events, this.lastUndoable());
    nameEventButtons($("buttons"), (type) => buttonLabel(type, now, at, undo));
  }

  render() {
    const {known} = this;
    if (!known.view || !this.forms) return;
    document.title = `${t("console", "title")} · ${this.code}`;
    const now = this.shown();
    const left = secondsLeft(now, this.clock.now(), known.view.window_seconds);
    $("score").textContent = score(known.view.teams, now.score);
    $("state").textContent = stateName(now.state);
    $("provisional").hidden = !now.provisional;
    fitText($("score"), SCORE_SMALLEST_PX);  // after the pills beside it, which take their width first
    $("freehit").textContent = now.text;
    $("waiting").replaceChildren(...this.reviewInProgress(), ...this.waitingFouls());
    $("link").replaceChildren(this.status());
    $("seat").replaceChildren(...seatLine(this.seat, () => this.take()));
    this.renderKeyBox();
    $("ruling").replaceChildren(...rulingPanel(known.view, known.log, this.rules, this.notice && this.notice(),
      this.outbox.events));
    const focused = document.activeElement;
    for (const button of $("buttons").children) {
      button.disabled = !this.enabled(button.dataset.type);
      button.classList.toggle("primary", button.dataset.type === "tick" && left !== null && left <= 0);
    }
    this.nameButtons(now);
    // A button the keyboard was on that the engine no longer accepts: the focus goes on to the next.
    if (focused && focused.disabled && focused.parentElement === $("buttons")) this.focusButton(focused.dataset.type);
    $("choosing").hidden = !(now.state === "choosing" && this.role !== "official");
    const needs = attention(this).filter(Boolean);
    const answered = $("attention").contains(document.activeElement);  // a panel's button, which it may take away
    $("attention").hidden = !needs.length;
    $("attention").replaceChildren(...needs);
    if (answered) this.focusOnwards();
    $("recent").replaceChildren(...recentList(this.outbox.items, now, known, this.role, (row) => this.undoRow(row)));
    const quick = [...$("quick").children];
    const onQuick = quick.indexOf(document.activeElement);
    showQuickRow($("quick"), {enabled: (type) => this.enabled(type), hitting: now.free_hit ? now.free_hit.to : null,
      player: now.free_hit ? this.usual(now.free_hit) : null});
    if (onQuick >= 0 && quick[onQuick].disabled) focusEnabled(quick, onQuick);  // a tap that closed its own button
    this.renderForm();
    this.renderClocks(now);
    this.renderReceipt();
  }

  // The last receipt, discreetly: its seq, and its entry in the league log (or the key that signed it, before the log).
  renderReceipt() {
    const last = this.receipts.last;
    const index = last?.proof?.match(/^index (\d+)$/m)?.[1];
    $("receipt").textContent = !last ? t("console", "no-receipt")
      : last.proof ? t("log-watch", "receipt", {seq: last.seq, index}) : t("console", "receipt", {seq: last.seq, key: last.key});
    $("download-receipts").disabled = !last;
  }

  // Every receipt kept for this match, as JSON Lines: what `matchstate verify --receipts FILE` reads.
  downloadReceipts() {
    const link = el("a", {href: URL.createObjectURL(new Blob([this.receipts.jsonLines()], {type: "application/jsonl"})),
      download: `receipts-${this.code}.jsonl`});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  // -- keys, loading, following ----------------------------------------------------------------

  // The shortcuts, outside the form (whose keys are its own, see quickform.mjs) and any field.
  onKey(e) {
    if (document.querySelector("dialog[open]") || e.target.closest("#form, input, textarea")
      || e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.form && e.key === "Escape") {
      this.closeForm();
      return;
    }
    const type = shortcutType(e.key, this.forms);
    if (type) {
      e.preventDefault();
      if (!e.repeat) this.tap(type, true);
    }
  }

  settings() {
    const keyInput = $("key");
    keyInput.value = key(this.code);
    keyInput.addEventListener("change", async () => {
      setKey(this.code, keyInput.value.trim());
      keyLinks(this.code);
      if (!this.known.view) {
        this.load();
        return;
      }
      this.renderKeyBox();
      await this.learnRole();
      // The seat first: where another console took it meanwhile, what the old key had refused waits for the scorer.
      await this.heard();
      const held = this.outbox.held;
      if (held && denied(held.refused)) this.outbox.retry(held.event.id);
      this.outbox.pump();
    });
    const byInput = $("by");
    byInput.value = localStorage.getItem("matchstate:by") || "";
    byInput.addEventListener("change", () => {
      localStorage.setItem("matchstate:by", byInput.value.trim());
      this.heard();  // the seat's label names the scorer: another console sees the new name at once
    });
  }

  // What this device is to another console: its kind, its browser and the scorer's name, as given now.
  seatLabel() {
    return thisDevice().label;
  }

  // What the key may do here; kept as it was while the server does not answer.
  async learnRole() {
    if (!key(this.code)) {
      this.role = null;
    } else {
      const reply = await api(`${this.base}/role`, {key: key(this.code)}).catch(() => null);
      if (reply) {
        this.role = reply.status === 200 ? reply.data.role : null;
      }
      this.keyRefused = Boolean(reply && denied(reply));
    }
    this.root.dataset.role = this.role ?? "";  // asked: what the key may do is known, or as it was kept
    this.save();
    this.render();
  }

  // A private server's match needs a key even to be read: ask for it; setting it loads the match.
  askKey(why) {
    this.keyRefused = true;
    this.renderKeyBox(why);
    $("key").focus();
  }

  // With no key held, or one the server refuses, the key's field is at the top, open, with why: nothing
  // logged could be recorded. Once a key is taken, it goes back under "Key and name".
  renderKeyBox(why = null) {
    const box = $("keybox");
    const field = $("key").closest("label");
    const wanted = !key(this.code) || this.keyRefused;
    box.hidden = !wanted;
    if (wanted) {
      $("keybox-why").textContent = why ? t("console", "key-refused-because", {why})
        : t("console", key(this.code) ? "key-refused" : "no-key");
      if (field.parentElement !== box) box.append(field);
    } else if (field.parentElement === box) {
      this.root.querySelector(".settings .fields").prepend(field);
    }
  }

  // What this device knew of the match, for a console opened while the server does not answer.
  save() {
    const {known} = this;
    if (!known.view) return;
    localStorage.setItem(this.snapshotName,
      JSON.stringify({view: known.view, log: known.log.slice(-KEPT_ROWS), role: this.role, forms: this.forms}));
  }

  restore() {
    const saved = JSON.parse(localStorage.getItem(this.snapshotName) || "null");
    if (!saved || !saved.forms) return false;
    this.known.view = saved.view;
    this.known.log = saved.log;
    this.role = saved.role;
    this.root.dataset.role = this.role ?? "";
    this.forms = saved.forms;
    this.rules = JSON.parse(localStorage.getItem(KEPT_RULES) || "{}");  // the cites' titles, opened offline too
    return true;
  }

  async load() {
    const {base, code} = this;
    let replies;
    try {
      replies = await Promise.all([api("/api/event-types"), api("/api/rules"), api(base, {key: readKey(code)}),
        api(`${base}/events`, {key: readKey(code)})]);
    } catch (err) {
      if (!this.root.classList.contains("ready")) {
        $("link").replaceChildren(el("div", {class: "banner offline"}, t("console", "nothing-kept")));
      }
      setTimeout(() => this.load(), 2000);
      return;
    }
    const [formsReply, rulesReply, viewReply, logReply] = replies;
    if (denied(viewReply)) {
      this.askKey(refusal(viewReply.data));
      return;
    }
    this.forms = formsReply.data;
    this.rules = rulesReply.data;
    localStorage.setItem(KEPT_RULES, JSON.stringify(this.rules));  // one copy for every match's console
    this.known.merge(logReply.data);
    this.known.seen(null, viewReply.data);
    this.save();
    this.begin();
    // Not waited for: on a weak signal it is a round trip more (2 s on Slow 3G), and until it comes the console is
    // as this device kept it, or the scorer's, the least a key may do; an official's own buttons come on with it.
    this.learnRole();
  }

  // Once the match is known (from the server, or as this device last knew it): follow it live, send what waits.
  begin() {
    this.buildButtons();
    buildQuickRow($("quick"), this.known.view.teams, (type, fields) => this.quickTap(type, fields));
    const first = !this.root.classList.contains("ready");
    if (first) this.follow();
    this.render();
    if (first && !key(this.code)) $("key").focus();  // once render has put the key's field at the top
    this.outbox.pump();
  }

  // The first time the match is known: the live stream, the keys, the timers, and the league log's watch.
  follow() {
    const {code, known} = this;
    listen(code, known.view.seq, key(code), {
      onAppend: (event, match) => { known.seen(event, match); this.save(); this.render(); },
      onOpen: () => { this.streamUp = this.everUp = true; this.clock.measure(); this.render(); this.heard(); },
      // A stream that fails before it ever opened is the first answer there is: no server (not "connecting").
      onError: () => {
        this.streamUp = false;
        if (this.outbox.link === "unknown") this.outbox.link = "down";
        this.render();
      },
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    formKeys($("form"), {onSend: () => this.sendForm(), onCancel: () => this.closeForm()});
    $("download-receipts").addEventListener("click", () => this.downloadReceipts());
    document.addEventListener("pointerdown", wake, {once: true});
    // another tab of this console changed the outbox
    window.addEventListener("storage", (e) => { if (e.key === this.outbox.name) this.render(); });
    window.addEventListener("resize", () => {
      fitText($("score"), SCORE_SMALLEST_PX);
      fitQuickGoals($("quick"));
    });
    window.addEventListener("offline", () => { this.seat.lost(); this.render(); });
    window.addEventListener("online", () => { this.render(); this.heard(); });
    offlineCopy.addEventListener("change", () => this.render());
    onLang(() => { this.render(); this.renderForm(true); });
    setInterval(() => this.everyTenth(), 100);
    setInterval(() => this.heard(), HEARD_EVERY_MS);
    this.heard();
    setInterval(() => this.clock.measure(), CLOCK_EVERY_MS);
    this.root.classList.add("ready");
    // Not needed to score, so not in the first load: it checks the log's latest checkpoint as it starts.
    this.logWatch ??= import("./logalarm.mjs").then(({logAlarm}) => logAlarm($("log-alarm"), code));
  }
}
