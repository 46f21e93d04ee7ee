"""The format's building blocks: names, free text, the base object, comments, numbers.

Part of the pydantic models of :mod:`texas42_log.log.model` (which re-exports every name
here): the pieces every other model is built of. See that module's text for the conventions.
"""

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from ..engine.seats import Seat
from ..engine.tiles import TILES
from ..engine.trumps import TrumpWord

#: A seat, a trump and a tile as the log writes them: the engine's own words (R1, R12,
#: R2), declared once there.
SeatName = Seat
TrumpName = TrumpWord
if TYPE_CHECKING:
    TileName = str
else:
    TileName = Literal.__getitem__(tuple(str(t) for t in TILES))


def lone_surrogate(text: str) -> str | None:
    """The first half character (U+D800–U+DFFF) in ``text``, shown as an escape, or None.

    Python strings can hold one (bytes that were not UTF-8, decoded with
    ``surrogateescape``, as command-line arguments are); JSON text and UTF-8 cannot,
    so a log that held one would be refused by every reader, ours included."""
    for ch in text:
        if "\ud800" <= ch <= "\udfff":
            return f"\\u{ord(ch):04x}"
    return None


def _whole_text(text: str) -> str:
    half = lone_surrogate(text)
    if half is not None:
        raise ValueError(
            f"holds {half}, half of a character (a lone surrogate): not text a log can hold"
        )
    return text


#: Free text a person writes (names, comments): any string of whole characters.
FreeText = Annotated[str, AfterValidator(_whole_text)]

EXTENSIONS: dict[str, JsonValue] = {
    "patternProperties": {"^x-": {}},
    "additionalProperties": False,
}


class LogObject(BaseModel):
    """Base: strict types, unknown keys only under the ``x-`` prefix (kept).

    The prefix is checked by pydantic-core itself (the extras' key type), not by
    a Python validator per object: a log has some 26 objects a hand."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        populate_by_name=True,
        json_schema_extra=EXTENSIONS,
    )

    __pydantic_extra__: dict[Annotated[str, StringConstraints(pattern=r"^x-")], JsonValue]


#: A comment's id (since 1.7): letters, digits, ``_`` and ``-``, at most 40.
#: Its characters and length, as a regular expression (whole string).
COMMENT_ID_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"
CommentId = Annotated[str, StringConstraints(pattern=COMMENT_ID_PATTERN)]


class Annotation(LogObject):
    """A free-text comment on the match, a hand, a call or a play."""

    text: FreeText
    author: FreeText | None = None
    id: CommentId | None = Field(
        default=None,
        description="Since 1.7: the comment's id, unique in the document, so that it can be "
        "edited and removed by id (texas42 board, annotate edit). Random, never derived "
        "from the log.",
    )
    seat: SeatName | None = Field(
        default=None,
        description="Since 1.9: the seat whose board address wrote the comment, which only "
        "that seat's address (and the owner's) may edit or remove. Absent: the log's owner "
        "wrote it (the board's own address, texas42 annotate, an older tool).",
    )
    edited_by: Literal["owner", "A", "B", "C", "D"] | None = Field(
        default=None,
        description="Since 1.9: who last edited the comment, when another than its writer: "
        "'owner' or a seat. The author and seat stay the writer's.",
    )


#: A tuple, not a list: an immutable default is free, and a Play is built ~12 times a hand.
Annotations = Annotated[tuple[Annotation, ...], Field(default=(), strict=False)]


#: Every other integer of a log: far beyond any real value, so that a number of
#: thousands of digits is a schema error, not something to compute with.
NUMBER_LIMIT = 1_000_000
Number = Annotated[int, Field(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]
