"""`verticality` (RULES.md §4): towers of pyramids and cards, judged by rigid-body physics.

Steps are simultaneous: every seat still building owes one piece; `play(move, seat=s)` stores
the aim, and when the last aim of the step is in, the step resolves: each aim gets its seat's
hand tremor and is simulated on that seat's tower (one MuJoCo model per tower), then falls,
slides and the end of the game are judged. A refused aim changes nothing.

Building on (option `build_on`, the rulebook's "Solo style" note): when one tower is left
standing its seat has won, and may go on alone, as in Solo style, until its tower falls or it
plays `stop`; the fall does not take the win away.

The engine does no IO: personal bests for Solo style are kept by the server from `result()`.
"""

from __future__ import annotations

from typing import Any

from vertex.core.capabilities import PersonalBest
from vertex.core.errors import IllegalMove
from vertex.core.game import Game, State
from vertex.core.outcome import seat_label
from vertex.core.rng import Rng
from vertex.games.verticality import VERTICALITY
from vertex.games.verticality.notation import STOP, Aim, aim_schema, make_aim, parse_aim
from vertex.games.verticality.options import VerticalityOptions
from vertex.games.verticality.rules import (
    FACE_SIZE,
    PER_LEVEL,
    SHAKE_ROUNDS,
    SHAKE_STEP,
    SIZE_NAMES,
    SUPPLY_PER_SIZE,
    roll,
    time_haste,
    tremor,
)
from vertex.games.verticality.tower import MM, Tower
from vertex.physics import Keyframes, Pose
from vertex.physics.pieces import CARD_LENGTH, CARD_THICKNESS, CARD_WIDTH, PYRAMIDS

STEP_NAMES = ("pyramid 1", "pyramid 2", "pyramid 3", "card")
SIZE_ORDER = ("S", "M", "L")
#: Random play stops building on alone at one step in this many.
STOP_ONE_IN = 8


class Verticality(Game[VerticalityOptions]):
    info = VERTICALITY
    example = ({"players": 1}, 0)
    players = "vertex.ai.tower:TowerPlayer"
    score_decides = False  # the last tower standing wins; scores are levels built
    #: Option sets for the random-play test over every game: small and quick, one per style.
    random_play_cases = (
        {"players": 2},
        {"players": 1, "skyscraper": True},
        {"players": 3, "tremor_mm": 0.9},
        {"players": 2, "tremor_mm": 0.9, "build_on": True},
    )

    @property
    def seats(self) -> int:
        return self.options.players

    @property
    def solo(self) -> bool:
        return self.options.players == 1

    @property
    def builds_on(self) -> bool:
        """Whether the last tower standing goes on alone (never in Solo style: it is alone)."""
        return self.options.build_on and not self.solo

    @property
    def step_seconds(self) -> float | None:
        step = self.options.step_seconds
        return float(step) if step else None

    def move_schema(self) -> dict[str, Any]:
        return aim_schema(stop=self.builds_on)

    def initial_state(self, seed: int = 0) -> VerticalityState:
        state = VerticalityState(self, seed)
        state._start_level(Rng.from_seed(seed, "die"))
        return state


