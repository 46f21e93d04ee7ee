"""Opening inputs with limits: the bytes under :mod:`.reader`, the one reader.

Only the reader uses this module (the CLI never does: a test holds it to that); the
readers of each format take the bytes it returns and never open anything themselves.

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
import io
import os
import re
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Final

__all__ = [
    "InputError",
    "reading",
    "read_bytes",
    "open_input",
    "read_stream",
    "bounded_lines",
    "expand_inputs",
    "megabytes",
    "long_line",
    "is_link",
]

_GLOB_CHARS: Final = set("*?[")
#: An mk5 query string cut after its seed or hands (``s=lgvi``, ``?s=lgvi``).
_CUT_QUERY: Final = re.compile(r"^\??[si]=[A-Za-z0-9%._~-]*$")
_BLOCK: Final = 1 << 16
#: How far an over-long line is skipped, looking for its end, before the input is given up.
MAX_SKIP: Final = 256 * 1024 * 1024


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


def long_line(size: int, limit: int) -> str:
    """Why a JSON Lines line of ``size`` bytes is refused."""
    return (
        f"the line is {megabytes(size)}; one match is at most {megabytes(limit)} (raise the limit "
        "with --max-bytes)"
    )


@contextmanager
def reading(name: str) -> Iterator[None]:
    """OS errors while reading ``name`` become one-sentence :class:`InputError`\\ s."""
    try:
        yield
    except FileNotFoundError:
        if os.path.islink(name):
            raise InputError(
                f"{name}: a symbolic link that leads nowhere (to {os.readlink(name)!r}, "
                "which does not exist)"
            ) from None
        raise InputError(f"{name}: no such file", usage=True) from None
    except IsADirectoryError:
        raise InputError(f"{name} is a directory, not a log file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied (the file cannot be read)") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise InputError(f"{name}: a loop of symbolic links; it leads to no file") from None
        raise InputError(f"{name}: cannot be read ({e.strerror})") from None


def _unsearchable_folder(name: str) -> str | None:
    """The first folder on ``name``'s path that this process may not search (so that
    nothing below it can even be seen to exist), or None."""
    try:
        os.lstat(name)
        return None
    except PermissionError:
        pass
    except (OSError, ValueError):
        return None
    parts = os.path.normpath(name).split(os.sep)[:-1]
    for k in range(1, len(parts) + 1):
        folder = os.sep.join(parts[:k]) or os.sep
        if os.path.isdir(folder) and not os.access(folder, os.X_OK):
            return folder
    return os.path.dirname(name) or "."


def _too_large(name: str, size: int | None, limit: int, hint: str) -> InputError:
    what = f"is {megabytes(size)}" if size is not None else f"holds more than {megabytes(limit)}"
    return InputError(f"{name} {what}; the limit is {megabytes(limit)}{hint}")


def read_stream(handle: IO[bytes], name: str, limit: int, hint: str = "") -> bytes:
    """At most ``limit`` bytes of ``handle`` (standard input): more is refused, unread."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(name, None, limit, hint)
    return data


