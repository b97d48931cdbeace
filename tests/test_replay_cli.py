"""`matchstate replay` and `matchstate rules`, as the match log spec's "Replaying a log" describes them.

The CLI runs in-process through ``matchstate.cli.main`` (fast); one test runs the installed script.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Scorer

from matchstate.cli import main

RULEBOOK = Path(__file__).parents[2] / "shared/rulebook/rule-36-uspa-2026.txt"
FINAL_FREE_HIT = {"penalty": "knockin", "to": "Red", "yards_to_goal": 300, "from": None, "defended": True}


@pytest.fixture
def chukker(start_match: type[Scorer]) -> Scorer:
    """A chukker's log: Red's improper position on Blue's Penalty 2, Penalty 1 chosen, then a knock-in."""
    scorer = start_match(handicap_goals={"Red": 1})
    scorer.log("chukker.start", chukker=1)
    scorer.award("2")
    scorer.log("ball.place")
    scorer.log("play")
    scorer.log("position.improper", team="Red")
    scorer.log("hit", player=3, contact="hit")
    scorer.log("whistle")
    scorer.log("decide", option=2)
    scorer.log("knockin.award", to="Red")
    return scorer


# seq, type, state after it, kind of its ruling (None: no ruling)
CHUKKER = [(1, "match.start", "idle", None), (2, "chukker.start", "idle", None),
           (3, "penalty.award", "awarded", None), (4, "ball.place", "placed", None),
           (5, "play", "play_called", None), (6, "position.improper", "play_called", None),
           (7, "hit", "live", "live"), (8, "whistle", "choosing", "choose"), (9, "decide", "idle", "goal"),
           (10, "knockin.award", "awarded", None)]


# What the final object gains in log format 1.2, for a log with none of its events (and no challenges).
NO_OFFICIALS: dict[str, Any] = {
    "clips": [], "reviews": [], "challenges_left": {"Blue": 0, "Red": 0}, "confirmed": [], "queried": []}


def write_log(tmp_path: Path, lines: list[str], name: str = "match.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json_prints_each_event_then_the_final_state(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            chukker: Scorer) -> None:
    code, out, err = run(capsys, "replay", "--json", write_log(tmp_path, chukker.lines()))
    assert code == 0 and err == ""
    *steps, last = [json.loads(line) for line in out.splitlines()]

    assert [set(step) for step in steps] == [{"seq", "type", "state", "ruling", "clock", "flags"}] * len(CHUKKER)
    assert [(s["seq"], s["type"], s["state"], s["ruling"] and s["ruling"]["kind"]) for s in steps] == CHUKKER
    assert last == {"final": {"score": {"Blue": 1, "Red": 1}, "state": "awarded", "free_hit": FINAL_FREE_HIT,
                              "clock": {"chukker": 1, "played": 6, "running": False, "phase": "play"},
                              "winner": None, **NO_OFFICIALS}}


def test_replay_json_rulings_carry_the_spec_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   chukker: Scorer) -> None:
    _, out, _ = run(capsys, "replay", "--json", write_log(tmp_path, chukker.lines()))
    rulings = {step["seq"]: step["ruling"] for step in map(json.loads, out.splitlines()[:-1])}
    choose, goal = rulings[8], rulings[9]
    assert [option["kind"] for option in choose["options"]] == ["rehit", "goal"]
    assert goal["to"] == "Blue" and goal["against"] == "Red"
    for ruling in (rulings[7], choose, goal):
        assert {"kind", "against", "violation", "cite", "text"} <= set(ruling)
        assert isinstance(ruling["cite"], list) and ruling["cite"]
        assert set(ruling["text"]) == {"en", "es"} and all(ruling["text"].values())
    rehit = choose["options"][0]
    assert {k: rehit[k] for k in ("penalty", "to", "yards_to_goal", "from", "defended")} == {
        "penalty": "2", "to": "Blue", "yards_to_goal": 30, "from": "center", "defended": False}


