"""Corpora: files, directories, globs and JSON Lines; processes; streaming; `generate`."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.corpus import pool
from texas42_log.corpus import validation as corpus
from texas42_log.corpus.validation import validate_records
from texas42_log.engine.presets import PRESETS
from texas42_log.files import ranges as ranges_module
from texas42_log.files import reader
from texas42_log.files.reader import InputError, Record, expand_inputs, read_records
from texas42_log.files.validate import validate_bytes
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: str, input: bytes | str | None = None) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args), input=input)
    return r.exit_code, r.stdout, r.stderr


def broken(doc: dict[str, object], rng: random.Random) -> dict[str, object]:
    """A copy with one stated fact made wrong (R5, R6 or R23)."""
    doc = json.loads(json.dumps(doc))
    hands = [h for h in doc["hands"] if "declaration" in h]  # type: ignore[attr-defined]
    h = rng.choice(hands)
    key = rng.choice(["score", "points", "marks"])
    h["outcome"][key]["A+C"] += 1
    return doc


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of single .json files and .jsonl corpora, nested, some matches invalid."""
    rng = random.Random(5)
    root = tmp_path_factory.mktemp("mixed")
    (root / "season" / "week-1").mkdir(parents=True)
    docs = []
    for i in range(160):
        preset = rng.choice(list(PRESETS))
        doc = random_match(100 + i, rules=PRESETS[preset], preset=preset)
        docs.append(broken(doc, rng) if i % 9 == 0 else doc)
    for i, doc in enumerate(docs[:12]):
        (root / "season" / "week-1" / f"match-{i:02}.json").write_text(
            json.dumps(doc, indent=1), "utf-8"
        )
    (root / "season" / "all.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in docs[12:100]), "utf-8"
    )
    (root / "late.jsonl").write_text("\n".join(json.dumps(d) for d in docs[100:]) + "\n\n", "utf-8")
    (root / "notes.txt").write_text("not a log", "utf-8")
    (root / "bad.json").write_bytes(b'{"format": "texas42-log", "version": "1.0", "hands": [')
    return root


def test_expand_inputs_walks_directories_and_globs(mixed: Path) -> None:
    files = expand_inputs([str(mixed)])
    assert [Path(f).relative_to(mixed).as_posix() for f in files] == [
        "bad.json",
        "late.jsonl",
        "season/all.jsonl",
        *[f"season/week-1/match-{i:02}.json" for i in range(12)],
    ]
    assert expand_inputs([str(mixed / "season" / "**" / "*.json")]) == files[3:]
    with pytest.raises(InputError, match="no file matches"):
        expand_inputs([str(mixed / "*.xml")])
    with pytest.raises(InputError, match="no such file"):
        expand_inputs([str(mixed / "missing.json")])


def test_a_corpus_gives_the_verdicts_of_each_match_alone(mixed: Path) -> None:
    """The issue's acceptance test: mixed directory, JSON Lines, and processes agree
    with validating every match on its own, in the same order."""
    files = expand_inputs([str(mixed)])
    alone = []
    for name in files:
        if name.endswith(".jsonl"):
            lines = Path(name).read_bytes().splitlines()
            alone += [
                (f"{name}:{k}", validate_bytes(line))
                for k, line in enumerate(lines, 1)
                if line.strip()
            ]
        else:
            alone.append((name, validate_bytes(Path(name).read_bytes())))
    expected = [(src, r.valid, [(d.rule, d.pointer) for d in r.errors]) for src, r in alone]
    assert len(expected) == 161 and sum(1 for _, v, _ in expected if not v) == 19
    for jobs in (1, 2):
        got = [
            (
                r.source,
                r.valid,
                [
                    (d["rule"], d["pointer"])
                    for d in r.json["diagnostics"]
                    if d["severity"] == "error"
                ],
            )
            for r in validate_records(read_records(files), jobs=jobs)
        ]
        assert got == expected, jobs


