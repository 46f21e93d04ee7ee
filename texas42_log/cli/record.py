"""``texas42 record``: write a match down as it is played, entry by entry.

Translation only: the conversation is :class:`texas42_log.play.recorder.Recorder`, the
game :class:`texas42_log.play.game.Game`. This module reads lines (a terminal, with
line editing, or a pipe, one entry a line), prints the replies, and replaces the
log on disk atomically after every accepted entry, so that a killed process or a
closed terminal loses at most the entry being typed.
"""

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .app import app, input_error, say, usage_error

if TYPE_CHECKING:
    from ..play.game import Game

#: The match-level extension a recording keeps: the seed of the tool's deals, so a
#: resumed recording deals the next hands as the first run would have.
EXTENSION = "x-texas42-record"
#: The longest entry read; an action is a few words, a deal row 7 tiles.
LONGEST = 1000


class _Lines:
    """Entries from standard input: ``input()`` on a terminal (line editing, the
    prompt shown), else a line at a time, echoed after its prompt so that the
    output reads as a transcript."""

    def __init__(self) -> None:
        self.tty = sys.stdin.isatty()
        if self.tty:
            try:
                import readline  # noqa: F401  (line editing and history for input())
            except ImportError:
                pass

    def read(self, prompt: str) -> str | None:
        from ..log.inert import inert

        if self.tty:
            while True:
                try:
                    return input(inert(prompt))[:LONGEST]
                except EOFError:
                    say("")
                    return None
                except UnicodeDecodeError:
                    say("that entry is not UTF-8 text; type it again")
        say(prompt, nl=False)
        line = sys.stdin.buffer.readline(LONGEST + 1)
        if not line:
            say("")
            return None
        if len(line) > LONGEST and not line.endswith(b"\n"):
            while (rest := sys.stdin.buffer.readline(65536)) and not rest.endswith(b"\n"):
                pass  # the rest of an overlong line is dropped, not read as entries
            line = line[:LONGEST]
        text = line.decode("utf-8", errors="replace").rstrip("\r\n")
        say(text)
        return text


def _ask(lines: _Lines, prompt: str, default: str) -> str:
    answer = lines.read(f"{prompt} [{default}] > ")
    if answer is None:
        raise typer.Exit(code=0)
    return answer.strip() or default


