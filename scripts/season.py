"""A season of valid, realistic match logs, for benchmarks and load tests.

    from season import season
    logs = season(matches=1000, seed=2026)   # a list of logs, each a list of JSON Lines strings

Each match is played out through a :class:`matchstate.Match` as it is written: every
event is chosen from what ``match.accepts()`` allows in ``match.state`` (with
``match.free_hit`` for the details) and fed before it is kept, so every log replays
without a refusal by construction. One seeded ``random.Random`` drives every choice,
so a seed always gives the same season.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from matchstate import Match

CLUBS = ["Aguada Norte", "La Palmera Roja", "Los Ceibos", "San Jorge", "Santa Inés", "El Remanso",
         "Cañada Honda", "Las Tunas", "Monte Alto", "El Sauce", "La Querencia", "Puesto Viejo"]
FIRST = ["Tomás", "Bautista", "Facundo", "Julián", "Santiago", "Nicolás", "Ignacio", "Martín", "Juan Cruz",
         "Lucas", "Felipe", "Joaquín", "Agustín", "Pedro", "Camila", "Valentina", "Mateo", "Benjamín"]
LAST = ["Irigoyen", "Larrañaga", "Aráoz", "Ocampo", "Quiroga", "Beltrán", "Valdés", "Arregui", "Zavalía",
        "Echeverría", "Lynch", "Basualdo", "Heguy", "Goti", "Roldán", "Urquiza", "Saravia", "Funes"]
UMPIRES = ["Diego Ferraro", "Hernán Ledesma", "Pablo Castañeda", "Gustavo Ríos", "Emilio Sosa", "Carlos Medina"]
# How often each penalty is awarded, and how a penalty's stroke tends to end.
PENALTIES = {"1": 1, "2": 6, "3": 5, "4": 6, "5a": 12, "5b": 6, "6": 3}
SCORES = {"1": 0, "2": 0.7, "3": 0.55, "4": 0.35, "5a": 0.15, "5b": 0.1, "6": 0.35, "knockin": 0.0}


def season(matches: int, seed: int) -> list[list[str]]:
    """``matches`` match logs, the same for the same ``seed``."""
    rng = random.Random(seed)
    start = datetime(2026, 9, 5, 17, 0, tzinfo=UTC)
    return [MatchWriter(rng, number, start + timedelta(days=number // 4, hours=2 * (number % 4))).play()
            for number in range(matches)]


class MatchWriter:
    """Plays one match out, event by event, keeping the lines it writes."""

    def __init__(self, rng: random.Random, number: int, start: datetime) -> None:
        self.rng, self.number, self.at = rng, number, start
        self.match = Match()
        self.lines: list[str] = []
        self.stroke_just_taken = False

    # -- writing -------------------------------------------------------------------

    def emit(self, kind: str, after: float, **fields: Any) -> None:
        """Write one event ``after`` seconds after the one before, checked by the engine first."""
        assert self.match.accepts(kind), f"generator bug: {kind} in state {self.match.state}"
        self.at += timedelta(seconds=round(after, 1))
        event = {"type": kind, "at": self.at.isoformat(timespec="milliseconds").replace("+00:00", "Z"), **fields,
                 "id": f"m{self.number}-{len(self.lines) + 1}", "by": "season generator"}
        ruling = self.match.feed(event)  # a RefusedEvent here is a generator bug: let it raise
        self.stroke_just_taken = kind == "hit" and ruling is not None and ruling.kind == "live"
        self.lines.append(json.dumps(event, ensure_ascii=False))

    def pick(self, weights: Mapping[str, float]) -> str:
        return self.rng.choices(list(weights), list(weights.values()))[0]

    def team(self, hitting: bool = True) -> str:
        """The hitting team of the free hit in progress (or the other), or either team in open play."""
        to = self.match.hitting_team
        if to is None:
            return self.rng.choice(self.match.teams)
        defending = self.match.defending_team
        assert defending is not None  # a free hit has both
        return to if hitting else defending

    # -- the match ---------------------------------------------------------------------

    def play(self) -> list[str]:
        teams = self.rng.sample(CLUBS, 2)
        rosters: dict[str, list[dict[str, Any]]] = {
            team: [{"player": n, "name": f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}",
                    "handicap": self.rng.randint(1, 8)} for n in range(1, 5)] for team in teams}
        ratings = {team: sum(p["handicap"] for p in roster) for team, roster in rosters.items()}
        lower, higher = sorted(teams, key=ratings.__getitem__)
        self.emit("match.start", 0, match=f"season-{self.number:05d}", teams=teams, rosters=rosters,
                  handicap_goals={lower: ratings[higher] - ratings[lower]}, event="Generated season",
                  venue="Club de Polo Las Acacias", officials=self.rng.sample(UMPIRES, 3))
        for chukker in range(1, 7):
            self.emit("chukker.start", 300 if chukker > 1 else 600, chukker=chukker)
            while self.time_left() > 0:
                self.step()
            if self.match.state == "choosing":
                self.decide()
            self.emit("chukker.end", self.rng.uniform(1, 10), chukker=chukker)
            if self.match.state == "choosing":  # what waited on the free hit is ruled at the bell
                self.decide()
        self.emit("match.end", self.rng.uniform(5, 30))
        return self.lines

    def time_left(self) -> float:
        """Seconds of the chukker before its horn (or the end of extra time), by the engine's clock."""
        clock = self.match.clock
        if clock.phase(self.at) == "over":
            return 0.0
        return clock.settings.chukker_seconds + clock.settings.extra_seconds - clock.reading(self.at)

    def step(self) -> None:
        """Write the next event(s) for the state the match is in."""
        state = self.match.state
        if state == "choosing":
            self.decide()
        elif state == "awarded":
            self.awarded()
        elif state == "placed":
            self.placed()
        elif state == "play_called":
            self.play_called()
        elif self.stroke_just_taken:
            self.after_stroke()
        else:
            self.open_play()

    def decide(self) -> None:
        self.emit("decide", self.rng.uniform(10, 40), option=self.rng.randint(1, len(self.match.options)))

    # -- a free hit: placing, "Play", the stroke -----------------------------------

    def awarded(self) -> None:
        what = self.pick({"place": 80, "play": 10, "defending-position": 3, "hitting-position": 1,
                          "return": 2, "hit-before-play": 1, "surface": 1})
        wait = self.rng.uniform(12, 30)
        if what == "place":
            self.emit("ball.place", wait)
        elif what == "play":
            self.emit("play", wait)
        elif what in ("defending-position", "hitting-position"):
            self.emit("position.improper", wait, team=self.team(what == "hitting-position"))
        elif what == "return":
            self.emit("player.return", wait, team=self.team(self.rng.random() < 0.3),
                      player=self.rng.randint(1, 4), closest_yards=self.rng.choice([15, 25, 40, 60]), on_field=True)
        elif what == "hit-before-play":
            self.emit("hit", wait, player=self.rng.randint(1, 4), contact="hit")
        else:
            self.emit("ball.place", wait, **{self.rng.choice(["surface_altered", "dismounted"]): True})

    def placed(self) -> None:
        what = self.pick({"play": 92, "defending-position": 4, "approach.abort": 1, "hit-before-play": 1})
        wait = self.rng.uniform(3, 9)
        if what == "play":
            self.emit("play", wait)
        elif what == "defending-position":
            self.emit("position.improper", wait, team=self.team(hitting=False))
        elif what == "approach.abort":
            self.emit("approach.abort", wait, how=self.rng.choice(["passed", "circled"]))
        else:
            self.emit("hit", wait, player=self.rng.randint(1, 4), contact="hit")

    def play_called(self) -> None:
        what = self.pick({"hit": 84, "mishit": 4, "miss": 3, "deliberate": 1, "dribble": 3, "tick": 3,
                          "late": 2, "approach.abort": 1, "ball.retee": 1})
        assert self.match.play_at is not None  # play is called
        since_play = (self.at - self.match.play_at).total_seconds()
        wait = self.rng.uniform(21, 26) - since_play if what == "late" else self.rng.uniform(2, 7)
        if what in ("hit", "mishit", "miss", "deliberate"):
            self.emit("hit", wait, player=self.rng.randint(1, 4), contact="hit" if what == "deliberate" else what,
                      deliberate=what == "deliberate")
        elif what in ("tick", "late"):
            self.emit("tick", max(wait, 0))
        elif what == "approach.abort":
            self.emit("approach.abort", wait, how=self.rng.choice(["passed", "circled"]))
        else:
            self.emit(what, wait)

    def after_stroke(self) -> None:
        """How the ball just struck ends up: a goal, over a line, stopped, or in open play."""
        assert self.match.free_hit is not None  # a stroke is the free hit's
        penalty = self.match.free_hit.penalty
        scores = SCORES[penalty]
        what = self.pick({"goal": scores, "backline": 0.25, "sideline": 0.05, "stop": 0.1,
                          "late-play": 0.03, "open": 0.9 - scores})
        wait = self.rng.uniform(2, 8)
        self.stroke_just_taken = False
        if what == "goal":
            self.emit("goal", wait, team=self.team(), player=self.rng.randint(1, 4))
        elif what in ("backline", "sideline"):
            self.emit("ball.out", wait, over=what)
        elif what == "stop":
            self.emit("ball.stop", wait, yards_to_goal=self.rng.randint(3, 40))
        elif what == "late-play":
            self.emit("player.play", wait, team=self.team(self.rng.random() < 0.3), player=self.rng.randint(1, 4),
                      passed_teammate=False, ball_travelled=self.rng.randint(5, 50),
                      passed_midfield=self.rng.random() < 0.5)

    # -- open play -------------------------------------------------------------------

    def open_play(self) -> None:
        """A spell of open play, ended by a goal, a foul, the ball over the back line, or nothing to log."""
        what = self.pick({"goal": 4, "penalty": 5, "knockin": 3, "whistle": 1, "tick": 1, "card": 0.3,
                          "void": 0.2, "injury": 0.4})
        spell = self.rng.uniform(50, 140)
        if self.match.clock.since is not None:
            spell = min(spell, self.time_left() - 0.5)  # the horn ends the spell
        if spell <= 0:
            self.emit("tick", 1)  # the horn: nothing more to log in this chukker
            return
        if what in ("penalty", "knockin") and self.match.free_hit is None:
            self.emit("whistle", spell)  # the umpire's whistle stops the clock; the award follows
            spell = 0.0
        if what == "goal":
            self.emit("goal", spell, team=self.rng.choice(self.match.teams), player=self.rng.randint(1, 4))
        elif what == "penalty":
            self.award_penalty(max(spell, 0.4))
        elif what == "knockin":
            self.emit("knockin.award", max(spell, 0.4), to=self.rng.choice(self.match.teams))
        elif what == "whistle" and self.match.free_hit is not None:
            self.emit("whistle", spell)
        elif what == "card":
            self.emit("card", spell, team=self.rng.choice(self.match.teams), player=self.rng.randint(1, 4),
                      colour="yellow")
        elif what == "injury":
            self.emit("clock.stop", spell)  # the timekeeper stops the clock, and runs it again at the throw-in
            self.emit("clock.start", self.rng.uniform(60, 180))
        elif what == "void" and self.match.events[-1]["type"] in ("goal", "penalty.award", "knockin.award"):
            self.emit("void", self.rng.uniform(10, 40), seq=self.match.seq, reason="Referee overruled the call")
        else:
            self.emit("tick", spell)

    def award_penalty(self, after: float) -> None:
        penalty = self.pick(PENALTIES)
        fields: dict[str, Any] = {"penalty": penalty, "to": self.rng.choice(self.match.teams)}
        if penalty == "2" and self.rng.random() < 0.15:
            fields.update({"from": "spot", "yards_to_goal": self.rng.randint(25, 60)})
        if penalty == "2" and self.rng.random() < 0.03:
            fields["card"] = "yellow"
        if penalty == "5a":
            fields["yards_to_goal"] = self.rng.randint(20, 280)
        self.emit("penalty.award", after, **fields)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Print one generated match log (JSON Lines) of a seeded season.")
    parser.add_argument("seed", nargs="?", type=int, default=2026, help="the season's seed (default 2026)")
    for line in season(1, parser.parse_args().seed)[0]:
        print(line)
