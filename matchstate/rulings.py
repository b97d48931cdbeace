"""Free hits and rulings: what the engine gives for an event, with its rule and its words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rulebook import LANGUAGES, clause

PENALTY_NAMES = {
    "en": {"1": "Penalty 1", "2": "Penalty 2", "3": "Penalty 3", "4": "Penalty 4", "5a": "Penalty 5.a",
           "5b": "Penalty 5.b", "6": "Penalty 6 (safety)", "knockin": "Knock-in"},
    "es": {"1": "Penal 1", "2": "Penal 2", "3": "Penal 3", "4": "Penal 4", "5a": "Penal 5.a",
           "5b": "Penal 5.b", "6": "Penal 6 (safety)", "knockin": "Saque de fondo"},
}

# Why a ruling was given, by the violation (or, for a live ball, the stroke) it rests on.
# {against} is the team that violated, {team} the team the ruling favours.
REASONS: dict[str, dict[str, str]] = {
    "hit-before-play": {"en": "{against} hit the ball before the Umpire called “Play”",
                        "es": "{against} golpeó la bocha antes de que el Umpire dijera “Play”"},
    "first-approach": {"en": "{against} did not hit the ball, or hit at it, on the first approach",
                       "es": "{against} no golpeó la bocha, ni intentó golpearla, en la primera aproximación"},
    "twenty-seconds": {"en": "{against} took more than 20 seconds after “Play” to hit",
                       "es": "{against} tardó más de 20 segundos después de “Play” en golpear"},
    "dribble": {"en": "{against} made a preparatory dribble: this penalty is one stroke at goal",
                "es": "{against} hizo un dribble preparatorio: este penal es de un solo golpe"},
    "swing-and-miss": {"en": "{against} swung and missed", "es": "{against} erró el golpe"},
    "deliberate": {"en": "the Umpire judged that {against} deliberately missed, mis-hit, tapped or dribbled",
                   "es": "el Umpire juzgó que {against} erró, golpeó mal, tocó o dribleó deliberadamente"},
    "surface-altered": {"en": "{against} altered the surface of the field to tee up the ball",
                        "es": "{against} alteró la superficie de la cancha para acomodar la bocha"},
    "dismounted": {"en": "{against} dismounted to tee up the ball",
                   "es": "{against} desmontó para acomodar la bocha"},
    "retee": {"en": "{against} re-teed the ball after “Play”",
              "es": "{against} volvió a acomodar la bocha después de “Play”"},
    "attacking-position": {"en": "{against} was improperly positioned",
                           "es": "{against} estaba en posición indebida"},
    "defending-position": {"en": "{against} was improperly positioned",
                           "es": "{against} estaba en posición indebida"},
    "return-route": {"en": "a {against} player returned from off the field closer than 30 yards to the ball "
                           "or off the field",
                     "es": "un jugador de {against} regresó desde fuera de la cancha a menos de 30 yardas "
                           "de la bocha o por fuera de la cancha"},
    "early-play": {"en": "a {against} player made a play before reaching position, passing a teammate, "
                         "or the ball travelling 30 yards with the player past midfield",
                   "es": "un jugador de {against} hizo una jugada antes de alcanzar su posición, de pasar "
                         "a un compañero, o de que la bocha recorriera 30 yardas y él pasara la mitad de la cancha"},
    "both-teams": {"en": "both teams failed the procedure: the free hit is taken again",
                   "es": "ambos equipos violaron el procedimiento: se repite el tiro"},
    "stops-short": {"en": "the ball stopped before the end of the field",
                    "es": "la bocha se detuvo antes del final de la cancha"},
    "backline": {"en": "the ball went over the back line", "es": "la bocha salió por la línea de fondo"},
    "yellow-card": {"en": "{against} drew a yellow card in connection with a Penalty 2",
                    "es": "{against} recibió tarjeta amarilla en relación con un Penal 2"},
    "penalty-1": {"en": "Penalty 1 is a goal", "es": "el Penal 1 es un gol"},
    "stroke": {"en": "the ball was hit or hit at", "es": "la bocha fue golpeada o se intentó golpearla"},
    "missed-live": {"en": "a swing and miss or a mis-hit on this free hit is a live ball",
                    "es": "un golpe fallido o mal golpe en este tiro deja la bocha en juego"},
}
RULE_36 = {"en": "Rule 36", "es": "Regla 36"}
GOAL_PREVENTED = {"en": "; it prevented a goal", "es": "; impidió un gol"}
INCREASED = {"en": "; the increased penalty goes to {team}", "es": "; el penal aumentado es para {team}"}


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
        name = PENALTY_NAMES[lang][self.penalty]
        if lang == "es":
            where = "desde el centro, " if self.from_ == "center" else ""
            text = f"{name} para {self.to}, {where}a {_yards(self.yards_to_goal)} yardas del arco"
            return text if self.defended else text + ", sin defensa"
        where = "from the centre, " if self.from_ == "center" else ""
        text = f"{name} to {self.to}, {where}{_yards(self.yards_to_goal)} yards from goal"
        return text if self.defended else text + ", undefended"


def _yards(yards: float) -> float:
    return int(yards) if yards == int(yards) else yards


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the rules give for one event.

    ``kind`` is ``award`` or ``rehit`` (``free_hit`` is the free hit given), ``goal``
    (a goal to ``to``), ``choose`` (the umpire picks one of ``options``) or ``live``.
    """

    kind: str
    to: str | None = None
    free_hit: FreeHit | None = None
    options: tuple[Ruling, ...] = ()
    against: str | None = None
    violation: str | None = None
    cite: tuple[str, ...] = ()
    text: dict[str, str] = field(default_factory=dict)
    outcome: dict[str, str] = field(default_factory=dict)  # the ruling without its reason, by language

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
        out.update(against=self.against, violation=self.violation, cite=list(self.cite), text=dict(self.text))
        return out


