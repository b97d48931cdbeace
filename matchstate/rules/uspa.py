"""USPA Rule 36, "Penalty Procedures and Violations" (2026), as matchstate reads it (see the log format)."""

from __future__ import annotations

from datetime import timedelta
from types import MappingProxyType

from .ruleset import ClockSettings, FixedSpot, RuleSet

OUTDOOR_CLOCK = ClockSettings(chukker_seconds=420, extra_seconds=30)  # a bell at 7 minutes, up to 30 s more
ARENA_CLOCK = ClockSettings(chukker_seconds=450, extra_seconds=0)
# The timekeeper's presets a new match may take (the records page offers them, and the club's own clock).
CLOCK_PRESETS = MappingProxyType({"outdoor": OUTDOOR_CLOCK, "arena": ARENA_CLOCK})

_PROCEDURAL = "36/procedural:fouled"

USPA_2026 = RuleSet(
    name="uspa-2026",
    title="USPA Rule 36 (2026)",
    timed=frozenset({"2", "3", "4", "5a", "5b", "6"}),  # reading: the 20 seconds do not bind a knock-in
    window=timedelta(seconds=20),
    one_stroke=frozenset({"2", "3", "4", "6"}),
    miss_is_foul=frozenset({"2", "3"}),
    attacking_position_ruled=frozenset({"2", "3"}),  # the table gives N/A for the others
    return_yards=30,
    failure_costs=MappingProxyType({"2": "5a", "3": "5a", "4": "5a", "6": "5a", "5b": "5a", "5a": "5a|4",
                                    "knockin": "4"}),
    spot_hit_limit=60,
    increased=MappingProxyType({"2": "choose", "3": "2c", "4": "3", "6": "3", "5b": "4", "knockin": "5b"}),
    increased_5a=((60, "4"), (40, "3"), (30, "2c")),  # reading: within 30 yards, as Penalty 2
    fixed_spots=MappingProxyType({
        "2c": FixedSpot(penalty="2", yards=30, from_="center", defended=False),
        "3": FixedSpot(penalty="3", yards=40, defended=None),
        "4": FixedSpot(penalty="4", yards=60),
        "6": FixedSpot(penalty="6", yards=60),
        "5b": FixedSpot(penalty="5b", yards=0, of_field=0.5),
        "knockin": FixedSpot(penalty="knockin", yards=0, of_field=1),
    }),
    penalty3_defended=True,
    yellow_card_goal=frozenset({"2"}),
    table="36/table",
    cites=MappingProxyType({
        "hit-before-play": ("table",),
        "first-approach": ("table",),
        "swing-and-miss": ("table",),
        "attacking-position": ("table",),
        "defending-position": ("table",),
        "twenty-seconds": ("36/one-stroke", _PROCEDURAL),
        "dribble": ("36/one-stroke", _PROCEDURAL),
        "deliberate": ("36/return:discretion", _PROCEDURAL),
        "surface-altered": ("36/tee:surface", _PROCEDURAL),
        "dismounted": ("36/tee:surface", _PROCEDURAL),
        "retee": ("36/tee:as-it-lies", _PROCEDURAL),
        "return-route": ("36/return:fouled", _PROCEDURAL),
        "early-play": ("36/return:fouled", _PROCEDURAL),
    }),
    defending_cites=MappingProxyType({code: ("36/return:fouling", "36/procedural:fouling")
                                      for code in ("return-route", "early-play")}),
    missed_live_cites=MappingProxyType({"4": ("36/missed-4-6",), "6": ("36/missed-4-6",)}),
    penalty_1_cites=MappingProxyType({"penalty-1": (), "yellow-card": ("36/yellow-card-p2",)}),
    stroke_cite=("36/one-stroke",),
    both_teams_cite=("36/procedural:both",),
    choose_cite=("36/procedural:fouling",),
    stops_short_cite=("36/stops-short",),
    clock=OUTDOOR_CLOCK,
)
