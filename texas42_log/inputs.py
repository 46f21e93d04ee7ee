"""Reading inputs with limits: the one way every command opens what a user names.

This is I/O (beside the CLI and :mod:`texas42_log.corpus`); the readers of each
format take the bytes it returns and never open anything themselves.

* A regular file is read whole only when it is within its limit, checked before
  a byte is read; a larger one is refused with its size and the limit.
* A named pipe is opened without waiting for a writer: one with nothing to read
  is refused at once, one that is being written is read up to the limit. A
  device (``/dev/zero``), a socket, a directory: refused by name.
* Standard input is read up to the limit, never further.
* JSON Lines are read a line at a time, each line bounded: an over-long line is
  skipped without being held, and reported by its number.
* Directories are walked without following symbolic links to directories (a
  link loop cannot trap the walk); unreadable directories and dangling or
  looping links are reported by name. Globs are matched by the same walk.

Every problem is an :class:`InputError`: one sentence naming the input.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Final

__all__ = [
    "InputError",
    "reading",
    "read_bytes",
    "read_stream",
    "bounded_lines",
    "expand_inputs",
    "LOG_SUFFIXES",
    "megabytes",
]

#: The file names a directory is searched for.
LOG_SUFFIXES: Final = (".json", ".jsonl", ".ndjson", ".t42", ".receipt", ".plunge")
_GLOB_CHARS: Final = set("*?[")
_BLOCK: Final = 1 << 16


class InputError(ValueError):
    """An input cannot be found or read. ``usage`` is True when the name itself is
    wrong (nothing by that name: exit 2); otherwise the input exists and is refused
    (exit 1)."""

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


def megabytes(n: int) -> str:
    """``n`` bytes for a sentence: "16.8 MB"."""
    return f"{n / 1e6:,.1f} MB"


@contextmanager
def reading(name: str) -> Iterator[None]:
    """OS errors while reading ``name`` become one-sentence :class:`InputError`\\ s."""
    try:
        yield
    except FileNotFoundError:
        raise InputError(f"{name}: no such file", usage=True) from None
    except IsADirectoryError:
        raise InputError(f"{name} is a directory, not a log file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied (the file cannot be read)") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise InputError(f"{name}: a loop of symbolic links; it leads to no file") from None
        raise InputError(f"{name}: cannot be read ({e.strerror})") from None


def _too_large(name: str, size: int | None, limit: int, hint: str) -> InputError:
    what = f"is {megabytes(size)}" if size is not None else f"holds more than {megabytes(limit)}"
    return InputError(f"{name} {what}; the limit is {megabytes(limit)}{hint}")


def read_stream(handle: IO[bytes], name: str, limit: int, hint: str = "") -> bytes:
    """At most ``limit`` bytes of ``handle`` (standard input): more is refused, unread."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(name, None, limit, hint)
    return data


def read_bytes(name: str, limit: int, hint: str = "") -> bytes:
    """The bytes of the file ``name`` (see the module's notes); ``hint`` ends the
    too-large sentence (such as "; raise it with --max-bytes")."""
    with reading(name):
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            st = os.fstat(fd)
            mode = st.st_mode
            if stat.S_ISDIR(mode):
                raise InputError(f"{name} is a directory, not a log file")
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                raise InputError(f"{name} is a device, not a log file")
            if stat.S_ISSOCK(mode):
                raise InputError(f"{name} is a socket, not a log file")
            first = b""
            if stat.S_ISFIFO(mode):
                try:
                    first = os.read(fd, _BLOCK)
                except BlockingIOError:
                    first = b""  # a writer is there, not yet writing: wait for it below
                else:
                    if not first:
                        raise InputError(f"{name} is a named pipe with nothing written to it; give a file, "
                                         "or start its writer first")
            elif st.st_size > limit:
                raise _too_large(name, st.st_size, limit, hint)
            os.set_blocking(fd, True)
            chunks = [first]
            total = len(first)
            while total <= limit:
                block = os.read(fd, min(_BLOCK if stat.S_ISFIFO(mode) else 1 << 20, limit + 1 - total))
                if not block:
                    break
                chunks.append(block)
                total += len(block)
            if total > limit:
                raise _too_large(name, st.st_size if stat.S_ISREG(mode) and st.st_size > limit else None, limit, hint)
            return b"".join(chunks)
        finally:
            os.close(fd)


