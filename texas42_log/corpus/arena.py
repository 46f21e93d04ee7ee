"""The duplicate arena on every core: deals in batches over worker processes,
results in deal order, each table's log as a file.

A bot is named as the built-in bots are (``rule``, ``sampling,worlds=20``) or as
a class of your own: ``FILE.py:CLASS`` (a Python file, loaded as a module) or
``MODULE:CLASS`` (an importable module), with settings after commas the same way.
Each worker process loads it once. The work itself is
:func:`texas42_log.bots.arena.play_deal`, pure; the same seed gives the same deals,
the same choices and byte-identical logs, whatever the number of processes.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from ..bots import bot_factory, split_spec
from ..bots.arena import DealResult, play_deal
from ..bots.base import Bot
from ..log.inert import dumps
from .pool import run_pool

__all__ = ["resolve", "run_deals", "log_name", "log_text", "BATCH"]

#: Deals per task sent to a worker.
BATCH = 4

_LOADED: dict[str, Callable[[int], Bot]] = {}


def resolve(spec: str) -> Callable[[int], Bot]:
    """A factory for ``spec`` (see the module text); :class:`ValueError` in one
    sentence when it names no bot."""
    if spec in _LOADED:
        return _LOADED[spec]
    name, _ = split_spec(spec)
    if ":" not in name:
        factory = bot_factory(spec)
    else:
        where, _, attribute = name.rpartition(":")
        module = _load(where)
        make = getattr(module, attribute, None)
        if make is None or not callable(make):
            raise ValueError(f"{where} has no bot class {attribute[:40]!r}")
        factory = bot_factory(spec, make)
        probe = factory(0)
        if not callable(getattr(probe, "act", None)):
            raise ValueError(f"{name[:80]} is not a bot: it has no act(situation) method")
    _LOADED[spec] = factory
    return factory


def _load(where: str) -> object:
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ValueError(f"{where}: no such Python file")
        module_name = f"texas42_user_bot_{abs(hash(str(path.resolve())))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{where}: cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as e:  # the user's own file: say what broke, no traceback
            sys.modules.pop(module_name, None)
            raise ValueError(f"{where}: loading it failed: {type(e).__name__}: {e}") from None
        return module
    # As python -m does, a module in the current folder is found first.
    here = os.getcwd()
    sys.path.insert(0, here)
    try:
        return importlib.import_module(where)
    except ImportError as e:
        raise ValueError(f"no module {where[:80]!r} to load a bot from ({e})") from None
    except Exception as e:  # the user's own module: say what broke, no traceback
        raise ValueError(f"{where[:80]}: loading it failed: {type(e).__name__}: {e}") from None
    finally:
        if sys.path and sys.path[0] == here:
            del sys.path[0]


def _batch(
    indices: list[int], specs: tuple[str, str], names: tuple[str, str], seed: int, rules: str
) -> list[DealResult]:
    factories = (resolve(specs[0]), resolve(specs[1]))
    return [play_deal(i, factories, names, seed=seed, rules=rules) for i in indices]


def run_deals(
    specs: tuple[str, str],
    deals: int,
    *,
    seed: int = 0,
    rules: str = "standard",
    jobs: int = 1,
    names: tuple[str, str] | None = None,
) -> Iterator[DealResult]:
    """Deals 0 … ``deals`` − 1, each at both tables, in deal order, on ``jobs`` processes."""
    names = names or specs
    for s in specs:
        resolve(s)  # a bad name is said here, once, not by every worker
    chunks = [list(range(i, min(i + BATCH, deals))) for i in range(0, deals, BATCH)]
    if jobs <= 1 or deals <= BATCH:
        for chunk in chunks:
            yield from _batch(chunk, specs, names, seed, rules)
        return
    yield from run_pool(((_batch, chunk, specs, names, seed, rules) for chunk in chunks), jobs)


def log_name(deal: DealResult, table: int, width: int) -> str:
    """``deal-07-table-2.json`` (of 10 to 99 deals): deals numbered from 1, as wide as
    the largest (docs/bots.md)."""
    return f"deal-{deal.index + 1:0{width}d}-table-{table}.json"


def log_text(deal: DealResult, table: int) -> str:
    """A table's log as ``texas42`` writes a match (2-space indent)."""
    return dumps(deal.tables[table - 1].log, indent=2) + "\n"
