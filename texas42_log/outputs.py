"""Writing outputs safely: the one way every command writes a file.

* The data goes to a temporary file beside the target (a short name of its own,
  so any legal target name fits), is flushed to disk, then takes the target's
  name in one step: the target is whole — the old one or the new one — whatever
  happens, and a reader never sees half a file.
* Creating a new file is exclusive: when the target appeared meanwhile (another
  run writing the same name), this one is refused, not silently replaced.
  Replacing is only ever asked for (``replace=True``: ``--force`` or ``-i``).
* A new file gets the mode the umask gives (``0666 & ~umask``), as any program's
  new file does; a replaced file keeps its mode. A symbolic link is written
  through: its target is updated and the link stays.
* On any failure, Ctrl-C and SIGTERM included, the temporary file is removed
  and the target is untouched. Only SIGKILL can leave a temporary file behind:
  ``.texas42-XXXXXXXX.tmp``, which no command reads as a log and no later write
  trips over (each write picks a fresh name).

This is I/O, beside the CLI; the library's writers return text.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Final

__all__ = ["OutputError", "write_atomic", "TEMP_PREFIX", "TEMP_SUFFIX", "new_file_mode", "remove_temporaries"]

#: The temporary files being written now: a second Ctrl-C, which exits at once,
#: removes them first (:func:`remove_temporaries`).
_ACTIVE: set[str] = set()


def remove_temporaries() -> None:
    """Remove every temporary file a write in progress holds (for an immediate exit)."""
    for tmp in list(_ACTIVE):
        try:
            os.unlink(tmp)
        except OSError:
            pass
        _ACTIVE.discard(tmp)

TEMP_PREFIX: Final = ".texas42-"
TEMP_SUFFIX: Final = ".tmp"


class OutputError(OSError):
    """The output cannot be written; the message is one sentence naming it."""


def new_file_mode() -> int:
    """The mode a new file gets: 0666 less the process's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _target_of(path: Path) -> Path:
    """Where writing ``path`` really goes: through symbolic links to their target."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def write_atomic(path: Path | str, data: str | bytes | Iterable[str], *, replace: bool = False) -> None:
    """Write ``data`` (a text, bytes, or texts one after another, which may be a
    generator that raises to abandon the write) to ``path`` as the module describes.

    :class:`FileExistsError` when ``path`` exists and ``replace`` is False;
    :class:`OutputError` when it cannot be written."""
    path = Path(path)
    target = _target_of(path) if replace else path
    folder = target.parent if str(target.parent) else Path(".")
    try:
        existing = os.stat(target).st_mode & 0o7777 if replace and target.exists() else None
    except OSError:
        existing = None
    if not replace and os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, "exists", str(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    except OSError as e:
        raise OutputError(e.errno, f"{path}: cannot be written ({e.strerror})") from None
    _ACTIVE.add(tmp)
    try:
        os.fchmod(fd, existing if existing is not None else new_file_mode())
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, bytes):
                f.write(data)
            else:
                for chunk in [data] if isinstance(data, str) else data:
                    f.write(chunk.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, target)
        else:
            _create_exclusively(tmp, target)
        _sync_folder(folder)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _ACTIVE.discard(tmp)


def _create_exclusively(tmp: str, target: Path) -> None:
    """Give the finished temporary file the name ``target``, refusing if it exists.
    A hard link is created or refused atomically by the file system; where links
    are not supported, an exclusive create of the name comes first."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            raise OutputError(e.errno, f"{target}: cannot be written ({e.strerror})") from None
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # FileExistsError if taken
        os.close(fd)
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
