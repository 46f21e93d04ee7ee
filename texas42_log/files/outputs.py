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
  and the target is untouched. Only SIGKILL (or a power cut) can leave one behind:
  ``.texas42-PID-XXXXXXXX.tmp``, which no command reads as a log and no later write
  trips over (each write picks a fresh name). Its writer holds a lock on it
  (``flock``) while it lives; the next write into the same folder removes every
  such leftover whose lock nobody holds (:func:`sweep_leftovers`): a live writer's
  file is never taken, whatever its age.
* Many files into one folder (``convert -o DIR/``) are written into a temporary
  folder first, which takes the target folder's name at the end
  (:func:`write_folder`): a run killed half-way leaves no folder that looks like
  a finished result.

This is I/O, beside the CLI; the library's writers return text.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Final

__all__ = [
    "OutputError",
    "write_atomic",
    "write_folder",
    "TEMP_PREFIX",
    "TEMP_SUFFIX",
    "new_file_mode",
    "remove_temporaries",
    "sweep_leftovers",
]

#: The temporary files being written now: a second Ctrl-C, which exits at once,
#: removes them first (:func:`remove_temporaries`).
_ACTIVE: set[str] = set()


def remove_temporaries() -> None:
    """Remove every temporary file or folder a write in progress holds (for an immediate exit)."""
    for tmp in list(_ACTIVE):
        try:
            if os.path.isdir(tmp) and not os.path.islink(tmp):
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                os.unlink(tmp)
        except OSError:
            pass
        _ACTIVE.discard(tmp)


TEMP_PREFIX: Final = ".texas42-"
TEMP_SUFFIX: Final = ".tmp"


class OutputError(OSError):
    """The output cannot be written; the message is one sentence naming it."""


#: A temporary name of ours: the writer's process id, then mkstemp's random part.
_LEFTOVER = re.compile(r"\.texas42-(?:([0-9]{1,10})-)?[A-Za-z0-9_]{6,16}\.tmp")
#: A file or folder this young is left alone even when unlocked, unless the process
#: its name gives is gone: its writer may be between creating it and locking it.
_GRACE_SECONDS: Final = 60.0
#: Folders swept already by this process.
_SWEPT: set[str] = set()
#: The locks this process holds on its own temporary files and folders, by path.
_LOCKS: dict[str, int] = {}


def _temp_prefix() -> str:
    return f"{TEMP_PREFIX}{os.getpid()}-"


def _lock(path: str) -> None:
    """Hold an exclusive lock on ``path`` for as long as this process lives or until
    :func:`_unlock`: the sign, to a later sweep, that its writer is alive."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    _LOCKS[path] = fd


def _unlock(path: str) -> None:
    fd = _LOCKS.pop(path, None)
    if fd is not None:
        os.close(fd)


def _alive(pid: str | None) -> bool:
    """Whether the process ``pid`` may be running (unknown counts as running)."""
    if pid is None:
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True
    return True


def sweep_leftovers(folder: Path | str) -> list[str]:
    """Remove the temporary files and folders that killed writers left in ``folder``
    (once per folder and process); the names removed.

    A leftover is a ``.texas42-….tmp`` entry of ours (a regular file or a folder, never
    a link) whose lock nobody holds, and either whose writer's process (its name
    gives the id) is gone or that is older than a minute. A writer holds its lock
    until it renames or removes its temporary, and the system drops the lock when the
    writer dies, however it dies: an unlocked one has no writer, but for the instant
    between its creation and its lock, which the age or the process id rules out.
    What cannot be opened, locked or removed is left as it is; the sweep never fails
    a command."""
    key = os.path.abspath(folder)
    if key in _SWEPT:
        return []
    _SWEPT.add(key)
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        named = _LEFTOVER.fullmatch(entry.name)
        if named is None or entry.path in _ACTIVE:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                continue
            if now - st.st_mtime < _GRACE_SECONDS and _alive(named.group(1)):
                continue
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: its writer lives
            opened = os.fstat(fd)
            if (opened.st_ino, opened.st_dev) != (st.st_ino, st.st_dev):
                continue  # the name was given to something else meanwhile
            if stat.S_ISDIR(st.st_mode):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def new_file_mode(*, folder: bool = False) -> int:
    """The mode a new file gets: 0666 less the process's umask (a folder: 0777 less it)."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if folder else 0o666) & ~mask


