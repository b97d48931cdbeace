// The scorer's console: one button per event type the engine accepts now, a quick form for the fields,
// and an outbox in localStorage that sends each event until the server acknowledges it.
"use strict";

(() => {
  const {el, $} = MS;
  const {root, code, base} = MS.matchPage("console");
  const OUTBOX = `matchstate:outbox:${code}`;

  const LABELS = {
    "chukker.start": "Chukker start", "chukker.end": "Chukker end", "penalty.award": "Penalty",
    "knockin.award": "Knock-in", "ball.place": "Ball placed", "play": "Play", "dribble": "Dribble",
    "approach.abort": "Approach aborted", "ball.retee": "Re-tee", "hit": "Hit", "ball.stop": "Ball stopped",
    "ball.out": "Ball out", "goal": "Goal", "position.improper": "Improper position",
    "player.return": "Player returned", "player.play": "Early play", "card": "Card", "decide": "Decide",
    "whistle": "Whistle", "void": "Undo last", "tick": "Clock check",
  };
  const label = (type) => LABELS[type] || type;
  const SHORTCUTS = {
    "penalty.award": "a", "knockin.award": "k", "ball.place": "b", "play": "p", "hit": "h", "goal": "g",
    "ball.stop": "s", "ball.out": "o", "dribble": "d", "approach.abort": "x", "ball.retee": "r",
    "position.improper": "i", "player.return": "n", "player.play": "y", "card": "c", "decide": "e",
    "whistle": "w", "void": "u", "tick": "t", "chukker.start": "[", "chukker.end": "]",
  };

  const known = MS.tracker(); // the match as the server last told it, and the stored events seen
  let forms = {};           // each event type's fields, from the API
  let rules = {};           // Rule 36's clauses by id, for the cites
  let role = null;          // the role the key holds, "scorer" or "official", as the server says; null: unknown
  let notice = null;        // why the last event was not recorded, or there was nothing to undo
  let outbox = JSON.parse(localStorage.getItem(OUTBOX) || "[]");
  let online = true;
  let held = null;          // why the outbox waits for the scorer: {conflict: seq} or {key: message}
  let pumping = false;
  let form = null;          // the quick form open: {type, values}

  const saveOutbox = () => localStorage.setItem(OUTBOX, JSON.stringify(outbox));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // -- logging and sending ------------------------------------------------------------------

  function record(type, fields) {
    const event = MS.newEvent(type, fields);
    outbox.push({event, expected_seq: (known.view ? known.view.seq : 0) + outbox.length});
    saveOutbox();
    form = null;
    render();
    pump();
  }

  // Send the outbox in order, each event until the server answers; a lost answer is safe to retry
  // because the server records one event per device id.
  async function pump() {
    if (pumping) return;
    pumping = true;
    let delay = 250;
    while (outbox.length && !held) {
      const item = outbox[0];
      let reply;
      try {
        reply = await MS.api(`${base}/events`, {method: "POST", body: item, code});
      } catch (err) {
        reply = null;
      }
      if (!reply || reply.status >= 500) {
        setOnline(false);
        await sleep(delay);
        delay = Math.min(delay * 2, 2000);
        continue;
      }
      setOnline(true);
      delay = 250;
      if (reply.status === 200 || reply.status === 201) {
        outbox.shift();
        saveOutbox();
        known.seen(reply.data.event, reply.data.match);
        notice = null;
      } else if (reply.status === 409 && reply.data.current_seq !== undefined) {
        held = {conflict: reply.data.current_seq};
      } else if (reply.status === 401 || reply.status === 403) {
        held = {key: MS.reason(reply.data)};
      } else {
        dropFirst();
        notice = `Refused: ${label(item.event.type)}: ${MS.reason(reply.data)}`;
      }
      render();
    }
    pumping = false;
    render();
  }

  // The first queued event is not to be recorded (refused, or dropped by the scorer): the ones after it move up one.
  function dropFirst() {
    outbox.shift();
    outbox.forEach((queued) => { queued.expected_seq -= 1; });
    saveOutbox();
  }

  // A key refused for the first queued event: a wrong key is fixed below, but an event this key may
  // never record (an official's) would hold the queue for good, so the scorer may drop it.
  function discardHeld() {
    notice = `Discarded: ${label(outbox[0].event.type)} (${held.key})`;
    dropFirst();
    held = null;
    render();
    pump();
  }

  function setOnline(value) {
    if (online !== value) {
      online = value;
      render();
    }
  }

  function resolveHold(send) {
    if (held && held.conflict !== undefined) {
      if (send) outbox.forEach((queued, i) => { queued.expected_seq = held.conflict + i; });
      else outbox = [];
      saveOutbox();
    }
    held = null;
    render();
    pump();
  }

  // -- the quick forms -----------------------------------------------------------------------

  function shownTypes() {
    const types = !known.view || !online ? Object.keys(forms).filter((type) => type !== "match.start")
      : known.view.accepted;
    return role === "official" ? types : types.filter((type) => type !== "decide");  // only an official decides
  }

  // The last standing event this key may void: an official's any; a scorer's only the scorer's own.
  function lastUndoable() {
    const standing = known.log.filter((row) => row.type !== "void" && row.type !== "match.start"
      && !known.view.void.includes(row.seq) && (role === "official" || row.role === "scorer"));
    return standing.length ? standing[standing.length - 1] : null;
  }

  function open(type) {
    const fields = forms[type] || [];
    if (!fields.length) return record(type, {});
    const values = {};
    for (const field of fields) {
      if (field.default !== null && typeof field.default !== "object") values[field.name] = field.default;
    }
    if (type === "void") {
      const last = lastUndoable();
      if (!last) {
        notice = role === "official" ? "Nothing to undo." : "Nothing to undo: no standing event was recorded by the scorer (an official voids the others, in the review).";
        form = null;
        render();
        return;
      }
      values.seq = last.seq;
      values.reason = "logged in error";
    }
    form = {type, values};
    render();
  }

  function send() {
    const missing = forms[form.type].filter((f) => f.required && (form.values[f.name] ?? "") === "");
    if (missing.length) {
      $("form").querySelector(".missing").textContent = "Still needed: " + missing.map((f) => f.name).join(", ");
      return;
    }
    const fields = {};
    for (const [name, value] of Object.entries(form.values)) {
      if (value !== null && value !== "") fields[name] = value;
    }
    record(form.type, fields);
  }

  function choices(field) {
    if (form.type === "decide") {
      return known.view.options.map((option, i) => [i + 1, `${i + 1}. ${option.outcome[MS.lang()]}`]);
    }
    if (field.kind === "team") return (known.view ? known.view.teams : []).map((team) => [team, team]);
    if (field.kind === "player") return [1, 2, 3, 4].map((n) => [n, String(n)]);
    if (field.kind === "flag") return [[false, "no"], [true, "yes"]];
    if (field.kind === "choice") return field.choices.map((choice) => [choice, choice]);
    return null;
  }

  function control(field) {
    const options = choices(field);
    if (options) {
      return el("div", {class: "choices", dataset: {field: field.name}},
        options.map(([value, label]) => el("button", {
          type: "button", class: form.values[field.name] === value ? "choice on" : "choice",
          dataset: {value: String(value)},
          onclick: () => {
            const again = form.values[field.name] === value && !field.required && field.default === null;
            form.values[field.name] = again ? null : value;
            render();
          },
        }, label)));
    }
    const numeric = ["yards", "count", "number"].includes(field.kind);
    return el("input", {
      type: numeric ? "number" : "text", inputmode: numeric ? "decimal" : null, dataset: {field: field.name},
      value: form.values[field.name] ?? "",
      oninput: (e) => { form.values[field.name] = numeric && e.target.value !== "" ? Number(e.target.value) : e.target.value; },
    });
  }

  function renderForm() {
    const box = $("form");
    box.hidden = !form;
    box.replaceChildren();
    if (!form) return;
    box.append(el("h2", {}, label(form.type)));
    for (const field of forms[form.type]) {
      box.append(el("label", {class: "field"},
        el("span", {class: "name"}, field.name.replaceAll("_", " "), field.required ? " *" : ""), control(field)));
    }
    box.append(el("p", {class: "missing"}),
      el("div", {class: "actions"},
        el("button", {type: "button", id: "send", class: "big primary", onclick: send}, `Log ${label(form.type)}`),
        el("button", {type: "button", class: "big", onclick: () => { form = null; render(); }}, "Cancel")));
  }

  // -- showing -------------------------------------------------------------------------------

  function countdownFrom() {
    const last = outbox.length ? outbox[outbox.length - 1].event : null;
    if (last) return last.type === "play" ? last.at : null;
    return known.view && known.view.state === "play_called" && known.view.timed ? known.view.play_at : null;
  }

  function tickCountdown() {
    const box = $("countdown");
    const from = countdownFrom();
    box.hidden = !from;
    if (!from) return;
    const windowSeconds = known.view ? known.view.window_seconds : 20;
    const left = windowSeconds - (Date.now() - Date.parse(from)) / 1000;
    box.classList.toggle("late", left <= 0);
    box.classList.toggle("hurry", left > 0 && left <= 5);
    box.querySelector(".seconds").textContent = left > 0 ? left.toFixed(1) : "0.0";
    box.querySelector(".note").textContent = left > 0 ? "seconds to hit" : "20 seconds are up: log a clock check";
    box.querySelector(".bar i").style.width = `${Math.max(0, left / windowSeconds) * 100}%`;
    const tick = $("buttons").querySelector('[data-type="tick"]');
    if (tick) tick.classList.toggle("primary", left <= 0);
  }

  // The latest ruling that stands, with its rule; under it, what was recorded last, or refused.
  function rulingPanel() {
    const lang = MS.lang();
    const ruled = known.log.filter((row) => row.ruling && !known.view.void.includes(row.seq)).pop();
    const parts = [];
    if (ruled) {
      parts.push(el("p", {class: "what"}, `#${ruled.seq} ${label(ruled.type)}`),
        el("p", {class: "text"}, ruled.ruling.text[lang]),
        ...ruled.ruling.cite.map((id) => el("details", {class: "cite"},
          el("summary", {}, rules[id] ? `${id} · ${rules[id].heading[lang]}` : id),
          rules[id] ? el("p", {}, rules[id].text[lang]) : null)));
    } else {
      parts.push(el("p", {class: "quiet"}, "Rulings appear here as soon as the server gives them."));
    }
    if (notice) {
      parts.push(el("p", {class: "refused"}, notice));
    } else if (known.log.length && known.log[known.log.length - 1] !== ruled) {
      const last = known.log[known.log.length - 1];
      parts.push(el("p", {class: "quiet"}, `Last recorded: #${last.seq} ${label(last.type)}, no ruling`));
    }
    return parts;
  }

  function status() {
    if (held && held.conflict !== undefined) {
      return el("div", {class: "banner warn"},
        `The match moved on to #${held.conflict} while ${outbox.length} event(s) waited here. `,
        el("button", {type: "button", onclick: () => resolveHold(true)}, "Send them after it"),
        el("button", {type: "button", onclick: () => resolveHold(false)}, "Discard them"));
    }
    if (held) {
      return el("div", {class: "banner warn"},
        `${label(outbox[0].event.type)} not recorded: ${held.key}. Enter the scorer key below, or `,
        el("button", {type: "button", class: "discard", onclick: discardHeld}, "Discard it"));
    }
    if (!online) return el("div", {class: "banner offline"}, `Offline: ${outbox.length} event(s) kept on this device, sent when the server answers. All event types shown; the engine rules on arrival.`);
    if (outbox.length) return el("div", {class: "banner"}, `Sending ${outbox.length}…`);
    return el("div", {class: "banner ok"}, "Online: every event recorded.");
  }

  function render() {
    if (!known.view) return;
    MS.showNow(known.view);
    $("link").replaceChildren(status());
    $("ruling").replaceChildren(...rulingPanel());
    renderForm();
    $("buttons").replaceChildren(...shownTypes().map((type) => el("button", {
      type: "button", class: "big event", dataset: {type},
      title: SHORTCUTS[type] ? `key: ${SHORTCUTS[type]}` : null, onclick: () => open(type),
    }, label(type), SHORTCUTS[type] ? el("kbd", {}, SHORTCUTS[type]) : null)));
    if (known.view.state === "choosing" && role !== "official") {
      $("buttons").append(el("p", {class: "quiet"}, "The Umpire must choose: an official decides, in the review."));
    }
    $("recent").replaceChildren(...known.log.slice(-6).reverse().map((row) =>
      MS.eventItem(row, {class: known.view.void.includes(row.seq) ? "struck" : null})));
    tickCountdown();
  }

  function onKey(e) {
    if (e.target.matches("input, textarea") || e.ctrlKey || e.metaKey || e.altKey) {
      if (form && e.key === "Enter") send();
      return;
    }
    if (form && e.key === "Escape") { form = null; render(); return; }
    if (form && e.key === "Enter") { e.preventDefault(); send(); return; }
    const type = Object.keys(SHORTCUTS).find((t) => SHORTCUTS[t] === e.key);
    if (type && shownTypes().includes(type)) { e.preventDefault(); open(type); }
  }

  function settings() {
    const keyInput = $("key");
    keyInput.value = MS.key(code);
    keyInput.addEventListener("change", () => {
      MS.setKey(code, keyInput.value.trim());
      MS.keyLinks(code);
      if (!known.view) {
        load();
      } else {
        learnRole();
        resolveHold(true);
      }
    });
    const byInput = $("by");
    byInput.value = localStorage.getItem("matchstate:by") || "";
    byInput.addEventListener("change", () => localStorage.setItem("matchstate:by", byInput.value.trim()));
  }

  // What the key may do here; kept as it was while the server does not answer.
  async function learnRole() {
    if (!MS.key(code)) {
      role = null;
    } else {
      const reply = await MS.api(`${base}/role`, {code}).catch(() => null);
      if (reply) role = reply.status === 200 ? reply.data.role : null;
    }
    render();
  }

  // A private server's match needs a key even to be read: ask for it; setting it loads the match.
  function askKey(why) {
    $("link").replaceChildren(el("div", {class: "banner warn"}, `${why}: enter the match's key below.`));
    root.querySelector(".settings").open = true;
    $("key").focus();
  }

  async function load() {
    const [formsReply, rulesReply, viewReply, logReply] = await Promise.all([
      MS.api("/api/event-types"), MS.api("/api/rules"), MS.api(base, {code}), MS.api(`${base}/events`, {code})]);
    if (MS.denied(viewReply)) return askKey(MS.reason(viewReply.data));
    forms = formsReply.data;
    rules = rulesReply.data;
    known.view = viewReply.data;
    known.log = logReply.data;
    await learnRole();
    begin();
  }

  // Once the match is read: follow it live, send what waits, take keys.
  function begin() {
    MS.listen(code, known.view.seq, {
      onAppend: (event, match) => { known.seen(event, match); render(); },
      onOpen: () => { setOnline(true); pump(); },
      onError: () => setOnline(false),
    });
    pump();
    document.addEventListener("keydown", onKey);
    MS.onLang(render);
    setInterval(tickCountdown, 100);
    root.classList.add("ready");
  }

  function start() {
    MS.takeKeyFromLink(code);
    MS.keyLinks(code);
    settings();
    load();
  }

  start();
})();
