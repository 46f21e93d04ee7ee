"""Help text in the words of a command line, not of Python.

Newer typers write each parameter's Python type into ``--help`` (``INPUT...
<list[str]>``, ``--jobs <int range>``) and put a required argument in braces
(``{INPUT...}...``). This module, imported once by :mod:`texas42_log.cli`, makes
the help say what a user types instead: an argument's name (``INPUT...``,
``[RULE]``), an option's choices (``<text|json>``) or ``<N>`` for a number, ``<FILE>``
or ``<TEXT>`` for an option's value, and nothing for an argument (its name
says it) or a flag. It changes
only those display methods, only when the installed typer has them; an older
typer, which writes click's plain help, is left alone.
"""

from typing import Any

__all__ = ["install"]


def _display_type(self: Any, ctx: Any) -> str:
    given = getattr(self, "metavar", None)
    if given and getattr(self, "param_type_name", "") == "option":
        return "<" + str(given).strip("<>") + ">"
    desc = getattr(self, "type_descriptor", None)
    if desc is None:
        return ""
    if getattr(desc, "is_choice", False):
        return "<" + "|".join(str(getattr(c, "value", c)) for c in desc.choices or ()) + ">"
    annotation = getattr(desc, "annotation", None)
    if getattr(desc, "is_ranged", False) or annotation in (int, float):
        return "<N>"
    if getattr(desc, "is_path", False) and getattr(self, "param_type_name", "") == "option":
        return "<FILE>"
    if (
        annotation is str
        and getattr(self, "param_type_name", "") == "option"
        and not getattr(self, "is_flag", False)
    ):
        return "<TEXT>"
    return ""


def _usage_display_name(self: Any) -> str:
    name = str(self.display_name_raw)
    if not self.required:
        name = f"[{name.strip('[]')}]"
    if self.nargs != 1 and not name.rstrip("]").endswith("..."):
        name += "..."
    return name


def install() -> None:
    """Patch the installed typer's help display, if it has the methods above."""
    try:
        from typer import core
    except ImportError:  # pragma: no cover - typer is a dependency
        return
    for cls_name in ("TyperArgument", "TyperOption"):
        cls = getattr(core, cls_name, None)
        if cls is not None and hasattr(cls, "display_type"):
            cls.display_type = _display_type
            if hasattr(cls, "display_type_rich"):
                cls.display_type_rich = _display_type
    arg = getattr(core, "TyperArgument", None)
    if arg is not None and hasattr(arg, "_usage_display_name"):
        arg._usage_display_name = _usage_display_name
