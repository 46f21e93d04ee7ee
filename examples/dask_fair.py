"""A season's fair analysis on a Dask cluster — the path past one machine.

Run locally:  .venv/bin/python examples/dask_fair.py corpus.jsonl OUT.jsonl [--workers 2]

The fair analysis of one match is a pure function of its bytes
(:func:`texas42_log.corpus.annotate_record`: the match's annotated JSON Lines line,
or None when it is invalid), so a cluster maps it over the corpus's lines: Dask
reads the files in blocks split on newlines (a match never straddles two
partitions), each worker annotates whole matches, and the driver writes the lines
in input order. Every decision's worlds depend only on the seed, the hand and the
plays before it, so the lines are those ``texas42 analyze --fair --annotate`` writes
on one machine, byte for byte. Here a ``LocalCluster`` stands in for the cluster;
on a real one, connect a ``Client("scheduler:8786")`` instead and install
``texas42-log[cluster]`` on the workers. See docs/scale-out.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import dask.bag as db
from dask.distributed import Client, LocalCluster

from texas42_log.corpus import Record, annotate_record


def annotate(line: str, worlds: int, seed: int, auction: bool = True) -> str | None:
    """One line of a corpus → its annotated line (None: invalid, left out); ``auction``:
    the calls and declaration judged too (as without ``--no-auction``)."""
    record = Record("-", line.encode("utf-8"))
    return annotate_record(record, fair=(worlds, seed), table=False, auction=auction)


def season(
    paths: list[str],
    client: Client,
    *,
    worlds: int = 100,
    seed: int = 42,
    blocksize: str = "1MiB",
    auction: bool = True,
) -> list[str]:
    """The annotated lines of every valid match of ``paths``, in input order."""
    lines = db.read_text(paths, blocksize=blocksize).filter(lambda s: bool(s.strip()))
    done = lines.map(annotate, worlds, seed, auction).filter(lambda s: s is not None)
    return list(client.compute(done).result())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="+")
    parser.add_argument("out", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--no-auction", action="store_true", help="judge the plays only")
    args = parser.parse_args()
    with (
        LocalCluster(n_workers=args.workers, threads_per_worker=1) as cluster,
        Client(cluster) as client,
    ):
        lines = season(
            args.corpus, client, worlds=args.worlds, seed=args.seed, auction=not args.no_auction
        )
    args.out.write_text("".join(lines), "utf-8")


if __name__ == "__main__":
    main()
