"""The match log's event types, each a read-only typed value whose annotations carry its fields' checks.

:func:`check_event` turns one decoded JSON object into a normalised event of its type (:data:`Event`, told
apart by ``type``): every field of its type present (defaults filled in) and ``at`` parsed; at run time a
dict, read-only to the type checker. What it refuses raises :class:`~matchstate.errors.RefusedEvent` naming
the field. :data:`FIELDS`, which the forms and the API read, is derived from the types.
"""

from __future__ import annotations

import math
import re
import reprlib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, NoReturn, cast, get_args, get_origin, get_type_hints

from typing_extensions import ReadOnly, TypedDict

from .errors import InvalidEvent, UnknownRules
from .jcs import SAFE_INTEGER
from .rules import find_rules
from .words import Words, joined, phrases

MAX_ID_LENGTH = 64
FIXED_SPOT_LIMIT = 60  # the farthest fixed spot from a goal line: Penalties 4 and 6
MAX_CLIP_LENGTH = 512  # code points

# The log format's codes, each a type that mypy checks and the one place its values are written: the field
# checks, the forms' choices and the records read them from here.
Penalty = Literal["1", "2", "3", "4", "5a", "5b", "6"]
From = Literal["center", "spot"]  # where a Penalty 2 is taken from
Colour = Literal["yellow", "red"]  # a card's
AwardCard = Literal["yellow"]  # the card a penalty award may carry
How = Literal["passed", "circled"]  # how an approach was aborted
Contact = Literal["hit", "mishit", "miss"]
Over = Literal["backline", "sideline"]
Official = Literal["umpire", "referee"]  # who may ask for a review besides a team (log format 1.2)
Outcome = Literal["stands", "overturned", "no-decision"]
PENALTIES: tuple[Penalty, ...] = get_args(Penalty)
OFFICIALS: tuple[Official, ...] = get_args(Official)
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

Checker = Callable[[Any, "Context"], Any]


class Context:
    """What a field check needs to know of its match: the teams and the field."""

    __slots__ = ("field_length", "teams")

    def __init__(self, teams: Sequence[str] = (), field_length: float = 300) -> None:
        self.teams = tuple(teams)
        self.field_length = field_length


class _Required:
    def __repr__(self) -> str:
        return "required"


REQUIRED: Any = _Required()
# Bounds that no real event comes near, so that a number or a seq always fits a column and a float.
MAX_NUMBER = 1_000_000
MAX_COUNT = 2**31 - 1


_QUOTE = reprlib.Repr()  # a refusal quotes a value short, however long or deep it is
_QUOTE.maxlevel, _QUOTE.maxstring, _QUOTE.maxother, _QUOTE.maxlist, _QUOTE.maxdict = 4, 80, 80, 12, 12


class Unfit(ValueError):
    """What a field's check says of a value it refuses, in every language (``words``)."""

    def __init__(self, words: Words) -> None:
        super().__init__(words["en"])
        self.words = words


def _fail(what: str, value: object, **fields: object) -> NoReturn:
    """Refuse ``value``: it must be the catalog's [must] ``what``."""
    raise Unfit(phrases("refusal", "must", what=phrases("must", what, **fields), value=_QUOTE.repr(value)))


def text(value: object, _: Context) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail("text", value)
    if "\x00" in value:
        _fail("no-nul", value)
    return value


def short_text(value: object, context: Context) -> str:
    value = text(value, context)
    if len(value) > MAX_ID_LENGTH:
        _fail("short", value[:MAX_ID_LENGTH] + "…", most=MAX_ID_LENGTH)
    return value


def flag(value: object, _: Context) -> bool:
    if not isinstance(value, bool):
        _fail("flag", value)
    return value


def number(value: object, _: Context) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -MAX_NUMBER <= value <= MAX_NUMBER:
        # NaN fails every comparison, and so do infinities and numbers too large to be yards or goals
        _fail("number", _shown(value), least=-MAX_NUMBER, most=MAX_NUMBER)
    return value


def _fail_officials(what: str, value: object, **fields: object) -> NoReturn:
    """Refuse ``value`` of a field of log format 1.2: it must be the catalog's [must-officials] ``what``."""
    raise Unfit(phrases("refusal", "must", what=phrases("must-officials", what, **fields), value=_QUOTE.repr(value)))


