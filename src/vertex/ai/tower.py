"""The computer player for Verticality: planned aims, placed with the same tremor as people.

The engine adds hand tremor to every aim, whoever made it, so a computer player is only ever as
steady as the table's `tremor_mm`. Levels differ in care and haste, not in steadiness of hand
(`bench/RESULTS.md` measures each):
1. rushes (haste 1) and aims loosely around a quick plan: a tight triangle at the level's
   centre, nothing weighed;
2. hurries a little (haste 0.5), aims a little loosely; weighs only the card right below;
3. calm; plans tight triangles over every card of the tower, without thought for the next;
4. calm; plans every layout (wide ones, turned ones, the order of the three) over every card,
   leaving a wide triangle of tips for the next level;
5. as 4, its margins counting up to 3 mm (4's: 2.5), and looks ahead: the first pyramid of a
   level goes where the layout, with what it leaves for the next level whatever the die rolls,
   is best, the best layouts weighed again with that pyramid landed off its aim by sampled
   tremor; every later piece is tried in the simulator under sampled tremor, as many times as
   the thinking budget allows, and if it falls more often than not, the next best aims are
   tried too and the one that stood most often is kept, the second and third pyramids'
   aims weighed first, as the first's, with what the level leaves for the next. Without
   tremor (nothing to weigh again) it looks at more layouts where larger pyramids may follow,
   and counts the next level as much as the level's own where that has a margin.
"""

from __future__ import annotations

import math
from typing import Any

from vertex.core.errors import IllegalMove, VertexError
from vertex.core.game import Game, State
from vertex.core.rng import Rng
from vertex.games.verticality.ahead import (
    after_first,
    follow_scored,
    lookahead_scored,
    next_sizes,
)
from vertex.games.verticality.game import Verticality, VerticalityState
from vertex.games.verticality.notation import Aim, make_aim
from vertex.games.verticality.plan import candidate_aims, fits, plan_aim
from vertex.games.verticality.planner import AHEAD_STEEP, CAREFUL, Care
from vertex.physics import SIZES

#: Haste and aiming slop (mm) per level.
HASTE = {1: 1.0, 2: 0.5, 3: 0.0, 4: 0.0, 5: 0.0}
SLOP_MM = {1: 1.5, 2: 0.7, 3: 0.0, 4: 0.0, 5: 0.0}
#: How each level plans (level 1 uses the quick plan).
CARE: dict[int, Care] = {
    2: Care(shapes="tight", turns=(0.0,), all_cards=False, future=0.0),
    3: Care(shapes="tight", turns=(0.0, 30.0, 60.0), future=0.0),
    4: CAREFUL,
    # margins to 3 mm: the lower cards' margins wear down as a tall tower grows, and at 2.5 mm
    # nothing won them back (tremor 0, seeds 3, 9, 11, 18: 16-24 levels -> 30; RESULTS.md)
    5: Care(own_cap=3.0),
}
#: Level 5 reckons one simulated trial at this long (s) to fit its trials in the budget, or
#: TRIAL_BODY_S a piece of the tower if that is more (a 30-level tower has 120 pieces); it
#: counts from the budget and the tower alone, not the clock, so its choices replay.
TRIAL_S = 0.05
TRIAL_BODY_S = 0.0012
#: A trial simulates at most this long (s): a drop that has not settled by then is judged
#: where it is (a tower still falling after 0.5 s is seen tipping by then).
TRIAL_CAP_S = 0.5
#: ... and stops as soon as a piece below the dropped one has moved this far (mm), or a pyramid
#: has tipped: the trial has fallen. Drops that stand move the pieces below 0.3 mm at most; a
#: tall tower simulated falling to the cap cost 0.5-3 s of CPU a trial (bench/RESULTS.md).
GIVE_UP_MM = 3.0
#: ... tries at most this many of its best aims, this many times each at most.
CANDIDATES = 3
MAX_TRIALS = 3
#: For the first pyramid of a level, level 5 weighs up to LOOKAHEAD whole layouts by what each
#: leaves for the next level. It reckons the layouts themselves at PLAN_S + PLAN_PIECE_S a piece
#: of the tower, and each layout's look at the next level at LOOK_S + LOOK_PIECE_S a piece for
#: each size the die may roll there (CPU seconds of the look with two headings, measured at 20
#: to 116 pieces: 8.8-14 ms a size: bench/RESULTS.md), within LOOK_SHARE of the budget; from
#: the budget and the tower alone, so choices replay.
LOOKAHEAD = 10
PLAN_S = 0.1
PLAN_PIECE_S = 0.0003
LOOK_S = 0.008
LOOK_PIECE_S = 0.00008
LOOK_SHARE = 0.8
#: With a trembling hand, the best STEADY_LAYOUTS layouts of the look ahead are weighed again
#: by what the level's second and third pyramids could still do with the first landed off its
#: aim: STEADY_SAMPLES tremor draws each, the statics alone (no simulation), reckoned at
#: STEADY_S + STEADY_PIECE_S a piece of the tower a draw (CPU seconds, measured 1.4-5.5 ms at
#: 16-112 pieces), within STEADY_SHARE of the budget, a draw scoring below zero counting
#: AHEAD_STEEP times. A layout whose first pyramid, a little off, leaves the second only a thin
#: margin fell at 0.45 mm though its plan stood (bench/RESULTS.md, fifth and sixth rounds).
STEADY_LAYOUTS = 4
STEADY_SAMPLES = 6
STEADY_S = 0.0015
STEADY_PIECE_S = 0.00004
STEADY_SHARE = 0.15
#: Without tremor there is nothing to weigh again: where larger pyramids may follow, the look
#: ahead takes that share too, and up to STILL_LOOKAHEAD layouts.
STILL_LOOKAHEAD = 14
#: A level's second and third pyramids are weighed, as its first, with what the level they
#: complete leaves for the next: up to FOLLOW of the planner's best aims, within FOLLOW_SHARE
#: of the budget (the rest is the trials'), after FOLLOW_PLAN_S of planning. Replanned for
#: their own score alone, they undid the wide triangle the first was chosen for (seed 1,
#: tremor 0: the large level after it -3.14 where the look ahead saw a plan above zero;
#: bench/RESULTS.md, seventh round).
FOLLOW = 6
FOLLOW_SHARE = 0.35
FOLLOW_PLAN_S = 0.02


