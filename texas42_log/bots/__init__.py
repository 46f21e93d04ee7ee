"""Players at the table: bots that see only their seat's view, and duplicate play.

* :mod:`.base` — what a bot is (:class:`~.base.Bot`: a :class:`~.base.Situation` in,
  one legal action out) and how a table asks it
* :mod:`.rule` — ``random`` and ``rule`` (a documented hand count and table rules)
* :mod:`.sampling` — ``sampling``: worlds drawn from its view, each solved exactly
  (``sampling-contract``: bidding by the contract each call leads to)
* :mod:`.arena` — duplicate deals, pairs swapped; :mod:`.stats` its statistics

``BOTS`` names the built-in bots; :func:`bot_factory` reads a bot's name with its
settings (``sampling,worlds=20``). Pure: no I/O (the command line loads a bot of
your own from a file, :mod:`texas42_log.corpus.arena`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Bot, BotError, BotFactory, Situation, play_out, play_turn, seed_of, situation
from .rule import RandomBot, RuleBot
from .sampling import ContractSamplingBot, OpenSamplingBot, SamplingBot

__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "Situation",
    "situation",
    "play_turn",
    "play_out",
    "seed_of",
    "RandomBot",
    "RuleBot",
    "SamplingBot",
    "ContractSamplingBot",
    "OpenSamplingBot",
    "BOTS",
    "bot_factory",
    "split_spec",
    "bot_name",
]

#: The built-in bots by name.
BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "rule": RuleBot,
    "sampling": SamplingBot,
    "sampling-open": OpenSamplingBot,
    "sampling-contract": ContractSamplingBot,
}


def split_spec(spec: str) -> tuple[str, dict[str, int]]:
    """``"sampling,worlds=20"`` → ``("sampling", {"worlds": 20})``; settings are whole numbers."""
    name, *parts = spec.split(",")
    options: dict[str, int] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"a bot's setting is name=number, not {part[:30]!r}")
        text = value.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise ValueError(
                f"the setting {key} takes a whole number (at most 9 digits), not {text[:30]!r}"
            )
        options[key] = int(text)
    return name.strip(), options


def bot_name(spec: str) -> str:
    """A bot's name for logs and verdicts: the spec as given, a class of your own by
    its class name (``greedy.py:Greedy`` → ``Greedy``), its settings kept."""
    name, comma, settings = spec.partition(",")
    return name.rpartition(":")[2] + comma + settings


def bot_factory(spec: str, make: Callable[..., Bot] | None = None) -> Callable[[int], Bot]:
    """A factory (seed → bot) for a built-in bot's name with its settings, or for
    ``make`` (a bot class of your own) with the settings of ``spec``. A
    :class:`ValueError` names an unknown bot or setting."""
    name, options = split_spec(spec)
    if make is None:
        if name not in BOTS:
            raise ValueError(
                f"no bot is called {name[:40]!r}; the bots are {', '.join(BOTS)}, "
                "or a class of your own as FILE.py:CLASS or MODULE:CLASS"
            )
        make = BOTS[name]
    try:
        make(seed=0, **options)
    except TypeError as e:
        raise ValueError(f"the bot {name[:40]!r} does not take these settings ({e})") from None

    def factory(seed: int) -> Bot:
        return make(seed=seed, **options)

    return factory
