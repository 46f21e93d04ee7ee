"""The ``texas42`` console entry point: signal handling first, then the command.

Importing the command (typer, pydantic, the models) takes a noticeable moment; a
Ctrl-C in that moment, or a closed pipe, must end the program as cleanly as one
later on: one line, the right exit status, no traceback. So this module imports
nothing heavy, and the command is imported inside the handling.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run ``texas42``; exit 130 on Ctrl-C even while the command is being loaded."""
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        try:
            os.write(2, b"texas42: interrupted\n")
        finally:
            os._exit(130)
    run()


if __name__ == "__main__":
    main()