def test_replay_json_final_free_hit_is_null_when_none_is_in_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                     scorer: Scorer) -> None:
    scorer.strike("4")
    scorer.log("goal", team="Blue", player=3)
    code, out, _ = run(capsys, "replay", "--json", write_log(tmp_path, scorer.lines()))
    assert code == 0
    assert json.loads(out.splitlines()[-1]) == {"final": {"score": {"Blue": 1, "Red": 0}, "state": "idle",
                                                          "free_hit": None, "winner": None, "clock": {
                                                              "chukker": None, "played": 0, "running": False,
                                                              "phase": "before"}, **NO_OFFICIALS}}


def test_replay_blank_lines_are_skipped_in_seq_but_counted_in_line_numbers(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str],
                                                                           chukker: Scorer) -> None:
    start, *rest = chukker.lines()
    lines = ["", start, "", "  ", *rest]
    code, out, _ = run(capsys, "replay", "--json", write_log(tmp_path, lines))
    assert code == 0
    assert [json.loads(line)["seq"] for line in out.splitlines()[:-1]] == list(range(1, len(CHUKKER) + 1))

    refused = json.dumps(chukker.event("decide", option=1))  # nothing to choose any more
    code, out, err = run(capsys, "replay", "--json", write_log(tmp_path, [*lines, "", refused]))
    assert code == 2
    assert re.fullmatch(rf"line {len(lines) + 2}: \S.*\n", err)


def test_replay_refused_log_exits_2_with_line_and_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         scorer: Scorer) -> None:
    scorer.award("2")
    lines = [*scorer.lines(), json.dumps(scorer.event("hit", player=9, contact="hit")),
             json.dumps(scorer.event("whistle", dt=2))]
    for argv in (["--json"], []):
        code, _, err = run(capsys, "replay", *argv, write_log(tmp_path, lines))
        assert code == 2
        assert re.fullmatch(r"line 3: .*player.*\n", err)


def test_replay_not_utf8_exits_2_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 scorer: Scorer) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes("\n".join(scorer.lines()).encode() + '\n{"type": "goal", "team": "Ñandú"}\n'.encode("latin-1"))
    code, _, err = run(capsys, "replay", "--json", str(path))
    assert code == 2 and err.startswith("line 2: not UTF-8")


def test_replay_reads_a_log_saved_with_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         scorer: Scorer) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes("\n".join(scorer.lines()).encode("utf-8-sig"))
    code, out, _ = run(capsys, "replay", "--json", str(path))
    assert code == 0 and json.loads(out.splitlines()[0])["type"] == "match.start"


def test_replay_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], scorer: Scorer) -> None:
    code, _, err = run(capsys, "replay", "--json", write_log(tmp_path, [*scorer.lines(), "{oops"]))
    assert code == 2 and err.startswith("line 2: ")


@pytest.mark.parametrize("lines", [[], ["", "  "]], ids=["empty", "blank lines only"])
def test_replay_of_a_log_with_no_event_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  lines: list[str]) -> None:
    """A log lacking its match.start exited 0 with a score of nothing, as if it had replayed; it is refused in
    the words the import refuses it with, and nothing is printed as replayed."""
    path = write_log(tmp_path, lines)
    for argv, said in ((["--json"], "the log has no events\n"), (["--lang", "es"], "el registro no tiene eventos\n")):
        assert run(capsys, "replay", *argv, path) == (2, "", said)


def test_replay_timeline_shows_each_event_and_its_ruling(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         chukker: Scorer) -> None:
    path = write_log(tmp_path, chukker.lines())
    _, out, _ = run(capsys, "replay", "--json", path)
    rulings = [step["ruling"] for step in map(json.loads, out.splitlines()[:-1]) if step["ruling"]]

    code, timeline, _ = run(capsys, "replay", path)
    assert code == 0
    for seq, kind, state, _ in CHUKKER:
        assert re.search(rf"#{seq}\b.*{re.escape(kind)}.*{state}", timeline), (seq, kind)
    for ruling in rulings:
        assert ruling["text"]["en"] in timeline
    assert re.search(r"Blue\s+1\D+Red\s+1", timeline)


def test_replay_lang_es_gives_the_rulings_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     chukker: Scorer) -> None:
    path = write_log(tmp_path, chukker.lines())
    _, out, _ = run(capsys, "replay", "--json", path)
    rulings = [step["ruling"] for step in map(json.loads, out.splitlines()[:-1]) if step["ruling"]]

    code, timeline, _ = run(capsys, "replay", "--lang", "es", path)
    assert code == 0
    for ruling in rulings:
        assert ruling["text"]["es"] in timeline
        assert ruling["text"]["en"] not in timeline
    assert timeline.splitlines()[-1].startswith("Marcador: ") and "   estado: " in timeline.splitlines()[-1]


