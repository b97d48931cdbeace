"""The league log as C2SP tlog-tiles static files: the tiles' paths and widths as the spec gives them, every
proof made from the files alone equal to the tree's own, a changed byte found, and ``archive --season`` writing
the store's league log so that an entry is proven from the tiles and the policy alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import match_log
from witness_helpers import MemoryLog

from matchstate import jcs
from matchstate.cli import main
from matchstate.errors import NotProven
from matchstate.evidence import POLICY
from matchstate.store import Store
from matchstate.tlog import merkle, tiles
from matchstate.tlog.policy import Policy


def tiled(folder: Path, size: int) -> tuple[MemoryLog, list[bytes]]:
    log = MemoryLog()
    entries = [f"entry {index}".encode() for index in range(size)]
    for entry in entries:
        log.leaves.append(merkle.leaf_hash(entry))
    tiles.write(folder, log.checkpoint(), log.leaves, entries)
    return log, entries


def test_tile_paths_are_the_specs() -> None:
    assert tiles.tile_path(0, 1234067) == "tile/0/x001/x234/067"
    assert tiles.tile_path(1, 5, 17) == "tile/1/005.p/17"
    assert tiles.tile_path("entries", 1000) == "tile/entries/x001/000"


def test_a_tree_of_70000_leaves_has_the_tiles_the_spec_counts(tmp_path: Path) -> None:
    tiled(tmp_path, 70_000)
    level0 = [path for path in (tmp_path / "tile" / "0").rglob("*") if path.is_file()]
    assert len(level0) == 274 and (tmp_path / tiles.tile_path(0, 273, 112)).stat().st_size == 112 * 32
    assert (tmp_path / tiles.tile_path(1, 0)).stat().st_size == 256 * 32
    assert (tmp_path / tiles.tile_path(1, 1, 17)).exists() and (tmp_path / tiles.tile_path(2, 0, 1)).exists()
    assert len([path for path in (tmp_path / "tile" / "entries").rglob("*") if path.is_file()]) == 274


@pytest.mark.parametrize("size", [1, 7, 256, 257, 600, 65_536 + 300])
def test_every_proof_from_the_tiles_alone_is_the_trees(tmp_path: Path, size: int) -> None:
    log, entries = tiled(tmp_path, size)
    tree = tiles.TileTree(tmp_path, size)
    assert merkle.root(tree, size) == merkle.root(log.leaves, size)
    for index in sorted({0, 1, size // 2, size - 256, size - 1} & set(range(size))):
        assert tree.entry(index) == entries[index]
        assert merkle.inclusion_proof(tree, index, size) == merkle.inclusion_proof(log.leaves, index, size)
        assert merkle.consistency_proof(tree, index + 1, size) == merkle.consistency_proof(log.leaves, index + 1,
                                                                                           size)
    policy = Policy.parse(f"log {log.signer.verifier.vkey()}\nquorum none\n")
    assert tiles.proven_entry(tmp_path, policy, size - 1)[0] == entries[-1]


@pytest.mark.parametrize("path", ["tile/0/000.p/7", "tile/entries/000.p/7", "checkpoint"])
def test_a_changed_byte_of_a_tile_an_entry_or_the_checkpoint_is_found(tmp_path: Path, path: str) -> None:
    log, _ = tiled(tmp_path, 7)
    policy = Policy.parse(f"log {log.signer.verifier.vkey()}\nquorum none\n")
    data = bytearray((tmp_path / path).read_bytes())
    data[len(data) // 2 if path != "checkpoint" else data.index(b"\n") + 1] ^= 1  # the checkpoint's size
    (tmp_path / path).write_bytes(bytes(data))
    with pytest.raises(NotProven):
        for index in range(7):
            tiles.proven_entry(tmp_path, policy, index)


def test_archive_of_a_season_writes_the_league_log_as_tiles_that_prove_its_leaves(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    log = match_log("m-1", 5)
    store.create_match(log[0])
    answers = [store.append("m-1", event) for event in log[1:]]
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    assert str(tmp_path / "season" / "log") in capsys.readouterr().out
    policy = Policy.parse((tmp_path / "season" / "m-1" / POLICY).read_bytes())
    size = tiles.proven_entry(tmp_path / "season" / "log", policy, 0)[1].checkpoint.size
    appends = {}
    for index in range(size):  # every leaf: the acts (the league key, the match created) and the appends
        entry, _ = tiles.proven_entry(tmp_path / "season" / "log", policy, index)
        leaf = json.loads(entry)
        assert jcs.canonical(leaf) == entry
        if leaf["kind"] == "append":
            appends[leaf["seq"]] = leaf["hash"]
    assert sorted(appends) == [1, 2, 3, 4, 5] and appends[5] == answers[-1].event.hash
