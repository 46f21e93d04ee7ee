"""The ``texas42`` command. It only translates: arguments in, library call,
diagnostics out, exit code (0 valid, 1 invalid input, 2 usage error)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from . import __version__

app = typer.Typer(
    name="texas42",
    help="Record, check and replay games of Texas 42 (texas42-log format v1).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _usage_error(message: str) -> typer.Exit:
    typer.echo(f"texas42: error: {message}", err=True)
    return typer.Exit(code=2)


def _read_input(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    path = Path(name)
    if path.is_dir():
        raise _usage_error(f"{name} is a directory; name the log files to validate")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise _usage_error(f"{name}: no such file") from None
    except PermissionError:
        raise _usage_error(f"{name}: permission denied") from None
    except OSError as e:
        raise _usage_error(f"{name}: cannot be read ({e.strerror})") from None


def atomic_write(path: Path, data: str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _version(value: bool) -> None:
    if value:
        from .model import FORMAT_VERSION

        typer.echo(f"texas42-log {__version__} (format {FORMAT_VERSION})")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = None,
) -> None:
    """Record, check and replay games of Texas 42."""


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(metavar="FILE", help="Log files; '-' reads standard input.")],
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")
    ] = OutputFormat.text,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Refuse a file larger than this.")
    ] = 16 * 1024 * 1024,
) -> None:
    """Replay each log under its declared rules and report every broken rule.

    Exit 0 when every log is valid, 1 when any is invalid, 2 on a usage error.
    """
    from .report import dumps, result_json, result_text
    from .validate import validate_bytes

    inputs = [(name, _read_input(name)) for name in files]
    any_invalid = False
    results = []
    for name, data in inputs:
        source = "<stdin>" if name == "-" else name
        result = validate_bytes(data, max_bytes=max_bytes)
        any_invalid |= not result.valid
        if output is OutputFormat.json:
            results.append(result_json(source, result))
        else:
            typer.echo(result_text(source, result))
    if output is OutputFormat.json:
        valid = sum(1 for r in results if r["valid"])
        typer.echo(dumps({"files": results, "valid": valid, "invalid": len(results) - valid}))
    raise typer.Exit(code=1 if any_invalid else 0)


@app.command()
def schema(
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (atomically).")
    ] = None,
) -> None:
    """Print the JSON Schema of format v1, generated from the models."""
    from .schema import schema_text

    text = schema_text()
    if out is None:
        typer.echo(text, nl=False)
    else:
        atomic_write(out, text)


@app.command()
def rules(
    preset: Annotated[str, typer.Option(help="The preset to show.")] = "standard",
    output: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.text,
) -> None:
    """Show a rules preset: every option, its value and the rule it implements."""
    from .rules import OPTION_DOCS, find_preset

    try:
        chosen = find_preset(preset)
    except ValueError as e:
        raise _usage_error(str(e)) from None
    if output is OutputFormat.json:
        typer.echo(json.dumps({"preset": preset, "options": chosen.as_dict()}, indent=2))
        return
    typer.echo(f"preset {preset}:")
    for name, value in chosen.as_dict().items():
        typer.echo(f"  {name} = {value!r}\n      {OPTION_DOCS[name]}")


def main() -> None:
    """Console entry point: no traceback reaches the user unless TEXAS42_DEBUG is set."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("texas42: interrupted", err=True)
        sys.exit(130)
    except Exception as e:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("TEXAS42_DEBUG"):
            raise
        typer.echo(
            f"texas42: internal error: {type(e).__name__}: {e} "
            "(set TEXAS42_DEBUG=1 for the traceback and please report it)",
            err=True,
        )
        sys.exit(70)
