"""Where a command's output goes, and the rules every command keeps for it.

One object, :class:`Destination`: an output's name, the inputs it must not be, and
whether an existing file may be replaced. :meth:`Destination.check` refuses before
any work an output that is an input, a folder, or (without ``replace``) a file that
exists; :meth:`Destination.write` writes it atomically (:mod:`.outputs`);
:meth:`Destination.check_folder` and :meth:`Destination.write_folder` do the same
for a folder of one file per match. A refusal is :class:`OutputRefused`, one
sentence; the command line prints it as a usage error (exit 2). No command keeps an
output rule of its own (docs/architecture.md, "The files layer").
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .outputs import OutputError, write_atomic, write_folder

__all__ = ["Destination", "OutputRefused", "output_kind"]


class OutputRefused(ValueError):
    """An output refused, or a write that failed: one sentence saying which and why."""


def output_kind(out: Path) -> str | None:
    """What is at an output's name: ``"folder"``, ``"file"`` (anything else, a dangling
    link included) or None; a name that cannot be looked at (a folder on the way that
    may not be searched, a file where a folder should be) is refused, saying so."""
    try:
        st = os.stat(out)
    except FileNotFoundError:
        return "file" if os.path.islink(out) else None
    except NotADirectoryError:
        raise OutputRefused(
            f"{out}: cannot be written (a name on its way is a file, not a folder)"
        ) from None
    except OSError as e:
        why = "a folder on its way may not be searched" if e.errno == errno.EACCES else e.strerror
        raise OutputRefused(f"{out}: cannot be written ({why})") from None
    return "folder" if stat.S_ISDIR(st.st_mode) else "file"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def _cannot_write(out: Path, e: OSError) -> str:
    """One sentence: which output cannot be written and why (an OutputError says it whole)."""
    if isinstance(e, OutputError):
        return str(e.strerror)
    return f"{out}: cannot be written ({e.strerror})"


@dataclass(frozen=True, slots=True)
class Destination:
    """An output: its name, the inputs it must not be (``-`` is standard input), and
    whether a file already there may be replaced (``--force``, ``--in-place``)."""

    path: Path
    inputs: tuple[str, ...] = ()
    replace: bool = False

    def _not_an_input(self, shown: str) -> None:
        for name in self.inputs:
            if name != "-" and _same_file(self.path, Path(name)):
                raise OutputRefused(
                    f"-o {shown} is the input log; a command never writes over its input"
                )

    def check(self) -> None:
        """Refuse, before any work, an output that is an input, a folder, or (unless it may
        be replaced) a file that exists."""
        out = self.path
        self._not_an_input(str(out))
        kind = output_kind(out)
        if kind == "folder":
            raise OutputRefused(
                f"-o {out} is a directory; -o names the file to write (such as "
                f"{out / 'matches.jsonl'})"
            )
        if kind is not None and not self.replace:
            raise OutputRefused(f"{out} exists; pass --force to replace it")

    def check_folder(self) -> None:
        """Refuse, before any work, a folder for one file per match that is an input or
        names a file (``-o game.json/``)."""
        folder = self.path
        self._not_an_input(f"{folder}/")
        if output_kind(folder) == "file":
            raise OutputRefused(
                f"-o {folder}/ names a folder for one file per match, but {folder} exists and "
                "is not a folder"
            )

    @contextmanager
    def _writing(self, *, folder: bool = False) -> Iterator[None]:
        """A write's failure as one sentence: a file there already (in a folder, the one
        named), or what the system said."""
        try:
            yield
        except FileExistsError as e:
            there = (e.filename2 or e.filename or self.path) if folder else self.path
            raise OutputRefused(
                f"{there} exists (another run may have just written it); pass --force to replace it"
            ) from None
        except OSError as e:
            raise OutputRefused(_cannot_write(self.path, e)) from None

    def write(self, data: str | bytes | Iterable[str]) -> None:
        """Write ``data`` atomically (:func:`.outputs.write_atomic`)."""
        with self._writing():
            write_atomic(self.path, data, replace=self.replace)

    def write_folder(self, files: Iterable[tuple[str, str]]) -> None:
        """Write one file per match into the folder, all or nothing
        (:func:`.outputs.write_folder`)."""
        with self._writing(folder=True):
            write_folder(self.path, files, replace=self.replace)
