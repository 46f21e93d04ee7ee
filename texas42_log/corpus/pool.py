"""The process pool every corpus command shares (validate, analyze, convert, arena).

:func:`run_pool` runs ``(function, *args)`` tasks on ``jobs`` processes, a bounded
window at a time, and yields what they return in task order. It stops cleanly: on
Ctrl-C, an early stop (``--fail-fast``, a consumer that stops reading) or an error, the
workers are ended at once rather than waited for, and no worker prints a traceback
(:func:`worker_init`). A worker also ends with its parent, however the parent ends.

The pool keeps its own list of the worker processes it starts: it hands the executor
a start context (the documented ``mp_context``) whose ``Process`` records each one, so
stopping needs no private field of :class:`concurrent.futures.ProcessPoolExecutor`.
tests/test_corpus.py fails if the executor ever stops starting its workers that way.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, cast

__all__ = ["WINDOW", "run_pool", "default_jobs", "worker_init", "tune_gc", "RecordingContext"]

#: Tasks in flight per worker: bounds memory however large the corpus.
WINDOW = 4


class RecordingContext:
    """A multiprocessing start context that remembers every process it makes."""

    def __init__(self, base: Any = None) -> None:
        self._base = base if base is not None else multiprocessing.get_context()
        self.processes: list[multiprocessing.process.BaseProcess] = []

    def Process(self, *args: Any, **kwargs: Any) -> Any:
        p = self._base.Process(*args, **kwargs)
        self.processes.append(p)
        return p

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def run_pool(tasks: Iterable[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """Run ``(function, *args)`` tasks on ``jobs`` processes, at most ``jobs × WINDOW``
    at a time, yielding the items of the lists they return, in task order. Stop
    consuming the iterator (or close it) to stop the workers at once."""
    context = RecordingContext()
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        # the executor asks it only for Process and what the base context answers
        mp_context=cast(BaseContext, context),
        initializer=worker_init,
        initargs=(os.getpid(),),
    )
    window: list[Future[list[Any]]] = []
    finished = False
    try:
        for fn, *args in tasks:
            window.append(pool.submit(fn, *args))
            if len(window) >= jobs * WINDOW:
                yield from window.pop(0).result()
        while window:
            yield from window.pop(0).result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool, context.processes)


def _stop(pool: ProcessPoolExecutor, processes: list[Any]) -> None:
    """Stop a pool at once (Ctrl-C, an early stop, an error): its workers are killed,
    not waited for — a worker in the middle of a large batch would otherwise hold the
    parent until it finished. A worker writes nothing and its results are dropped, so
    there is nothing for it to clean up; SIGKILL also reaches a worker that started a
    moment ago, before its own signal handling was set (worker_init). ``processes`` is
    the context's own list, read again until it holds no live worker: the executor may
    start a replacement while the others end."""
    import time

    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        # One made but never started has nothing to end (and may not be joined).
        alive = [p for p in list(processes) if p.pid is not None and p.is_alive()]
        if not alive:
            return
        for p in alive:
            p.kill()
        for p in alive:
            p.join(timeout=1)


def worker_init(parent: int | None = None) -> None:
    """A worker process: the parent alone answers Ctrl-C (it stops the workers), so a
    worker ignores SIGINT — no worker prints a traceback when the terminal's Ctrl-C
    reaches the whole process group — and takes the default SIGTERM. It ends with its
    parent (``parent``: the parent's process id), however the parent ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if parent is not None:
        _end_with_parent(parent)
    tune_gc()


def _end_with_parent(parent: int) -> None:
    """Have the system send this process SIGTERM when its parent dies (Linux), and end
    now if the parent is gone already. The parent stops its workers itself; this is for
    the worker it never heard of: one being started when a Ctrl-C arrived, which would
    otherwise wait for work forever, holding the command's output pipe open."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's own stop is all there is
        pass
    if os.getppid() != parent:
        os._exit(0)


def tune_gc() -> None:
    """Make the garbage collector cheap for a long run.

    Validation allocates many short-lived objects (models, tricks) and keeps none,
    so the default thresholds make the collector walk the long-lived import-time
    objects (modules, pydantic's schemas) again and again: freezing those and
    collecting the young generation less often is worth ~12% (tests/benchmarks).
    Nothing is kept alive that would not be anyway.
    """
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