def _target_of(path: Path) -> Path:
    """Where writing ``path`` really goes: through symbolic links to their target."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def write_atomic(
    path: Path | str,
    data: str | bytes | Iterable[str],
    *,
    replace: bool = False,
    mode: int | None = None,
) -> None:
    """Write ``data`` (a text, bytes, or texts one after another, which may be a
    generator that raises to abandon the write) to ``path`` as the module describes.
    ``mode``: the file's mode (default: the replaced file's, else a new file's).

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
    sweep_leftovers(folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(), suffix=TEMP_SUFFIX, dir=folder)
    except OSError as e:
        raise OutputError(e.errno, f"{path}: cannot be written ({e.strerror})") from None
    try:  # from the file's first moment: a Ctrl-C that lands here still removes it
        _ACTIVE.add(tmp)
        _lock(tmp)
        chosen = mode if mode is not None else existing
        os.fchmod(fd, chosen if chosen is not None else new_file_mode())
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
        _unlock(tmp)
        _ACTIVE.discard(tmp)


def write_folder(
    folder: Path | str, files: Iterable[tuple[str, str | bytes]], *, replace: bool = False
) -> list[Path]:
    """Write ``files`` (a name and its data each; may be a generator that raises to
    abandon the whole write) into ``folder``; the paths written.

    A new folder is filled under a temporary name beside it and renamed into place
    when every file is written: until then there is no ``folder`` at all. Into a
    folder that exists, the files are written into a temporary folder inside it and
    then each takes its name (exclusively unless ``replace``): a run killed while
    writing leaves the folder as it was, plus one ``.texas42-….tmp`` folder that the
    next write there removes. :class:`FileExistsError` names a file that exists;
    :class:`OutputError` a folder that cannot be written."""
    folder = Path(folder)
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError(errno.ENOTDIR, f"{folder} exists and is not a directory")
    exists = folder.is_dir()
    parent = folder if exists else (folder.parent if str(folder.parent) else Path("."))
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(e.errno, f"{parent}: cannot be made ({e.strerror})") from None
    sweep_leftovers(parent)
    try:
        tmp = tempfile.mkdtemp(prefix=_temp_prefix(), suffix=TEMP_SUFFIX, dir=parent)
    except OSError as e:
        raise OutputError(e.errno, f"{folder}: cannot be written ({e.strerror})") from None
    names: list[str] = []
    try:  # from the folder's first moment: a Ctrl-C that lands here still removes it
        _ACTIVE.add(tmp)
        _lock(tmp)
        mode = new_file_mode()
        for name, data in files:
            if os.sep in name or name in ("", ".", ".."):
                raise ValueError(f"not a file name: {name!r}")
            with open(os.path.join(tmp, name), "xb") as f:
                os.fchmod(f.fileno(), mode)
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
                f.flush()
                os.fsync(f.fileno())
            names.append(name)
        _sync_folder(Path(tmp))
        if not exists:
            os.chmod(tmp, new_file_mode(folder=True))
            _unlock(tmp)
            os.rename(tmp, folder)  # a folder that appeared meanwhile: refused unless empty
            _ACTIVE.discard(tmp)
        else:
            placed: list[Path] = []
            try:
                for name in names:
                    if replace:
                        os.replace(os.path.join(tmp, name), folder / name)
                    else:
                        _create_exclusively(os.path.join(tmp, name), folder / name)
                        placed.append(folder / name)
            except BaseException:
                for path in placed:  # all or nothing: take back what this run placed
                    path.unlink(missing_ok=True)
                raise
            shutil.rmtree(tmp, ignore_errors=True)
        _sync_folder(parent)
    except OSError as e:
        if isinstance(e, FileExistsError) and e.filename:
            raise
        if e.errno in (errno.EEXIST, errno.ENOTEMPTY):
            raise FileExistsError(errno.EEXIST, "exists", str(folder)) from None
        raise OutputError(e.errno, f"{folder}: cannot be written ({e.strerror})") from None
    finally:
        _unlock(tmp)
        if tmp in _ACTIVE:
            shutil.rmtree(tmp, ignore_errors=True)
            _ACTIVE.discard(tmp)
    return [folder / name for name in names]


def _create_exclusively(tmp: str, target: Path) -> None:
    """Give the finished temporary file the name ``target``, refusing if it exists.
    A hard link is created or refused atomically by the file system; where links
    are not supported, an exclusive create of the name comes first."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in (
            errno.EPERM,
            errno.ENOTSUP,
            errno.EOPNOTSUPP,
            errno.EXDEV,
            errno.EMLINK,
            errno.ENOSYS,
        ):
            raise OutputError(e.errno, f"{target}: cannot be written ({e.strerror})") from None
        fd = os.open(
            target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600
        )  # FileExistsError if taken
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
