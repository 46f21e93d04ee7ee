"""Four simple players play a full match through texas42_log.Game.

Each player sees only its own view of the table (R25–R29) and picks one of the
legal actions at random, from its own seeded generator; the tool deals from the
match seed. The match is written as a log that `texas42 validate` accepts:

    python examples/random_players.py match.json --seed 7
    texas42 validate match.json
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from texas42_log import Action, Game, View


class RandomPlayer:
    """A player who looks at its view and plays any legal action."""

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")

    def choose(self, view: View, legal: list[Action]) -> Action:
        assert view.observer == self.seat  # it sees its own tiles, nobody else's
        return self.rng.choice(legal)


def play_match(seed: int, rules: str = "standard") -> Game:
    game = Game(
        rules,
        seed=seed,
        first_dealer="ABCD"[seed % 4],
        players={"A": "Ana", "B": "Ben", "C": "Cleo", "D": "Dan"},
    )
    players = {s: RandomPlayer(s, seed) for s in "ABCD"}
    while (turn := game.to_act) is not None:
        player = players[turn.seat]
        game.push(player.choose(game.view(turn.seat), game.legal_actions()), seat=turn.seat)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="the log to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rules",
        default="standard",
        help="a rules preset: standard, casual, tricksy, … (texas42 rules --preset NAME shows one)",
    )
    args = parser.parse_args()
    game = play_match(args.seed, args.rules)
    args.output.write_text(game.to_json(), encoding="utf-8")
    print(
        f"{game.winner} won {game.score['A+C']}-{game.score['B+D']} in {game.hand_number} hands; "
        f"wrote {args.output}"
    )


if __name__ == "__main__":
    main()
