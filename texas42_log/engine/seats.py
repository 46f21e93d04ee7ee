"""Seats and partnerships (R1): A B C D clockwise, A+C against B+D."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["Seat", "SEATS", "Team", "TEAMS", "next_seat", "team_of", "partner"]

Seat = Literal["A", "B", "C", "D"]
Team = Literal["A+C", "B+D"]

SEATS: Final[tuple[Seat, ...]] = ("A", "B", "C", "D")
TEAMS: Final[tuple[Team, ...]] = ("A+C", "B+D")

_NEXT: Final[dict[Seat, Seat]] = {"A": "B", "B": "C", "C": "D", "D": "A"}
_TEAM: Final[dict[Seat, Team]] = {"A": "A+C", "C": "A+C", "B": "B+D", "D": "B+D"}
_PARTNER: Final[dict[Seat, Seat]] = {"A": "C", "C": "A", "B": "D", "D": "B"}


def next_seat(seat: Seat, steps: int = 1) -> Seat:
    """The seat ``steps`` places clockwise (R1, R3: the dealer's left is ``next_seat(dealer)``)."""
    for _ in range(steps % 4):
        seat = _NEXT[seat]
    return seat


def team_of(seat: Seat) -> Team:
    return _TEAM[seat]


def partner(seat: Seat) -> Seat:
    return _PARTNER[seat]


def other_team(team: Team) -> Team:
    return "B+D" if team == "A+C" else "A+C"
