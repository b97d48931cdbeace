// The provisional fold: where the match stands once the events waiting in the outbox are counted, as
// far as this device can tell without the engine. It follows a free hit's plain course (award, place,
// "Play", a timely stroke, a goal, the ball out) and the goals; where the engine would rule (a failure,
// a violation, a void, a choice) it stops guessing: the state becomes unknown ("sure" false) and only
// goals are still counted. The server's ruling replaces all of it as each event is recorded.

/**
 * @param {object} view  the match as the server last gave it (GET /api/matches/{code})
 * @param {object[]} events  the events logged since, in order, not yet recorded
 * @returns {{state: string|null, score: object, free_hit: object|null, play_at: string|null, timed: boolean,
 *            sure: boolean, awaiting_play: boolean|null, provisional: boolean, rows: object[]}}
 *   ``awaiting_play``: a free hit awaits "Play" (true), has had it (false), or none awaits its stroke (null);
 *   ``rows``: the same, after each event, by the event's id.
 */
export function fold(view, events) {
  const start = view.start || {};
  const rules = {
    teams: view.teams,
    fieldLength: start.field_length ?? 300,
    penalty3Defended: start.penalty3_defended ?? true,
    windowMs: (view.window_seconds ?? 20) * 1000,
  };
  let now = {
    state: view.state, score: {...view.score}, free_hit: view.free_hit, play_at: view.play_at,
    timed: Boolean(view.timed), sure: true, awaiting_play: awaitingPlay(view.state),
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

// The free hit a penalty or knock-in awards, where the log format fixes its spot.
function freeHitOf(event, rules) {
  if (event.type === "knockin.award") {
    return {penalty: "knockin", to: event.to, yards_to_goal: rules.fieldLength, from: null, defended: true};
  }
  const penalty = event.penalty;
  const fixed = {"3": 40, "4": 60, "5b": rules.fieldLength / 2, "6": 60};
  if (penalty === "2") {
    const from = event.from || "center";
    return {penalty, to: event.to, from, yards_to_goal: from === "center" ? 30 : event.yards_to_goal,
      defended: from !== "center"};
  }
  return {penalty, to: event.to, from: null, yards_to_goal: fixed[penalty] ?? event.yards_to_goal,
    defended: penalty === "3" ? rules.penalty3Defended : true};
}

function other(rules, team) { return rules.teams[0] === team ? rules.teams[1] : rules.teams[0]; }

// One event's effect, or null where the engine would rule (or refuse) and the fold does not guess.
function effect(s, event, rules) {
  const late = () => s.timed && s.play_at !== null && Date.parse(event.at) - Date.parse(s.play_at) > rules.windowMs;
  const close = {state: "idle", free_hit: null, play_at: null, timed: false};
  if (s.state === "choosing") return null;
  switch (event.type) {
    case "chukker.start":
      return {};
    case "penalty.award":
    case "knockin.award": {
      if (event.penalty === "1" || (event.penalty === "2" && event.card === "yellow")) {
        return {...close, goal: event.to};
      }
      const freeHit = freeHitOf(event, rules);
      return {state: "awarded", free_hit: freeHit, play_at: null, timed: freeHit.penalty !== "knockin"};
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
      return {state: "awarded", play_at: null, timed: false,
        free_hit: {penalty: "knockin", to: other(rules, s.free_hit.to), yards_to_goal: rules.fieldLength,
          from: null, defended: true}};
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
      if (event.colour !== "yellow" || !s.free_hit || s.free_hit.penalty !== "2") return {};
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
