"""Print one line per hand of each log: the review aid for fixtures.

Run: python tools/summarize.py FILE...
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as f:
            doc = json.load(f)
        print(
            f"== {name}  first dealer {doc['first_dealer']}  status {doc.get('status', 'complete')}"
        )
        for i, h in enumerate(doc["hands"]):
            calls = " ".join(
                f"{c['seat']}:{c['call'][0]}{c.get('bid', '')}"
                f"{'(rej)' if c.get('rejected') else ''}"
                for c in h["auction"]
            )
            d = h.get("declaration") or {}
            out = h.get("outcome") or {}
            tricks = out.get("tricks") or []
            print(
                f"  {i + 1:2} dealer {h['dealer']} | {calls:34} | trump {d.get('trump', '-'):8}"
                f" stacks {d.get('stacks', '-')} | plays {len(h.get('plays', [])):2} tricks "
                f"{len(tricks)}"
                f" | {out.get('result', '-'):11} pts {out.get('points')} marks {out.get('marks')} "
                f"score {out.get('score')}"
            )


if __name__ == "__main__":
    main()
