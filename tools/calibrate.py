"""How honest is the fair makeable table? Its chances beside what happened, kind by kind.

Run:
  .venv/bin/python tools/calibrate.py play --deals 900 --out contracts.jsonl [--jobs 2]
  .venv/bin/python tools/calibrate.py fit contracts.jsonl [--write]

``play`` deals ``--deals`` hands (seeded ``--seed``) under the calibration rules (casual:
Nel-O, Plunge, Splash; with Sevens from 1 mark) and, for every seat and every kind of
contract (texas42_log/analysis/calibration.py's ``KINDS``), sets that contract on
purpose: the seat bids it (a point bid drawn in its band), the others pass, and the
declaration is the best of the kind's rows in the seat's own table (``--worlds`` worlds
drawn from its view, as the review draws them); after a Plunge or Splash the partner
names it. Then the four seats play it out as ``sampling`` bots, each from its own view.
One line a contract: the deal, the seat, the kind, the bid and row, the table's
open-hand chance and whether it was made. A Plunge or Splash the seat may not bid is
left out. Deals whose number is 3 modulo 4 are held out: ``fit`` never fits on them.

``fit`` fits, per kind, ``logit(made) = a + b · logit(chance)`` by maximum likelihood on
the other deals (Newton's method), then on the held-out deals prints, per kind and
decile of the stated chance, the contracts, the mean stated chance, the made rate and
its standard error, and the Brier score of the single curve the review used before
(``SINGLE_CURVE``) and of the kind's own. It checks that every decile with at least 200
contracts states its made rate within two standard errors, and that each kind's Brier
score is below the single curve's (exit 1 when not). ``--write`` puts the fitted curves
into calibration.py and the tables into docs/analysis.md (between its calibration marks).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CALIBRATION = ROOT / "texas42_log" / "analysis" / "calibration.py"
ANALYSIS_DOC = ROOT / "docs" / "analysis.md"
HELD_OUT = 3  # a deal is held out when its number modulo 4 is this
MIN_DECILE = 200  # the check holds a decile with at least this many contracts


def rules_for_calibration() -> Any:
    from texas42_log.engine.presets import PRESETS

    return PRESETS["casual"].with_options(sevens=True, sevens_min_marks=1)


# -- play ------------------------------------------------------------------------------


def _set_contract(
    rules: Any, seed: int, index: int, bidder: str, call: Any, declare: Any, declarer: str
) -> bool | None:
    """The contract ``call`` set on purpose for ``bidder`` and played out by sampling
    bots: made or not; None when the rules do not let the seat make that call."""
    from texas42_log.bots.arena import deal_seed, dealer_of
    from texas42_log.bots.base import play_out, seed_of
    from texas42_log.bots.sampling import SamplingBot
    from texas42_log.engine.actions import Call
    from texas42_log.engine.auction import BidKind
    from texas42_log.engine.seats import SEATS
    from texas42_log.play.game import Game

    game = Game(rules, seed=deal_seed(seed, index), first_dealer=dealer_of(index))
    while (turn := game.to_act) is not None and turn.kind == "call":
        action = call if turn.seat == bidder else Call(BidKind.PASS)
        if not game.is_legal(action):
            return None
        game.push(action, seat=turn.seat)
    if not game.is_legal(declare):
        return None
    game.push(declare, seat=declarer)
    play_out(game, {s: SamplingBot(seed_of(seed, index, s, "calibrate")) for s in SEATS}, hands=1)
    outcome = game.to_dict(hands=1)["hands"][0]["outcome"]
    return bool(outcome["result"] == "made")


def _wanted(kind: str, rng: random.Random) -> Any:
    """The bid set for a contract of ``kind`` (a point bid drawn in its band)."""
    from texas42_log.analysis.bidding import Bid
    from texas42_log.engine.auction import BidKind

    if kind == "30–34":
        return Bid(BidKind.POINTS, rng.randint(30, 34))
    if kind == "35–41":
        return Bid(BidKind.POINTS, rng.randint(35, 41))
    if kind in ("doubles", "follow-me"):
        level = rng.randint(30, 42)
        return Bid(BidKind.MARKS, 1) if level == 42 else Bid(BidKind.POINTS, level)
    if kind == "2+ marks":
        return Bid(BidKind.MARKS, 2)
    if kind == "plunge":
        return Bid(BidKind.MARKS, 4, "plunge")
    if kind == "splash":
        return Bid(BidKind.MARKS, 2, "splash")
    return Bid(BidKind.MARKS, 1)  # 1 mark, Nel-O, Sevens


def play_deal(index: int, seed: int, worlds: int) -> list[dict[str, Any]]:
    """Every seat's contracts of every kind on deal ``index``."""
    from texas42_log.analysis.bidding import seat_worlds
    from texas42_log.analysis.calibration import KINDS, kind_of
    from texas42_log.bots.arena import deal_seed, dealer_of
    from texas42_log.engine.actions import Call, Declare
    from texas42_log.engine.seats import SEATS, partner
    from texas42_log.engine.tiles import Tile
    from texas42_log.play.game import Game

    rules = rules_for_calibration()
    game = Game(rules, seed=deal_seed(seed, index), first_dealer=dealer_of(index))
    deal = game.to_dict(hands=1)["hands"][0]["deal"]
    rng = random.Random(f"calibrate:{seed}:{index}")
    out: list[dict[str, Any]] = []
    for seat in SEATS:
        tiles = frozenset(Tile.parse(t) for t in deal[seat])
        sw = seat_worlds(rules, seat, 0, tiles, worlds=worlds, seed=seed)
        for kind in KINDS:
            bid = _wanted(kind, rng)
            rows = [r for r in sw.rows(bid) if kind_of(bid, r) == kind]
            if not rows:
                continue
            chances = {r: sum(sw.made(bid, r)) / worlds for r in rows}
            row = max(sorted(rows), key=lambda r: chances[r])
            call = Call(bid.kind, bid.bid, bid.special)
            declare = (
                Declare(special=row.special, doubles=row.doubles)
                if row.special is not None
                else Declare(trump=row.trump)
            )
            declarer = partner(seat) if bid.special is not None else seat
            made = _set_contract(rules, seed, index, seat, call, declare, declarer)
            if made is None:
                continue
            out.append(
                {
                    "deal": index,
                    "held_out": index % 4 == HELD_OUT,
                    "seat": seat,
                    "kind": kind,
                    "bid": bid.key,
                    "row": row.key,
                    "chance": chances[row],
                    "made": made,
                }
            )
    return out