class VerticalityState(State):
    game: Verticality

    def __init__(self, game: Verticality, seed: int) -> None:
        n = game.seats
        self.game = game
        self.seed = seed
        self.history = ()
        self.towers: tuple[Tower, ...] = (Tower(),) * n
        self.level = 1
        self.step = 0  # index into STEP_NAMES
        self.step_no = 0  # steps resolved so far (mulligans and shakes included)
        self.supply: dict[str, int] = dict.fromkeys(SIZE_ORDER, SUPPLY_PER_SIZE)
        self.rolls: tuple[str, ...] = ()  # die faces rolled for this level; the last counts
        self.size = "L"
        self.rng = Rng(0)
        self.due: tuple[int, ...] = tuple(range(n))
        self.aims: tuple[Aim | None, ...] = (None,) * n
        self.arrivals: tuple[int, ...] = ()  # who placed, in order, this step
        self.previous: tuple[int, ...] = ()  # the same for the step before
        self.finished = False
        self.won: tuple[int, ...] = ()
        self.building_on = False  # the winner goes on alone (option build_on)
        self.stopped = False  # ... and chose to stop
        self.shakes = 0  # natural-forces rounds so far
        self.events: tuple[str, ...] = ()

    # ---- the contract ---------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.finished:
            return ()
        return tuple(s for s in self.due if self.aims[s] is None)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(float(t.levels) for t in self.towers)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.won if self.finished else ()

    def legal_moves(self) -> None:
        return None

    def _play(self, move: str, seat: int) -> VerticalityState:
        if move.lower() == STOP:
            return self._stop(seat)
        aim = self._checked(move, seat)
        new = self._with_entry((seat, str(aim)))
        aims = list(self.aims)
        aims[seat] = aim
        new.aims = tuple(aims)
        new.arrivals = (*self.arrivals, seat)
        if all(new.aims[s] is not None for s in new.due):
            new._resolve()
        return new

    def _stop(self, seat: int) -> VerticalityState:
        if not self.building_on:
            why = (
                "the table option build_on is off"
                if not self.game.builds_on
                else "other towers still stand"
            )
            raise IllegalMove(
                f"{STOP!r} only ends building on alone after every other tower fell; {why}"
            )
        new = self._with_entry((seat, STOP))
        new.stopped = True
        new.finished = True
        new.due = ()
        new.events = (f"{seat_label(seat)} stopped building at level {self.level}",)
        return new

    def _checked(self, move: str, seat: int) -> Aim:
        aim = parse_aim(move)
        tower = self.towers[seat]
        return tower.check(self.level, self.step, self.size, aim, self.game.options.skyscraper)

    def sealed(self) -> tuple[int, ...]:
        """Seats whose piece for the step under way is in but not yet placed: the last
        len() entries of the history. Until the step resolves nobody else may see where they
        aimed (the server hides those moves from the other seats and from spectators)."""
        if self.finished:
            return ()
        return tuple(s for s in self.due if self.aims[s] is not None)

    def aiming(self) -> VerticalityState:
        return self

    def personal_best(self) -> PersonalBest | None:
        """Solo results count: a one-seat table, or the winner who went on building alone
        after every other tower fell (the rulebook's solitaire challenge)."""
        if self.game.solo:
            n = 0
        elif self.building_on and len(self.winners) == 1:
            n = self.winners[0]
        else:
            return None
        tower = self.towers[n]
        return PersonalBest(n, tower.levels, _r(tower.built / MM, 2))

    def check_aim(self, move: str, seat: int) -> str:
        """Where `seat` is aiming now, checked as a placement would be but not played.

        The canonical aim, or IllegalMove/NotationError saying why it would be refused. The
        server keeps the last one privately and drops it there when the step clock runs out.
        """
        if seat not in self.to_move:
            raise IllegalMove(f"{seat_label(seat)} owes no piece now")
        aim = self._checked(move, seat)
        if aim.piece == "card":
            # The aim check also says whether the card would rest on its pyramids; a card
            # dropped elsewhere anyway (a script's move) slides off: the mulligan.
            self.towers[seat].card_rest(self.level, aim)
        return str(aim)

    def hasten(self, move: str, seconds: float) -> str:
        """`move` with its haste raised to what a release `seconds` after the step began
        earns (RULES §4): max(the haste it names, time_haste(seconds)). NotationError if the
        move cannot be read."""
        aim = parse_aim(move)
        haste = max(aim.haste, time_haste(seconds))
        return str(make_aim(aim.piece, aim.x, aim.y, aim.rot, haste))

    def sample_move(self, seat: int, rng: Rng) -> tuple[str, Rng]:
        from vertex.games.verticality.plan import random_aim

        if self.building_on:
            # Sometimes a builder left alone is content and stops.
            i, rng = rng.below(STOP_ONE_IN)
            if i == 0:
                return STOP, rng
        aim, rng = random_aim(self, seat, rng)
        return str(aim), rng

    # ---- resolving a step -----------------------------------------------------------------
    def _resolve(self) -> None:
        """Every due seat has aimed: simulate each tower and judge (mutates this new copy)."""
        towers = list(self.towers)
        supply = dict(self.supply)
        fell: list[int] = []
        again: list[int] = []
        events: list[str] = []
        for seat in sorted(self.due):
            aim = self.aims[seat]
            assert aim is not None
            noise = tremor(self.seed, seat, self.step_no, self.game.options.tremor_mm, aim.haste)
            if aim.piece == "pyramid":
                supply[self.size] -= 1
            tower, outcome = towers[seat].place(self.level, self.size, aim, noise, self.step_no)
            towers[seat] = tower
            if outcome == "fell":
                fell.append(seat)
                for size, count in tower.returned().items():
                    supply[size] += count
                events.append(f"{seat_label(seat)}'s tower fell: {tower.last_event}")
            elif outcome == "slid":
                again.append(seat)
                events.append(f"{seat_label(seat)}: {tower.last_event}")
        self.towers = tuple(towers)
        self.supply = supply
        self.events = tuple(events)
        self.step_no += 1
        done_first = self.previous
        self.previous = self.arrivals
        self.arrivals = ()
        self.aims = (None,) * self.game.seats
        if self._check_end(fell, done_first):
            return
        if again:
            # A slid card is placed again before anybody moves on (the mulligan).
            self.due = tuple(again)
            return
        self.step += 1
        if self.step == len(STEP_NAMES):
            self.step = 0
            self.level += 1
            self._start_level(self.rng)
        else:
            self.due = self._standing()

    def _standing(self) -> tuple[int, ...]:
        return tuple(s for s, t in enumerate(self.towers) if t.standing)

    def _check_end(self, fell: list[int], done_first: tuple[int, ...]) -> bool:
        standing = self._standing()
        if self.game.solo:
            if standing:
                return False
            self.won = ()  # solo has no winner: the result is the height reached
        elif self.building_on:
            if standing:
                return False
            # The winner's tower fell while building on alone: the win stays.
        elif len(standing) > 1:
            return False
        elif standing:
            self.won = standing
            if self.game.builds_on:
                self.building_on = True
                self.events = (
                    *self.events,
                    f"{seat_label(standing[0])} wins and builds on alone",
                )
                return False
        else:
            # Everybody left fell in this step: the one who finished the step before first.
            first = [s for s in done_first if s in fell]
            self.won = (first[0],) if first else tuple(sorted(fell))
        self.finished = True
        self.due = ()
        return True

    def _start_level(self, rng: Rng) -> None:
        """Roll the die for the new level; with the supply used up, shake until pieces free."""
        rolls: list[str] = []
        while True:
            need = PER_LEVEL * len(self._standing())
            if any(self.supply[s] >= need for s in SIZE_ORDER):
                break
            if self._shake():
                return
        while True:
            face, rng = roll(rng)
            rolls.append(face)
            if self.supply[FACE_SIZE[face]] >= need:
                break
        self.rng = rng
        self.rolls = tuple(rolls)
        self.size = FACE_SIZE[face]
        self.due = self._standing()

    def _shake(self) -> bool:
        """One round of natural forces; True when it ended the game."""
        self.shakes += 1
        strength = SHAKE_STEP * self.shakes
        towers = list(self.towers)
        fell: list[int] = []
        events = list(self.events)
        for seat in self._standing():
            tower = towers[seat].shake(strength, self.step_no)
            towers[seat] = tower
            if not tower.standing:
                fell.append(seat)
                for size, count in tower.returned().items():
                    self.supply[size] += count
                events.append(f"{seat_label(seat)}'s tower fell: {tower.last_event}")
        self.towers = tuple(towers)
        self.events = tuple(events)
        self.step_no += 1
        if fell:
            done_first = self.previous
            return self._check_end(fell, done_first)
        if self.shakes >= SHAKE_ROUNDS:
            self.finished = True
            self.won = () if self.game.solo else self._standing()
            self.due = ()
            return True
        return False

    # ---- views ----------------------------------------------------------------------------
    def _ending(self) -> tuple[str, dict[str, Any]]:
        """`last-standing` (seat: the winner), `all-fell` (every tower left fell in one
        step; winners: who finished the step before first), `solo` (the one tower fell),
        `stopped` (the winner stopped building on alone), `shakes` (natural forces ran out
        with towers standing). `falls`: how each fallen tower fell, in order."""
        fallen = sorted(
            (t.fell_at or 0, seat, t) for seat, t in enumerate(self.towers) if not t.standing
        )
        falls = [{"seat": seat, "step": at, **(t.fall or {})} for at, seat, t in fallen]
        levels = [t.levels for t in self.towers]
        base: dict[str, Any] = {"falls": falls, "levels": levels}
        standing = self._standing()
        if self.stopped:
            return "stopped", {**base, "seat": self.won[0]}
        if standing and (self.game.solo or self.building_on or len(standing) > 1):
            return "shakes", {**base, "standing": list(standing)}  # natural forces ran out
        if self.game.solo:
            return "solo", {**base, "seat": 0}
        if self.building_on:  # the winner built on alone until the tower fell
            return "built-on", {**base, "seat": self.won[0]}
        if standing:
            return "last-standing", {**base, "seat": standing[0]}
        return "all-fell", {**base, "winners": list(self.won)}

    def result(self) -> dict[str, Any]:
        out = super().result()
        out["levels"] = [t.levels for t in self.towers]
        out["height_mm"] = [_r(t.built / MM, 2) for t in self.towers]
        out["solo"] = self.game.solo
        out["building_on"] = self.building_on
        return out

    def _board(self) -> dict[str, Any]:
        face = self.rolls[-1] if self.rolls else None
        return {
            "renderer": "towers",  # the page's board module (web/js/boards/towers/)
            "kind": "towers",
            # the real sizes (RULES.md §4), so the page draws nothing of its own measure
            "sizes_mm": _sizes_mm(),
            "level": self.level,
            "step": self.step,
            "step_name": STEP_NAMES[self.step],
            "step_number": self.step_no,
            "die": {
                "face": face,
                "size": self.size,
                "size_name": SIZE_NAMES[self.size],
                "rolls": list(self.rolls),
            },
            "supply": dict(self.supply),
            "due": list(self.due),
            "placed": [s for s in self.due if self.aims[s] is not None],
            "tremor_mm": self.game.options.tremor_mm,
            "skyscraper": self.game.options.skyscraper,
            "step_seconds": self.game.options.step_seconds,
            "build_on": self.game.builds_on,
            # The last tower standing has won and goes on alone (until it falls or stops).
            "building_on": self.building_on,
            "winner": self.won[0] if self.building_on else None,
            "stopped": self.stopped,
            "natural_forces": {"shakes": self.shakes, "strength": SHAKE_STEP * self.shakes},
            "events": list(self.events),
            "towers": [_tower_view(seat, t) for seat, t in enumerate(self.towers)],
            "result": {
                "levels": [t.levels for t in self.towers],
                "height_mm": [_r(t.built / MM, 2) for t in self.towers],
            },
        }

    def default_aim(self, seat: int) -> str:
        """Where the piece drops when the step clock runs out and the seat never aimed."""
        from vertex.games.verticality.plan import plan_aim

        if seat not in self.to_move:
            raise IllegalMove(f"{seat_label(seat)} owes no piece now")
        return str(plan_aim(self, seat))


