"""C2SP tiled logs (c2sp.org/tlog-tiles): a log as static files any web host or mirror can keep and serve.

    checkpoint                      the signed checkpoint the tiles are of
    tile/<L>/<N>[.p/<W>]            level L's tile N: 256 hashes (a partial one W), each the root of 256**L leaves
    tile/entries/<N>[.p/<W>]        the entries of level 0's tile N, each a big-endian uint16 length, then its bytes

:func:`write` writes them from any :class:`~matchstate.tlog.merkle.Subtrees`; :class:`TileTree` reads them back
as one, so that any inclusion or consistency proof is made from the files alone (:func:`proven_entry`).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import NotProven
from . import merkle
from .checkpoint import Checkpoint, SignedCheckpoint
from .note import Note
from .policy import Policy

HEIGHT = 8
WIDTH = 1 << HEIGHT  # hashes in a full tile
MAX_ENTRY = 0xFFFF  # the length prefix's largest


def tile_path(level: int | str, index: int, width: int = WIDTH) -> str:
    """The path of a tile (``level`` "entries" for an entry bundle): its index in 3-digit elements, all but the
    last with an ``x``; ``.p/<width>`` for a partial one."""
    digits = f"{index:03d}"
    digits = "0" * (-len(digits) % 3) + digits
    parts = [digits[at:at + 3] for at in range(0, len(digits), 3)]
    path = f"tile/{level}/" + "/".join([*("x" + part for part in parts[:-1]), parts[-1]])
    return path if width == WIDTH else f"{path}.p/{width}"


def _tiles(size: int, level: int) -> list[tuple[int, int]]:
    """Level ``level``'s tiles of a tree of ``size`` leaves: (index, width) of each, full ones then a partial one."""
    hashes = size >> (HEIGHT * level)
    tiles = [(index, WIDTH) for index in range(hashes // WIDTH)]
    return tiles + ([(hashes // WIDTH, hashes % WIDTH)] if hashes % WIDTH else [])


def write(folder: Path, checkpoint: str, tree: merkle.Subtrees, entries: Sequence[bytes]) -> int:
    """Write the tiles of the signed ``checkpoint``'s tree (``tree`` its hashes, ``entries`` its leaves' data, at
    least as many as its size) into ``folder``; the number of files written."""
    size = Checkpoint.from_text(Note.parse(checkpoint).text).size
    written = 0

    def put(path: str, data: bytes) -> None:
        nonlocal written
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1

    put("checkpoint", checkpoint.encode("utf-8"))
    level = 0
    while size >> (HEIGHT * level):
        span = 1 << (HEIGHT * level)  # leaves under each hash of this level
        for index, width in _tiles(size, level):
            first = index * WIDTH
            put(tile_path(level, index, width), b"".join(
                tree.range_hash((first + i) * span, (first + i + 1) * span) for i in range(width)))
        level += 1
    for index, width in _tiles(size, 0):
        bundle = []
        for entry in entries[index * WIDTH:index * WIDTH + width]:
            if len(entry) > MAX_ENTRY:
                raise ValueError(f"an entry of a tile is at most {MAX_ENTRY} bytes, not {len(entry)}")
            bundle.append(struct.pack(">H", len(entry)) + entry)
        put(tile_path("entries", index, width), b"".join(bundle))
    return written


class TileTree:
    """The hashes of the tree of ``size`` leaves whose tiles are in ``folder``, read from them (a
    :class:`~matchstate.tlog.merkle.Subtrees`); :class:`NotProven` where a tile is missing or of the wrong size."""

    def __init__(self, folder: Path, size: int) -> None:
        self.folder, self.size = folder, size
        self._read: dict[tuple[int, int], bytes] = {}

    def _tile(self, level: int, index: int) -> bytes:
        if (level, index) not in self._read:
            width = dict(_tiles(self.size, level)).get(index)
            if width is None:
                raise NotProven(f"a tree of {self.size} leaves has no tile {level}/{index}")
            try:
                data = (self.folder / tile_path(level, index, width)).read_bytes()
            except OSError as err:
                raise NotProven(f"tile {tile_path(level, index, width)} cannot be read: {err}") from None
            if len(data) != width * merkle.HASH_SIZE:
                raise NotProven(f"tile {tile_path(level, index, width)} is not {width} hashes")
            self._read[(level, index)] = data
        return self._read[(level, index)]

    def node(self, height: int, index: int) -> bytes:
        """The root of the 2**height leaves from index * 2**height on (a complete subtree)."""
        if height % HEIGHT == 0:
            level, at = height // HEIGHT, index % WIDTH
            return self._tile(level, index // WIDTH)[at * merkle.HASH_SIZE:(at + 1) * merkle.HASH_SIZE]
        return merkle.node_hash(self.node(height - 1, 2 * index), self.node(height - 1, 2 * index + 1))

    def range_hash(self, start: int, end: int) -> bytes:
        size = end - start
        if size & (size - 1) == 0 and start % size == 0:
            return self.node(size.bit_length() - 1, start // size)
        k = merkle.split(size)
        return merkle.node_hash(self.range_hash(start, start + k), self.range_hash(start + k, end))

    def entry(self, index: int) -> bytes:
        """Entry ``index``'s bytes, from its bundle."""
        width = dict(_tiles(self.size, 0)).get(index // WIDTH)
        if width is None or index >= self.size:
            raise NotProven(f"a tree of {self.size} leaves has no entry {index}")
        return self._bundle(index // WIDTH, width)[index % WIDTH]

    def entries(self) -> Iterator[bytes]:
        """Every entry's bytes, in order, each bundle read once."""
        for index, width in _tiles(self.size, 0):
            yield from self._bundle(index, width)

    def _bundle(self, index: int, width: int) -> list[bytes]:
        path = tile_path("entries", index, width)
        try:
            data = (self.folder / path).read_bytes()
        except OSError as err:
            raise NotProven(f"entry bundle {path} cannot be read: {err}") from None
        entries, at = [], 0
        while at + 2 <= len(data):
            (length,) = struct.unpack_from(">H", data, at)
            entries.append(data[at + 2:at + 2 + length])
            at += 2 + length
        if at != len(data) or len(entries) != width:
            raise NotProven(f"entry bundle {path} is not {width} length-prefixed entries")
        return entries


def proven_entry(folder: Path, policy: Policy, index: int) -> tuple[bytes, SignedCheckpoint]:
    """Entry ``index`` of the tiled log in ``folder``, and its checkpoint, once ``policy`` holds of the checkpoint
    and the tiles alone prove the entry in it; else :class:`NotProven`."""
    try:
        note = (folder / "checkpoint").read_bytes()
    except OSError as err:
        raise NotProven(f"the tiles' checkpoint cannot be read: {err}") from None
    signed = policy.open(note)
    tree = TileTree(folder, signed.checkpoint.size)
    entry = tree.entry(index)
    proof = merkle.inclusion_proof(tree, index, signed.checkpoint.size)
    if not merkle.verify_inclusion(index, signed.checkpoint.size, merkle.leaf_hash(entry), proof,
                                   signed.checkpoint.root):
        raise NotProven(f"the tiles do not prove entry {index} in the checkpoint of {signed.checkpoint.size} leaves")
    return entry, signed