def bounded_lines(handle: IO[bytes], limit: int) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each line of ``handle`` (from 1). A line longer
    than ``limit`` bytes comes as ``None`` with its size: it was skipped, a block at
    a time, and never held whole."""
    number = 0
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) <= limit or line.endswith(b"\n"):
            yield number, line, len(line)
            continue
        size = len(line)
        while True:
            block = handle.readline(1 << 20)
            size += len(block)
            if not block or block.endswith(b"\n"):
                break
        yield number, None, size


# -- finding inputs -----------------------------------------------------------------

def _walk(root: str, problems: list[str]) -> Iterator[str]:
    """Every file below ``root``, sorted, not following links to directories."""

    def onerror(e: OSError) -> None:
        problems.append(f"{e.filename}: permission denied (the directory cannot be listed)"
                        if isinstance(e, PermissionError) else f"{e.filename}: cannot be listed ({e.strerror})")

    for folder, dirs, files in os.walk(root, onerror=onerror, followlinks=False):
        dirs.sort()
        for f in sorted(files):
            yield os.path.join(folder, f)
        for d in dirs:
            path = os.path.join(folder, d)
            if os.path.islink(path) and not os.path.exists(path):
                problems.append(f"{path}: a symbolic link that leads nowhere (dangling, or a loop)")


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A path pattern as a regular expression: ``**`` any folders, ``*`` and ``?`` within one."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (j := pattern.find("]", i + 2)) > 0:
            out.append(fnmatch.translate(pattern[i : j + 1])[4:-3])
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _glob(pattern: str, problems: list[str]) -> list[str]:
    parts = pattern.split("/")
    fixed: list[str] = []
    for p in parts[:-1]:
        if _GLOB_CHARS & set(p):
            break
        fixed.append(p)
    root = "/".join(fixed) or ("/" if fixed else ".")
    if not os.path.isdir(root):
        return []
    regex = _glob_regex(pattern)
    found = []
    for path in _walk(root, problems):
        shown = path[2:] if root == "." and path.startswith("./") else path
        if regex.match(shown) and not os.path.basename(path).startswith("."):
            found.append(shown)
    return sorted(found)


def expand_inputs(args: Iterable[str], suffixes: tuple[str, ...] = LOG_SUFFIXES) -> list[str]:
    """Files, directories (recursively: the files ending in ``suffixes``) and globs →
    file list, in the order given; a directory's or glob's files sorted. ``-`` is
    standard input. :class:`InputError` for a name that matches nothing, a
    directory that cannot be listed, a link that leads nowhere."""
    out: list[str] = []
    for arg in args:
        if arg == "-":
            out.append(arg)
            continue
        problems: list[str] = []
        if os.path.isdir(arg):
            found = [f for f in _walk(arg, problems)
                     if f.endswith(suffixes) and not os.path.basename(f).startswith(".")]
            if problems:
                raise InputError(problems[0])
            if not found:
                raise InputError(f"{arg}: no log files ({', '.join(suffixes)}) in this directory", usage=True)
            out.extend(found)
        elif os.path.lexists(arg):
            if os.path.islink(arg) and not os.path.exists(arg):
                with reading(arg):
                    os.stat(arg)  # ELOOP or ENOENT, in words
                raise InputError(f"{arg}: a symbolic link that leads nowhere")
            out.append(arg)
        elif _GLOB_CHARS & set(arg):
            found = _glob(arg, problems)
            if problems:
                raise InputError(problems[0])
            found = [f for f in found if not os.path.isdir(f)]
            if not found:
                raise InputError(f"{arg}: no file matches this pattern", usage=True)
            out.extend(found)
        else:
            raise InputError(f"{arg}: no such file", usage=True)
    return out
