#!/usr/bin/env python3
"""Throughput of matchstate on a generated season of match logs.

    scripts/bench [--matches N] [--repeat R] [--seed S] [--only SECTION]

Every section times its measures on the same season and adds rows to one table:
events per second (median of the repetitions), the 99th percentile of the time per
log, and the time per event as a multiple of a baseline measured in the same run.
To add a section, write a function ``name(bench)`` that calls ``bench.measure``
(or ``bench.record`` for timings taken its own way) and decorate it with ``@section``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from season import season  # noqa: E402

from matchstate import Match  # noqa: E402
from matchstate.log import replay  # noqa: E402

SECTIONS: dict[str, Callable[[Bench], None]] = {}


def section(run: Callable[[Bench], None]) -> Callable[[Bench], None]:
    """Register a section of the benchmark under its function's name."""
    SECTIONS[run.__name__] = run
    return run


@dataclass
class Row:
    section: str
    name: str
    events: int  # events handled in one repetition
    seconds: list[float]  # wall time of each repetition
    latencies: list[float] = field(default_factory=list)  # time of each unit (a log, a request...), every repetition
    baseline: Row | None = None

    @property
    def per_event(self) -> float:
        return statistics.median(self.seconds) / self.events

    def cells(self) -> list[str]:
        p99 = f"{statistics.quantiles(self.latencies, n=100)[98] * 1e3:.3f} ms" if len(self.latencies) > 1 else "-"
        ratio = (f"{self.per_event / self.baseline.per_event:.1f} times the baseline's time per event"
                 if self.baseline else "baseline")
        return [self.section, self.name, f"{1 / self.per_event:,.0f}", p99, ratio]


class Bench:
    """The season under test, the repetitions, and the rows measured so far."""

    def __init__(self, logs: list[list[str]], repeat: int) -> None:
        self.logs, self.repeat = logs, repeat
        self.events = sum(map(len, logs))
        self.rows: list[Row] = []
        self.section = ""

    def measure(self, name: str, per_log: Callable[[list[str]], object], baseline: Row | None = None) -> Row:
        """Time ``per_log`` over every log of the season, ``repeat`` times."""
        seconds, latencies = [], []
        clock = time.perf_counter
        for _ in range(self.repeat):
            gc.collect()
            start = clock()
            for lines in self.logs:
                begun = clock()
                per_log(lines)
                latencies.append(clock() - begun)
            seconds.append(clock() - start)
        return self.record(name, self.events, seconds, latencies, baseline)

    def record(self, name: str, events: int, seconds: list[float], latencies: list[float] = (),
               baseline: Row | None = None) -> Row:
        """Add a row for timings taken elsewhere."""
        row = Row(self.section, name, events, list(seconds), list(latencies), baseline)
        self.rows.append(row)
        print(f"  {row.section}: {row.name}: {1 / row.per_event:,.0f} events/s", file=sys.stderr)
        return row

    def table(self) -> str:
        head = ["section", "measure", "events/s (median)", "p99 per log", "time per event"]
        rows = [head] + [row.cells() for row in self.rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
        lines = ["  ".join(c.rjust(w) if i == 2 or i == 3 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                 + "  " + r[-1] for r in rows]
        lines.insert(1, "-" * max(map(len, lines)))
        return "\n".join(lines)


def parse_only(lines: list[str]) -> None:
    for line in lines:
        json.loads(line)


def full_replay(lines: list[str]) -> None:
    for _ in replay(lines, Match()):
        pass


@section
def replay_log(bench: Bench) -> None:
    """A whole log replayed into a new Match, every step consumed, against only decoding its lines."""
    baseline = bench.measure("json.loads each line", parse_only)
    bench.measure("log.replay into a new Match", full_replay, baseline)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--matches", type=int, default=1000, help="matches in the season (default 1000)")
    args.add_argument("--repeat", type=int, default=5, help="repetitions of each measure (default 5)")
    args.add_argument("--seed", type=int, default=2026, help="the season's seed (default 2026)")
    args.add_argument("--only", choices=sorted(SECTIONS), action="append", help="run only this section (repeatable)")
    options = args.parse_args(argv)

    started = time.perf_counter()
    logs = season(options.matches, options.seed)
    bench = Bench(logs, options.repeat)
    print(f"season: {len(logs):,} matches, {bench.events:,} events (seed {options.seed}, "
          f"generated in {time.perf_counter() - started:.1f} s); {options.repeat} repetitions; "
          f"Python {platform.python_version()} on {platform.machine()}\n")
    for name in options.only or SECTIONS:
        bench.section = name
        SECTIONS[name](bench)
    print(bench.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