def test_replay_lang_es_refuses_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          scorer: Scorer) -> None:
    """The refusal's Spanish is in the catalog: it was printed in English whatever the language asked. Its place is
    written as the spec writes it, `line N: reason`, in either language (it was "línea N:" in Spanish)."""
    scorer.award("2")
    lines = [*scorer.lines(), json.dumps(scorer.event("hit", player=9, contact="hit"))]
    code, _, err = run(capsys, "replay", "--lang", "es", write_log(tmp_path, lines))
    assert code == 2 and err.startswith("line 3: ") and "player" in err and "must" not in err
    _, _, english = run(capsys, "replay", write_log(tmp_path, lines))
    assert english.startswith("line 3: ") and english != err


@pytest.mark.parametrize("rule_id, lang, words", [
    ("36/one-stroke", "en", "shall be taken in one stroke in an attempt to score"),
    ("36/one-stroke", "es", "se ejecutarán de un solo golpe con intención de marcar"),
    ("36/yellow-card-p2", "en", "a Penalty 1 shall be awarded to the fouled team"),
    ("36/yellow-card-p2", "es", "se otorgará un Penal 1 al equipo que sufrió el foul"),
    ("36/table:hit-before-play:5a", "en", "Less severe of Spot hit or Penalty 4 for defending team"),
    ("36/table:hit-before-play:5a", "es",
     "El menos severo entre tiro desde el lugar o Penal 4, para el equipo defensor"),
])
def test_rules_prints_the_rule_in_its_language(capsys: pytest.CaptureFixture[str], rule_id: str, lang: str,
                                               words: str) -> None:
    if RULEBOOK.exists():  # the words are the rulebook's own
        assert words in RULEBOOK.read_text(encoding="utf-8")
    code, out, err = run(capsys, "rules", rule_id, "--lang", lang)
    assert code == 0 and err == ""
    assert rule_id in out and words in out


def test_rules_defaults_to_english(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "36/stops-short")
    assert "if the ball stops before the end of the field" in out


def test_rules_unknown_id_fails_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "36/table:hit-before-play:7")
    assert code != 0 and out == ""
    assert "36/table:hit-before-play:7" in err and "Traceback" not in err


@pytest.mark.parametrize("how", ["console-script", "python-m"])
def test_installed_command_replays_a_log(tmp_path: Path, chukker: Scorer, how: str) -> None:
    script = shutil.which("matchstate", path=str(Path(sys.executable).parent))
    assert script, "the matchstate console script is installed next to this Python"
    command = [script] if how == "console-script" else [sys.executable, "-m", "matchstate"]
    done = subprocess.run([*command, "replay", "--json", write_log(tmp_path, chukker.lines())],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    *steps, last = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(steps) == len(CHUKKER)
    assert last["final"]["free_hit"] == FINAL_FREE_HIT


def test_replay_json_ruling_has_the_fields_of_the_spec_example(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               start_match: type[Scorer]) -> None:
    """The spec's example: a hit before Play on Blue's Penalty 2 gives Red a 5.a, with no `from`."""
    scorer = start_match()
    scorer.award("2")
    scorer.log("hit", player=3, contact="hit")
    code, out, _ = run(capsys, "replay", "--json", write_log(tmp_path, scorer.lines()))
    ruling = json.loads(out.splitlines()[2])["ruling"]
    assert code == 0
    assert set(ruling) == {"kind", "penalty", "to", "yards_to_goal", "defended", "against", "violation", "cite",
                           "text"}
    assert {k: ruling[k] for k in ("kind", "penalty", "to", "yards_to_goal", "defended", "against", "violation",
                                   "cite")} == {
        "kind": "award", "penalty": "5a", "to": "Red", "yards_to_goal": 270, "defended": True, "against": "Blue",
        "violation": "hit-before-play", "cite": ["36/table:hit-before-play:2"]}
    assert set(ruling["text"]) == {"en", "es"}
