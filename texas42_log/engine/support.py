"""What each part of the tool honours of the rule options, and the refusal of the rest.

Every part that plays or values a hand under some rules — the engine, the two
solvers, the fair analysis, the auction's table, each bot, the environments —
declares a :class:`Support`: its name and the limits it cannot go past, each a
:class:`Limit` on some options. Every option it does not limit it honours, and the
design test (tests/test_option_support.py) walks every option's other values
against every part to hold it to that: a part that honours an option plays and
values by it (the solvers equal a brute force of the engine's own play under it), a
part that limits one refuses it up front.

A refusal is :class:`RulesNotSupported` (a :class:`ValueError`): one sentence naming
the option, its value and the part, which the command line prints with exit 2.
The foreign formats' writers say what they can write by their own round trip
(``CannotExport`` naming each option they cannot say, docs/conversions.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .rules import Rules

__all__ = ["Limit", "Support", "RulesNotSupported", "ENGINE"]


class RulesNotSupported(ValueError):
    """Rules a part of the tool does not honour: which option, its value, which part, why."""

    def __init__(self, part: str, option: str, value: Any, why: str) -> None:
        self.part = part
        self.option = option
        self.value = value
        self.why = why
        super().__init__(f"{part} cannot honour the rule option {option} = {value!r}: {why}")


@dataclass(frozen=True, slots=True)
class Limit:
    """A bound a part keeps on some options together: ``holds(rules)`` says whether
    these rules are within it, ``why`` says the bound in words. ``options`` are the
    options it bounds, the first of them the one a refusal names unless ``blame``
    (rules → option) says which of them took the rules past it."""

    options: tuple[str, ...]
    holds: Callable[[Rules], bool]
    why: str
    blame: Callable[[Rules], str] | None = None

    def option_past(self, rules: Rules) -> str:
        """The option a refusal of ``rules`` names."""
        return self.blame(rules) if self.blame is not None else self.options[0]


@dataclass(frozen=True, slots=True)
class Support:
    """A part of the tool (``part``, as a sentence names it) and its limits; every
    option none of them names is honoured."""

    part: str
    limits: tuple[Limit, ...] = ()

    def honours(self, option: str) -> bool:
        """Whether the part honours every value of ``option`` (no limit names it)."""
        return all(option not in limit.options for limit in self.limits)

    def refusal(self, rules: Rules) -> RulesNotSupported | None:
        """The refusal of ``rules``, naming the first option past a limit, or ``None``."""
        for limit in self.limits:
            if not limit.holds(rules):
                option = limit.option_past(rules)
                return RulesNotSupported(self.part, option, getattr(rules, option), limit.why)
        return None

    def check(self, rules: Rules) -> None:
        """Raise :class:`RulesNotSupported` for rules past one of the limits."""
        problem = self.refusal(rules)
        if problem is not None:
            raise problem


#: The rules engine (replay, validation, :class:`~texas42_log.play.game.Game`): every
#: option is its own, so it honours them all.
ENGINE = Support("the rules engine")