def _sizes_mm() -> dict[str, dict[str, float]]:
    """Pyramid (base, height) and card (width, length, thickness) sizes in mm, for the page."""
    out = {
        size: {"base": _r(spec.base / MM, 2), "height": _r(spec.height / MM, 2)}
        for size, spec in PYRAMIDS.items()
    }
    out["card"] = {
        "width": _r(CARD_WIDTH / MM, 2),
        "length": _r(CARD_LENGTH / MM, 2),
        "thickness": _r(CARD_THICKNESS / MM, 2),
    }
    return out


def _tower_view(seat: int, tower: Tower) -> dict[str, Any]:
    return {
        "seat": seat,
        "standing": tower.standing,
        "levels": tower.levels,
        "height_mm": _r(tower.built / MM, 2),
        "tilt_deg": _r(tower.lean(), 2),
        "mulligan_used": tower.mulligan_used,
        "fell_at_step": tower.fell_at,
        "last_event": tower.last_event,
        "pieces": [{"kind": p.kind, "level": p.level, **_pose_view(p.pose)} for p in tower.pieces],
        "keyframes": _keyframes_view(tower.keyframes),
    }


def _pose_view(pose: Pose) -> dict[str, list[float]]:
    return {
        "position_mm": [_r(v / MM, 3) for v in pose[:3]],
        "quaternion": [_r(v, 6) for v in pose[3:]],
    }


def _keyframes_view(frames: Keyframes | None) -> dict[str, Any] | None:
    if frames is None:
        return None
    return {
        "times": [_r(t, 4) for t in frames.times],
        "pieces": list(frames.bodies),
        "frames": [
            [[*(_r(v / MM, 3) for v in p[:3]), *(_r(v, 6) for v in p[3:])] for p in frame]
            for frame in frames.poses
        ],
    }


def _r(v: float, digits: int) -> float:
    return round(v, digits) + 0.0