class _Prefixed(io.RawIOBase):
    """A file descriptor, with bytes already read from it put back in front."""

    def __init__(self, fd: int, first: bytes) -> None:
        self._fd = fd
        self._first = first

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._first:
            n = min(len(view), len(self._first))
            view[:n] = self._first[:n]
            self._first = self._first[n:]
            return n
        data = os.read(self._fd, len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _open(name: str) -> tuple[int, os.stat_result, bytes]:
    """Open ``name`` without waiting for a writer; refuse what is no file. Returns the
    descriptor (blocking again), its status, and the bytes a pipe already gave."""
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
                first = b""  # a writer is there, not yet writing: wait for it
            else:
                if not first:
                    raise InputError(
                        f"{name} is a named pipe with nothing written to it; give a file, "
                        "or start its writer first"
                    )
        os.set_blocking(fd, True)
        return fd, st, first
    except BaseException:
        os.close(fd)
        raise


def open_input(name: str) -> IO[bytes]:
    """``name`` opened for reading a line at a time (JSON Lines), with the same
    refusals as :func:`read_bytes`: a FIFO with no writer, a device, a directory."""
    with reading(name):
        fd, st, first = _open(name)
    if stat.S_ISREG(st.st_mode):
        return os.fdopen(fd, "rb")
    return io.BufferedReader(_Prefixed(fd, first), buffer_size=1 << 16)


def is_link(name: str) -> bool:
    """Is ``name`` an mk5 share link (or its query string: ``texas42 convert
    'https://…/mk5-main/?s=…&a=…'``) rather than a file? Only when no file has that name;
    the link is told as the mk5 format's sniffer tells it."""
    if "=" not in name or any(c.isspace() for c in name):
        return False
    from ..log.foreign.mk5 import looks_like

    if not looks_like(name):
        return False
    try:
        return not os.path.lexists(name)
    except (OSError, ValueError):
        return True


def read_bytes(name: str, limit: int, hint: str = "") -> bytes:
    """The bytes of the file ``name`` (see the module's notes); ``hint`` ends the
    too-large sentence (such as "; raise it with --max-bytes"). An mk5 link given in
    place of a file (:func:`is_link`) is its own text."""
    if is_link(name):
        data = name.encode("utf-8", "surrogateescape")
        if len(data) > limit:
            raise _too_large("the link", len(data), limit, hint)
        return data
    with reading(name):
        fd, st, first = _open(name)
        try:
            regular = stat.S_ISREG(st.st_mode)
            if regular and st.st_size > limit:
                raise _too_large(name, st.st_size, limit, hint)
            chunks = [first]
            total = len(first)
            while total <= limit:
                block = os.read(fd, min(1 << 20 if regular else _BLOCK, limit + 1 - total))
                if not block:
                    break
                chunks.append(block)
                total += len(block)
            if total > limit:
                raise _too_large(name, None, limit, hint)
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
            if size > MAX_SKIP:
                raise InputError(
                    f"line {number} goes on for more than {megabytes(MAX_SKIP)} without ending; "
                    "this is not JSON Lines, and the rest is not read"
                )
        yield number, None, size


# -- finding inputs -----------------------------------------------------------------


def _walk(root: str, problems: list[str], suffixes: tuple[str, ...]) -> Iterator[str]:
    """Every file below ``root``, sorted, not following links to directories. A link
    that leads nowhere (dangling, or a loop) is yielded when its name is a log's (its
    reading then says what it is), and reported in ``problems`` otherwise; so is a
    directory that cannot be listed."""

    def onerror(e: OSError) -> None:
        problems.append(
            f"{e.filename}: permission denied (the directory cannot be listed)"
            if isinstance(e, PermissionError)
            else f"{e.filename}: cannot be listed ({e.strerror})"
        )

    for folder, dirs, files in os.walk(root, onerror=onerror, followlinks=False):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(folder, f)
            if os.path.islink(path) and not os.path.exists(path) and not f.endswith(suffixes):
                problems.append(f"{path}: a symbolic link that leads nowhere (dangling, or a loop)")
                continue
            yield path


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
    from .formats import searched_suffixes

    for path in _walk(root, problems, searched_suffixes()):
        shown = path[2:] if root == "." and path.startswith("./") else path
        if regex.match(shown) and not os.path.basename(path).startswith("."):
            found.append(shown)
    return sorted(found)


def expand_inputs(
    args: Iterable[str],
    suffixes: tuple[str, ...] | None = None,
    problems: list[str] | None = None,
) -> list[str]:
    """Files, directories (recursively: the files ending in ``suffixes``, by default every
    readable format's, :func:`texas42_log.files.formats.searched_suffixes`) and globs →
    file list, in the order given; a directory's or glob's files sorted. ``-`` is
    standard input. :class:`InputError` for a name that matches nothing. A directory
    that cannot be listed, or a link in it that leads nowhere, is an :class:`InputError`
    too — or, when ``problems`` is given, is said there and the rest is still found."""
    if suffixes is None:
        from .formats import searched_suffixes

        suffixes = searched_suffixes()
    out: list[str] = []
    found_problems: list[str] = []
    for arg in args:
        if arg == "-":
            out.append(arg)
            continue
        if os.path.isdir(arg):
            found = [
                f
                for f in _walk(arg, found_problems, suffixes)
                if f.endswith(suffixes) and not os.path.basename(f).startswith(".")
            ]
            if not found and not found_problems:
                raise InputError(
                    f"{arg}: no log files ({', '.join(suffixes)}) in this directory", usage=True
                )
            out.extend(found)
        elif os.path.lexists(arg):
            out.append(arg)  # reading it says what is wrong with it, if anything
        elif is_link(arg):
            out.append(arg)  # an mk5 link: its own text
        elif arg[:8].lower().startswith(("http://", "https://")):
            raise InputError(
                f"{arg}: not an mk5 link (it has none of the parameters s=, i= and a=), "
                "and no file has this name",
                usage=True,
            )
        elif _CUT_QUERY.match(arg):
            raise InputError(
                f"{arg}: no such file; if it is what the shell left of an mk5 link pasted "
                "without quotes (cut at its first &), quote the whole link",
                usage=True,
            )
        elif _GLOB_CHARS & set(arg):
            found = [f for f in _glob(arg, found_problems) if not os.path.isdir(f)]
            if not found and not found_problems:
                raise InputError(f"{arg}: no file matches this pattern", usage=True)
            out.extend(found)
        else:
            denied = _unsearchable_folder(arg)
            if denied is not None:
                raise InputError(
                    f"{arg}: permission denied (the folder {denied} may not be searched, so "
                    "nothing in it can be found)"
                )
            raise InputError(f"{arg}: no such file", usage=True)
        if found_problems and problems is None:
            raise InputError(found_problems[0])
    if problems is not None:
        problems.extend(found_problems)
    return out
