"""Ctrl-C at many random moments, beyond what tests/test_signals.py samples.

    .venv/bin/python tools/stress_signals.py 120     # 120 runs; prints each bad one, then "bad N"

Each run starts validate -j 2, convert or generate on a 1,000-match corpus, sends
one Ctrl-C (or two, 50 ms apart) to its process group after 0.05–3 s, and checks
what tests/test_signals.py checks: exit 0 (it had finished) or 130, no traceback,
"interrupted" said once, no worker left, nothing half written.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import test_signals as t  # noqa: E402


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    d = Path(tempfile.mkdtemp())
    c = d / "corpus.jsonl"
    subprocess.run(t.CLI + ["generate", "-n", "1000", "-o", str(c)], check=True)
    rng = random.Random(1)
    bad = 0
    for i in range(runs):
        cmd = rng.choice(list(t.COMMANDS))
        twice = rng.random() < 0.5
        delay = rng.uniform(0.05, 3.0)
        out = d / f"o{i}"
        out.mkdir()
        code, err, took, gone = t._interrupt(t.COMMANDS[cmd](c, out), delay, twice, out)
        ok = code == 0 or (
            code == 130
            and "Traceback" not in err
            and err.count("texas42: interrupted") == 1
            and gone
            and (twice or list(out.iterdir()) == [])
        )
        if not ok:
            bad += 1
            print("BAD", cmd, twice, round(delay, 3), code, gone, list(out.iterdir()), err[-600:])
    print("bad", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
