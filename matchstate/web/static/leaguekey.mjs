// The league key a league page holds: the one typed at a desk this session, else the one the records page remembers
// on this device ("Remember it on this device"), which the desk had not reused.

export const LEAGUE_KEY = "matchstate:league-key";

/** The league key this page starts with ("": none held). */
export function heldLeagueKey() {
  return sessionStorage.getItem(LEAGUE_KEY) || localStorage.getItem(LEAGUE_KEY) || "";
}

/** Keep ``key`` for the league pages opened next in this session. */
export function keepLeagueKey(key) {
  sessionStorage.setItem(LEAGUE_KEY, key);
}

/** After a refusal for want of the league key (401, 403), the focus goes to its field, ``input``: it stayed where
 * the form was, or on the page itself. */
export function askForLeagueKey(status, input) {
  if (status === 401 || status === 403) input.focus();
}
