"""One writer at a time: the lock every command that rewrites a log in place holds
across its whole step — read the file, merge, validate, replace it.

:func:`writer_lock` takes an exclusive advisory lock (``flock(2)``) on a side file
beside the log, ``.NAME.texas42-lock`` (the log's real name, through symbolic links).
It sits on a side file because the log itself is replaced by a rename at every write
(:func:`texas42_log.files.outputs.write_atomic`): a lock on the log's own inode would
be a lock on a file that is no longer the log once the first writer is done. The
side file is created once and left in place (removing it would let two writers lock
two different files of one name); it holds nothing.

The lock is advisory: texas42 commands (``annotate … -i``, ``analyze --annotate -i``,
``record``, the board's save) honour it; a program that ignores it — an editor — can
still replace the log between two texas42 writes. Such a change is not lost by a
texas42 writer that re-reads under the lock, but an editor's save can overwrite what
a texas42 writer wrote while the editor held the file open (as with any two editors).

A writer that cannot get the lock within :data:`LOCK_SECONDS` (``TEXAS42_LOCK_SECONDS``
in the environment sets another bound) raises :class:`LockTimeout`, one sentence, and
writes nothing. The system drops a lock when its holder dies, however it dies: a
killed writer never leaves the log locked.

``flock`` is POSIX (Linux, macOS, the BSDs), where the package runs; on a network
file system it may lock only within one machine.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from .outputs import OutputError, sweep_leftovers

__all__ = ["LOCK_SECONDS", "LockTimeout", "lock_path", "writer_lock", "lock_seconds", "stamp"]

#: How long a writer waits for another to finish before it gives up (seconds).
LOCK_SECONDS: Final = 10.0
_SUFFIX: Final = ".texas42-lock"


class LockTimeout(OutputError):
    """Another writer held the log's lock for longer than the bound: nothing was written."""


def lock_seconds() -> float:
    """The bound in force: ``TEXAS42_LOCK_SECONDS`` when it is a number from 0 to 3600."""
    raw = os.environ.get("TEXAS42_LOCK_SECONDS", "")
    try:
        value = float(raw) if len(raw) <= 12 else LOCK_SECONDS
    except ValueError:
        return LOCK_SECONDS
    return value if 0 <= value <= 3600 else LOCK_SECONDS


def lock_path(path: Path | str) -> Path:
    """The side file whose lock guards ``path``: beside its real file, named after it."""
    real = Path(os.path.realpath(path))
    return real.parent / f".{real.name}{_SUFFIX}"


@contextmanager
def writer_lock(path: Path | str, seconds: float | None = None) -> Iterator[None]:
    """Hold the writer lock of log ``path`` for the block (module docstring); it also
    removes the temporary files a killed writer left in the log's folder."""
    side = lock_path(path)
    bound = lock_seconds() if seconds is None else seconds
    try:
        fd = os.open(side, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as e:
        raise OutputError(
            e.errno or errno.EIO,
            f"{path}: cannot take its writer lock {side.name} ({e.strerror or e})",
        ) from None
    try:
        # Whoever can open the lock file can hold it: the owner's alone (an older lock
        # file of the owner's, made 0644, is narrowed; another user's is left as it is).
        with contextlib.suppress(OSError):
            if os.fstat(fd).st_uid == os.getuid():
                os.fchmod(fd, 0o600)
        deadline = time.monotonic() + bound
        pause = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(
                        errno.EAGAIN,
                        f"{path} is being written by another texas42 command (its lock "
                        f"{side.name} was held for {bound:g} s): nothing was written, try again",
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
            except OSError as e:
                raise OutputError(
                    e.errno or errno.EIO,
                    f"{path}: cannot take its writer lock {side.name} ({e.strerror or e})",
                ) from None
        sweep_leftovers(side.parent)
        yield
    finally:
        os.close(fd)  # closing the last descriptor lets the lock go


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What a writer compares before it writes over ``path``: its inode, size and time
    of change (None when there is no file). A different stamp means another program
    changed the file since it was read — one that ignores the writer lock (an editor)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
