"""Concurrent writers and crashes: the chain stays whole and every writer is told the truth."""

import json
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from conftest import match_log

from matchstate.errors import ConflictError
from matchstate.store import Store, Summary

WRITERS = 8
# SIGKILLs of an appending child per engine, each after a chosen number of its reported appends: counted, not
# timed, so a loaded machine runs the same crashes, only slower.
CRASH_CYCLES = 6


def url_of(store: Store) -> str:
    return store.url.render_as_string(hide_password=False)


class Race:
    """Writers racing to append the next event of one match: what each was told, by device id."""

    def __init__(self, code: str, log: list[dict[str, Any]]) -> None:
        self.code, self.log = code, log
        self.committed: dict[str, int] = {}  # device id -> the seq the writer was told
        self.conflicted: list[str] = []
        self._lock = threading.Lock()

    def attempt(self, store: Store, device_id: str) -> None:
        """Append the event after the head ``store`` sees, and keep what the store answered."""
        seq = store.match(self.code).seq
        event = {**self.log[seq], "id": device_id}
        try:
            appended = store.append(self.code, event, expected_seq=seq)
        except ConflictError as conflict:
            assert conflict.current_seq > seq
            with self._lock:
                self.conflicted.append(device_id)
        else:
            assert appended.event.seq == seq + 1 and not appended.duplicate
            with self._lock:
                self.committed[device_id] = appended.event.seq


def test_writers_on_one_match_fork_nothing(store: Store) -> None:
    log = match_log("m-1", 400)
    store.create_match(log[0])
    race = Race("m-1", log)

    def writer(number: int) -> None:
        own = Store(url_of(store))  # a device of its own: its own engine cache and connections
        for attempt in range(15):
            race.attempt(own, f"writer {number}/{attempt}")
        own.close()

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    stored = store.events("m-1")
    assert [event.seq for event in stored] == list(range(1, len(stored) + 1))  # gapless
    assert {event.device_id: event.seq for event in stored[1:]} == race.committed  # each told the truth, once
    assert not set(race.conflicted) & set(race.committed)
    assert len(race.committed) + len(race.conflicted) == WRITERS * 15
    assert store.verify() == []


def test_writers_on_their_own_matches_all_commit(store: Store) -> None:
    logs = [match_log(f"m-{number}", 30) for number in range(WRITERS)]
    errors: list[BaseException] = []

    def writer(log: list[dict[str, Any]]) -> None:
        try:
            store.create_match(log[0])
            for seq, event in enumerate(log[1:], 1):
                store.append(log[0]["match"], event, expected_seq=seq)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(log,)) for log in logs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    summaries = [summary for summary in store.summaries() if isinstance(summary, Summary)]
    assert sorted((summary.code, summary.last_seq) for summary in summaries) == [
        (f"m-{number}", 30) for number in range(WRITERS)]
    assert store.verify() == []


# Appends the log's events after the stored ones, printing each seq once its append has returned.
CHILD = """
import json, sys
from matchstate.store import Store
url, code, path = sys.argv[1:]
with open(path) as lines:
    log = [json.loads(line) for line in lines]
store = Store(url)
seq = store.match(code).seq
while seq < len(log):
    seq = store.append(code, log[seq], expected_seq=seq).event.seq
    print(seq, flush=True)
"""


def test_appends_reported_committed_survive_sigkill(store: Store, tmp_path: Path) -> None:
    log = match_log("m-1", 20_000)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in log))
    store.create_match(log[0])
    rng = random.Random(36)
    reported: set[int] = set()
    kills = 0
    for _ in range(CRASH_CYCLES):
        child = subprocess.Popen([sys.executable, "-c", CHILD, url_of(store), "m-1", str(path)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        # It is appending now: it is killed after it has reported some appends, somewhere inside the next.
        output = "".join(child.stdout.readline() for _ in range(rng.randint(1, 40)))
        child.send_signal(signal.SIGKILL)
        output += child.stdout.read()
        child.wait()
        assert child.returncode == -signal.SIGKILL, "the child ended before it was killed"
        reported.update(int(seq) for seq in output.split())
        kills += 1

    assert kills == CRASH_CYCLES and len(reported) > kills
    stored = store.events("m-1")
    assert [event.seq for event in stored] == list(range(1, len(stored) + 1))
    assert reported <= {event.seq for event in stored}
    assert [json.loads(event.raw) for event in stored] == log[:len(stored)]
    assert store.verify() == []
    assert store.append("m-1", log[len(stored)], expected_seq=len(stored)).event.seq == len(stored) + 1


RACE_ROUNDS = 40


def test_two_servers_racing_a_retry_both_get_the_stored_result(store: Store) -> None:
    """A device's retry reaches two servers on one database at once (issue 9, finding 3: on PostgreSQL one of
    them answered with a UniqueViolation): each gets the one stored result, with or without expected_seq."""
    log = match_log("m-1", RACE_ROUNDS + 1)
    store.create_match(log[0])
    servers = [Store(url_of(store)) for _ in range(2)]
    for server in servers:
        server.match("m-1")  # each with its cache warm, as a running server has
    start = threading.Barrier(2, timeout=30)
    for seq in range(2, RACE_ROUNDS + 2):
        expected = seq - 1 if seq % 2 else None
        answers: list[Any] = [None, None]

        def send(number: int, event: dict[str, Any] = log[seq - 1], expected: int | None = expected,
                 answers: list[Any] = answers) -> None:
            start.wait()
            try:
                answers[number] = servers[number].append("m-1", event, expected_seq=expected)
            except Exception as err:  # reported below, from the test's own thread
                answers[number] = err

        threads = [threading.Thread(target=send, args=(number,)) for number in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert not [answer for answer in answers if isinstance(answer, Exception)], answers
        assert sorted(answer.duplicate for answer in answers) == [False, True]
        assert answers[0].event == answers[1].event and answers[0].event.seq == seq
        assert answers[0].receipt == answers[1].receipt and answers[0].match == answers[1].match
    stored = store.events("m-1")
    assert [event.seq for event in stored] == list(range(1, RACE_ROUNDS + 2))
    assert store.verify() == []
    for server in servers:
        server.close()
