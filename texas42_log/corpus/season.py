"""A season's fair analysis, resumable: ``texas42 analyze --fair --annotate CORPUS -o OUT``.

A JSON Lines corpus is annotated into a JSON Lines ``OUT``, a folder of logs into a
folder ``OUT``, match by match, on every core (:mod:`.fair_pool`). A season is hours
of work, so a run that stops — Ctrl-C, ``kill -9``, a full disk, a power cut — loses
nothing of what it finished, and the same command run again continues where it
stopped:

* **JSON Lines.** Each annotated match is one line, appended, flushed and synced
  to disk before the next is started, so at every moment ``OUT`` is whole matches,
  one a line, and at most a *torn* last line (no line end: the match being written
  when the run was killed). A torn line is no match to any reader (it is not JSON),
  and the rerun cuts it off first. The rerun then reads ``OUT``'s lines back, checks
  that the k-th is the k-th valid match of the corpus with its analysis (and was
  drawn with the same worlds and seed), skips that many, and appends the rest.
* **A folder.** Each log of the corpus becomes the file of the same name under
  ``OUT``, written whole and atomically (:mod:`texas42_log.files.outputs`): it is
  there, complete, or not at all. The rerun skips every file already there (after the
  same check) and writes the others.

Invalid matches are reported, as ``validate`` reports them, and left out — on every
run, so that a rerun says the same. An ``OUT`` that is not this corpus's analysis is
refused (nothing in it is touched) unless ``restart``: then it is started again.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import formats
from ..files.reader import Read, Record, expand_inputs, read_matches, validated
from ..files.validate import DEFAULT_MAX_BYTES
from ..log.model import Match
from .fair_pool import Run, fair_matches

__all__ = [
    "SeasonError",
    "Season",
    "SeasonRun",
    "annotate_jsonl",
    "annotate_folder",
    "annotate_matches",
    "annotate_record",
    "core_of",
]


class SeasonError(ValueError):
    """``OUT`` cannot be resumed (or written): one sentence, naming the file and why."""


@dataclass
class Season:
    """What a run did: matches annotated now, found done already, invalid and left out
    (each with its diagnostics), hands skipped (why), and the torn line cut off."""

    written: int = 0
    resumed: int = 0
    invalid: list[Read] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    torn: int = 0


def core_of(doc: dict[str, Any]) -> dict[str, Any]:
    """A match's JSON form without its analysis and version: what an annotated match must
    share with the match it was made from."""
    out = {k: v for k, v in doc.items() if k != "version"}
    hands = []
    for hand in doc.get("hands", []):
        h = {k: v for k, v in hand.items() if k != "analysis"}
        for part in ("plays", "auction"):
            h[part] = [{k: v for k, v in p.items() if k != "analysis"} for p in hand.get(part, [])]
        if isinstance(hand.get("declaration"), dict):
            h["declaration"] = {k: v for k, v in hand["declaration"].items() if k != "analysis"}
        hands.append(h)
    out["hands"] = hands
    return out


def _same(done: dict[str, Any], match: Match, run: Run, auction: bool = True) -> str | None:
    """Why an annotated document is not ``match`` analysed by ``run`` (with the auction's
    verdicts, or without them); None when it is."""
    from ..analysis.checks import stated_runs
    from ..log.model import match_json

    if core_of(done) != core_of(match_json(match)):
        return "holds another match"
    runs = set(stated_runs(done).values())
    if runs and runs != {run}:
        (w, s), *_ = sorted(runs)
        return f"was drawn with {w} worlds and seed {s}"
    for h in stated_runs(done):
        hand = done["hands"][h]
        declared = hand.get("declaration")
        if not isinstance(declared, dict):
            continue  # no contract: no verdicts of the auction either way
        judged = "analysis" in declared or any("analysis" in c for c in hand.get("auction", []))
        # a seat whose play has a fair analysis had its own tiles known at its call too
        could = any("analysis" in p for p in hand.get("plays", []))
        if judged and not auction:
            return "holds the auction's verdicts, which --no-auction leaves out"
        if auction and could and not judged:
            return "holds no verdicts of the auction (it was written with --no-auction)"
    return None


@dataclass(frozen=True, slots=True)
class SeasonRun:
    """How a corpus is annotated: the fair analysis's (worlds, seed), one hand only (from
    1) or every hand, the makeable table, the processes, whether an earlier ``OUT`` is
    started again (``restart``), the calls and declaration judged too (``auction``),
    and who hears of it: ``progress`` (decisions done, of how many) and ``on_match``
    (the matches written so far)."""

    fair: Run
    hand: int | None = None
    table: bool = True
    jobs: int = 1
    restart: bool = False
    progress: Callable[[int, int], None] | None = None
    on_match: Callable[[int], None] | None = None
    auction: bool = True


def _annotate(
    matches: Iterator[Match],
    run: SeasonRun,
    skipped: list[str],
    analysed: Callable[[int], None] | None = None,
) -> Iterator[Match]:
    """Each match with its open-hand and fair analysis written in (as ``annotate_match``
    writes it), its decisions spread over ``run.jobs`` processes."""
    from ..analysis.api import annotated_match
    from ..analysis.open_hand import Skipped

    fair = run.fair
    for done in fair_matches(
        matches,
        runs=lambda doc: {fair: list(range(len(doc.get("hands", []))))},
        jobs=run.jobs,
        hand=run.hand,
        table=run.table,
        progress=run.progress,
        auction="all" if run.auction else "none",
    ):
        match = done.result.match
        assert match is not None
        judged = done.fair.get(fair, {})
        skipped += [
            f"hand {a.hand + 1} skipped: {a.reason}"
            for a in done.analyses
            if isinstance(a, Skipped) and a.hand not in judged
        ]
        if analysed is not None:
            analysed(
                sum(1 for a in done.analyses if not isinstance(a, Skipped) or a.hand in judged)
            )
        yield annotated_match(match, done.analyses, done.fair.get(fair, {}))


def annotate_matches(
    matches: list[Match],
    *,
    fair: Run,
    hand: int | None = None,
    table: bool = True,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    auction: bool = True,
) -> tuple[list[Match], int, list[str]]:
    """``matches`` with their open-hand and fair analysis written in, as
    :func:`texas42_log.annotate_match` writes it but with the decisions spread over ``jobs``
    processes: the annotated matches, the hands analysed, and a note per hand skipped."""
    notes: list[str] = []
    analysed = [0]

    def counted(done: Any) -> None:
        analysed[0] += done

    out = list(
        _annotate(
            iter(matches),
            SeasonRun(fair, hand, table, jobs, progress=progress, auction=auction),
            notes,
            counted,
        )
    )
    return out, analysed[0], notes


def annotate_record(
    record: Record,
    *,
    fair: Run,
    hand: int | None = None,
    table: bool = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
    auction: bool = True,
) -> str | None:
    """One record's annotated JSON Lines line (its open-hand and fair analysis written in,
    as the season mode writes it; ``auction``: its calls and declaration judged too), or
    None when the match is invalid: a pure function of the record's bytes, for a
    cluster's workers (docs/scale-out.md)."""
    from ..files.formats import write_matches

    result, _ = validated(record, max_bytes)
    if not result.valid or result.match is None:
        return None
    (done,) = _annotate(iter([result.match]), SeasonRun(fair, hand, table, auction=auction), [])
    return write_matches([done], "jsonl")


