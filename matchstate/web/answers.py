"""The API's answers as pydantic models: what ``/openapi.json`` says each route sends, so that a generated client
gets types. They describe the JSON the routes make; they do not make it (a route declares its model among its
``responses`` and sends its own JSON, unchanged and unchecked on the hot path). Where an answer holds more than a
model names (a match's view grows with the log format), the model allows the rest (``extra="allow"``).

Every refusal, of every status, is one :class:`Refusal`: ``detail`` (the reason in English, or for a request not
as described the list of its problems) and ``words`` (the reason in every language), and where they apply the
log's ``line``, the match's ``current_seq`` and the tournament's ``version``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

Responses = dict[int | str, dict[str, Any]]


class Answer(BaseModel):
    """An answer whose JSON may hold more than the model names."""

    model_config = ConfigDict(extra="allow")


class Words(BaseModel):
    """A text in every language the catalog speaks."""

    en: str
    es: str


class FieldProblem(BaseModel):
    """What is wrong with one part of a request that is not as described."""

    type: str
    loc: list[str | int] = Field(description="Where: `body`, `query`, `path` or `header`, then the field's path")
    msg: str


class Refusal(BaseModel):
    """Why a request is refused: the same shape for every status."""

    detail: str | list[FieldProblem] = Field(description="The reason in English; for a request not as "
                                                         "described, each of its problems")
    words: Words | None = Field(None, description="The reason in every language, for a page to show its reader's")
    line: int | None = Field(None, description="The refused line of a log (an import)")
    current_seq: int | None = Field(None, description="The match's last seq (409: `expected_seq` was stale)")
    version: int | None = Field(None, description="The tournament's version now (409: `expected_version` was stale)")


# What each status of a refusal means, where a route says no more.
REFUSED = {400: "The request cannot be read", 401: "No key given", 403: "The key is wrong, or its role may not",
           404: "No such match", 409: "A conflict with the match as it is", 413: "The body is too large",
           422: "The request is not as described, or what it asks is refused; `detail` says why",
           429: "Too many requests: wait as `Retry-After` says",
           503: "The database is unavailable: nothing was done; try again after `Retry-After`"}


def refusals(*statuses: int, **said: str) -> Responses:
    """The refusals a route can answer, each a :class:`Refusal`: ``statuses`` described as :data:`REFUSED` says,
    ``said`` (``_409="..."``) in the route's own words."""
    described = {status: REFUSED[status] for status in statuses}
    described.update({int(name.lstrip("_")): text for name, text in said.items()})
    return {status: {"model": Refusal, "description": text} for status, text in sorted(described.items())}


def refused_in_json(responses: Responses) -> Responses:
    """``responses`` for a route whose success is not JSON (a CSV, a calendar): its refusals are JSON all the same
    (FastAPI would describe a model in the route's own media type)."""
    json = {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}
    return {status: {"description": answer["description"], "content": json} if answer.get("model") is Refusal
            else answer for status, answer in responses.items()}


def answers(status: int, model: Any, description: str, *statuses: int, **said: str) -> Responses:
    """A route's success (``model`` at ``status``) and its refusals (:func:`refusals`)."""
    return {status: {"model": model, "description": description}, **refusals(*statuses, **said)}


class SignedReceipt(BaseModel):
    """The store's signed receipt of an event stored before the league log: its match, seq and hash, when it was
    received, signed (Ed25519)."""

    match: str
    seq: int
    hash: str
    received_at: str
    key: str = Field(description="The fingerprint of the key that signed it (`/api/receipts/key`)")
    signature: str


class ProofReceipt(BaseModel):
    """An event's receipt: its league log leaf's C2SP tlog proof in the checkpoint of its commit group."""

    match: str
    seq: int
    hash: str = Field(description="the match's chain hash after the event")
    received_at: str
    leaf: str = Field(description="the leaf's kind: `append`, or `import` for an imported match's event")
    proof: str = Field(description="the C2SP tlog proof (c2sp.org/tlog-proof) of the leaf "
                                   "`{\"kind\": leaf, \"match\", \"seq\", \"hash\"}` (RFC 8785 JSON), with the "
                                   "signed checkpoint it leads to")


Receipt = ProofReceipt | SignedReceipt  # for the device to keep (`matchstate verify --receipts`)


class Ruling(Answer):
    """An event's ruling: its kind, the free hit or goal it gives, against whom, the clauses it cites and its text."""

    kind: str = Field(description="`award` (a penalty), `goal`, `rehit`, `choose` (options pending)...")
    penalty: str | None = Field(None, description="The penalty awarded, as Rule 36 numbers it (`5.a`)")
    to: str | None = Field(None, description="The team it is awarded to")
    yards_to_goal: float | None = None
    from_: str | None = Field(None, alias="from", description="Where a Penalty 2 is taken from")
    defended: bool | None = None
    against: str | None = None
    violation: str | None = None
    cite: list[str] = Field(description="The ids of the clauses of Rule 36 it applies (`/api/rules`)")
    text: Words


class StoredEvent(Answer):
    """One event of a match's log: as received (`event`), its ruling, the clock after it, who, when, how."""

    seq: int
    type: str
    at: str
    event: dict[str, Any] = Field(description="The event exactly as it was received")
    ruling: Ruling | None
    clock: dict[str, Any]
    flags: list[str]
    device_id: str | None
    by: str | None
    role: str | None
    received_at: str
    hash: str


