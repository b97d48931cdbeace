// The record keeper's desk: the draw, the schedule and a result kept on paper, each with the league key;
// the page is rendered again after each, as the server derives the standings and brackets.

import {api, reason} from "./http.mjs";
import {t} from "./catalog.mjs";
import {el, submitOnce} from "./dom.mjs";
import {restoreTyped} from "./lang.mjs";
import {askForLeagueKey, heldLeagueKey, keepLeagueKey} from "./leaguekey.mjs";

const root = document.getElementById("tournament");
const base = `/api/tournaments/${encodeURIComponent(root.dataset.slug)}`;
// Each change is made from the tournament's version this page shows: where another desk has changed it since,
// the server refuses the change (409) in words that say so, rather than one desk's change overwrite the other's.
const at = (path) => `${base}${path}?${new URLSearchParams({expected_version: root.dataset.version})}`;
const message = document.getElementById("desk-message");
const keyInput = document.getElementById("desk-key");
keyInput.value = heldLeagueKey();
// The discipline ledger is the league's record: its link carries the key the desk holds.
const ledgerLink = () => {
  document.querySelector("[data-league-link]").href = `/discipline?key=${encodeURIComponent(keyInput.value)}`;
};
ledgerLink();
const keepKey = () => { keepLeagueKey(keyInput.value); ledgerLink(); };
keyInput.addEventListener("change", keepKey);
// Enter in the key's field keeps the key, and the page: it is not sent anywhere.
document.getElementById("league-key").addEventListener("submit", (e) => { e.preventDefault(); keepKey(); });

function done(reply, ok) {
  if (reply.status >= 200 && reply.status < 300) {
    sessionStorage.setItem("matchstate:desk-done", ok);
    window.location.reload();
  } else {
    message.textContent = reason(reply.data);
    askForLeagueKey(reply.status, keyInput);
  }
}

// A form whose fixture picker has nothing to offer says why in place of its fields (tournament.css): an empty
// picker said nothing, and its button did nothing.
const FIXTURE_FORMS = ["schedule-form", "open-form", "import-form"].map((id) => document.getElementById(id));
function sayWhenNoFixture() {
  for (const form of FIXTURE_FORMS) {
    const none = form.elements.fixture.options.length === 0;
    form.querySelector(".no-fixture").hidden = !none;
    form.toggleAttribute("data-no-fixture", none);
  }
}
sayWhenNoFixture();

function onSubmit(id, act) {
  submitOnce(document.getElementById(id), async (e) => {
    keepLeagueKey(keyInput.value);
    await act(new FormData(e.target));
  });
}

onSubmit("draw-form", async (form) => {
  const body = {format: form.get("format"), seed: form.get("seed"), groups: Number(form.get("groups")) || 1};
  done(await api(at("/draw"), {method: "POST", body, key: keyInput.value}), "drawn");
});

// The schedule's fields show what the fixture chosen has: a change of its time alone keeps its field.
const scheduleForm = document.getElementById("schedule-form");
const shown = () => {
  const chosen = scheduleForm.elements.fixture.selectedOptions[0];
  for (const name of ["day", "time", "field"]) scheduleForm.elements[name].value = chosen ? chosen.dataset[name] : "";
};
scheduleForm.elements.fixture.addEventListener("change", shown);
shown();

onSubmit("schedule-form", async (form) => {
  const body = {day: form.get("day"), time: form.get("time"), field: form.get("field")};
  const fixture = encodeURIComponent(form.get("fixture"));
  done(await api(at(`/fixtures/${fixture}/schedule`), {method: "PUT", body, key: keyInput.value}), "scheduled");
});

// A fixture's match is opened in place, not after a reload: its keys are shown only in this answer.
onSubmit("open-form", async (form) => {
  const fixture = form.get("fixture");
  const reply = await api(at(`/fixtures/${encodeURIComponent(fixture)}/match`), {method: "POST", key: keyInput.value});
  if (reply.status !== 201) {
    message.textContent = reason(reply.data);
    return;
  }
  const {code, scorer_key: scorer, official_key: official, console: consolePath, version} = reply.data;
  root.dataset.version = version;  // the page's own change: the next is made from it
  const review = `/matches/${encodeURIComponent(code)}/review`;
  document.getElementById("opened").replaceChildren(el("div", {class: "keys"},
    el("p", {}, t("tournament", "opened-keys", {code})),
    el("dl", {}, el("dt", {}, t("records", "scorer-key")), el("dd", {}, el("code", {class: "scorer-key"}, scorer)),
      el("dt", {}, t("records", "official-key")), el("dd", {}, el("code", {class: "official-key"}, official))),
    el("p", {class: "links"},
      el("a", {href: `${consolePath}#key=${encodeURIComponent(scorer)}`}, t("records", "open-console")), " ",
      el("a", {href: `${review}#key=${encodeURIComponent(official)}`}, t("records", "open-review")))));
  for (const select of document.querySelectorAll("#open-form select, #import-form select")) {
    select.querySelector(`option[value="${CSS.escape(fixture)}"]`)?.remove();  // it has its match now
  }
  sayWhenNoFixture();
  message.textContent = "";
});

// A result kept on paper must be the match the tournament plays (its teams' rosters, its conditions, its name):
// its first line, the match.start, is the desk's to give. It takes the log's first line, or goes before the rest.
const importForm = document.getElementById("import-form");
// A result kept on paper was played at the fixture's kickoff, where it is scheduled and past (its day and time are
// the venue's, this desk's): its match.start stamped then, not now, so that the events after it are not in the
// future (the server refuses an event more than two minutes ahead of its clock).
function playedAt(option) {
  if (!option || !option.dataset.day) return null;
  const kickoff = new Date(`${option.dataset.day}T${option.dataset.time || "00:00"}`);
  return kickoff < Date.now() ? kickoff.toISOString() : null;
}

document.getElementById("paper-start").addEventListener("click", async () => {
  keepLeagueKey(keyInput.value);
  const fixture = new FormData(importForm).get("fixture");
  if (!fixture) return;  // no fixture can take a result: the form offers none
  const reply = await api(`${base}/fixtures/${encodeURIComponent(fixture)}/start`, {key: keyInput.value});
  if (reply.status !== 200) {
    message.textContent = reason(reply.data);
    askForLeagueKey(reply.status, keyInput);
    return;
  }
  const log = importForm.elements.log;
  const lines = log.value.split("\n").filter((line) => line.trim());
  const begun = /"match\.start"/.test(lines[0] ?? "") ? lines.slice(1) : lines;
  log.value = [JSON.stringify({...reply.data, at: playedAt(importForm.elements.fixture.selectedOptions[0])
    ?? reply.data.at}), ...begun].join("\n") + (begun.length ? "" : "\n");
  log.focus();
  log.setSelectionRange(log.value.length, log.value.length);
  message.textContent = "";
});

onSubmit("import-form", async (form) => {
  const fixture = encodeURIComponent(form.get("fixture"));
  const response = await fetch(at(`/fixtures/${fixture}/import`), {
    method: "POST", body: form.get("log"),
    headers: {"Content-Type": "application/jsonl", Authorization: `Bearer ${keyInput.value}`, Accept: "application/json"},
  });
  done({status: response.status, data: await response.json()}, "entered");
});

for (const id of ["draw-form", "schedule-form", "open-form", "import-form"]) restoreTyped(id);

const last = sessionStorage.getItem("matchstate:desk-done");
if (last) {
  sessionStorage.removeItem("matchstate:desk-done");
  message.textContent = t("tournament", `done-${last}`);
}
