"""The match log spec's "Errors": every kind of refusal names its line, and nothing after it is applied.

Each case replays a valid log (with a blank line in it, so line numbers and seqs differ), then the
refused line, then a Penalty 1 that would change the score if it were applied.
"""

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from conftest import Scorer

from matchstate import Match, RefusedEvent
from matchstate.log import replay


def nothing(scorer: Scorer) -> None:
    pass


def play_called(scorer: Scorer) -> None:
    scorer.call_play("2")


def ball_live(scorer: Scorer) -> None:
    scorer.strike("2")


def awarded_5a(scorer: Scorer) -> None:
    scorer.award("5a")


def choosing(scorer: Scorer) -> None:
    """A Penalty 2 with Red improperly positioned, closed by the whistle: the Umpire must choose."""
    scorer.call_play("2")
    scorer.log("position.improper", team="Red")
    scorer.log("hit", player=3, contact="hit")
    scorer.log("whistle")
    assert scorer.match.state == "choosing"


Setup = Callable[[Scorer], None]
Line = Callable[[Scorer], str]  # the refused line, made once the setup has run


def event(kind: str, drop: Sequence[str] = (), dt: float = 1.0, **fields: Any) -> Line:
    """A refused line: this event (dt seconds after the last one), without the fields in ``drop``."""
    def build(scorer: Scorer) -> str:
        obj = scorer.event(kind, dt, **fields)
        for name in drop:
            del obj[name]
        return json.dumps(obj)
    return build


def raw(text: str) -> Line:
    return lambda scorer: text


# Refused while the Umpire chooses: every event but decide, void, tick, card, the clock's and the officials'.
WHILE_CHOOSING: list[tuple[str, dict[str, Any]]] = [
    ("hit", {"player": 3, "contact": "hit"}),
    ("play", {}),
    ("ball.place", {}),
    ("dribble", {}),
    ("penalty.award", {"penalty": "3", "to": "Blue"}),
    ("knockin.award", {"to": "Red"}),
    ("chukker.end", {"chukker": 1}),
    ("chukker.start", {"chukker": 2}),
    ("goal", {"team": "Blue"}),
    ("ball.out", {"over": "backline"}),
    ("ball.stop", {"yards_to_goal": 20}),
    ("position.improper", {"team": "Red"}),
    ("player.return", {"team": "Red", "player": 2, "closest_yards": 5, "on_field": True}),
    ("player.play", {"team": "Red", "player": 2, "passed_teammate": False, "ball_travelled": 5,
                     "passed_midfield": False}),
]