class MatchView(Answer):
    """The match now, as the engine sees it: state, score, the free hit in progress, the options pending."""

    code: str
    seq: int
    state: str
    teams: list[str]
    score: dict[str, float]
    free_hit: dict[str, Any] | None
    free_hit_text: Words | None
    timed: bool
    play_at: str | None
    window_seconds: float
    options: list[dict[str, Any]]
    accepted: list[str] = Field(description="The event types the match accepts now")
    void: list[int]
    start: dict[str, Any] = Field(description="The match's `match.start`, normalised")
    rules: str
    free_hit_rules: dict[str, Any] = Field(description=(
        "What the match's rule set fixes of its free hits: `fixed` (each free hit whose spot is fixed, by name, "
        "as `free_hit` but for `to`; `2c` is a Penalty 2 from the centre), `timed` (those the 20 seconds bind), "
        "`yellow_card_goal` (those a yellow card to the defending team makes a Penalty 1)"))


class Links(BaseModel):
    console: str
    review: str
    sheet: str


class Created(BaseModel):
    """A match made: its code, its keys (shown only this once), the match now and its last receipt."""

    code: str
    events: int
    scorer_key: str
    official_key: str
    match: MatchView
    receipt: Receipt
    links: Links


class Appended(Answer):
    """An event appended (or a retry of one already recorded: the same answer, `duplicate` true)."""

    seq: int
    ruling: Ruling | None
    duplicate: bool
    event: StoredEvent
    match: MatchView
    receipt: Receipt
    checkpoint: str | None = Field(description="the signed checkpoint (c2sp.org/tlog-checkpoint note) that holds "
                                               "the event; none for an event stored before the league log")
    proof: str | None = Field(description="the event's inclusion proof in it (c2sp.org/tlog-proof)")


class Removed(BaseModel):
    removed: str
    reason: str


class IssuedKey(BaseModel):
    code: str
    role: str
    key: str = Field(description="The new key: shown only this once")


class RevokedKey(BaseModel):
    code: str
    role: str
    revoked: str


class ReceiptsKey(BaseModel):
    public_key: str = Field(description="The raw Ed25519 public key, base64")
    fingerprint: str
    pem: str


class MatchRow(Answer):
    """A match in the list: score, state and standing."""

    code: str
    teams: list[str]
    score: dict[str, float]
    state: str
    events: int
    started: str
    date: str
    status: str
    winner: str | None
    event: str | None
    venue: str | None


class UnreadableRow(Answer):
    """A match in the list whose stored row cannot be read back (changed behind the store's back): its code, and
    what is said of it, in every language; `matchstate verify` says what was changed."""

    code: str
    unreadable: Literal[True]
    detail: str
    words: Words


class ListedMatch(RootModel[MatchRow | UnreadableRow]):
    """A match in the list: its row, or, where its stored row cannot be read back, what is said of it."""


class Role(BaseModel):
    role: str = Field(description="`scorer`, `official` or `league`")
    official_only: list[str] = Field(description="The event types only an official logs: a page offers them to "
                                                 "no other role")


class Explained(Answer):
    """An event's ruling with the events that led to it and the text of every clause it cites."""

    event: StoredEvent
    led_to: list[StoredEvent]
    clauses: list[dict[str, Any]]


class Verified(Answer):
    ok: bool
    events: int
    problems: list[str]
    bad_seq: int | None


class ServerTime(BaseModel):
    now: str = Field(description="UTC, ISO 8601, to the millisecond")


class Statistics(Answer):
    """Per team and per player, over the scope's matches; `next` is the cursor of the next page of players."""

    scope: dict[str, str | None]
    matches: int
    finished: int
    teams: list[dict[str, Any]]
    players: list[dict[str, Any]]
    unreadable: list[UnreadableRow] | None = Field(None, description="The matches whose log cannot be read back, "
                                                                     "left out of the sums (only where there are)")


class TournamentRow(BaseModel):
    slug: str
    name: str


class Tournament(Answer):
    """A tournament and its `progress`: fixtures, standings, as the matches stand now."""

    slug: str
    name: str
    version: int = Field(description="One on with each change: a change sent with it as `expected_version` is "
                                     "refused (409) once another desk has changed the tournament")
    progress: dict[str, Any]


class OpenedMatch(BaseModel):
    code: str
    scorer_key: str
    official_key: str
    console: str
    version: int = Field(description="The tournament's version, its fixture holding the match")


class MatchStart(Answer):
    """A fixture's match.start, in the match log format: its teams, their rosters, the tournament's conditions."""

    type: str
    at: str
    match: str
    teams: list[str]


class ImportedResult(BaseModel):
    code: str
    scorer_key: str
    official_key: str


class Card(BaseModel):
    match: str
    seq: int
    at: str
    colour: str


class Suspension(BaseModel):
    seconds: float
    earned_in: str
    served_in: str | None
    passed: list[str]


class DisciplineRecord(BaseModel):
    team: str
    name: str
    cards: list[Card]
    suspensions: list[Suspension]


class SitOut(BaseModel):
    team: str
    name: str
    seconds: float
    earned_in: str


class Results(Answer):
    """A tournament's results so far, for a club's website: every fixture, each group's standings."""

    tournament: str = Field(description="The tournament's slug")
    name: str
    starts: str | None
    ends: str | None
    venue: str | None
    fixtures: list[dict[str, Any]]
    groups: dict[str, list[dict[str, Any]]]
    complete: list[str] = Field(description="The groups whose places are settled")


class Packet(Answer):
    """The federation's results packet: results, rosters with handicaps, officials, cards and suspensions."""

    tournament: dict[str, Any]
    teams: list[dict[str, Any]]
    matches: list[dict[str, Any]]
    standings: dict[str, list[dict[str, Any]]]
    cards: list[dict[str, Any]]
    suspensions: list[dict[str, Any]]
