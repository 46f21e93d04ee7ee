"""A board's links, kept between its runs: the same log started again gives the same
addresses, and a page from before a restart can still save.

What is kept, per save file: the tokens of every address (the owner's, each seat's,
the review's), the last port, and the board's version — an *epoch* (random, new with
new links or when the log's content changed while no board ran) and the counter
with the version at which the log's content beyond its comments last changed, and a
digest of that content. They live in the user's state
folder (``$XDG_STATE_HOME/texas42-log/boards``, by default
``~/.local/state/texas42-log/boards``), one file a log named by a digest of the log's
real path, readable by the user only (mode 0600, folder 0700) — never beside the log,
which people sync and share. ``texas42 board --new-links`` makes new ones, and the old
addresses stop working.

The digest of the content is kept here, on the owner's machine only; it is never sent
to a page (a hash of the log would let a seat test guesses of the tiles it cannot see).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files.locking import writer_lock
from ..files.outputs import write_atomic

__all__ = [
    "Links",
    "NAMES",
    "state_folder",
    "links_file",
    "load_links",
    "match_identity",
    "store_links",
    "LinksNotKept",
]

#: The addresses a board has: its owner's, each seat's, the review's.
NAMES = ("owner", "A", "B", "C", "D", "review")


def state_folder() -> Path:
    """Where the user's boards keep their links (module docstring)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not base or not os.path.isabs(base):
        home = Path.home()
        if sys.platform == "darwin":
            return home / "Library" / "Application Support" / "texas42-log" / "boards"
        base = str(home / ".local" / "state")
    return Path(base) / "texas42-log" / "boards"


def links_file(save_path: Path) -> Path:
    """The file that keeps the links of the board saving to ``save_path``."""
    real = os.path.realpath(save_path)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return state_folder() / f"{digest}.json"


def match_identity(first_deal: Any) -> str:
    """What ties kept links to one match: a digest of its first hand's deal (as the log
    writes it), kept on the owner's machine only like every digest here."""
    text = json.dumps(first_deal, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def _token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Links:
    """A board's kept links and version (module docstring)."""

    log: str
    tokens: dict[str, str] = field(default_factory=lambda: {n: _token() for n in NAMES})
    port: int | None = None
    epoch: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    version: int = 1
    content_version: int = 1
    content: str = ""
    #: The match these links belong to (a table's: :func:`match_identity`), "" when not
    #: tied to one. Links are a match's, never a file name's: a new match at the same
    #: path gets new ones.
    match: str = ""

    def take(self, newer: Links) -> None:
        """A revocation: these links become ``newer``'s (another run made them), so this
        run answers the new addresses only."""
        self.tokens, self.epoch, self.match = dict(newer.tokens), newer.epoch, newer.match

    def as_json(self) -> str:
        return json.dumps(
            {
                "log": self.log,
                "tokens": self.tokens,
                "port": self.port,
                "epoch": self.epoch,
                "version": self.version,
                "content_version": self.content_version,
                "content": self.content,
                "match": self.match,
            },
            indent=1,
        )


def _well_formed(doc: Any, log: str) -> Links | None:
    """The kept links of ``doc``, or None when it is not what this module wrote for ``log``."""
    if not isinstance(doc, dict) or doc.get("log") != log:
        return None
    tokens = doc.get("tokens")
    if not isinstance(tokens, dict) or set(tokens) != set(NAMES):
        return None
    if not all(isinstance(t, str) and 20 <= len(t) <= 64 for t in tokens.values()):
        return None
    if len(set(tokens.values())) != len(tokens):  # one token, two addresses: not ours
        return None
    port, epoch = doc.get("port"), doc.get("epoch")
    version, content_version = doc.get("version"), doc.get("content_version")
    numbers = (version, content_version)
    if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n < 2**53 for n in numbers):
        return None
    assert isinstance(version, int) and isinstance(content_version, int)
    if port is not None and not (isinstance(port, int) and 0 < port < 65536):
        return None
    if not isinstance(epoch, str) or not 1 <= len(epoch) <= 16:
        return None
    content, match = doc.get("content"), doc.get("match", "")
    if not isinstance(content, str) or len(content) > 128:
        return None
    if not isinstance(match, str) or len(match) > 128:
        return None
    return Links(log, dict(tokens), port, epoch, version, content_version, content, match)


def load_links(save_path: Path) -> Links | None:
    """The links kept for ``save_path``, or None (none kept, or a file not ours)."""
    path = links_file(save_path)
    try:  # a regular file of ours only: never a link, a FIFO or a device
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            return None
        raw = os.read(fd, 65_536)
        doc = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    return _well_formed(doc, os.path.realpath(save_path))


class LinksNotKept(OSError):
    """The links could not be kept (a state folder read-only or full, a links file that
    cannot be replaced): one sentence. Whoever was told the links are kept is told this
    instead — never silence."""


#: How long a writer of a links file waits for another (the file is small: a moment).
LINKS_LOCK_SECONDS = 5.0


def store_links(save_path: Path, links: Links, *, issue: bool = False) -> bool:
    """Keep ``links`` for ``save_path``: under the links file's lock, read it, merge,
    write it atomically (readable by the user only). ``issue``: these are new links
    (a first run, ``--new-links``), written over whatever was kept. Otherwise a
    revocation always wins: when the file holds other tokens than ``links`` — another
    run made new links since this one read them — ``links`` takes the file's tokens and
    epoch (this run then answers the new links, never the revoked ones) and True is
    returned; the versions are the larger of both. :class:`LinksNotKept` when the file
    cannot be written."""
    path = links_file(save_path)
    revoked = False
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)  # our own folder: the user's alone
        with writer_lock(path, seconds=LINKS_LOCK_SECONDS):
            current = None if issue else load_links(save_path)
            if current is not None:
                revoked = current.tokens != links.tokens
                if revoked:
                    links.take(current)
                links.version = max(links.version, current.version)
                links.content_version = max(links.content_version, current.content_version)
            if path.is_symlink() or (path.exists() and not path.is_file()):
                path.unlink()  # a link or a FIFO is never written through
            write_atomic(path, links.as_json(), replace=True, mode=0o600)
    except OSError as e:
        raise LinksNotKept(
            e.errno or 0,
            f"the links cannot be kept in {path.parent} ({e.strerror or e}): the addresses "
            "would not survive this run",
        ) from None
    return revoked
