// The provisional fold: where the match stands once the events waiting in the outbox are counted, as
// far as this device can tell without the engine. It follows a free hit's plain course (award, place,
// "Play", a timely stroke, a goal, the ball out) and the goals; where the engine would rule (a failure,
// a violation, a void, a choice) it stops guessing: the state becomes unknown ("sure" false) and only
// goals are still counted. The server's ruling replaces all of it as each event is recorded. Every number
// of the rules it uses (the fixed spots, the free hits the 20 seconds bind, how long they are, the yellow
// card's goal) is the match's rule set's, as the server gives it in the view; a view without them (a
// console's snapshot kept from before) leaves nothing sure but the goals.

/**
 * @param {object} view  the match as the server last gave it (GET /api/matches/{code})
 * @param {object[]} events  the events logged since, in order, not yet recorded
 * @returns {{state: string|null, score: object, free_hit: object|null, play_at: string|null, timed: boolean,
 *            sure: boolean, awaiting_play: boolean|null, provisional: boolean, rows: object[]}}
 *   ``awaiting_play``: a free hit awaits "Play" (true), has had it (false), or none awaits its stroke (null);
 *   ``rows``: the same, after each event, by the event's id.
 */
export function fold(view, events) {
  const given = view.free_hit_rules;
  const rules = given && typeof view.window_seconds === "number" ? {
    teams: view.teams,
    fixed: given.fixed,
    timed: new Set(given.timed),
    yellowCardGoal: new Set(given.yellow_card_goal),
    windowMs: view.window_seconds * 1000,
  } : null;
  let now = {
    state: view.state, score: {...view.score}, free_hit: view.free_hit, play_at: view.play_at,
    timed: Boolean(view.timed), sure: rules !== null, awaiting_play: awaitingPlay(view.state),
    waiting: (view.waiting || []).length > 0,
  };
  const rows = [];
  for (const event of events) {
    now = step(now, event, rules);
    rows.push({id: event.id, ...now, score: {...now.score}});
  }
  return {...now, provisional: events.length > 0, rows};
}

function awaitingPlay(state) {
  if (state === "awarded" || state === "placed") return true;
  return state === "play_called" ? false : null;
}

// The free hit a penalty or knock-in awards: from its fixed spot where the rules fix one (a Penalty 2 from
// the centre is "2c"), else from where the award says (a Penalty 5.a, a Penalty 2 from the spot).
function freeHitOf(event, rules) {
  const from = event.penalty === "2" ? event.from || "center" : null;
  const name = event.type === "knockin.award" ? "knockin" : from === "center" ? "2c" : event.penalty;
  if (from !== "spot" && rules.fixed[name]) return {...rules.fixed[name], to: event.to};
  return {penalty: event.penalty, to: event.to, yards_to_goal: event.yards_to_goal, from, defended: true};
}

// A free hit given: awaiting its placing, its 20 seconds as the rules bind it, no violation waiting on it yet.
function awarded(freeHit, rules) {
  return {state: "awarded", free_hit: freeHit, play_at: null, timed: rules.timed.has(freeHit.penalty), waiting: false};
}

// What may end a free hit in play: with a defending-team violation waiting on it, the engine's to rule.
const ENDS_IT = new Set(["goal", "ball.out", "whistle", "chukker.end", "ball.stop"]);

function other(rules, team) { return rules.teams[0] === team ? rules.teams[1] : rules.teams[0]; }

// One event's effect, or null where the engine would rule (or refuse) and the fold does not guess.
function effect(s, event, rules) {
  const late = () => s.timed && s.play_at !== null && Date.parse(event.at) - Date.parse(s.play_at) > rules.windowMs;
  const close = {state: "idle", free_hit: null, play_at: null, timed: false, waiting: false};
  if (s.state === "choosing") return null;
  if (s.waiting && ENDS_IT.has(event.type)) return null;
  switch (event.type) {
    case "chukker.start":
      return {};
    case "penalty.award":
    case "knockin.award": {
      if (event.penalty === "1" || (rules.yellowCardGoal.has(event.penalty) && event.card === "yellow")) {
        return {...close, goal: event.to};
      }
      return awarded(freeHitOf(event, rules), rules);
    }
    case "ball.place":
      if (s.state !== "awarded" && s.state !== "placed") return null;
      return event.surface_altered || event.dismounted ? null : {state: "placed"};
    case "play":
      if (s.state === "play_called") return {};
      return s.state === "awarded" || s.state === "placed" ? {state: "play_called", play_at: event.at} : null;
    case "hit":
      if (s.state !== "play_called" || late() || event.deliberate || event.contact === "miss") return null;
      return {state: "live"};
    case "goal":
      return {...close, goal: event.team};
    case "ball.out":
      if (s.state === "idle") return {};
      if (s.state !== "live") return null;
      if (event.over !== "backline") return close;
      return awarded(freeHitOf({type: "knockin.award", to: other(rules, s.free_hit.to)}, rules), rules);
    case "ball.stop":
      if (s.state === "idle") return {};
      return s.state === "live" && s.free_hit.defended ? {} : null;
    case "whistle":
    case "chukker.end":
      if (s.state === "idle") return {};
      return s.state === "live" ? close : null;  // before the stroke, what it does is the engine's to say
    case "tick":
      return s.state === "play_called" && late() ? null : {};
    case "card":
      if (event.colour !== "yellow" || !s.free_hit || !rules.yellowCardGoal.has(s.free_hit.penalty)) return {};
      return event.team === s.free_hit.to ? {} : {...close, goal: s.free_hit.to};  // Rule 36: Penalty 1
    case "dribble":
      return s.state === "live" ? {} : null;
    default:  // a failure or violation to judge, a choice, a void: the engine's
      return null;
  }
}

function step(s, event, rules) {
  const next = {...s, score: {...s.score}};
  const change = s.sure ? effect(s, event, rules) : null;
  if (change === null) {
    next.sure = false;
    next.state = null;
    if (event.type === "goal") next.score[event.team] = (next.score[event.team] ?? 0) + 1;
    next.awaiting_play = guessAwaitingPlay(s.awaiting_play, event);
    return next;
  }
  const {goal, ...rest} = change;
  Object.assign(next, rest);
  if (goal !== undefined) next.score[goal] = (next.score[goal] ?? 0) + 1;
  next.awaiting_play = awaitingPlay(next.state);
  return next;
}

// With the state unknown, whether "Play" is awaited is still plain from the events themselves.
function guessAwaitingPlay(before, event) {
  if (event.type === "penalty.award" || event.type === "knockin.award") {
    return event.penalty === "1" ? null : true;
  }
  if (event.type === "play") return false;
  return ["hit", "goal", "ball.out", "whistle", "chukker.end", "void", "decide"].includes(event.type) ? null : before;
}
