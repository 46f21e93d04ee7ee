"""How a rule option is declared: :func:`option` makes a field of
:class:`~texas42_log.engine.rules.Rules` carry its values, its words and its format
version, and :class:`Option` is that declaration read back (``rules.OPTIONS``).
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field
from typing import Any, Final, get_args

__all__ = ["COUNT_LIMIT", "Option", "option", "option_of"]

#: The largest count an option may hold (marks, doubles, points to win): no rule's
#: bound, a guard against the hostile number in a log.
COUNT_LIMIT: Final = 10_000


def option(
    default: Any,
    values: object,
    *,
    low: int = 1,
    high: int = COUNT_LIMIT,
    since: str = "1.1",
    value_since: dict[str, str] | None = None,
    doc: str,
    source: str,
) -> Any:
    """Declare one rule option as a field of :class:`Rules`.

    ``values`` is ``bool``, ``int`` (between ``low`` and ``high``; a default of
    ``None`` means the option may be unset) or the ``Literal`` of its words. ``since``
    is the format version that brought the option, ``value_since`` the later versions
    that brought some of its values; ``doc`` says what it decides and ``source`` the rule
    text behind it."""
    if values is bool:
        kind, choices = "bool", ()
    elif values is int:
        kind, choices = "int", ()
    else:
        kind, choices = "enum", get_args(values)
    meta = {
        "kind": kind,
        "choices": choices,
        "low": low,
        "high": high,
        "since": since,
        "value_since": dict(value_since or {}),
        "doc": doc,
        "source": source,
    }
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option as :class:`Rules` declares it (:func:`option`)."""

    name: str
    default: Any
    kind: str  # "enum", "bool" or "int"
    choices: tuple[str, ...]
    low: int
    high: int
    since: str
    value_since: dict[str, str]
    doc: str
    source: str

    @property
    def unset(self) -> bool:
        """Whether the option may be left unset (its default is none)."""
        return self.default is None

    @property
    def values(self) -> str:
        """The values it takes, in words: "fair / highest-pips", "integer 0–42"."""
        if self.kind == "enum":
            return " / ".join(self.choices)
        if self.kind == "bool":
            return "true / false"
        words = (
            f"integer ≥ {self.low}"
            if self.high == COUNT_LIMIT
            else f"integer {self.low}–{self.high}"
        )
        return words + (", or unset" if self.unset else "")

    @property
    def standard(self) -> str:
        """Its standard value as JSON writes it ("fair", 7, false, null)."""
        return _json_word(self.default)

    def describe(self, value: Any) -> list[str]:
        """The option set to ``value`` as ``texas42 rules`` prints it: a line with the
        value and the values it takes, the sentence that explains it, the rule text."""
        return [
            f"{self.name} = {_json_word(value)}    ({self.values})",
            f"    {self.doc}",
            f"    from: {self.source}",
        ]

    def reference(self) -> str:
        """Its entry in the rules reference (docs/rules.md), in markdown: the name, the
        values it takes and the standard one, the sentence, the rule text."""
        return (
            f"**`{self.name}`** — {self.values} (standard: `{self.standard}`).  \n"
            f"{self.doc}  \n*From:* {self.source}"
        )

    def version_of(self, value: Any) -> str:
        """The format version that brought this option with ``value``."""
        return self.value_since.get(value, self.since) if isinstance(value, str) else self.since


def _json_word(value: Any) -> str:
    """An option's value as JSON writes it (a word, a number, true/false/null)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return f'"{value}"' if isinstance(value, str) else str(value)


def option_of(f: Field[Any]) -> Option:
    """The declaration a field of ``Rules`` carries (the metadata :func:`option` wrote,
    named as :class:`Option`'s fields)."""
    return Option(f.name, f.default, **f.metadata)
