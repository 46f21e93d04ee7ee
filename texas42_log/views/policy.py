"""Which logs the views show, and how much of them: the policy every renderer and
command follows (docs/viewer.md).

- A valid log is shown whole.
- A log that parses as a match but breaks rules is shown as far as it was played
  legally: each broken hand up to its first illegal action
  (:func:`texas42_log.log.broken.viewable`). What is said about it names the rule and
  the place, never the diagnostic's message, which may name tiles an observer may not
  see (R25).
- A log that does not parse as a match is not shown.

Pure: the reader's result goes in, a :class:`Shown` comes out; the caller says the
notices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.errors import Diagnostic
from ..log.broken import Broken, viewable
from ..log.model import Match

__all__ = ["Shown", "shown_match", "NOT_A_MATCH", "BREAKS_RULES"]

#: Why a log is not shown: it does not parse as a match.
NOT_A_MATCH = "is not a valid log; views are shown only for logs that parse as a match"
#: What is said of a log that breaks rules (the details are validate's business).
BREAKS_RULES = (
    "breaks rules; each broken hand is shown up to its first illegal action "
    "(texas42 validate gives the details)"
)


@dataclass(frozen=True)
class Shown:
    """What the views may show of one log: the ``match`` (None: nothing, the log does
    not parse as one), each broken hand's flag by hand index (from 0), and the notices
    to say about it, each completing a sentence that starts with the log's name."""

    match: Match | None
    broken: dict[int, Broken] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def shown_match(
    match: Match | None, valid: bool, diagnostics: Sequence[Diagnostic] | None
) -> Shown:
    """The policy applied to one reading of a log: its ``match`` (None if it does not
    parse as one), whether it is ``valid``, and its diagnostics (the replay's errors
    decide where each broken hand is cut)."""
    if match is not None and valid:
        return Shown(match)
    if match is None or diagnostics is None:
        return Shown(None, notices=[NOT_A_MATCH])
    cut, broken = viewable(match, [d for d in diagnostics if d.severity == "error"])
    return Shown(cut, broken, [BREAKS_RULES] + [flag.text() for flag in broken.values()])
