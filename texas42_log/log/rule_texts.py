"""The rules reference, docs/rules.md, as installed with the package: one rule's or
one option's text by its id (``texas42 rules R16``, ``texas42 rules splash``)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["RuleNotFound", "rule_text", "rules_reference"]


class RuleNotFound(LookupError):
    """No rule or option of that name."""


@lru_cache(maxsize=1)
def rules_reference() -> str:
    """docs/rules.md, from the package's data."""
    return resources.files("texas42_log").joinpath("data").joinpath("rules.md").read_text("utf-8")


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