class TowerPlayer:
    def __init__(self, game: Game[Any], level: int, seed: int = 0) -> None:
        if not isinstance(game, Verticality):
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
        if self.level == 5 and state.step == 0:
            # the look-ahead ranks the plans itself (the plan alone only if it finds none)
            ahead = self._looked_ahead(state, seat, budget_s)
            return str(ahead or plan_aim(state, seat, care=CARE[5], haste=haste))
        if self.level == 5 and state.step in (1, 2):
            followed = self._followed(state, seat, budget_s)
            if followed:
                return str(self._tried(state, seat, followed[0], budget_s, rng, followed))
        if self.level == 1:
            plan = plan_aim(state, seat, counterbalance=False, haste=haste)
        else:
            plan = plan_aim(state, seat, care=CARE[self.level], haste=haste)
        if SLOP_MM[self.level] > 0:
            return str(self._sloppy(state, seat, plan, rng))
        if self.level == 5:
            return str(self._tried(state, seat, plan, budget_s, rng))
        return str(plan)

    def _looked_ahead(self, state: VerticalityState, seat: int, budget_s: float) -> Aim | None:
        """The first pyramid of the layout that, with what it leaves for the next level, is
        best, among as many layouts as the budget allows (counted from the budget alone)."""
        pieces = len(state.towers[seat].pieces)
        sigma = state.game.options.tremor_mm
        odds = next_sizes(state)
        if sigma == 0.0 and any(SIZES.index(s) > SIZES.index(state.size) for s in odds):
            # no re-weighing without tremor: its share goes to more layouts, where larger
            # pyramids may follow (a small level's layout that leaves them no plan ends the
            # tower; the one that does was beyond the tenth: bench/RESULTS.md, seventh round)
            count = look_count(
                budget_s, pieces, len(odds), LOOK_SHARE + STEADY_SHARE, STILL_LOOKAHEAD
            )
        else:
            count = look_count(budget_s, pieces, len(odds))
        if count < 2:
            return None
        ranked = lookahead_scored(state, seat, CARE[5], count=count)
        if not ranked:
            return None
        layouts, samples = steady_count(budget_s, pieces)
        if sigma == 0.0 or layouts < 2:
            return ranked[0][2]
        rng = Rng.from_seed(self.seed, "tower-steady", seat, state.step_no)
        best, best_total = ranked[0][2], -math.inf
        for total, own, aim in ranked[:layouts]:
            # its own score as it would be, the first pyramid landed where the hand puts it
            left = 0.0
            for _ in range(samples):
                noise, rng = tremor_sample(rng, sigma)
                got = after_first(state, seat, aim, noise, CARE[5])
                # a draw that leaves no plan with a margin may well fall, and a fall ends the
                # tower: it counts AHEAD_STEEP times, as a thin next level does (the mean alone
                # chose a layout with draws at -1.9 for one at -0.8: seed 3, 0.45 mm)
                left += got if got >= 0 else AHEAD_STEEP * got
            steady = total - own + left / samples
            if steady > best_total:
                best, best_total = aim, steady
        return best

    def _followed(self, state: VerticalityState, seat: int, budget_s: float) -> list[Aim]:
        """A level's second or third pyramid: the best few aims, weighed with what the level
        each completes leaves for the next (counted from the budget alone)."""
        pieces = len(state.towers[seat].pieces)
        sizes = max(1, len(next_sizes(state)))
        spare = budget_s * FOLLOW_SHARE - FOLLOW_PLAN_S
        count = min(FOLLOW, math.floor(spare / (sizes * (LOOK_S + LOOK_PIECE_S * pieces))))
        if count < 2:
            return []
        return [aim for *_, aim in follow_scored(state, seat, CARE[5], count=count)]

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
        self,
        state: VerticalityState,
        seat: int,
        plan: Aim,
        budget_s: float,
        rng: Rng,
        aims: list[Aim] | None = None,
    ) -> Aim:
        """The plan, unless the simulator sees it fall more often than not: then the best of
        the next few aims (`aims`, the plan first, or the planner's) by how often each stood
        (ties to the plan's order)."""
        sigma = state.game.options.tremor_mm
        # Trials from the budget alone (not the clock), so choices replay.
        tower = state.towers[seat]
        trial_s = max(TRIAL_S, TRIAL_BODY_S * (len(tower.pieces) + 1))
        total = math.floor(budget_s * 0.6 / trial_s)
        if total < 1:
            return plan
        trials = 1 if sigma == 0.0 else max(1, min(MAX_TRIALS, total // CANDIDATES))
        tried = 0
        best, best_score = plan, -1.0
        candidates = aims or [
            plan,
            *(a for a in candidate_aims(state, seat, CARE[5], count=CANDIDATES) if a != plan),
        ]
        for aim in candidates[:CANDIDATES]:
            if tried + trials > max(total, trials):
                break  # the budget is spent: the best so far
            score = 0.0
            for _ in range(trials):
                noise, rng = tremor_sample(rng, sigma)
                _, outcome = tower.place(
                    state.level,
                    state.size,
                    aim,
                    noise,
                    state.step_no,
                    cap_s=TRIAL_CAP_S,
                    give_up_mm=GIVE_UP_MM,
                )
                score += {"placed": 1.0, "slid": 0.3, "fell": 0.0}[outcome]
                tried += 1
            if aim is plan and score >= trials / 2:
                return plan
            if score > best_score:
                best, best_score = aim, score
            if score >= trials:
                break
        return best


def look_count(
    budget_s: float, pieces: int, sizes: int, share: float = LOOK_SHARE, most: int = LOOKAHEAD
) -> int:
    """How many layouts level 5 looks a level ahead from (`most` at most), for a tower of
    `pieces` pieces and `sizes` sizes the die may roll next, within `share` of the budget
    (CPU seconds)."""
    spare = budget_s * share - (PLAN_S + PLAN_PIECE_S * pieces)
    look_s = max(1, sizes) * (LOOK_S + LOOK_PIECE_S * pieces)
    return max(0, min(most, math.floor(spare / look_s)))


def steady_count(budget_s: float, pieces: int) -> tuple[int, int]:
    """How many of the look ahead's best layouts level 5 weighs again under tremor, and how
    many tremor draws each, for a tower of `pieces` pieces (from the budget and the tower)."""
    draws = math.floor(budget_s * STEADY_SHARE / (STEADY_S + STEADY_PIECE_S * pieces))
    layouts = min(STEADY_LAYOUTS, draws // 4)  # at least 4 draws a layout
    if layouts < 2:
        return 0, 0
    return layouts, min(STEADY_SAMPLES, draws // layouts)


def tremor_sample(rng: Rng, sigma: float) -> tuple[tuple[float, float, float], Rng]:
    """A tremor sample like the engine's (its own draws: the engine's are not for players)."""
    u1, rng = rng.random()
    u2, rng = rng.random()
    u3, rng = rng.random()
    u4, rng = rng.random()
    r = math.sqrt(-2.0 * math.log(1.0 - u1)) * sigma
    rot = 2.0 * sigma * math.sqrt(-2.0 * math.log(1.0 - u3)) * math.cos(2 * math.pi * u4)
    return (r * math.cos(2 * math.pi * u2), r * math.sin(2 * math.pi * u2), rot), rng
