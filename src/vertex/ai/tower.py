"""The computer player for Verticality: planned aims, placed with the same tremor as people.

The engine adds hand tremor to every aim, whoever made it, so a computer player is only ever as
steady as the table's `tremor_mm`. Levels differ in care, not in steadiness of hand:
1. rushes (haste 1) and aims loosely around the plan;
2. hurries a little (haste 0.5) and aims a little loosely;
3. calm, follows the plan against the pieces as they landed;
4. also counterbalances: shifts each level so the weight stays over the tips below;
5. also tries its candidate aims in the simulator under sampled tremor, as many times as the
   budget allows, and keeps the one that stood most often.
"""

from __future__ import annotations

import math
from typing import Any

from vertex.core.errors import IllegalMove, VertexError
from vertex.core.game import Game, State
from vertex.core.rng import Rng
from vertex.games.verticality.game import VerticalityState
from vertex.games.verticality.notation import Aim, make_aim
from vertex.games.verticality.plan import fits, plan_aim

#: Haste and aiming slop (mm) per level.
HASTE = {1: 1.0, 2: 0.5, 3: 0.0, 4: 0.0, 5: 0.0}
SLOP_MM = {1: 1.5, 2: 0.7, 3: 0.0, 4: 0.0, 5: 0.0}
#: Level 5 spends about this long on one simulated trial (s), to fit trials in the budget.
TRIAL_S = 0.03
MAX_TRIALS = 4


class TowerPlayer:
    def __init__(self, game: Game[Any], level: int, seed: int = 0) -> None:
        if game.id != "verticality":
            raise VertexError(f"the tower player plays Verticality, not {game.name}")
        self.game = game
        self.level = level
        self.seed = seed

    def __repr__(self) -> str:
        return f"TowerPlayer(level={self.level}, seed={self.seed})"

    def choose(self, state: State, seat: int, budget_s: float) -> str:
        if not isinstance(state, VerticalityState):
            raise VertexError("the tower player needs a Verticality position")
        if seat not in state.to_move:
            raise IllegalMove(f"seat {seat} owes no piece now")
        rng = Rng.from_seed(self.seed, "tower-player", seat, state.step_no, len(state.history))
        haste = HASTE[self.level]
        plan = plan_aim(state, seat, counterbalance=self.level >= 4, haste=haste)
        if SLOP_MM[self.level] > 0:
            return str(self._sloppy(state, seat, plan, rng))
        if self.level == 5:
            return str(self._tried(state, seat, plan, budget_s, rng))
        return str(plan)

    def _sloppy(self, state: VerticalityState, seat: int, plan: Aim, rng: Rng) -> Aim:
        slop = SLOP_MM[self.level]
        for _ in range(6):
            dx, rng = rng.random()
            dy, rng = rng.random()
            aim = make_aim(
                plan.piece,
                plan.x + (2 * dx - 1) * slop,
                plan.y + (2 * dy - 1) * slop,
                plan.rot,
                plan.haste,
            )
            if fits(state, seat, aim):
                return aim
        return plan

    def _tried(
        self, state: VerticalityState, seat: int, plan: Aim, budget_s: float, rng: Rng
    ) -> Aim:
        candidates = [plan]
        for other in (
            plan_aim(state, seat, counterbalance=False),
            plan_aim(state, seat, gap_mm=0.1),
            plan_aim(state, seat, gap_mm=0.6),
        ):
            if other not in candidates and fits(state, seat, other):
                candidates.append(other)
        # Trials per candidate from the budget alone (not the clock), so choices replay.
        trials = min(MAX_TRIALS, math.floor(budget_s * 0.5 / (TRIAL_S * len(candidates))))
        if len(candidates) == 1 or trials < 1:
            return plan
        tower = state.towers[seat]
        sigma = state.game.options.tremor_mm
        best, best_score = plan, -1.0
        for aim in candidates:
            score = 0.0
            for _ in range(trials):
                noise, rng = _noise(rng, sigma)
                _, outcome = tower.place(state.level, state.size, aim, noise, state.step_no)
                score += {"placed": 1.0, "slid": 0.3, "fell": 0.0}[outcome]
            if score > best_score:
                best, best_score = aim, score
        return best


def _noise(rng: Rng, sigma: float) -> tuple[tuple[float, float, float], Rng]:
    """A tremor sample like the engine's (its own draws: the engine's are not for players)."""
    u1, rng = rng.random()
    u2, rng = rng.random()
    u3, rng = rng.random()
    r = math.sqrt(-2.0 * math.log(1.0 - u1)) * sigma
    rot = 2.0 * sigma * math.sqrt(-2.0 * math.log(1.0 - u3)) * math.cos(2 * math.pi * u2)
    return (r * math.cos(2 * math.pi * u2), r * math.sin(2 * math.pi * u2), rot), rng
