"""Mutated input in every readable format: a one-sentence error with a position, or a
document the validator judges — never another exception (which the CLI would turn
into an internal error)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from texas42_log.files.formats import ConvertError, read_sources
from texas42_log.files.reader import validate_source
from texas42_log.log.model import Match
from texas42_log.log.notation import write_text

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"

SEEDS: list[tuple[str, str]] = [
    (
        "text",
        write_text(
            Match.model_validate_json(
                (FIX / "valid" / "annotations-extensions-rejected.json").read_bytes()
            )
        ),
    ),
    (
        "text",
        write_text(
            Match.model_validate_json(
                (FIX / "valid" / "variant-casual-nello-plunge-splash.json").read_bytes()
            )
        ),
    ),
    ("texas-42-receipt", (FIX / "foreign" / "texas-42" / "doubles_trump.receipt").read_text()),
    (
        "plunge-code",
        (
            FIX / "foreign" / "plunge" / "P3_casual_plunge_partner_declares_and_leads.plunge"
        ).read_text(),
    ),
    ("plunge-hand-v2", (FIX / "foreign" / "plunge" / "P1_record.plunge.json").read_text()),
    (
        "tricksy",
        (
            FIX
            / "foreign"
            / "tricksy"
            / "T3_plunge_declined_then_accepted_doubles_trump.tricksy.json"
        ).read_text(),
    ),
]
ALPHABET = '[]{}()&@":;,.-|+?0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz \n\t\\'


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(0, 12))
        kind = rng.randrange(5)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = (
                text[:i]
                + "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6)))
                + text[i:]
            )
        elif kind == 2:
            text = text[:i]
        elif kind == 3:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[:i] + text[i:j][::-1] + text[j:]
    return text


def json_mutations(text: str, rng: random.Random) -> str:
    """Structure-preserving JSON mutations: values swapped for others of any type."""
    doc = json.loads(text)
    junk = [None, 0, -1, 99, "", "x", [], {}, [1, 2], {"a": 1}, True, "6-9", "9-9", 7]

    def walk(v: object) -> object:
        if isinstance(v, dict):
            return {k: (rng.choice(junk) if rng.random() < 0.05 else walk(x)) for k, x in v.items()}
        if isinstance(v, list):
            return [rng.choice(junk) if rng.random() < 0.05 else walk(x) for x in v]
        return v

    return json.dumps(walk(doc))


@pytest.mark.parametrize(("fmt", "text"), SEEDS, ids=[f for f, _ in SEEDS])
def test_mutated_input_gives_an_error_or_a_verdict_never_a_crash(fmt: str, text: str) -> None:
    rng = random.Random(fmt + str(len(text)))
    refused = judged = 0
    for n in range(300):
        bad = (
            json_mutations(text, rng)
            if fmt in ("plunge-hand-v2", "tricksy") and n % 2
            else mutate(text, rng)
        )
        try:
            sources = read_sources(bad, fmt)
        except ConvertError as e:
            assert e.message and "\n" not in e.message
            assert e.line is None or e.line >= 1
            refused += 1
            continue
        for src in sources:
            result = validate_source(src)  # must not raise
            for d in result.diagnostics:
                assert d.message and d.rule
            judged += 1
    assert refused > 0 and refused + judged >= 300
