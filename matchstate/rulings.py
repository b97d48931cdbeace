"""Free hits and rulings: what the engine gives for an event, with its rule and its words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .rulebook import clause
from .rules import RuleSet, find_rules
from .words import LANGUAGES, phrase, phrases


@dataclass(frozen=True, slots=True)
class FreeHit:
    """A free hit: a penalty shot or a knock-in, for the hitting team ``to``.

    ``yards_to_goal`` is measured to the goal line the hitting team attacks.
    """

    penalty: str
    to: str
    yards_to_goal: float
    from_: str | None = None
    defended: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"penalty": self.penalty, "to": self.to, "yards_to_goal": _yards(self.yards_to_goal),
                "from": self.from_, "defended": self.defended}

    def describe(self, lang: str) -> str:
        return phrase("free_hit", "text", lang, penalty=phrase("penalty", self.penalty, lang), team=self.to,
                      where=phrase("free_hit", "center", lang) if self.from_ == "center" else "",
                      yards=_yards(self.yards_to_goal),
                      undefended="" if self.defended else phrase("free_hit", "undefended", lang))


def _yards(yards: float) -> float:
    return int(yards) if yards == int(yards) else yards


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the rules give for one event.

    ``kind`` is ``award`` or ``rehit`` (``free_hit`` is the free hit given), ``goal``
    (a goal to ``to``), ``choose`` (the umpire picks one of ``options``) or ``live``.
    ``why`` is its reason, under the rule set named ``rules``. ``outcome`` is what it gives, without its
    reason, in each language; ``text`` all of it: both worded when read, as most rulings of a replay never are.
    """

    kind: str
    to: str | None
    free_hit: FreeHit | None
    options: tuple[Ruling, ...]
    why: Why
    rules: str

    @property
    def against(self) -> str | None:
        return self.why.against

    @property
    def violation(self) -> str | None:
        return self.why.violation

    @property
    def cite(self) -> tuple[str, ...]:
        return self.why.cite

    @property
    def outcome(self) -> dict[str, str]:
        return _outcome(self.kind, self.to, self.free_hit, [option.outcome for option in self.options])

    @property
    def text(self) -> dict[str, str]:
        why, rules = self.why, find_rules(self.rules)
        outcome, seconds = self.outcome, _yards(rules.window.total_seconds())
        words = dict.fromkeys(LANGUAGES, "")
        if why.cite and why.cite[0].startswith(rules.table + ":"):
            cell = clause(why.cite[0])
            words = {lang: phrase("ruling", "cell", lang, heading=cell.heading[lang], text=cell.text[lang])
                     for lang in LANGUAGES}
        texts = {}
        for lang in LANGUAGES:
            reason = phrase("reason", why.reason, lang, against=why.against, seconds=seconds)
            if why.extra:
                reason += phrase("ruling", why.extra, lang, team=self.to)
            texts[lang] = phrase("ruling", "text", lang, outcome=outcome[lang], reason=reason, words=words[lang])
        return texts

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.free_hit is not None:
            out.update(self.free_hit.to_json())
            if self.free_hit.from_ is None:
                del out["from"]  # a ruling names `from` for a Penalty 2 only
        elif self.kind == "goal":
            out["to"] = self.to
        if self.kind == "choose":
            out["options"] = [option.to_json() for option in self.options]
        out.update(against=self.against, violation=self.violation, cite=list(self.cite), text=self.text)
        return out


class Why(NamedTuple):
    """Why a ruling is given: the reason's code, the clauses it rests on, the team that violated and
    the violation's code, and what more to say (``"goal_prevented"`` or ``"increased"``). Immutable: a replay makes
    one for every ruling, so it is a tuple (less than half of what a frozen dataclass costs to make)."""

    reason: str
    cite: tuple[str, ...]
    against: str | None = None
    violation: str | None = None
    extra: str | None = None


class Wording:
    """Gives rulings under one rule set, which words them when they are read."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._live: dict[Why, Ruling] = {}  # a live ball's ruling depends on its reason alone

    def award(self, free_hit: FreeHit, why: Why, kind: str = "award") -> Ruling:
        """A new free hit (``kind="rehit"``: the same free hit again)."""
        return Ruling(kind, free_hit.to, free_hit, (), why, self.rules.name)

    def goal(self, to: str, why: Why) -> Ruling:
        return Ruling("goal", to, None, (), why, self.rules.name)

    def choose(self, options: tuple[Ruling, ...], why: Why) -> Ruling:
        return Ruling("choose", options[0].to, None, options, why, self.rules.name)

    def live(self, why: Why) -> Ruling:
        if why not in self._live:
            self._live[why] = Ruling("live", None, None, (), why, self.rules.name)
        return self._live[why]


def _outcome(kind: str, to: str | None, free_hit: FreeHit | None, options: list[dict[str, str]]) -> dict[str, str]:
    """What a ruling of ``kind`` gives, without its reason (``options``: the outcome of each option it offers)."""
    if free_hit is not None:
        return _free_hit_outcome(free_hit, kind)
    if kind == "goal":
        return phrases("outcome", "goal", team=to)
    if kind == "choose":
        return _choose_outcome(options)
    return phrases("outcome", "live")


def _free_hit_outcome(free_hit: FreeHit, kind: str) -> dict[str, str]:
    outcome = {lang: free_hit.describe(lang) for lang in LANGUAGES}
    if kind == "rehit":
        outcome = {lang: phrase("outcome", "rehit", lang, free_hit=outcome[lang]) for lang in LANGUAGES}
    return outcome


def _choose_outcome(options: list[dict[str, str]]) -> dict[str, str]:
    listed = {lang: "; ".join(f"{n}. {option[lang]}" for n, option in enumerate(options, 1)) for lang in LANGUAGES}
    return {lang: phrase("outcome", "choose", lang, options=listed[lang]) for lang in LANGUAGES}


def outcome_of(ruling: Mapping[str, Any]) -> dict[str, str]:
    """A ruling's :attr:`Ruling.outcome`, in each language, from its JSON (:meth:`Ruling.to_json`, as stored)."""
    kind = ruling["kind"]
    free_hit = FreeHit(ruling["penalty"], ruling["to"], ruling["yards_to_goal"], ruling.get("from"),
                       ruling["defended"]) if kind in ("award", "rehit") else None
    return _outcome(kind, ruling.get("to"), free_hit, [outcome_of(option) for option in ruling.get("options", ())])
