"""Write the options section of docs/rules.md from the rules registry
(texas42_log.engine.rules.OPTIONS), or with --check say whether it is up to date.

    python tools/build_rules_doc.py            # rewrite docs/rules.md's options block
    python tools/build_rules_doc.py --check    # exit 1 if the block is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from texas42_log.engine.rules import OPTIONS, PRESET_DOCS, PRESETS, STANDARD  # noqa: E402

DOC = ROOT / "docs" / "rules.md"
BEGIN = (
    "<!-- options: generated from texas42_log.engine.rules.OPTIONS; tests/test_docs.py checks it "
    "-->"
)
END = "<!-- /options -->"


def block() -> str:
    lines = [BEGIN, ""]
    for name, o in OPTIONS.items():
        lines.append(
            f'<a id="opt-{name}"></a>**`{name}`** — {o.values} (standard: '
            f"`{json.dumps(getattr(STANDARD, name))}`).  "
        )
        lines.append(f"{o.doc}  ")
        lines.append(f"*From:* {o.source}")
        lines.append("")
    lines.append("The presets:")
    lines.append("")
    for name in PRESETS:
        lines.append(f"- `{name}` — {PRESET_DOCS[name]}")
    lines += ["", END]
    return "\n".join(lines)


def render(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block() + text[end:]


def main() -> int:
    text = DOC.read_text("utf-8")
    new = render(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(
                "docs/rules.md: the options block is stale; run python tools/build_rules_doc.py",
                file=sys.stderr,
            )
            return 1
        return 0
    DOC.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