# (id, setup, refused line, words the reason names, match.start fields)
CASES = [
    # not a JSON object
    ("not-json", nothing, raw("{type: hit}"), [], {}),
    ("json-array", nothing, raw('[{"type": "tick"}]'), [], {}),
    ("json-string", nothing, raw('"tick"'), [], {}),
    ("json-number", nothing, raw("42"), [], {}),
    ("json-infinity-literal", play_called,
     event("player.return", team="Red", player=1, closest_yards=float("inf"), on_field=True), [], {}),
    ("json-nan-literal", nothing, raw('{"type": "tick", "at": NaN}'), [], {}),
    # unknown type
    ("unknown-type", nothing, event("penalty.shootout"), ["penalty.shootout"], {}),
    # missing fields
    ("missing-type", nothing, event("tick", drop=["type"]), ["type"], {}),
    ("missing-at", nothing, event("tick", drop=["at"]), ["at"], {}),
    ("missing-contact", play_called, event("hit", player=3), ["contact"], {}),
    ("missing-penalty", nothing, event("penalty.award", to="Blue"), ["penalty"], {}),
    ("missing-over", ball_live, event("ball.out"), ["over"], {}),
    ("missing-closest_yards", play_called, event("player.return", team="Red", player=1, on_field=True),
     ["closest_yards"], {}),
    ("missing-void-seq", ball_live, event("void", reason="typo"), ["seq"], {}),
    # ill-typed fields
    ("player-as-string", play_called, event("hit", player="3", contact="hit"), ["player"], {}),
    ("contact-unknown", play_called, event("hit", player=3, contact="smash"), ["contact"], {}),
    ("penalty-7", nothing, event("penalty.award", penalty="7", to="Blue"), ["penalty"], {}),
    ("flag-as-string", awarded_5a, event("ball.place", surface_altered="yes"), ["surface_altered"], {}),
    ("at-not-a-time", nothing, event("tick", at="yesterday"), [], {}),
    ("at-without-utc-offset", nothing, event("tick", at="2026-11-29T15:00:05"), [], {}),
    ("chukker-0", nothing, event("chukker.start", chukker=0), ["chukker"], {}),
    ("decide-option-as-string", choosing, event("decide", option="1"), ["option"], {}),
    ("decide-option-not-offered", choosing, event("decide", option=3), ["option"], {}),
    ("over-unknown", ball_live, event("ball.out", over="goalpost"), ["over"], {}),
    ("id-too-long", nothing, event("tick", id="x" * 65), ["id"], {}),
    # unknown team
    ("award-to-unknown-team", nothing, event("penalty.award", penalty="3", to="Green"), ["Green"], {}),
    ("goal-by-unknown-team", nothing, event("goal", team="Green"), ["Green"], {}),
    ("card-to-unknown-team", play_called, event("card", team="Green", player=1, colour="yellow"), ["Green"], {}),
    # player outside 1 to 4
    ("hit-by-player-5", play_called, event("hit", player=5, contact="hit"), ["player"], {}),
    ("card-to-player-0", play_called, event("card", team="Red", player=0, colour="red"), ["player"], {}),
    ("return-of-player-7", play_called,
     event("player.return", team="Red", player=7, closest_yards=40, on_field=True), ["player"], {}),
    # `at` earlier than the line before
    ("at-earlier", play_called, event("hit", dt=-0.001, player=3, contact="hit"), [], {}),
    # match.start only first
    ("second-match-start", nothing, event("match.start", match="m-2", teams=["Blue", "Red"]), ["match.start"], {}),
    # makes no sense in the state: a hit or play with no free hit awaiting its stroke
    ("hit-in-idle", nothing, event("hit", player=3, contact="hit"), [], {}),
    ("second-stroke", ball_live, event("hit", player=3, contact="hit"), [], {}),
    ("play-in-idle", nothing, event("play"), [], {}),
    ("play-after-the-stroke", ball_live, event("play"), [], {}),
    # a decide with nothing to choose
    ("decide-in-idle", nothing, event("decide", option=1), [], {}),
    ("decide-in-awarded", awarded_5a, event("decide", option=1), [], {}),
    ("decide-in-live", ball_live, event("decide", option=2), [], {}),
    # a void of a seq that does not exist, or of match.start
    ("void-missing-seq", ball_live, event("void", seq=99, reason="typo"), ["99"], {}),
    ("void-of-itself", ball_live, event("void", seq=6, reason="typo"), [], {}),
    ("void-match-start", ball_live, event("void", seq=1, reason="wrong match"), ["match.start"], {}),
    # Penalty 5.a (and Penalty 2 from the spot) needs yards_to_goal
    ("5a-without-yards", nothing, event("penalty.award", penalty="5a", to="Blue"), ["yards_to_goal"], {}),
    ("2-spot-without-yards", nothing, event("penalty.award", penalty="2", to="Blue", from_="spot"),
     ["yards_to_goal"], {}),
    # yards_to_goal outside (0, field_length)
    ("yards-0", nothing, event("penalty.award", penalty="5a", to="Blue", yards_to_goal=0), ["yards_to_goal"], {}),
    ("yards-negative", nothing, event("penalty.award", penalty="5a", to="Red", yards_to_goal=-5),
     ["yards_to_goal"], {}),
    ("yards-field-length", nothing, event("penalty.award", penalty="5a", to="Blue", yards_to_goal=300),
     ["yards_to_goal"], {}),
    ("yards-beyond-short-field", nothing, event("penalty.award", penalty="2", to="Blue", from_="spot",
                                                yards_to_goal=260), ["yards_to_goal"], {"field_length": 250}),
    ("yards-as-string", nothing, event("penalty.award", penalty="5a", to="Blue", yards_to_goal="100"),
     ["yards_to_goal"], {}),
    ("ball-stop-at-0", ball_live, event("ball.stop", yards_to_goal=0), ["yards_to_goal"], {}),
    ("ball-stop-beyond-field", ball_live, event("ball.stop", yards_to_goal=300.5), ["yards_to_goal"], {}),
    # while choosing, only decide, void, tick, card, the clock's (whistle, clock.stop, clock.start) and the officials'
    *[(f"{kind}-while-choosing", choosing, event(kind, **fields), [], {}) for kind, fields in WHILE_CHOOSING],
]


def cases(*leave_out: str) -> list[Any]:
    return [pytest.param(*case[1:], id=case[0]) for case in CASES if case[0] not in leave_out]


