"""The ``texas42`` command. It only translates: arguments in, library call,
diagnostics out, exit code (0 valid, 1 invalid input, 2 usage error, 130
interrupted, 141 a closed pipe, 143 terminated).

One module per command group; each registers its commands on :data:`app`:

=============  ==================================================
``validate``   ``texas42 validate``
``views``      ``texas42 replay``, ``texas42 render``
``convert``    ``texas42 convert``
``annotate``   ``texas42 annotate add | list | remove``
``analyze``    ``texas42 analyze``
``redact``     ``texas42 redact``
``record``     ``texas42 record``
``tools``      ``texas42 generate``, ``schema``, ``rules``, ``upgrade``
``arena``      ``texas42 arena``
``board``      ``texas42 board``
``table``      ``texas42 table``
=============  ==================================================

:mod:`.common` holds what they share (reading with limits, writing safely).
"""

from __future__ import annotations

import os
import re
import signal
import sys
from types import FrameType

import typer

from ..engine.support import RulesNotSupported
from ..files.outputs import remove_temporaries
from ..files.outputs import write_atomic as atomic_write
from . import (  # noqa: F401  (they register commands)
    analyze,
    annotate,
    arena,
    board,
    convert,
    record,
    redact,
    table,
    tools,
    validate,
    views,
)
from .app import ClosedPipe, app, say

__all__ = ["app", "main", "atomic_write", "Interrupted", "Terminated"]


def _click_classes(name: str) -> tuple[type[BaseException], ...]:
    """Click's exception class ``name`` as the installed typer raises it, found through
    typer's public names only: older typers raise click's own classes, newer ones
    (0.26 and later) carry their own copy of click (``typer._click``) and install no
    ``click`` at all, so the package never imports ``click`` itself. Both have
    ``typer.BadParameter`` (a click ``UsageError``, a ``ClickException``) and
    ``typer.Abort``."""
    found: list[type[BaseException]] = [
        cls for cls in typer.BadParameter.__mro__ if cls.__name__ == name
    ]
    if name == "Abort" and typer.Abort not in found:
        found.append(typer.Abort)
    return tuple(found)


#: A usage error (exit 2) or another click error with its own exit code and message.
CLICK_ERRORS = _click_classes("ClickException")
#: Click's own Ctrl-C (at a prompt).
ABORTS = _click_classes("Abort")


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwind (temporary files are removed on the way), then exit."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, frame: FrameType | None) -> None:
    _second_time_exits()
    raise Terminated(signum)


class Interrupted(BaseException):
    """Ctrl-C arrived. Not a KeyboardInterrupt: typer turns that into a silent exit
    130, and this one says "interrupted" (once) after unwinding."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _second_time_exits()
    raise Interrupted()


def _second_time_exits() -> None:
    """The first signal unwinds (temporary files removed, workers stopped, one line
    said); a second one, while that is under way, exits at once: it never waits."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _exit_now)


def _exit_now(signum: int, frame: FrameType | None) -> None:
    remove_temporaries()
    try:
        os.write(2, b"texas42: interrupted\n" if signum == signal.SIGINT else b"")
    finally:
        os._exit(130 if signum == signal.SIGINT else 128 + signum)


def _quiet_stdout() -> None:
    """After a closed pipe: send what is left to /dev/null, so that the interpreter's
    last flush at exit does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _leave(code: int, line: str) -> None:
    """After a signal: say ``line``, flush, and exit now — the interpreter's own
    shutdown would put back the default handlers, so that a second Ctrl-C in that
    moment would kill the process with a traceback-free but wrong status."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        if line:
            os.write(2, line.encode())
    finally:
        os._exit(code)


def _unraisable(u: sys.UnraisableHookArgs) -> None:
    """A signal's exception raised where Python can only print it and go on — in a
    weakref callback of the import machinery, a ``__del__`` — must still end the
    command: at once, as a second signal would (temporary files removed)."""
    e = u.exc_value
    if isinstance(e, Terminated):
        _exit_now(e.signum, None)
    if isinstance(e, (Interrupted, KeyboardInterrupt)):
        _exit_now(signal.SIGINT, None)
    sys.__unraisablehook__(u)


def install_signal_handling() -> None:
    """Ctrl-C, SIGTERM and SIGHUP unwind the command (its temporary files removed);
    see :func:`main`."""
    signal.signal(signal.SIGINT, _interrupt)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)
    sys.unraisablehook = _unraisable


def main() -> None:
    """Console entry point: no traceback reaches the user unless TEXAS42_DEBUG is set."""
    install_signal_handling()
    if os.environ.get(
        "TEXAS42_SOLVER"
    ):  # a word naming no solver is a usage error, before any work
        from ..engine.search import SolverUnavailable, solver_choice

        try:
            solver_choice()
        except SolverUnavailable as e:
            say(f"texas42: {e}", err=True)
            _finish(2)
    stops: tuple[type[BaseException], ...] = (Interrupted, KeyboardInterrupt, *ABORTS)
    try:
        code = app(standalone_mode=False, prog_name="texas42")
    except stops:
        _leave(130, "texas42: interrupted\n")
    except Terminated as e:
        _leave(128 + e.signum, "")
    except (ClosedPipe, BrokenPipeError):
        _quiet_stdout()
        code = 128 + signal.SIGPIPE
    except CLICK_ERRORS as e:
        _in_our_words(e)
        _say_click_error(e)
        code = e.exit_code  # type: ignore[attr-defined]
    except RulesNotSupported as e:  # rules a part does not honour: a usage error
        say(f"texas42: error: {e}", err=True)
        code = 2
    except Exception as e:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("TEXAS42_DEBUG"):
            raise
        say(
            f"texas42: internal error: {type(e).__name__}: {e} "
            "(set TEXAS42_DEBUG=1 for the traceback and please report it)",
            err=True,
        )
        code = 70
    _finish(code if isinstance(code, int) else 0)


#: A choice refused in a library's wording ("Value error, 'xml' is not one of 'text',
#: 'json'."), as its parts.
_NOT_ONE_OF = re.compile(r"^(?:Value error, )?(['\"])(.*)\1 is not one of (.*?)\.?$", re.S)


def _in_our_words(e: BaseException) -> None:
    """A usage error says what the user typed and what to type instead, never a
    library's wording: a refused choice reads "xml: choose one of text, json"."""
    message = getattr(e, "message", None)
    if not isinstance(message, str):
        return
    m = _NOT_ONE_OF.match(message)
    if m:
        choices = ", ".join(c.strip().strip("'\"") for c in m.group(3).split(","))
        message = f"{m.group(2)}: choose one of {choices}"
    elif message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    e.message = message  # type: ignore[attr-defined]


def _say_click_error(e: BaseException) -> None:
    """A usage error the command line's parser found, in the one style of every error of
    ours (``texas42: error: …``, as :func:`.app.usage_error` says it), then where the
    command's help is."""
    say(f"texas42: error: {e.format_message()}", err=True)  # type: ignore[attr-defined]
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        say(f"Try '{ctx.command_path} -h' for help.", err=True)


def _finish(code: int) -> None:
    """The command is done: flush and exit now. Leaving through the interpreter's
    shutdown instead would put back the default signal handlers while it tears down
    (thread pools, modules): a Ctrl-C in that moment would kill the finished command
    by the signal, status -2, instead of the status it earned. A signal while the
    last output is flushed (a slow reader on the pipe) exits at once."""
    _second_time_exits()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        code = 128 + signal.SIGPIPE
    except (OSError, ValueError):
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)