def _shown(value: object) -> object:
    """A value as a refusal quotes it: a number too long to read is cut."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"a number of {len(str(abs(value)))} digits"
    return value


def distance(value: object, context: Context) -> float:
    yards = number(value, context)
    if yards < 0:
        _fail("distance", value)
    return yards


def field_length(value: object, context: Context) -> float:
    yards = number(value, context)
    if yards <= FIXED_SPOT_LIMIT:
        _fail("field-length", value, least=FIXED_SPOT_LIMIT)
    return yards


def yards_to_goal(value: object, context: Context) -> float:
    yards = number(value, context)
    if not 0 < yards < context.field_length:
        _fail("yards-to-goal", value, length=context.field_length)
    return yards


def counting(value: object, _: Context) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
        _fail("counting", _shown(value), most=MAX_COUNT)
    return value


def whole_number(value: object, _: Context) -> int:
    """An integer, 0 or more: a JSON number written without a fraction or an exponent (``2``, not ``2.0``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SAFE_INTEGER:
        _fail_officials("whole", _shown(value), most=SAFE_INTEGER)
    return value


# Log format 1.2's numbers have no bound in the spec: they are bound as JSON itself is read (RFC 8785, I-JSON), to
# a double's finite range, and integers to the doubles' safe ones (jcs.SAFE_INTEGER), as the store's hash is.
def _double(value: object) -> float | None:
    """``value`` as the double a JSON reader holds it as, where it is a number one can hold; else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        held = float(value)
    except OverflowError:  # an integer past a double's range
        return None
    return held if math.isfinite(held) else None


def _as_read(value: object, held: float) -> float:
    """A number of 1.2 as given; an integer past the doubles' safe ones as the double a reader holds it as."""
    return held if isinstance(value, int) and abs(value) > SAFE_INTEGER else cast(float, value)


def string(value: object, _: Context) -> str:
    """Any string without a NUL character (an optional note or reason)."""
    if not isinstance(value, str):
        _fail_officials("string", value)
    if "\x00" in value:
        _fail("no-nul", value)
    return value


def clip(value: object, context: Context) -> str:
    """A recording's name or address: 1 to :data:`MAX_CLIP_LENGTH` characters, counted as code points."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_CLIP_LENGTH:
        shown = value[:MAX_CLIP_LENGTH] + "…" if isinstance(value, str) and len(value) > MAX_CLIP_LENGTH else value
        _fail_officials("clip", shown, most=MAX_CLIP_LENGTH)
    return string(value, context)


def clip_seconds(value: object, _: Context) -> float:
    seconds = _double(value)
    if seconds is None or seconds < 0:
        _fail_officials("clip-seconds", _shown(value))
    return _as_read(value, seconds)


def asked_by(value: object, context: Context) -> str:
    """Who asks for a review: a team (its challenge), or an official."""
    if not isinstance(value, str) or (value not in context.teams and value not in OFFICIALS):
        _fail_officials("asked-by", value, choices=", ".join(repr(c) for c in (*context.teams, *OFFICIALS)))
    return value


def confirmed_score(value: object, context: Context) -> dict[str, float]:
    """A chukker's score: goals for both teams, each 0 or more and a multiple of 0.5."""
    if not isinstance(value, dict):
        _fail("goals-by-team", value)
    read: dict[str, float] = {}
    for name, goals in value.items():
        team(name, context)
        count = _double(goals)
        if count is None or count < 0 or count % 0.5:
            _fail_officials("half-goals", _shown(goals))
        read[name] = _as_read(goals, count)
    missing = [name for name in context.teams if name not in value]
    if missing:
        _fail_officials("both-teams", value, teams=joined(context.teams))
    return {name: read[name] for name in context.teams}


def player(value: object, _: Context) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        _fail("player", _shown(value))
    return value


def team(value: object, context: Context) -> str:
    if not isinstance(value, str) or value not in context.teams:
        raise Unfit(phrases("refusal", "unknown-team", team=repr(value), teams=joined(context.teams)))
    return value


class OneOf:
    """A check that a field is one of its code type's values, ``choices`` (which forms can offer as they are)."""

    def __init__(self, codes: object) -> None:
        self.choices: tuple[str, ...] = get_args(codes)

    def __call__(self, value: object, _: Context) -> str:
        if not isinstance(value, str) or value not in self.choices:
            _fail("one-of", value, choices=", ".join(repr(c) for c in self.choices))
        return value


def unseen_character(text: str) -> str | None:
    """The first character of ``text`` that a list, a folder's name or a page would not show as a character (a
    control or formatting one, a line or paragraph separator: a line of its own, text turned around), as U+XXXX."""
    found = next((char for char in text if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")), None)
    return None if found is None else f"U+{ord(found):04X}"


def timestamp(value: object, _: Context) -> datetime:
    if not isinstance(value, str):
        _fail("time", value)
    try:
        moment = datetime.fromisoformat(value)
        if moment.year in (1, 9999):  # where an offset can take a time out of years 1 to 9999, it has no UTC
            moment.astimezone(UTC)
    except (ValueError, OverflowError):
        _fail("time-years", value)
    if moment.tzinfo is None:
        _fail("time", value)
    return moment


def clock_settings(value: object, context: Context) -> dict[str, float]:
    if not isinstance(value, dict) or set(value) - {"chukker_seconds", "extra_seconds"}:
        _fail("clock", value)
    if "chukker_seconds" in value and number(value["chukker_seconds"], context) <= 0:
        _fail("chukker-seconds", value)
    if "extra_seconds" in value and number(value["extra_seconds"], context) < 0:
        _fail("extra-seconds", value)
    return value


def rule_set(value: object, context: Context) -> str:
    value = text(value, context)
    try:
        find_rules(value)
    except UnknownRules as err:
        raise Unfit(err.words) if err.words else ValueError(str(err)) from None
    return value


def team_names(value: object, context: Context) -> list[str]:
    if not isinstance(value, list) or len(value) != 2:
        _fail("two-teams", value)
    names = [short_text(name, context) for name in value]
    if names[0] == names[1]:
        _fail("different-teams", value)
    return names


def names(value: object, context: Context) -> list[str]:
    if not isinstance(value, list):
        _fail("names", value)
    return [text(name, context) for name in value]


def _per_team(value: object, context: Context, check: Checker, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(f"{what}-by-team", value)
    for name, item in value.items():
        team(name, context)
        check(item, context)
    return value


def handicap_goals(value: object, context: Context) -> dict[str, float]:
    def goals(item: object, ctx: Context) -> float:
        count = number(item, ctx)
        if count < 0:
            _fail("goals", item)
        return count

    given = _per_team(value, context, goals, "goals")
    return {name: given.get(name, 0) for name in context.teams}


def rosters(value: object, context: Context) -> dict[str, list[dict[str, Any]]]:
    def roster(item: object, ctx: Context) -> list[dict[str, Any]]:
        if not isinstance(item, list) or not all(isinstance(entry, dict) for entry in item):
            _fail("players", item)
        for entry in item:
            player(entry.get("player"), ctx)
            if "name" in entry:
                text(entry["name"], ctx)
            if "handicap" in entry:
                number(entry["handicap"], ctx)
        return item

    return _per_team(value, context, roster, "players")


@dataclass(frozen=True, slots=True)
class Field:
    """How an event's field is checked (``check``; a code type's fields are checked against its values), and
    its value where an event leaves it out (:data:`REQUIRED`: it may not)."""

    check: Checker | None = None
    default: Any = REQUIRED


# Each event type as a typed, read-only value: the fields `check_event` gives, each with its check. The table the
# checks, the forms and the API read (FIELDS) is derived from these; the engine reads them typed.
class _Logged(TypedDict):
    at: ReadOnly[Annotated[datetime, Field(timestamp)]]
    id: ReadOnly[Annotated[str | None, Field(short_text, None)]]
    by: ReadOnly[Annotated[str | None, Field(text, None)]]


class MatchStart(_Logged):
    type: ReadOnly[Literal["match.start"]]
    match: ReadOnly[Annotated[str, Field(short_text)]]
    teams: ReadOnly[Annotated[list[str], Field(team_names)]]
    field_length: ReadOnly[Annotated[float, Field(field_length, 300)]]
    penalty3_defended: ReadOnly[Annotated[bool | None, Field(flag, None)]]  # None: as the rule set says
    # None: from the rosters' handicaps, where they give them
    handicap_goals: ReadOnly[Annotated[dict[str, float] | None, Field(handicap_goals, None)]]
    rosters: ReadOnly[Annotated[dict[str, list[dict[str, Any]]] | None, Field(rosters, None)]]
    chukkers: ReadOnly[Annotated[int, Field(counting, 6)]]
    event: ReadOnly[Annotated[str | None, Field(text, None)]]
    venue: ReadOnly[Annotated[str | None, Field(text, None)]]
    officials: ReadOnly[Annotated[list[str] | None, Field(names, None)]]
    rules: ReadOnly[Annotated[str | None, Field(rule_set, None)]]
    clock: ReadOnly[Annotated[dict[str, float] | None, Field(clock_settings, None)]]
    challenges: ReadOnly[Annotated[int, Field(whole_number, 0)]]


class ChukkerStart(_Logged):
    type: ReadOnly[Literal["chukker.start"]]
    chukker: ReadOnly[Annotated[int, Field(counting)]]


class ChukkerEnd(_Logged):
    type: ReadOnly[Literal["chukker.end"]]
    chukker: ReadOnly[Annotated[int, Field(counting)]]


# `from` is a Python keyword, so this one type is written as a call.
PenaltyAward = TypedDict("PenaltyAward", {
    "at": ReadOnly[Annotated[datetime, Field(timestamp)]],
    "id": ReadOnly[Annotated[str | None, Field(short_text, None)]],
    "by": ReadOnly[Annotated[str | None, Field(text, None)]],
    "type": ReadOnly[Literal["penalty.award"]],
    "penalty": ReadOnly[Annotated[Penalty, Field()]],
    "to": ReadOnly[Annotated[str, Field(team)]],
    "from": ReadOnly[Annotated[From, Field(default="center")]],
    "yards_to_goal": ReadOnly[Annotated[float | None, Field(yards_to_goal, None)]],
    "card": ReadOnly[Annotated[AwardCard | None, Field(default=None)]],
})


class KnockinAward(_Logged):
    type: ReadOnly[Literal["knockin.award"]]
    to: ReadOnly[Annotated[str, Field(team)]]


class BallPlace(_Logged):
    type: ReadOnly[Literal["ball.place"]]
    surface_altered: ReadOnly[Annotated[bool, Field(flag, False)]]
    dismounted: ReadOnly[Annotated[bool, Field(flag, False)]]


class PlayCalled(_Logged):
    type: ReadOnly[Literal["play"]]


class Dribble(_Logged):
    type: ReadOnly[Literal["dribble"]]


class ApproachAbort(_Logged):
    type: ReadOnly[Literal["approach.abort"]]
    how: ReadOnly[Annotated[How, Field()]]


class BallRetee(_Logged):
    type: ReadOnly[Literal["ball.retee"]]


class Hit(_Logged):
    type: ReadOnly[Literal["hit"]]
    player: ReadOnly[Annotated[int, Field(player)]]
    contact: ReadOnly[Annotated[Contact, Field()]]
    deliberate: ReadOnly[Annotated[bool, Field(flag, False)]]


class BallStop(_Logged):
    type: ReadOnly[Literal["ball.stop"]]
    yards_to_goal: ReadOnly[Annotated[float, Field(yards_to_goal)]]


class BallOut(_Logged):
    type: ReadOnly[Literal["ball.out"]]
    over: ReadOnly[Annotated[Over, Field()]]


class GoalScored(_Logged):
    type: ReadOnly[Literal["goal"]]
    team: ReadOnly[Annotated[str, Field(team)]]
    player: ReadOnly[Annotated[int | None, Field(player, None)]]


class PositionImproper(_Logged):
    type: ReadOnly[Literal["position.improper"]]
    team: ReadOnly[Annotated[str, Field(team)]]
    prevented_goal: ReadOnly[Annotated[bool, Field(flag, False)]]


class PlayerReturn(_Logged):
    type: ReadOnly[Literal["player.return"]]
    team: ReadOnly[Annotated[str, Field(team)]]
    player: ReadOnly[Annotated[int, Field(player)]]
    closest_yards: ReadOnly[Annotated[float, Field(distance)]]
    on_field: ReadOnly[Annotated[bool, Field(flag)]]


class PlayerPlay(_Logged):
    type: ReadOnly[Literal["player.play"]]
    team: ReadOnly[Annotated[str, Field(team)]]
    player: ReadOnly[Annotated[int, Field(player)]]
    passed_teammate: ReadOnly[Annotated[bool, Field(flag)]]
    ball_travelled: ReadOnly[Annotated[float, Field(distance)]]
    passed_midfield: ReadOnly[Annotated[bool, Field(flag)]]
    prevented_goal: ReadOnly[Annotated[bool, Field(flag, False)]]


class CardShown(_Logged):
    type: ReadOnly[Literal["card"]]
    team: ReadOnly[Annotated[str, Field(team)]]
    player: ReadOnly[Annotated[int, Field(player)]]
    colour: ReadOnly[Annotated[Colour, Field()]]


class Decide(_Logged):
    type: ReadOnly[Literal["decide"]]
    option: ReadOnly[Annotated[int, Field(counting)]]


class Whistle(_Logged):
    type: ReadOnly[Literal["whistle"]]


class Void(_Logged):
    type: ReadOnly[Literal["void"]]
    seq: ReadOnly[Annotated[int, Field(counting)]]
    reason: ReadOnly[Annotated[str, Field(text)]]


class Tick(_Logged):
    type: ReadOnly[Literal["tick"]]


class ClockStop(_Logged):
    type: ReadOnly[Literal["clock.stop"]]


class ClockStart(_Logged):
    type: ReadOnly[Literal["clock.start"]]


class MatchEnd(_Logged):
    type: ReadOnly[Literal["match.end"]]


# Log format 1.2: the officials' events, around the rulings (engine.officials).
class VideoSync(_Logged):
    type: ReadOnly[Literal["video.sync"]]
    clip: ReadOnly[Annotated[str, Field(clip)]]
    clip_seconds: ReadOnly[Annotated[float, Field(clip_seconds)]]
    at_logged: ReadOnly[str]  # its `at` as logged: the final object's clips give it so (not a field of the log's)


class ReviewRequest(_Logged):
    type: ReadOnly[Literal["review.request"]]
    about: ReadOnly[Annotated[int, Field(counting)]]
    asked_by: ReadOnly[Annotated[str, Field(asked_by)]]
    reason: ReadOnly[Annotated[str | None, Field(string, None)]]


class ReviewOutcome(_Logged):
    type: ReadOnly[Literal["review.outcome"]]
    outcome: ReadOnly[Annotated[Outcome, Field()]]
    note: ReadOnly[Annotated[str | None, Field(string, None)]]


class ChukkerConfirm(_Logged):
    type: ReadOnly[Literal["chukker.confirm"]]
    chukker: ReadOnly[Annotated[int, Field(counting)]]
    score: ReadOnly[Annotated[dict[str, float], Field(confirmed_score)]]


Event = (MatchStart | ChukkerStart | ChukkerEnd | PenaltyAward | KnockinAward | BallPlace | PlayCalled | Dribble
         | ApproachAbort | BallRetee | Hit | BallStop | BallOut | GoalScored | PositionImproper | PlayerReturn
         | PlayerPlay | CardShown | Decide | Whistle | Void | Tick | ClockStop | ClockStart | MatchEnd | VideoSync
         | ReviewRequest | ReviewOutcome | ChukkerConfirm)
"""A checked event: one of the types above, told apart by its ``type``."""


def _checks(annotation: Any) -> tuple[Checker, Any] | None:
    """A field's check and default from its annotation (None: not a field of the log's)."""
    inner = get_args(annotation)[0]  # ReadOnly[Annotated[type, Field]]
    if get_origin(inner) is not Annotated:
        return None
    typed, *metadata = get_args(inner)
    spec = next((item for item in metadata if isinstance(item, Field)), None)
    if spec is None:
        return None
    if spec.check is not None:
        return spec.check, spec.default
    codes = next(arg for arg in (typed, *get_args(typed)) if get_origin(arg) is Literal)  # a code, or None
    return OneOf(codes), spec.default


def _fields(event_type: Any) -> tuple[str, dict[str, tuple[Checker, Any]]]:
    """An event type's name and its fields beyond ``type``, ``at``, ``id`` and ``by``: name -> (check, default)."""
    hints = get_type_hints(event_type, include_extras=True)
    kind = get_args(get_args(hints.pop("type"))[0])[0]
    return kind, {name: found for name, annotation in hints.items()
                  if name not in _Logged.__annotations__ and (found := _checks(annotation)) is not None}


# The fields of each type, beyond `type`, `at`, `id` and `by`, in the log format's order: name -> (check, default).
FIELDS: dict[str, dict[str, tuple[Checker, Any]]] = dict(_fields(event_type) for event_type in get_args(Event))
TYPES = tuple(FIELDS)
_COMMON = {name: found for name, annotation in get_type_hints(_Logged, include_extras=True).items()
           if (found := _checks(annotation)) is not None}
Check = Callable[[Mapping[str, Any], Context], Event]


def _compiled(kind: str, fields: dict[str, tuple[Checker, Any]]) -> Check:
    """The checks of one event type as one function, written out a field at a time as :mod:`dataclasses` writes an
    ``__init__``: a loop reading them from a table cost a replay more than the checks did. A match.start's fields
    that its later ones are checked against are set on the context as they pass."""
    scope: dict[str, Any] = {"missing": _missing, "refused": _refused}
    name = f"check_{kind.replace('.', '_')}"
    body = []
    for number, (field, (check, default)) in enumerate(fields.items()):
        scope[f"check{number}"], scope[f"default{number}"] = check, default
        passed = f"value{number} = check{number}(value, context)"
        if kind == "match.start" and field in Context.__slots__:
            passed += f"; context.{field} = value{number}"
        absent = f"missing({kind!r}, field)" if default is REQUIRED else f"value{number} = default{number}"
        body += [f"field = {field!r}", "value = obj.get(field)", f"if value is None: {absent}", f"else: {passed}"]
    made = ", ".join(f"{field!r}: value{number}" for number, field in enumerate(fields))
    source = "\n".join([f"def {name}(obj, context):", "    try:", *(f"        {line}" for line in body),
                        "    except ValueError as err:", f"        raise refused({kind!r}, field, err) from None",
                        f"    return {{'type': {kind!r}, {made}}}"])
    exec(source, scope)  # written above from the event type's fields alone
    compiled: Check = scope[name]
    return compiled


def _missing(kind: str, name: str) -> NoReturn:
    raise InvalidEvent.said("field-missing", kind=kind, name=repr(name))


def _refused(kind: str, name: str, err: ValueError) -> InvalidEvent:
    why = err.words if isinstance(err, Unfit) else str(err)
    return InvalidEvent.said("field", kind=kind, name=repr(name), why=why)


# Seconds with a non-zero digit past the sixth place: datetime keeps microseconds and cuts the rest, so a stroke
# 20.0000009 s after "Play" would be judged in time, and an `at` 0.8 µs before the one above it equal to it.
_FINER_THAN_A_MICROSECOND = re.compile(r"[.,]\d{6}\d*[1-9]")


def check_time_kept(obj: Mapping[str, Any]) -> None:
    """Refuse an event whose ``at`` says more than a microsecond, so that no time is judged other than it reads: the
    doors' check (a log replayed, an append, an import), not the engine's, as an event stored before it was made is
    read as it was (cut to the microsecond)."""
    value = obj.get("at")
    if not isinstance(value, str):
        return
    point = max(value.find("."), value.find(","))
    if point >= 0 and len(value) - point > 8 and _FINER_THAN_A_MICROSECOND.search(value, point):
        try:
            _fail("time-microseconds", value)
        except Unfit as err:
            raise _refused(str(obj.get("type")), "at", err) from None


# Each type's checks, compiled.
_CHECKS = {kind: _compiled(kind, {**_COMMON, **fields}) for kind, fields in FIELDS.items()}


def check_event(obj: Any, context: Context) -> Event:
    """Check one decoded log line against the format; return it normalised."""
    if type(obj) is not dict and not isinstance(obj, Mapping):  # a decoded line is a dict: skip the ABC's check
        raise InvalidEvent.said("not-object", kind=type(obj).__name__)
    kind = obj.get("type")
    check = _CHECKS.get(kind) if isinstance(kind, str) else None
    if check is None:
        raise InvalidEvent.said("type-missing") if kind is None else InvalidEvent.said("type-unknown", type=repr(kind))
    # a match.start's later fields are checked against its own teams and field
    event = check(obj, Context() if kind == "match.start" else context)
    if (event["type"] == "penalty.award" and event["yards_to_goal"] is None
            and needs_spot(event["penalty"], event["from"])):
        raise InvalidEvent.said("spot-yards", penalty=event["penalty"])
    if event["type"] == "video.sync":  # the final object's clips give the sync's `at` as logged
        return cast(Event, {**event, "at_logged": obj["at"]})
    return event


def needs_spot(penalty: str, place: str) -> bool:
    """Whether a penalty award (``penalty``, taken from ``place``) is taken from where the foul was, rather than a
    fixed spot."""
    return penalty == "5a" or (penalty == "2" and place == "spot")
