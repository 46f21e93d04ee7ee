# The C search (_native.c); texas42_log.engine.native is its only caller.
from collections.abc import Sequence
from typing import Any

ABI: int

class Search:
    def __init__(self, setup: tuple[object, ...], table_bits: int = 16) -> None: ...
    def solve(
        self,
        kind: int,
        position: tuple[int, int, int, int, int, int, int],
        worlds: Sequence[tuple[int, int, int, int]],
        arg: int | Sequence[int] | None = None,
        fresh: bool = True,
    ) -> list[Any]: ...
    def moves(
        self, position: tuple[int, int, int, int, int, int, int], hands: tuple[int, int, int, int]
    ) -> list[int]: ...
    def clear(self) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def table_bytes(self) -> int: ...
