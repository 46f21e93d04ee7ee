"""Analysis: the exact value of every play with all hands open, and its fair
value over the deals its player could not tell apart.

:mod:`.api` is the public face (``open_hand_analysis``, ``fair_analysis``,
``hint``); :mod:`.checks` checks an analysis a log states.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""

from typing import Final, Literal, get_args

#: Worlds drawn for a fair decision unless asked otherwise (here, where the command
#: line reads it, so that ``texas42`` starts without loading the analysis).
DEFAULT_WORLDS: Final = 100
#: The fair analysis's seed unless asked otherwise: the same for every run, so reports agree.
DEFAULT_SEED: Final = 42

#: The forms of every report of the analysis (``analyze --format``, ``--cards``,
#: ``--by-player``): the one list; the command line's choices are held to it
#: (tests/test_facts_once.py).
ReportForm = Literal["text", "json", "csv"]
REPORT_FORMS: Final[tuple[ReportForm, ...]] = get_args(ReportForm)

#: The decimals of every fair figure a log states (a share, a mean, a cost, a chance
#: lost): the checks recompute from the rounded numbers, so what a log states follows
#: from itself (docs/format.md).
STATED_DECIMALS: Final = 4


def as_stated(x: float) -> float:
    """``x`` as a log states a fair figure: rounded to :data:`STATED_DECIMALS`."""
    return round(x, STATED_DECIMALS)


#: Each mark of the fair analysis in one sentence: the report's legend, ``analyze --help``
#: and docs/analysis.md say the same (tests/test_fair_verdicts.py holds them to it).
MARKS: Final[dict[str, str]] = {
    "?": "a dubious play: it gave up at least 5% of its side's chance against the best fair "
    "play (in a points game, at least 2 hand points of the mean)",
    "??": "a blunder: it gave up at least 20% of its side's chance against the best fair play "
    "(in a points game, at least 10 hand points of the mean)",
}

#: Each verdict of the fair analysis beside the open-hand one, in one sentence (the same
#: three places as :data:`MARKS`).
VERDICTS: Final[dict[str, str]] = {
    "right but unlucky": "no play was better on what its player could see, yet with every "
    "hand open it cost (the contract in a game of marks, hand points in a points game)",
    "wrong but lucky": "marked ? or ?? on what its player could see, yet with every hand "
    "open it did not cost its side the contract it could still reach (in a points game: it "
    "cost no hand point); the hand points it gave away are in its cost column",
    "wrong and punished": "marked ? or ?? on what its player could see, and with every "
    "hand open it cost too",
}
