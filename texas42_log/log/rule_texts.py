"""The rules reference, docs/rules.md, as installed with the package: one rule's or
one option's text by its id (``texas42 rules R16``, ``texas42 rules splash``).

The package holds the reference without its options block (``data/rules.md``); the
block is written here from the options' declaration (``engine.rules.OPTIONS``), the
one source of docs/rules.md's block too (``tools/build_rules_doc.py``), so that a new
option changes docs/rules.md alone."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources

from ..engine.options import Option
from ..engine.presets import PRESET_LIST
from ..engine.rules import OPTIONS

__all__ = [
    "OPTIONS_BEGIN",
    "OPTIONS_END",
    "RuleNotFound",
    "options_block",
    "rule_text",
    "rules_reference",
    "with_options",
]

#: The lines that frame the options block of docs/rules.md.
OPTIONS_BEGIN = (
    "<!-- options: generated from texas42_log.engine.rules.OPTIONS; tests/test_docs.py checks it "
    "-->"
)
OPTIONS_END = "<!-- /options -->"


class RuleNotFound(LookupError):
    """No rule or option of that name."""


def options_block(options: Mapping[str, Option] = OPTIONS) -> str:
    """The options block of docs/rules.md: each option in words, with the rule text
    behind it (:meth:`Option.reference`); the presets."""
    lines = [OPTIONS_BEGIN, ""]
    for name, o in options.items():
        lines += [f'<a id="opt-{name}"></a>{o.reference()}', ""]
    lines += ["The presets:", ""]
    lines += [f"- `{p.name}` — {p.doc}" for p in PRESET_LIST]
    lines += ["", OPTIONS_END]
    return "\n".join(lines)


def with_options(text: str, block: str) -> str:
    """``text`` with its options block (the lines between the frames) replaced."""
    start, stop = text.index(OPTIONS_BEGIN), text.index(OPTIONS_END) + len(OPTIONS_END)
    return text[:start] + block + text[stop:]


@lru_cache(maxsize=1)
def rules_reference() -> str:
    """docs/rules.md: the package's copy, its options block written from the
    declaration."""
    text = resources.files("texas42_log").joinpath("data").joinpath("rules.md").read_text("utf-8")
    return with_options(text, options_block())


_ANCHOR = re.compile(r'<a id="([a-z0-9_-]+)"></a>')


@lru_cache(maxsize=1)
def _sections() -> dict[str, str]:
    """anchor → its paragraph, as plain text (markup taken out)."""
    text = rules_reference()
    out: dict[str, str] = {}
    for m in _ANCHOR.finditer(text):
        end = text.find("\n\n", m.end())
        body = text[m.end() : end if end != -1 else len(text)]
        body = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", body)  # links → their words
        body = (
            body.replace("**", "")
            .replace("*From:*", "From:")
            .replace("`", "")
            .replace("  \n", "\n")
        )
        out[m.group(1)] = body.strip()
    return out


def rule_text(name: str) -> str:
    """The text of rule ``R16`` (any case), of option ``splash``, or of ``variant:splash``."""
    key = name.strip().lower()
    if key.startswith("variant:"):
        key = key[len("variant:") :]
    sections = _sections()
    for anchor in (key, f"opt-{key}"):
        if anchor in sections:
            return sections[anchor]
    rules = [k.upper() for k in sections if re.fullmatch(r"r[0-9]+", k)]
    raise RuleNotFound(
        f"no rule or option {name!r}: the rules are {rules[0]}–{rules[-1]}, and "
        f"the options are listed by texas42 rules (docs/rules.md)"
    )