def _whole_end(out: Path, restart: bool) -> tuple[int, int]:
    """Where ``OUT``'s whole lines end, and the length of a torn last line after them (a
    line with no line end); (0, 0) for no ``OUT`` (or ``restart``: it is emptied). Only the
    end of the file is read."""
    try:
        st = os.stat(out)
    except FileNotFoundError:
        return 0, 0
    except OSError as e:
        raise SeasonError(f"{out}: cannot be read ({e.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise SeasonError(f"{out} is not a regular file; -o names the JSON Lines file to write")
    if restart:
        os.truncate(out, 0)
        return 0, 0
    with open(out, "rb") as f:
        pos = st.st_size
        while pos > 0:
            step = min(pos, 1 << 16)
            f.seek(pos - step)
            block = f.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                end = pos - step + cut + 1
                return end, st.st_size - end
            pos -= step
    return 0, st.st_size


def _done_lines(out: Path, end: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """``OUT``'s whole lines before ``end``, parsed one at a time, with their numbers."""
    if end == 0:
        return
    with open(out, "rb") as f:
        n = 0
        while f.tell() < end:
            line = f.readline()
            n += 1
            if not line.strip():
                continue
            try:
                doc = json.loads(line)
            except ValueError:
                raise SeasonError(
                    f"{out}:{n} is not a JSON line; it is not an analysis this command wrote "
                    "(give another -o, or --force to start it again)"
                ) from None
            if not isinstance(doc, dict):
                raise SeasonError(f"{out}:{n} is not a match; give another -o, or --force")
            yield n, doc


def annotate_jsonl(source: str, out: Path, run: SeasonRun) -> Season:
    """The JSON Lines corpus ``source`` annotated into the JSON Lines file ``out``, resumed
    where an earlier run of the same command stopped (see the module text). ``OUT`` is
    read back a line at a time beside the corpus, and a torn last line is cut off only
    once every whole line is known to be this corpus's: a refused ``OUT`` is untouched."""
    from ..files.formats import write_matches

    season = Season()
    end, torn = _whole_end(out, run.restart)
    done = _done_lines(out, end)

    def fresh() -> Iterator[Match]:
        k = 0
        pending = next(done, None)
        for read in read_matches([source], "jsonl", expand=False):
            if not read.result.valid or read.result.match is None:
                season.invalid.append(read)
                continue
            if pending is not None:
                n, doc = pending
                why = _same(doc, read.result.match, run.fair, run.auction)
                if why is not None:
                    raise SeasonError(
                        f"{out}:{n} {why}, not the analysis of {read.name}:{read.number}: "
                        "it is not this corpus's (give another -o, or --force to start it again)"
                    )
                k += 1
                season.resumed += 1
                pending = next(done, None)
                continue
            yield read.result.match
        if pending is not None:
            raise SeasonError(
                f"{out} holds more matches than the {k} valid ones of {source}: it is not "
                "this corpus's analysis (give another -o, or --force)"
            )

    def cut() -> None:
        if torn and not season.torn:
            os.truncate(out, end)
            season.torn = torn

    try:
        with open(out, "ab") as f:
            for match in _annotate(fresh(), run, season.skipped):
                cut()  # every whole line is this corpus's: the torn one goes
                f.write(write_matches([match], "jsonl").encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
                season.written += 1
                if run.on_match is not None:
                    run.on_match(season.resumed + season.written)
            cut()
    except OSError as e:
        raise SeasonError(_cannot(out, e)) from None
    return season


def _cannot(out: Path, e: OSError) -> str:
    why = "the disk is full" if e.errno == errno.ENOSPC else (e.strerror or str(e))
    return (
        f"{out}: cannot be written ({why}); every match before it is whole — run the same "
        "command again to continue"
    )


def annotate_folder(source: str, out: Path, run: SeasonRun) -> Season:
    """The logs of the folder ``source`` annotated into the folder ``out``, each file under
    the same name, written whole; resumed where an earlier run stopped (the module text)."""
    from ..files.formats import write_matches
    from ..files.outputs import write_atomic

    season = Season()
    if out.exists() and not out.is_dir():
        raise SeasonError(f"{out} exists and is not a folder; -o names the folder to write")
    base = Path(source)
    if out.resolve() == base.resolve() or base.resolve() in out.resolve().parents:
        raise SeasonError(f"{out} is inside {source}; write the analysis to a folder outside it")
    # the files still to write, in order, each with how many of the matches it holds: one
    # pool serves the whole folder, and a file is written as soon as its last match is in
    todo: deque[tuple[Path, str, int]] = deque()

    def fresh() -> Iterator[Match]:
        for name in expand_inputs([source]):
            target = out / Path(name).resolve().relative_to(base.resolve())
            reads = list(read_matches([name], expand=False))
            bad = [r for r in reads if not r.result.valid or r.result.match is None]
            if bad:
                season.invalid += bad
                continue
            matches = [r.result.match for r in reads if r.result.match is not None]
            fmt = reads[0].format if reads else "json"
            if fmt not in formats.OURS:
                season.skipped.append(f"{name} is {fmt}; convert it to texas42-log first")
                continue
            if target.exists() and not run.restart:
                why = _folder_same(target, matches, run.fair, run.auction)
                if why is not None:
                    raise SeasonError(
                        f"{target} {why}, not the analysis of {name} (give another -o, or "
                        "--force to start again)"
                    )
                season.resumed += len(matches)
                continue
            if matches:
                todo.append((target, fmt, len(matches)))
                yield from matches

    done: list[Match] = []
    for match in _annotate(fresh(), run, season.skipped):
        done.append(match)
        target, fmt, n = todo[0]
        if len(done) < n:
            continue
        todo.popleft()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, write_matches(done, fmt), replace=run.restart)
        except OSError as e:
            raise SeasonError(_cannot(target, e)) from None
        season.written += len(done)
        done = []
        if run.on_match is not None:
            run.on_match(season.resumed + season.written)
    return season


def _folder_same(target: Path, matches: list[Match], fair: Run, auction: bool = True) -> str | None:
    from ..log.model import match_json

    try:
        reads = list(read_matches([str(target)], expand=False))
    except (OSError, ValueError):
        return "cannot be read back"
    done = [r.result.match for r in reads if r.result.match is not None]
    if len(done) != len(matches):
        return "holds another number of matches"
    for d, m in zip(done, matches, strict=True):
        why = _same(match_json(d), m, fair, auction)
        if why is not None:
            return why
    return None