def test_workers_reading_their_own_ranges_agree_with_one_process(
    mixed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several processes a JSON Lines file is cut into byte ranges that the
    workers read themselves: same matches, same line numbers, same order."""
    monkeypatch.setattr(ranges_module, "CHUNK", 20_000)  # many ranges, some cutting mid-file
    monkeypatch.setattr(corpus, "CHUNK", 20_000)  # (and worth several processes)
    files = expand_inputs([str(mixed)])
    ranges = list(reader.ranges(str(mixed / "late.jsonl")))
    assert len(ranges) > 5 and ranges[0].start == 0
    assert all(a.end == b.start for a, b in zip(ranges, ranges[1:], strict=False))
    assert ranges[-1].end == (mixed / "late.jsonl").stat().st_size

    def key(r: corpus.RecordResult) -> tuple[object, ...]:
        return (r.source, r.valid, r.hands, r.rules, r.text)

    one = [key(r) for r in corpus.validate_files(files, jobs=1)]
    two = [key(r) for r in corpus.validate_files(files, jobs=2)]
    assert two == one and len(one) == 161


def test_records_are_streamed_not_loaded_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    line = json.dumps(random_match(1)) + "\n"
    big.write_text(line * 300, "utf-8")
    records = read_records([str(big)])
    first = next(records)
    assert first.source.endswith("big.jsonl:1") and first.data == line.encode()
    # Only the first lines were read: the generator holds an open handle, not the file.
    frame = records.gi_frame  # type: ignore[attr-defined]
    handle = next(v for v in frame.f_locals.values() if hasattr(v, "tell"))
    assert handle.tell() < big.stat().st_size / 10


def test_processes_read_ahead_only_a_bounded_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus, "BATCH", 4)
    data = json.dumps(random_match(2)).encode()
    taken = 0

    def endless() -> Iterator[Record]:
        nonlocal taken
        while True:
            taken += 1
            yield Record(f"r{taken}", data)

    results = validate_records(endless(), jobs=2)
    first = [next(results) for _ in range(3)]
    assert [r.source for r in first] == ["r1", "r2", "r3"]
    # head (jobs × BATCH + 1) plus a window of jobs × WINDOW batches, no more.
    assert taken <= 2 * 4 + 1 + 2 * pool.WINDOW * 4 + 4
    results.close()


def _nap(seconds: float) -> list[float]:
    import time

    time.sleep(seconds)
    return [seconds]


def test_the_pool_knows_its_workers_and_an_early_stop_ends_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """run_pool stops its workers through the processes its start context recorded, not a
    private field of the executor. If the executor ever stopped starting its workers
    through ``mp_context.Process``, the list would be empty and this test fails."""
    made: list[pool.RecordingContext] = []

    class Spy(pool.RecordingContext):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(pool, "RecordingContext", Spy)
    results = pool.run_pool(((_nap, 0.05) for _ in range(10_000)), 2)
    assert next(results) == 0.05
    (context,) = made
    assert len(context.processes) == 2 and all(p.is_alive() for p in context.processes)
    results.close()  # the consumer stops early: the workers end now
    assert not any(p.is_alive() for p in context.processes)


def test_cli_corpus_text_quiet_and_summary(mixed: Path) -> None:
    code, out, err = run("validate", str(mixed), "-q", "-j", "2")
    assert code == 1
    assert re.search(r"^matches +161$", err, re.M) and re.search(r"^invalid +19$", err, re.M)
    row = re.search(r"^most broken +(.+)$", err, re.M)
    assert row is not None
    # the mutated stated facts (R5, R6, R23), and the one file that is not JSON
    assert {item.split(" ×")[0] for item in row.group(1).split(", ")} <= {"R5", "R6", "R23", "json"}
    verdicts = [line for line in out.splitlines() if ": invalid" in line]
    assert len(verdicts) == 19
    assert ": valid" not in out  # --quiet


def test_cli_json_streams_one_object_per_match_then_the_summary(mixed: Path) -> None:
    code, out, _ = run("validate", str(mixed / "late.jsonl"), "-f", "json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 1
    assert [x["file"] for x in lines[:-1]] == [f"{mixed / 'late.jsonl'}:{k}" for k in range(1, 61)]
    summary = lines[-1]["summary"]
    assert summary["matches"] == 60 and summary["invalid"] == sum(
        1 for x in lines[:-1] if not x["valid"]
    )
    assert summary["hands_per_second"] > 0


def test_fail_fast_and_max_errors_stop_early(mixed: Path) -> None:
    code, out, err = run(
        "validate", str(mixed / "season" / "all.jsonl"), "--fail-fast", "-f", "json"
    )
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and not lines[-2]["valid"] and all(x["valid"] for x in lines[:-2])
    assert lines[-1]["summary"]["stopped"] == "at the first invalid match (--fail-fast)"
    code, out, err = run("validate", str(mixed), "--max-errors", "3", "-q")
    assert code == 1 and re.search(r"^stopped +after 3 errors \(--max-errors 3\)$", err, re.M)


def test_stdin_json_lines() -> None:
    corpus_text = "".join(json.dumps(random_match(s)) + "\n" for s in range(3))
    code, out, err = run("validate", "-", "--jsonl", input=corpus_text)
    assert code == 0 and out.count(": valid") == 3 and "<stdin>:3: valid" in out


def test_missing_input_is_a_usage_error() -> None:
    code, _, err = run("validate", "no-such-dir/")
    assert code == 2 and "no such file" in err


def test_generate_is_reproducible_and_valid(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("generate", "-n", "25", "--seed", "3", "-o", str(a))[0] == 0
    assert run("generate", "-n", "25", "--seed", "3", "-o", str(b))[0] == 0
    assert a.read_bytes() == b.read_bytes()
    _, other, _ = run("generate", "-n", "25", "--seed", "4")
    assert other.encode() != a.read_bytes()
    lines = a.read_text("utf-8").splitlines()
    assert len(lines) == 25 and all(validate_bytes(x).valid for x in lines)
    kinds = {c["call"] for line in lines for h in json.loads(line)["hands"] for c in h["auction"]}
    assert kinds == {"pass", "points", "marks"}
    code, _, err = run("generate", "-n", "1", "-o", str(a))
    assert code == 2 and "exists; pass --force" in err
    one = tmp_path / "one.json"
    assert run("generate", "-o", str(one), "--rules", "casual")[0] == 0
    assert one.read_text("utf-8").startswith('{\n  "format": "texas42-log"')
    assert validate_bytes(one.read_bytes()).valid
    code, _, err = run("generate", "--rules", "house")
    assert code == 2 and "unknown rules preset 'house'" in err
