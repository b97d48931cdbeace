// The tournaments' page: every tournament, and the form that creates one with the league key, its teams and
// their players entered as the desk will draw them; created, the record keeper goes on at its desk.

import {api, reason} from "./http.mjs";
import {t} from "./catalog.mjs";
import {el, submitOnce} from "./dom.mjs";
import {restoreTyped} from "./lang.mjs";
import {askForLeagueKey, heldLeagueKey, keepLeagueKey} from "./leaguekey.mjs";

const PLAYERS = [1, 2, 3, 4];
const FIRST_TEAMS = 2;
const SLUG_MOST = 60;  // an address short enough to read aloud and type

const form = document.getElementById("new-tournament");
const teams = document.getElementById("teams");
const message = document.getElementById("desk-message");
const keyInput = document.getElementById("desk-key");
keyInput.value = heldLeagueKey();
keyInput.addEventListener("change", () => keepLeagueKey(keyInput.value));  // the desk opened next has it already

/** A team's fields: its name, and each player's name and handicap (USPA's run from -2 to 10). */
function addTeam() {
  const n = teams.children.length + 1;
  const team = el("fieldset", {class: "team-entry"},
    el("legend", {}, t("tournament", "team-n", {n})),
    el("label", {}, t("tournament", "team-name"), el("input", {name: "team", class: "team-name"})),
    ...PLAYERS.map((player) => el("div", {class: "player-entry"},
      el("label", {}, t("tournament", "player-n", {n: player}), el("input", {name: `player-${player}`})),
      el("label", {}, t("tournament", "handicap-of", {n: player}),
        el("input", {name: `handicap-${player}`, type: "number", min: "-2", max: "10", step: "1", value: "0"})))));
  teams.append(team);
  return team;
}

/** What is typed in a team's field ``name`` ("team", "player-2", ...). */
const typed = (team, name) => team.querySelector(`[name="${name}"]`).value.trim();

/** The teams as the API takes them: a team whose name is left empty is not entered, nor a player unnamed. */
function enteredTeams() {
  return [...teams.children].map((team) => ({name: typed(team, "team"),
    roster: PLAYERS.filter((player) => typed(team, `player-${player}`)).map((player) => ({
      player, name: typed(team, `player-${player}`), handicap: Number(typed(team, `handicap-${player}`) || 0)}))}))
    .filter((team) => team.name);
}

/** The address a tournament's name suggests: "Copa Días de Otoño 2026" gives "copa-dias-de-otono-2026". */
function suggestedSlug(name) {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, SLUG_MOST).replace(/-+$/, "");
}

// The address follows the name until the record keeper types one of their own.
const slugInput = form.elements.slug;
form.elements.name.addEventListener("input", () => {
  if (!slugInput.dataset.typed) slugInput.value = suggestedSlug(form.elements.name.value);
});
slugInput.addEventListener("input", () => { slugInput.dataset.typed = slugInput.value ? "1" : ""; });
// An end before the start is refused: the date picker offers none.
form.elements.starts.addEventListener("change", () => { form.elements.ends.min = form.elements.starts.value; });

for (let i = 0; i < FIRST_TEAMS; i += 1) addTeam();
restoreTyped(form.id, (entries) => {  // the teams added before the language changed, made again to be filled
  const teamsTyped = entries.filter(([name]) => name === "team").length;
  while (teams.children.length < teamsTyped) addTeam();
});
document.getElementById("add-team").addEventListener("click", () => addTeam().querySelector("input").focus());

/** The number of the first team whose players are named and whose name is not (0: none): it was left out, and
 * its players with it, without a word. */
function unnamedTeam() {
  return [...teams.children].findIndex((team) => !typed(team, "team")
    && PLAYERS.some((player) => typed(team, `player-${player}`))) + 1;
}

submitOnce(form, async () => {
  keepLeagueKey(keyInput.value);
  const unnamed = unnamedTeam();
  if (unnamed) {
    message.textContent = t("tournament", "team-nameless", {n: unnamed});
    teams.children[unnamed - 1].querySelector('[name="team"]').focus();
    return;
  }
  const fields = new FormData(form);
  const body = {slug: fields.get("slug").trim(), name: fields.get("name").trim(), starts: fields.get("starts"),
    ends: fields.get("ends"), venue: fields.get("venue").trim(), conditions: {chukkers: Number(fields.get("chukkers"))},
    teams: enteredTeams()};
  let reply;
  try {
    reply = await api("/api/tournaments", {method: "POST", body, key: keyInput.value});
  } catch (err) {  // no answer: whether it was made is not known; made, a second try is refused as a duplicate
    message.textContent = t("tournament", "unanswered");
    return;
  }
  if (reply.status === 201) {
    sessionStorage.setItem("matchstate:desk-done", "created");  // said by the desk it opens
    window.location.assign(`/tournaments/${encodeURIComponent(reply.data.slug)}/desk`);
  } else {
    message.textContent = reason(reply.data);  // nothing is created: the form keeps all that was typed
    askForLeagueKey(reply.status, keyInput);
  }
});