def _explain(outcome: dict[str, str], reason: str, against: str | None, team: str | None,
             cite: tuple[str, ...], extra: dict[str, str] | None = None) -> dict[str, str]:
    texts = {}
    for lang in LANGUAGES:
        why = REASONS[reason][lang].format(against=against, team=team)
        if extra:
            why += extra[lang].format(team=team)
        words = ""
        if cite and cite[0].startswith("36/table:"):
            cell = clause(cite[0])
            words = f" {RULE_36[lang]}, {cell.heading[lang]}: “{cell.text[lang]}”."
        texts[lang] = f"{outcome[lang]}: {why}.{words}"
    return texts


def award(free_hit: FreeHit, *, reason: str, cite: tuple[str, ...], against: str | None = None,
          violation: str | None = None, kind: str = "award", extra: dict[str, str] | None = None) -> Ruling:
    """A new free hit (``kind="rehit"``: the same free hit again)."""
    outcome = {lang: free_hit.describe(lang) for lang in LANGUAGES}
    if kind == "rehit":
        outcome = {"en": f"Rehit, {outcome['en']}", "es": f"Se repite el tiro, {outcome['es']}"}
    return Ruling(kind, free_hit.to, free_hit, (), against, violation, cite,
                  _explain(outcome, reason, against, free_hit.to, cite, extra), outcome)


def goal(to: str, *, reason: str, cite: tuple[str, ...], against: str | None = None,
         violation: str | None = None, extra: dict[str, str] | None = None) -> Ruling:
    outcome = {"en": f"Goal to {to}", "es": f"Gol para {to}"}
    return Ruling("goal", to, None, (), against, violation, cite, _explain(outcome, reason, against, to, cite, extra),
                  outcome)


def choose(options: tuple[Ruling, ...], *, reason: str, cite: tuple[str, ...], against: str,
           violation: str, extra: dict[str, str] | None = None) -> Ruling:
    listed = {lang: "; ".join(f"{n}. {o.outcome[lang]}" for n, o in enumerate(options, 1))
              for lang in LANGUAGES}
    outcome = {"en": f"The Umpire chooses ({listed['en']})", "es": f"El Umpire elige ({listed['es']})"}
    return Ruling("choose", options[0].to, None, options, against, violation, cite,
                  _explain(outcome, reason, against, options[0].to, cite, extra), outcome)


def live(*, reason: str, cite: tuple[str, ...]) -> Ruling:
    outcome = {"en": "Ball in play", "es": "Bocha en juego"}
    return Ruling("live", None, None, (), None, None, cite, _explain(outcome, reason, None, None, cite), outcome)