def _players(given: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in given:
        seat, sep, name = item.partition("=")
        seat = seat.strip().upper()
        if not sep or seat not in ("A", "B", "C", "D") or not name.strip():
            raise usage_error(f"--player {item}: write SEAT=NAME, e.g. --player A=Ana")
        out[seat] = name.strip()[:80]
    return out


class _Saver:
    """Writes the match after every entry, under the log's writer lock, reading the file
    again first: comments another writer (a board, ``annotate``) saved into it meanwhile
    are taken into the game, never written over; a file changed beyond its comments is
    not written over at all."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stamp: tuple[int, int, int] | None = None
        self.content = ""

    def read(self) -> None:
        """The file as it is now is the one record goes on from (at a resume)."""
        from ..files.locking import stamp

        self.stamp = stamp(self.path)
        self.content = _content(self.path.read_text("utf-8", errors="replace"))

    def save(self, game: "Game") -> "Game":
        """Write ``game``; the game to go on with (``game``, or it with the comments
        found on disk)."""
        from ..files.locking import stamp, writer_lock
        from ..files.outputs import write_atomic

        try:
            with writer_lock(self.path):  # one writer at a time (docs/architecture.md)
                if self.stamp is not None and stamp(self.path) != self.stamp:
                    game = self._with_theirs(game)
                text = game.to_json()
                write_atomic(self.path, text, replace=True)
                self.stamp = stamp(self.path)
                self.content = _content(text)
        except OSError as e:
            raise input_error(
                f"{self.path}: cannot be written ({getattr(e, 'strerror', e)}); the last entry "
                "is not saved"
            ) from None
        return game

    def _with_theirs(self, game: "Game") -> "Game":
        from ..log.comments import raised, take_comments
        from ..log.model import Match
        from ..play.game import Game

        try:
            theirs = json.loads(self.path.read_bytes())
            changed = not isinstance(theirs, dict) or _content(json.dumps(theirs)) != self.content
        except (OSError, ValueError, RecursionError):
            changed = True
        if changed:
            raise input_error(
                f"{self.path} changed on disk beyond its comments since record wrote it: it is "
                "not written over, and the last entry is not saved"
            )
        doc = game.to_dict()
        lost = take_comments(doc, theirs)
        if lost:
            say(f"note: {lost} comment(s) on the entry undone are not kept", err=True)
        match = raised(Match.model_validate(doc))
        return Game.from_match(match, seed=game.seed, record_rejected=game.record_rejected)


def _content(text: str) -> str:
    """The log beyond its comments (what record compares before writing over a file)."""
    from ..log.comments import content_key
    from ..log.model import Match

    return content_key(Match.model_validate_json(text))


def _resume(path: Path, seed: int | None, keep_rejected: bool) -> "Game":
    from ..engine.errors import IllegalAction
    from ..play.game import Game
    from .common import matches_to_write

    matches, _ = matches_to_write([str(path)], None, need_valid=True)
    if len(matches) != 1:
        raise input_error(f"{path} holds {len(matches)} matches; record goes on with one")
    match = matches[0]
    extra: dict[str, Any] = match.model_extra or {}
    stored = extra.get(EXTENSION, {})
    if seed is None and isinstance(stored, dict) and isinstance(stored.get("seed"), int):
        seed = stored["seed"]
    try:
        return Game.from_match(match, seed=seed, record_rejected=keep_rejected)
    except IllegalAction as e:
        raise input_error(f"{path}: {e}") from None


def _new(
    lines: _Lines,
    rules: str | None,
    players: dict[str, str],
    first_dealer: str | None,
    seed: int | None,
    keep_rejected: bool,
) -> "Game":
    from ..engine.presets import PRESETS
    from ..play.game import Game

    preset = rules
    while preset is None:
        answer = _ask(lines, f"rules preset ({', '.join(sorted(PRESETS))})", "standard")
        if answer in PRESETS:
            preset = answer
        else:
            say(f"unknown rules preset {answer[:40]!r}; choose one of {', '.join(sorted(PRESETS))}")
    if preset not in PRESETS:
        raise usage_error(f"--rules {preset}: choose one of {', '.join(sorted(PRESETS))}")
    if not players:
        for seat in "ABCD":
            name = lines.read(f"player at {seat} (empty: none) > ")
            if name is None:
                raise typer.Exit(code=0)
            if name.strip():
                players[seat] = name.strip()[:80]
    dealer = (first_dealer or "").upper()
    while dealer not in ("A", "B", "C", "D"):
        if first_dealer is not None:
            raise usage_error(f"--first-dealer {first_dealer}: a seat, A to D")
        dealer = _ask(lines, "first dealer (A–D)", "A").upper()
    try:
        return Game(
            preset,
            players=players or None,  # type: ignore[arg-type]
            first_dealer=dealer,  # type: ignore[arg-type]
            seed=seed,
            record_rejected=keep_rejected,
            extensions={EXTENSION: {"seed": seed}} if seed is not None else None,
        )
    except ValueError as e:
        raise usage_error(str(e)) from None


@app.command()
def record(
    file: Annotated[
        str | None,
        typer.Argument(
            metavar="[FILE]",
            help="The log to write, or an unfinished one to go on with (default: a new "
            "match-DATE-TIME.json here).",
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="PRESET",
            help="Rules preset of a new match: standard, casual, tricksy, … (asked if not given).",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            metavar="SEAT=NAME",
            help="A player's name, e.g. --player A=Ana; repeat for each (not asked when given).",
        ),
    ] = None,
    first_dealer: Annotated[
        str | None,
        typer.Option(
            "--first-dealer", metavar="SEAT", help="Who deals the first hand (asked if not given)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            max=999_999_999,
            help="The tool deals every hand, reproducibly from this seed (practice, demos), "
            "instead of the deals being typed; the seed is kept in the log (x-texas42-record) "
            "so that a resumed recording deals on.",
        ),
    ] = None,
    keep_rejected: Annotated[
        bool,
        typer.Option(
            "--keep-rejected",
            help="Write refused calls and plays into the log as rejected attempts (R30).",
        ),
    ] = False,
    show_as: Annotated[
        str,
        typer.Option(
            "--show-as",
            metavar="WHO",
            help="Whom `show` shows by default: A–D, public, omniscient.",
        ),
    ] = "public",
) -> None:
    """Record a match as it is played: prompts, legal options, every slip caught.

    Each prompt says the hand, whose turn and what kind of entry, with the
    legal options where they fit; an illegal entry is refused with its rule
    and changes nothing (R30). Commands: ? (every legal action), undo, show
    [WHO], help, quit. The log is replaced atomically after every accepted
    entry; `texas42 record FILE` goes on with an unfinished one. Entries may
    come from a pipe, one a line (exit 1 if one was refused).
    """
    from ..play.recorder import Recorder
    from . import Interrupted

    given_players = _players(player or [])
    if file is None:
        path = Path(datetime.now().strftime("match-%Y%m%d-%H%M%S.json"))
        if path.exists():
            raise usage_error(f"{path} exists; name the file to write")
        say(f"recording to {path}")
    else:
        path = Path(file)
    if path.is_dir():
        raise usage_error(f"{path} is a directory; name the log file to write")
    if path.suffix.lower() != ".json":
        raise usage_error(
            f"{path}: record writes a JSON log, FILE.json (convert it to other formats "
            "afterwards: texas42 convert FILE.json -o FILE.t42)"
        )
    if path.is_symlink() and not path.exists():
        raise usage_error(f"{path} is a link to nothing; name the log file to write")
    if path.exists() and not path.is_file():
        raise usage_error(
            f"{path} is not a regular file (a pipe or a device); the log is saved after every "
            "entry by replacing a file, so name a file"
        )
    lines = _Lines()
    game: Game
    saver = _Saver(path)
    if path.exists() or path.is_symlink():
        if rules is not None or given_players or first_dealer is not None:
            raise usage_error(
                f"{path} exists: record goes on with it under its own rules and players; "
                "--rules, --player and --first-dealer are for a new match"
            )
        game = _resume(path, seed, keep_rejected)
        saver.read()
        say(
            f"going on with {path}: hand {game.hand_number}, score "
            f"{', '.join(f'{t} {n}' for t, n in game.score.items())}"
        )
    else:
        game = _new(lines, rules, given_players, first_dealer, seed, keep_rejected)
        game = saver.save(game)
        say(f"new match, saved to {path} after every entry")
    session = Recorder(game, show_as)
    if game.is_over:
        say(session.summary())
        return
    refused = 0
    try:
        while not game.is_over:
            entry = lines.read(session.prompt())
            if entry is None:
                say(
                    f"input ended; {session.summary()}; saved in {path} — `texas42 record {path}` "
                    "goes on"
                )
                break
            reply = session.handle(entry)
            for line in reply.lines:
                say(line)
            refused += reply.refused
            if reply.changed:
                game = session.game = saver.save(session.game)
            if reply.quit:
                say(f"{session.summary()}; saved in {path} — `texas42 record {path}` goes on")
                break
        else:
            say(f"saved {path}")
    except Interrupted:
        say(
            f"\nstopped; {session.summary()}; saved in {path} — `texas42 record {path}` goes on",
            err=True,
        )
        raise
    if refused and not lines.tty:
        say(f"texas42: {refused} entr{'ies were' if refused != 1 else 'y was'} refused", err=True)
        raise typer.Exit(code=1)