def play(args: argparse.Namespace) -> int:
    out = Path(args.out)
    done: set[int] = set()
    if out.exists():
        done = {json.loads(line)["deal"] for line in out.read_text(encoding="utf-8").splitlines()}
    todo = [i for i in range(args.first, args.first + args.deals) if i not in done]
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a", encoding="utf-8") as f:
        n = len(todo)
        for k, rows in enumerate(
            pool.map(play_deal, todo, [args.seed] * n, [args.worlds] * n, chunksize=1)
        ):
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
            f.flush()
            if args.progress and (k + 1) % 10 == 0:
                print(f"{k + 1} of {n} deals", file=sys.stderr)
    return 0


# -- fit -------------------------------------------------------------------------------


def logit(p: float) -> float:
    p = min(0.995, max(0.005, p))
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    """1 / (1 + exp(−z)), without overflow at either end."""
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def _loglik(xs: Sequence[float], ys: Sequence[bool], a: float, b: float) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(1 - 1e-12, max(1e-12, sigmoid(a + b * x)))
        total += math.log(p if y else 1 - p)
    return total


def fit(xs: Sequence[float], ys: Sequence[bool]) -> tuple[float, float] | None:
    """Maximum likelihood of P(y) = 1 / (1 + exp(-(a + b·x))), by Newton's method with the
    step halved until the likelihood rises; b is kept at 0 or more (a higher open-hand
    chance never reads lower: where the data say otherwise, the chance does not predict and
    the curve is the made rate, b = 0). None when the data cannot fix it (too few
    contracts, all made or all set)."""
    if len(set(ys)) < 2:
        return None
    if len(set(xs)) < 2:
        rate = sum(ys) / len(ys)
        return round(math.log(rate / (1 - rate)), 3), 0.0
    a, b = 0.0, 1.0
    ll = _loglik(xs, ys, a, b)
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = sigmoid(a + b * x)
            r = (1.0 if y else 0.0) - p
            w = p * (1 - p)
            ga += r
            gb += r * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6:
            na, nb = a + step * da, b + step * db
            got = _loglik(xs, ys, na, nb)
            if got >= ll:
                break
            step /= 2
        else:
            break
        a, b, ll = na, nb, got
        if not (abs(a) < 1e3 and abs(b) < 1e3):
            return None  # diverging: the outcomes are separated by the chance
        if abs(step * da) + abs(step * db) < 1e-10:
            break
    if b < 0:
        rate = sum(ys) / len(ys)
        return round(math.log(rate / (1 - rate)), 3), 0.0
    return round(a, 3), round(b, 3)