@pytest.mark.parametrize(("setup", "refused", "names", "start"), cases())
def test_refused_line_is_named_and_nothing_after_it_is_applied(start_match: type[Scorer], setup: Setup, refused: Line,
        names: list[str], start: dict[str, Any]) -> None:
    scorer = start_match(**start)
    setup(scorer)
    before = scorer.snapshot()
    bad = refused(scorer)
    penalty_1 = json.dumps(scorer.event("penalty.award", dt=5, penalty="1", to="Blue"))
    first, *rest = scorer.lines()
    lines = [first, "   ", *rest, bad, penalty_1, ""]
    line = len(lines) - 2  # 1-based number of the refused line

    match = Match()
    with pytest.raises(RefusedEvent) as refusal:
        for _ in replay([text + "\n" for text in lines], match):
            pass

    message = str(refusal.value)
    assert message.startswith(f"line {line}: ")
    assert len(message) > len(f"line {line}: ") + 5, "the reason is given"
    for word in names:
        assert word.lower() in message.lower()
    assert {"seq": match.seq, "state": match.state, "score": dict(match.score),
            "free_hit": match.free_hit.to_json() if match.free_hit else None} == before


@pytest.mark.parametrize(("setup", "refused", "names", "start"), cases())
def test_every_refusal_says_its_reason_in_english_and_in_spanish(start_match: type[Scorer], setup: Setup, refused: Line,
        names: list[str], start: dict[str, Any]) -> None:
    """The same reason in each language, the English word for word the message (a page shows its reader's)."""
    scorer = start_match(**start)
    setup(scorer)
    lines = [*scorer.lines(), refused(scorer)]
    with pytest.raises(RefusedEvent) as refusal:
        for _ in replay([text + "\n" for text in lines]):
            pass
    words = refusal.value.worded()
    assert words is not None and words["en"] == str(refusal.value)
    assert words["es"].startswith(f"línea {len(lines)}: ") and words["es"] != words["en"]


@pytest.mark.parametrize(("setup", "refused", "names", "start"),
                         cases("not-json", "json-infinity-literal", "json-nan-literal"))
def test_refused_event_changes_nothing_in_the_match(start_match: type[Scorer], setup: Setup, refused: Line,
        names: list[str], start: dict[str, Any]) -> None:
    scorer = start_match(**start)
    setup(scorer)
    before = scorer.snapshot()
    with pytest.raises(RefusedEvent):
        scorer.match.feed(json.loads(refused(scorer)))
    assert scorer.snapshot() == before
    # and the match goes on from where it was
    scorer.log("tick", dt=5)
    assert scorer.snapshot() == {**before, "seq": before["seq"] + 1}


@pytest.mark.parametrize("first", [
    {"type": "penalty.award", "penalty": "2", "to": "Blue"},
    {"type": "tick"},
    {"type": "void", "seq": 1, "reason": "start again"},
], ids=["penalty.award", "tick", "void"])
def test_first_event_other_than_match_start_is_refused(first: dict[str, Any]) -> None:
    start = {"type": "match.start", "match": "m-1", "teams": ["Blue", "Red"]}
    lines = ["", json.dumps({**first, "at": "2026-11-29T15:00:00Z"}),
             json.dumps({**start, "at": "2026-11-29T15:00:01Z"})]
    match = Match()
    with pytest.raises(RefusedEvent) as refusal:
        list(replay(lines, match))
    assert str(refusal.value).startswith("line 2: ")
    assert "match.start" in str(refusal.value)
    assert match.seq == 0 and match.state == "idle"


@pytest.mark.parametrize("start", [
    {"teams": ["Blue"]},
    {"teams": ["Blue", "Blue"]},
    {"field_length": -10},
    {"field_length": 60},
    {"handicap_goals": {"Green": 2}},
    {"penalty3_defended": "no"},
], ids=["one-team", "same-team-twice", "field-length-negative", "field-too-short-for-penalty-4",
        "handicap-unknown-team", "flag-as-string"])
def test_ill_formed_match_start_is_refused(start: dict[str, Any]) -> None:
    obj = {"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m-1", "teams": ["Blue", "Red"], **start}
    match = Match()
    with pytest.raises(RefusedEvent) as refusal:
        list(replay([json.dumps(obj)], match))
    assert str(refusal.value).startswith("line 1: ")
    assert match.seq == 0


@pytest.mark.parametrize("kind, fields", [("decide", {"option": 2}), ("tick", {}),
                                          ("card", {"team": "Red", "player": 1, "colour": "yellow"}),
                                          ("void", {"seq": 5, "reason": "whistle by mistake"}),
                                          ("whistle", {}), ("clock.stop", {}), ("clock.start", {})])
def test_while_choosing_decide_void_tick_card_and_the_clocks_events_are_accepted(scorer: Scorer, kind: str,
                                                                                 fields: dict[str, Any]) -> None:
    choosing(scorer)
    assert scorer.match.seq == 7
    scorer.log(kind, **fields)
    assert scorer.match.seq == 8
