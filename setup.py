"""Build hook: compile the replay core with mypyc, and the native open-hand search,
when a C compiler is at hand.

Everything else is in pyproject.toml. The core (seats, trumps, rules, errors,
auction, hand, stated, check, plain) and the reference open-hand solver are plain, strictly
typed Python; mypyc turns them into C extensions that run the checked replay about
1.8× and the reference solver about 5× faster (tests/benchmarks). The native search
(texas42_log/engine/_native.c, plain C against the CPython API) is the solver every
command uses when it is built (docs/architecture.md, "The open-hand search").
The extensions are optional: without a compiler, or with TEXAS42_PURE=1, the
same modules run as Python and the reference solver serves, with the same results.
TEXAS42_MYPYC=0 builds the native search alone (the core stays Python): a quick
build while working on the C code.

Note for development: an editable install builds the extensions next to the
sources, and Python then imports them instead of the .py files. After editing
one of the modules below, run the install again (or set TEXAS42_PURE=1 when
installing); tests/test_design.py fails on a stale extension.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup

NATIVE = Extension(
    "texas42_log.engine._native",
    ["texas42_log/engine/_native.c"],
    optional=True,  # no compiler: the reference solver serves (texas42_log/engine/search.py)
    extra_compile_args=["-O2"] if os.name != "nt" else [],
)

COMPILED = [
    "texas42_log/engine/seats.py",
    "texas42_log/engine/trumps.py",
    "texas42_log/engine/count.py",
    "texas42_log/engine/rules.py",
    "texas42_log/engine/errors.py",
    "texas42_log/engine/auction.py",
    "texas42_log/engine/hand.py",
    "texas42_log/log/stated.py",
    "texas42_log/log/check.py",
    "texas42_log/log/plain.py",
    "texas42_log/engine/search_tables.py",
    "texas42_log/engine/solver.py",
]


def extensions() -> list[object]:
    if os.environ.get("TEXAS42_PURE") == "1":
        return []
    if (
        os.environ.get("TEXAS42_MYPYC") == "0"
    ):  # the native search only: a quick build while working on C
        return [NATIVE]
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [NATIVE]
    modules = mypycify(COMPILED, opt_level="3", debug_level="0")
    for ext in modules:
        ext.optional = True  # a failed compile leaves the pure-Python module in use
    return [*modules, NATIVE]


setup(ext_modules=extensions())