def _inner(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The contracts a curve speaks for: all but those made in every world drawn."""
    return [r for r in rows if float(r["chance"]) < 1.0]


def fit_kinds(rows: Sequence[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Per kind, the curve fitted on the deals not held out; a kind the data cannot fit
    keeps the single curve (and the report says so)."""
    from texas42_log.analysis.calibration import KINDS, SINGLE_CURVE

    curves: dict[str, tuple[float, float]] = {}
    for kind in KINDS:
        train = _inner([r for r in rows if r["kind"] == kind and not r["held_out"]])
        got = fit([logit(float(r["chance"])) for r in train], [bool(r["made"]) for r in train])
        curves[kind] = got if got is not None else SINGLE_CURVE
    return curves


def stated(chance: float, curve: tuple[float, float]) -> float:
    """The stated chance under ``curve``, a lay-down kept (calibration.as_played's rule)."""
    from texas42_log.analysis.calibration import logistic

    if chance >= 1.0:
        return 1.0
    return logistic(chance, curve)


def brier(rows: Sequence[dict[str, Any]], curve: tuple[float, float], ends: bool) -> float:
    """The mean squared gap between the stated chance and made (1) or set (0); ``ends``:
    whether the curve keeps a lay-down at 100 % (the single curve did not)."""
    from texas42_log.analysis.calibration import logistic

    total = 0.0
    for r in rows:
        c = float(r["chance"])
        q = stated(c, curve) if ends else logistic(c, curve)
        total += (q - (1.0 if r["made"] else 0.0)) ** 2
    return total / len(rows)


def deciles(rows: Sequence[dict[str, Any]], curve: tuple[float, float]) -> Iterator[dict[str, Any]]:
    """The held-out contracts grouped by their stated chance's decile."""
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        group = [
            r
            for r in rows
            if lo <= (q := stated(float(r["chance"]), curve)) < hi or (k == 9 and q == 1.0)
        ]
        n = len(group)
        if not n:
            yield {"decile": k, "n": 0}
            continue
        mean = sum(stated(float(r["chance"]), curve) for r in group) / n
        made = sum(1 for r in group if r["made"]) / n
        se = math.sqrt(max(mean * (1 - mean), 1e-9) / n)
        yield {"decile": k, "n": n, "stated": mean, "made": made, "se": se}


def report(
    rows: Sequence[dict[str, Any]], curves: dict[str, tuple[float, float]]
) -> tuple[list[str], bool]:
    """The Markdown tables and the check, per kind on the held-out deals."""
    from texas42_log.analysis.calibration import KINDS, SINGLE_CURVE

    held = [r for r in rows if r["held_out"]]
    deals = len({r["deal"] for r in rows})
    out = [
        f"{len(rows)} contracts on {deals} deals; the curves fitted on "
        f"{len(rows) - len(held)}, checked on the {len(held)} of the held-out deals.",
        "",
        "| kind | curve (a, b) | held-out contracts | Brier, single curve | Brier, by kind |",
        "|---|---|---|---|---|",
    ]
    ok = True
    detail: list[str] = []
    for kind in KINDS:
        group = [r for r in held if r["kind"] == kind]
        curve = curves[kind]
        fitted = (
            "single curve (too few to fit)"
            if curve == SINGLE_CURVE
            else f"{curve[0]:+.3f}, {curve[1]:.3f}"
        )
        if not group:
            out.append(f"| {kind} | {fitted} | 0 | – | – |")
            continue
        old, new = brier(group, SINGLE_CURVE, False), brier(group, curve, True)
        mark = "" if new < old else " ✗"
        ok = ok and new < old
        out.append(f"| {kind} | {fitted} | {len(group)} | {old:.4f} | {new:.4f}{mark} |")
        detail += [
            "",
            f"**{kind}** (held-out deals)",
            "",
            "| stated | contracts | mean stated | made as played |",
            "|---|---|---|---|",
        ]
        for d in deciles(group, curve):
            k = d["decile"]
            label = f"{k * 10}–{k * 10 + 10} %"
            if not d["n"]:
                continue
            far = abs(d["made"] - d["stated"]) > 2 * d["se"]
            flag = " ✗" if d["n"] >= MIN_DECILE and far else ""
            ok = ok and not flag
            made = f"{d['made']:.0%} ± {d['se']:.0%}{flag}"
            detail.append(f"| {label} | {d['n']} | {d['stated']:.0%} | {made} |")
    return out + detail, ok


def write_back(curves: dict[str, tuple[float, float]], lines: list[str]) -> None:
    """The curves into calibration.py, the tables into docs/analysis.md."""
    body = "".join(f'    "{k}": ({a}, {b}),\n' for k, (a, b) in curves.items())
    src = CALIBRATION.read_text(encoding="utf-8")
    src = re.sub(
        r"(KIND_CORRECTIONS: Final\[dict\[str, tuple\[float, float\]\]\] = )"
        r"(\{[^}]*\}|\{k: [^\n]*\})",
        lambda m: m.group(1) + "{\n" + body + "}",
        src,
        count=1,
    )
    CALIBRATION.write_text(src, encoding="utf-8")
    doc = ANALYSIS_DOC.read_text(encoding="utf-8")
    start, end = "<!-- calibration:start -->", "<!-- calibration:end -->"
    head, _, rest = doc.partition(start)
    _, _, tail = rest.partition(end)
    ANALYSIS_DOC.write_text(
        head + start + "\n" + "\n".join(lines) + "\n" + end + tail, encoding="utf-8"
    )


def fit_command(args: argparse.Namespace) -> int:
    rows = [
        json.loads(line) for line in Path(args.contracts).read_text(encoding="utf-8").splitlines()
    ]
    curves = fit_kinds(rows)
    lines, ok = report(rows, curves)
    print("\n".join(lines))
    print("\ncheck: " + ("passed" if ok else "FAILED (✗ above)"))
    if args.write:
        write_back(curves, lines)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="set contracts of every kind and play them out")
    p.add_argument("--deals", type=int, default=900)
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worlds", type=int, default=100)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", required=True, help="contracts, one JSON line each (appended to)")
    p.add_argument("--progress", action="store_true")
    f = sub.add_parser("fit", help="fit a curve per kind and check it on held-out deals")
    f.add_argument("contracts")
    f.add_argument("--write", action="store_true", help="into calibration.py and docs/analysis.md")
    args = ap.parse_args(argv)
    return play(args) if args.command == "play" else fit_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
