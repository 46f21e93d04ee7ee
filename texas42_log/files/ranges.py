"""A JSON Lines file cut into whole-line byte ranges, each read by the worker it is
handed to (:mod:`texas42_log.corpus.validation`, :mod:`texas42_log.corpus.conversion`):
the parent ships no data at all. The reader re-exports these names.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from .inputs import bounded_lines
from .validate import DEFAULT_MAX_BYTES

__all__ = ["CHUNK", "Range", "ranges", "range_lines"]

#: A JSON Lines file is handed to worker processes in ranges of about this many
#: bytes: each worker reads its own range, so the parent ships no data at all.
CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Range:
    """Lines ``first_line``… of ``path`` between two byte offsets (whole lines)."""

    path: str
    start: int
    end: int
    first_line: int


def ranges(path: str) -> Iterator[Range]:
    """Cut a JSON Lines file into whole-line ranges of about :data:`CHUNK` bytes,
    counting lines as it goes. One pass, a block at a time: each block is searched
    once (linear however long a line is), and memory stays at one block."""
    block_size = 64 * 1024
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        start, line = 0, 1
        while start < size:
            # the first newline at or after start + CHUNK ends this range
            pos = min(start + CHUNK, size)
            f.seek(pos)
            end = size
            while pos < size:
                block = f.read(block_size)
                if not block:
                    break
                k = block.find(b"\n")
                if k >= 0:
                    end = pos + k + 1
                    break
                pos += len(block)
            f.seek(start)
            lines, left = 0, end - start
            while left > 0:
                block = f.read(min(block_size * 16, left))
                if not block:
                    break
                lines += block.count(b"\n")
                left -= len(block)
            yield Range(path, start, end, line)
            start, line = end, line + lines


def range_lines(
    r: Range, max_bytes: int = DEFAULT_MAX_BYTES
) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each line of range ``r`` (a worker reads its own
    range): ``line`` None when it is longer than ``max_bytes`` (skipped, never held)."""
    with open(r.path, "rb") as f:
        f.seek(r.start)
        if r.end - r.start <= 4 * CHUNK:
            # the common range: read whole, split in C
            for k, raw in enumerate(f.read(r.end - r.start).split(b"\n")):
                yield r.first_line + k, raw + b"\n", len(raw) + 1
            return
        # a range made long by a long line: a line at a time, each bounded, never held whole
        pos = r.start
        for k, line, size in bounded_lines(f, max_bytes):
            yield r.first_line + k - 1, line, size
            pos += size
            if pos >= r.end:
                break
