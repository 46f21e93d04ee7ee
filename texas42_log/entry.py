"""The ``texas42`` console entry point: signal handling first, then the command.

Importing the command (typer, pydantic, the models) takes a noticeable moment; a
Ctrl-C or SIGTERM in that moment must end the program as cleanly as one later on:
one line, the right exit status, no traceback. So the first thing this module
does is to take those signals, exiting at once (nothing is open yet); the
command, once loaded, installs its own handling (:func:`texas42_log.cli.main`).
Only the console script imports this module: the library never changes signals.
"""

from __future__ import annotations

import os
import signal
from types import FrameType


def _early(signum: int, frame: FrameType | None) -> None:
    try:
        if signum == signal.SIGINT:
            os.write(2, b"texas42: interrupted\n")
    finally:
        os._exit(130 if signum == signal.SIGINT else 128 + signum)


for _sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(_sig, _early)


def main() -> None:
    """Run ``texas42``."""
    from .cli import main as run

    run()


if __name__ == "__main__":
    main()
