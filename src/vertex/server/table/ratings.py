"""Ratings: Weng–Lin Plackett–Luce (the `openskill` package) on the display scale.

The model's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) scaled by 60, so a
newcomer is 1500 ± 500 and no number is ever converted for display: `rating` is round(mu),
`deviation` round(sigma). A rating is provisional while its deviation is above
`PROVISIONAL`: about the first 15 games (measured on a population playing random pairs:
the model's deviation falls from 500 to ~370 in 12 games and ~270 in 36; the contract's
first guess, 110, would keep a rating provisional for hundreds of games).

Who came where is read from the table's result (`ranks`), which the log decides, so every
process that computes it gets the same numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

SCALE = 60.0
MU = 25.0 * SCALE  # 1500
SIGMA = 25.0 / 3 * SCALE  # 500
BETA = 25.0 / 6 * SCALE  # 250
TAU = 25.0 / 300 * SCALE  # 5
#: A deviation above this marks a rating provisional.
PROVISIONAL = 350.0


@functools.cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game where seat n came `ranks[n]`th (1 best, equal
    ranks are a tie)."""
    m = model()
    teams = [[m.create_rating([mu, sigma])] for mu, sigma in before]
    after = m.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as a seat shows it."""
    return {"value": round(mu), "provisional": provisional(sigma)}


def ranks(
    n: int,
    result: dict[str, Any],
    scores: Sequence[float],
    score_decides: bool,
    lowest_wins: bool,
) -> list[int]:
    """Each seat's place (1 best; equal places tie) from a finished table's result: the
    winners first; a seat that resigned or ran out of time last; the rest by score where
    the score decides the game, else level between them."""
    winners = set(result.get("winners") or [])
    loser = result.get("seat") if result.get("reason") in ("resign", "timeout") else None

    def key(s: int) -> tuple[int, float]:
        tier = 0 if s in winners else 2 if s == loser else 1
        score = float(scores[s]) if score_decides and s < len(scores) else 0.0
        return (tier, score if lowest_wins else -score)

    keys = [key(s) for s in range(n)]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def outcome(n: int, seat: int, ranks_: Sequence[int]) -> str:
    """`win` (first alone), `draw` (first with others, or all level) or `loss`."""
    best = min(ranks_)
    if ranks_[seat] != best:
        return "loss"
    return "win" if sum(1 for r in ranks_ if r == best) == 1 else "draw"
