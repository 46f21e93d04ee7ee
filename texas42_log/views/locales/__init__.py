"""The message catalogue for every user-facing view text (``texas42 replay``/``render``).

One module per language, named by its code (``en``, ``tr``, ``uk``), holding
``MESSAGES``: a dict from message key to a ``str.format`` template. Adding a
language means adding one module here; :func:`languages` finds it and a test
checks it has every key of ``en`` with the same placeholders.

The Turkish and Ukrainian texts follow the seeds' own wording (seed 000 is
Turkish, 001 Ukrainian): the view description, the contract and visibility
phrases and the trick captions are the seeds' words, letter for letter.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

__all__ = ["DEFAULT_LANGUAGE", "languages", "catalogue"]

DEFAULT_LANGUAGE = "en"


@cache
def languages() -> tuple[str, ...]:
    """The language codes with a catalogue, sorted."""
    return tuple(
        sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    )


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang``; :class:`ValueError` names the languages there are."""
    if lang not in languages():
        raise ValueError(
            f"no messages for language {lang!r}; choose one of {', '.join(languages())}"
        )
    module = importlib.import_module(f"{__name__}.{lang}")
    messages: dict[str, str] = module.MESSAGES
    return messages
