"""Rule sets: everything Rule 36's tables and the log format's fixed spots decide, as data.

A :class:`RuleSet` is frozen and has no defaults, so a variant names every field or is
made from another with :func:`dataclasses.replace`. ``USPA_2026`` is the default; a
match names another with the ``rules`` field of its ``match.start``::

    from matchstate.rules import find_rules
    find_rules("club").window   # datetime.timedelta(seconds=30)

A new variant is one module in this package that builds its ``RuleSet`` and is listed
in :data:`RULE_SETS`.
"""

from __future__ import annotations

from ..errors import UnknownRules
from .club import CLUB
from .ruleset import ClockSettings, FixedSpot, RuleSet
from .uspa import ARENA_CLOCK, OUTDOOR_CLOCK, USPA_2026

RULE_SETS: dict[str, RuleSet] = {rules.name: rules for rules in (USPA_2026, CLUB)}
DEFAULT = USPA_2026


def find_rules(name: str) -> RuleSet:
    """The rule set called ``name``; :class:`UnknownRules` naming the known ones if there is none."""
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(repr(known) for known in RULE_SETS)
        raise UnknownRules.said("unknown-rules", name=repr(name), known=known) from None


__all__ = ["ARENA_CLOCK", "CLUB", "DEFAULT", "OUTDOOR_CLOCK", "RULE_SETS", "USPA_2026", "ClockSettings", "FixedSpot",
           "RuleSet", "find_rules"]
