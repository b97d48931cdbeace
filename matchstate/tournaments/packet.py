"""The results packet a federation asks for, per tournament: results, rosters with handicaps, officials, cards
and suspensions, goals by handicap and each match's head (its last seq and hash, and the store's signed receipt
of it), so the federation can check every result against the log."""

from __future__ import annotations

import csv
import io
from typing import Any

from .desk import Desk
from .discipline import PlayerRecord
from .flow import Progress, fixture_json

CSV_COLUMNS = ("fixture", "stage", "round", "day", "time", "field", "home", "away", "home_goals", "away_goals",
               "home_handicap_goals", "away_handicap_goals", "winner", "status", "match", "last_seq", "last_hash")


def packet(desk: Desk, progress: Progress, records: dict[tuple[str, str], PlayerRecord]) -> dict[str, Any]:
    tournament = progress.tournament
    codes = {fixture.match for fixture in tournament.fixtures if fixture.match}
    matches: list[dict[str, Any]] = []
    for fixture in tournament.fixtures:
        row = fixture_json(progress, fixture)
        state = progress.states.get(fixture.id)
        if state is not None:
            snapshot = desk.store.match(state.code)
            receipt = desk.store.receipt(state.code, snapshot.seq)
            row |= {"handicap_goals": dict(snapshot.info.get("handicap_goals") or {}),
                    "officials": list(snapshot.info.get("officials") or ()), "last_seq": snapshot.seq,
                    "last_hash": snapshot.hash, "receipt": receipt.to_json() if receipt else None,
                    "sheet": f"/matches/{state.code}/sheet"}
        matches.append(row)
    cards = [{"match": card.match, "seq": card.seq, "at": card.at.isoformat(), "team": card.team,
              "player": card.player, "name": card.name, "colour": card.colour}
             for record in records.values() for card in record.cards if card.match in codes]
    suspensions = [{"team": s.team, "name": s.name, "seconds": s.seconds, "earned_in": s.earned_in,
                    "served_in": s.served_in, "passed": list(s.passed)}
                   for record in records.values() for s in record.suspensions
                   if s.earned_in in codes or s.served_in in codes]
    return {"tournament": {"slug": tournament.slug, "name": tournament.name, "starts": tournament.starts,
                           "ends": tournament.ends, "venue": tournament.venue,
                           "conditions": tournament.to_json()["conditions"], "draw": tournament.draw,
                           "officials": list(tournament.officials)},
            "teams": [{"name": team.name, "handicap": team.handicap,
                       "roster": [{"player": p.player, "name": p.name, "handicap": p.handicap} for p in team.roster]}
                      for team in tournament.teams],
            "matches": matches, "standings": progress.to_json()["groups"], "cards": sorted(cards, key=str),
            "suspensions": suspensions}


def packet_csv(made: dict[str, Any]) -> str:
    """The packet's results, one line per fixture."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for match in made["matches"]:
        score = match.get("score") or {}
        handicap = match.get("handicap_goals") or {}
        home, away = match["home"], match["away"]
        writer.writerow([match["id"], match["stage"], match["round"], match["day"], match["time"], match["field"],
                         home or "", away or "", score.get(home, ""), score.get(away, ""), handicap.get(home, ""),
                         handicap.get(away, ""), match["winner"] or "", match["status"], match["match"] or "",
                         match.get("last_seq", ""), match.get("last_hash", "")])
    return out.getvalue()
