"""The Vert3x engine (RULES.md §2): lines in each seat's colour, triangles, passes, the end.

A position is a handful of integers: per seat the lines drawn, the lines at dots it touched
and the lines crossing its lines, all as bitmasks over the board's lines. A seat's legal lines
are then a few mask operations, and the triangles a new line completes are found by walking
out from that line only (`Geometry.completed_triangles`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vertex.core.errors import IllegalMove
from vertex.core.game import AGREED_END, State
from vertex.core.outcome import best_seats, seat_label
from vertex.core.rng import Rng
from vertex.games.vert3x.bits import bits as _bits
from vertex.games.vert3x.reasons import blocked_lines
from vertex.games.vert3x.scoring import shown
from vertex.games.vert3x.variations import variation_view, why_not_overrule
from vertex.lattice.board import LineBoard
from vertex.lattice.geometry import Triangle
from vertex.lattice.names import dot_name

if TYPE_CHECKING:
    from vertex.games.vert3x.game import Vert3x

#: A letter per seat, for text boards and the status line.
SYMBOLS = "ABCDEF"

#: A scored triangle: owner, the triangle, points in the rule set's kept units.
Scored = tuple[int, Triangle, int]


class Vert3xState(State):
    """A Vert3x position. Every field is an int or a tuple; copies are cheap."""

    game: Vert3x

    def __init__(
        self,
        *,
        game: Vert3x,
        seed: int,
        history: tuple[tuple[int | None, str], ...],
        lines: tuple[int, ...],
        near: tuple[int, ...],
        crossed: tuple[int, ...],
        inside: int,
        claims: tuple[int, ...],
        points: tuple[int, ...],
        triangles: tuple[Scored, ...],
        seat: int | None,
        used: int,
        skipped: tuple[int, ...],
        ended: bool,
        spent: tuple[int, ...] = (),
        locked: int = 0,
        shapes: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.game = game
        self.seed = seed
        self.history = history
        self.lines = lines  # per seat: the lines it drew
        self.near = near  # per seat: lines at a dot it touched (connected, vertex_block)
        self.crossed = crossed  # per seat: lines crossing one of its lines (no_cross)
        self.inside = inside  # lines inside a scored triangle (seal_scored)
        self.claims = claims  # per seat: the units it holds (claims), as pieces
        self.points = points  # per seat, in the scoring's kept units
        self.triangles = triangles
        self.seat = seat  # the seat due, None when the game is over
        self.used = used  # lines of this turn that count towards lines_per_turn
        self.skipped = skipped  # seats passed over (no legal line) since the last move
        self.ended = ended  # ended by agreement
        self.spent = spent or (0,) * game.seats  # per seat: overrules used (overrules)
        self.locked = locked  # lines along a scored triangle's sides: never overruled
        self.shapes = shapes  # (seat, shape index) per outline scored (shape_bonus)

    @classmethod
    def start(cls, game: Vert3x, seed: int) -> Vert3xState:
        n = game.seats
        state = cls(
            game=game,
            seed=seed,
            history=(),
            lines=(0,) * n,
            near=(0,) * n,
            crossed=(0,) * n,
            inside=0,
            claims=(0,) * n,
            points=(0,) * n,
            triangles=(),
            seat=None,
            used=0,
            skipped=(),
            ended=False,
        )
        state.seat, state.skipped = state._next_seat(n - 1)
        return state

    # ---- the engine, on line indices (the AI can use these directly) ----------------------
    @property
    def drawn(self) -> int:
        out = 0
        for mask in self.lines:
            out |= mask
        return out

    def legal_mask(self, seat: int) -> int:
        """Bitmask of the lines `seat` may draw now (whoever is due)."""
        game = self.game
        opts = game.options
        free = game.geometry.board.all_lines & ~self.drawn & ~self.inside
        if opts.no_cross or opts.vertex_block:
            cross = near = 0
            for t in range(game.seats):
                if t != seat:
                    cross |= self.crossed[t]
                    near |= self.near[t]
            if opts.no_cross:
                free &= ~cross
            if opts.vertex_block:
                free &= ~near
        if opts.connected:
            free &= self.near[seat] | game.start_lines[seat]
        return free

    def overrule_mask(self, seat: int) -> int:
        """Bitmask of the other seats' lines `seat` may take over now (`overrules`): not a
        side of a scored triangle, and legal as if drawn now by `seat` with the line gone
        from its owner."""
        game = self.game
        opts = game.options
        if self.spent[seat] >= opts.overrules:
            return 0
        theirs = 0
        for t, mask in enumerate(self.lines):
            if t != seat:
                theirs |= mask
        free = theirs & ~self.locked & ~self.inside
        if opts.connected:
            free &= self.near[seat] | game.start_lines[seat]
        if not free or not (opts.no_cross or opts.vertex_block):
            return free
        board = game.geometry.board
        crossing = game.geometry.crossing
        out = 0
        for line in _bits(free):
            bit = 1 << line
            rest = theirs & ~bit
            if opts.no_cross and crossing[line] & rest:
                continue
            a, b = board.lines[line]
            if opts.vertex_block and (board.dot_lines[a] | board.dot_lines[b]) & rest:
                continue
            out |= bit
        return out

    def has_move(self, seat: int) -> bool:
        return bool(self.legal_mask(seat)) or (
            self.game.options.overrules > 0 and bool(self.overrule_mask(seat))
        )

    def draw(self, line: int, *, overrule: bool = False) -> Vert3xState:
        """Draw `line` (or take it over, `overrule`) for the seat due; the caller has checked
        it is legal."""
        game = self.game
        opts = game.options
        geo = game.geometry
        board = geo.board
        seat = self.seat
        assert seat is not None
        bit = 1 << line
        name = board.line_names[line]
        new = self._with_entry((seat, f"!{name}" if overrule else name))
        lines, near, crossed = self.lines, self.near, self.crossed
        if overrule:
            # the line leaves its owner: what it touched and crossed is worked out again
            owner = self.line_owner(line)
            assert owner is not None and owner != seat
            rest = lines[owner] & ~bit
            lines = _put(lines, owner, rest)
            near = _put(near, owner, _near_of(board, rest))
            crossed = _put(crossed, owner, _crossed_of(geo.crossing, rest))
            new.spent = _put(self.spent, seat, self.spent[seat] + 1)
        mine = lines[seat] | bit
        a, b = board.lines[line]
        new.lines = _put(lines, seat, mine)
        touched = board.dot_lines[a] | board.dot_lines[b]
        new.near = _put(near, seat, near[seat] | touched)
        new.crossed = _put(crossed, seat, crossed[seat] | geo.crossing[line])
        points = list(self.points)
        points[seat] += game.scoring.per_line
        found = geo.completed_triangles(line, mine)
        if found:
            _score(self, new, seat, found, points)
        if opts.shape_bonus:
            _score_shapes(self, new, seat, line, mine, points)
        new.points = tuple(points)
        counts = not (found and opts.extra_turn)
        if overrule:  # an overrule spends the turn (a triangle it completes may give a move)
            new.used = opts.lines_per_turn if counts else self.used
        else:
            new.used = self.used + 1 if counts else self.used
        if new.used < opts.lines_per_turn and new.has_move(seat):
            new.skipped = ()
        else:
            new.used = 0
            new.seat, new.skipped = new._next_seat(seat)
        return new

    def _next_seat(self, after: int) -> tuple[int | None, tuple[int, ...]]:
        """The next seat after `after` with a legal line, and the seats passed over."""
        n = self.game.seats
        passed: list[int] = []
        for i in range(1, n + 1):
            t = (after + i) % n
            if self.has_move(t):
                return t, tuple(passed)
            passed.append(t)
        return None, ()

    # ---- the contract ---------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.seat is None else (self.seat,)

    @property
    def scores(self) -> tuple[int | float, ...]:
        scale = self.game.scoring.scale
        return tuple(shown(p, scale) for p in self.points)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        return best_seats(self.scores)

    def legal_moves(self) -> list[str]:
        if self.seat is None:
            return []
        names = self.game.geometry.board.line_names
        out = [names[i] for i in _bits(self.legal_mask(self.seat))]
        if self.game.options.overrules:
            out += [f"!{names[i]}" for i in _bits(self.overrule_mask(self.seat))]
        return out

    def sample_move(self, seat: int, rng: Rng) -> tuple[str, Rng]:
        mask = self.legal_mask(seat) if seat == self.seat else 0
        taken = self.overrule_mask(seat) if seat == self.seat else 0
        if not mask and not taken:
            raise IllegalMove(f"{seat_label(seat)} has no line to draw")
        i, rng = rng.below(mask.bit_count() + taken.bit_count())
        names = self.game.geometry.board.line_names
        if i < mask.bit_count():
            return names[_nth_bit(mask, i)], rng
        return f"!{names[_nth_bit(taken, i - mask.bit_count())]}", rng

    def _play(self, move: str, seat: int) -> Vert3xState:
        if move.startswith("!"):
            line = self.game.geometry.board.find_line(move[1:])
            if not self.overrule_mask(seat) >> line & 1:
                raise why_not_overrule(self, line, seat)
            return self.draw(line, overrule=True)
        line = self.game.geometry.board.find_line(move)
        if not self.legal_mask(seat) >> line & 1:
            raise self.why_illegal(line, seat)
        return self.draw(line)

    def why_illegal(self, line: int, seat: int) -> IllegalMove:
        """The rule a line breaks for `seat`: in words, and its code and names for a page."""
        game = self.game
        opts = game.options
        geo = game.geometry
        board = geo.board
        name = board.line_names[line]
        bit = 1 << line
        for t, mask in enumerate(self.lines):
            if mask & bit:
                msg = f"line {name} is already drawn by {seat_label(t)}"
                return IllegalMove(msg, "drawn", {"line": name})
        if self.inside & bit:
            msg = f"line {name} lies inside a scored triangle: no line may be drawn there"
            return IllegalMove(msg, "inside-scored", {"line": name})
        others = [t for t in range(game.seats) if t != seat]
        if opts.no_cross:
            for t in others:
                hit = geo.crossing[line] & self.lines[t]
                if hit:
                    other = board.line_names[_bits(hit)[0]]
                    msg = (
                        f"line {name} crosses {seat_label(t)}'s line {other} (no_cross: lines "
                        "of different players may not cross)"
                    )
                    return IllegalMove(msg, "crosses", {"line": name, "other": other})
        if opts.vertex_block:
            for t in others:
                if self.near[t] & bit:
                    dot = next(d for d in board.lines[line] if board.dot_lines[d] & self.lines[t])
                    held = dot_name(*board.dots[dot])
                    msg = (
                        f"line {name} touches dot {held}, already used by {seat_label(t)} "
                        "(vertex_block: a dot touched by one player is closed to the others)"
                    )
                    return IllegalMove(msg, "vertex-held", {"line": name, "dot": held})
        if opts.connected:
            if not self.lines[seat] and game.start_dots is not None:
                start = dot_name(*board.dots[game.start_dots[seat]])
                msg = f"line {name} must start at your start dot {start} (connected)"
                return IllegalMove(msg, "no-start-contact", {"line": name, "dot": start})
            msg = (
                f"line {name} shares no dot with your lines (connected: each line must touch "
                "one of your earlier lines)"
            )
            return IllegalMove(msg, "not-connected", {"line": name})
        return IllegalMove(f"line {name} cannot be drawn now")

    def _ending(self) -> tuple[str, dict[str, Any]]:
        return "no-line", {}

    def _end_by_agreement(self) -> Vert3xState:
        new = self._with_entry((None, AGREED_END))
        new.seat, new.skipped, new.ended = None, (), True
        return new

    # ---- the drawing ----------------------------------------------------------------------
    def line_owner(self, line: int) -> int | None:
        for t, mask in enumerate(self.lines):
            if mask >> line & 1:
                return t
        return None

    def _board(self) -> dict[str, Any]:
        game = self.game
        geo = game.geometry
        board = geo.board
        names, line_names = board.dot_names, board.line_names
        inside = self.inside
        owners: list[int | None] = [None] * len(board.lines)
        for t, mask in enumerate(self.lines):
            for i in _bits(mask):
                if owners[i] is None:  # (as line_owner: the first seat holding it)
                    owners[i] = t
        scale = game.scoring.scale
        claims = []
        units = game.scoring.units
        if units is not None:
            for t, mask in enumerate(self.claims):
                for piece in _bits(mask):
                    claims.append({"owner": t, **units.view(piece)})
        return {
            # the page's board module (web/js/boards/vert3x/) and the shape it draws
            "renderer": "vert3x",
            "kind": board.kind,
            "rules": game.options.rules,
            "dots": board.dots_view(),
            "lines": [
                {
                    "name": line_names[i],
                    "dots": [names[a], names[b]],
                    "owner": owners[i],
                    "inside": bool(inside >> i & 1),
                }
                for i, (a, b) in enumerate(board.lines)
            ],
            "triangles": [
                {
                    "owner": owner,
                    "points": shown(got, scale),
                    "corners": [names[c] for c in tri.corners],
                    "sides": list(tri.sides),
                    "small": tri.small,
                }
                for owner, tri, got in self.triangles
            ],
            "claims": claims,
            **variation_view(self),
            "start": game.start_names(),
            "axes": board.axes_view(),  # where the coordinates go (the page draws them)
            "symbols": list(SYMBOLS[: game.seats]),
            "turn": {
                "seat": self.seat,
                "lines_drawn": self.used,
                "lines_per_turn": game.options.lines_per_turn,
            },
            "skipped": list(self.skipped),
            "ended_by_agreement": self.ended,
            # why each undrawn line the seat due may not draw is closed to it (the page shows
            # the reason on hover and focus, and decides no rule itself)
            "blocked": blocked_lines(self),
        }


def _score(
    old: Vert3xState, new: Vert3xState, seat: int, found: list[Triangle], points: list[int]
) -> None:
    """Score the triangles one move completed, with the variations in force (RULES.md §2.0).

    Each triangle scores by the table's scoring (against the claims before the move, so the
    order does not matter); `box_in` adds a point per other seat's line inside it;
    `cover_bonus` adds the points of the mover's own triangles inside it; `steal` takes over
    the other seats' triangles inside it, their points and (with claims) their units.
    """
    game = old.game
    opts = game.options
    geo = game.geometry
    scoring = game.scoring
    variations = game.variations
    claims = list(old.claims)
    base = [scoring.triangle(tri, seat, old.claims) for tri in found]
    for got, units in base:
        points[seat] += got
        claims[seat] |= units
    triangles = list(old.triangles)
    if opts.box_in:
        theirs = 0
        for t, mask in enumerate(new.lines):
            if t != seat:
                theirs |= mask
        for tri in found:
            points[seat] += (geo.lines_inside(tri) & theirs).bit_count() * scoring.scale
    if opts.cover_bonus or opts.steal:
        stolen: set[int] = set()
        for tri in found:
            for i, (owner, inner, got) in enumerate(old.triangles):
                if not variations.within(tri, inner):
                    continue
                if owner == seat and opts.cover_bonus:
                    points[seat] += got
                elif owner != seat and opts.steal:
                    stolen.add(i)
            if opts.cover_bonus:  # the mover's own triangles completed by the same move
                for inner, (got, _) in zip(found, base, strict=True):
                    if variations.within(tri, inner):
                        points[seat] += got
        for i in sorted(stolen):
            owner, inner, got = triangles[i]
            points[owner] -= got
            points[seat] += got
            triangles[i] = (seat, inner, got)
            if scoring.claims:
                assert scoring.units is not None
                taken = scoring.units.mask(inner) & claims[owner]
                claims[owner] &= ~taken
                claims[seat] |= taken
    new.triangles = tuple(triangles) + tuple(
        (seat, tri, got) for tri, (got, _) in zip(found, base, strict=True)
    )
    if scoring.claims:
        new.claims = tuple(claims)
    if opts.seal_scored:
        inside = old.inside
        for tri in found:
            inside |= geo.lines_inside(tri)
        new.inside = inside
    if opts.overrules:
        locked = old.locked
        for tri in found:
            locked |= variations.side_lines(tri)
        new.locked = locked


def _score_shapes(
    old: Vert3xState, new: Vert3xState, seat: int, line: int, mine: int, points: list[int]
) -> None:
    """`shape_bonus`: each shape through `line` whose outline is now all the mover's scores
    its outline length, once a game."""
    game = old.game
    shapes = game.variations.shapes
    done = {i for _, i in old.shapes}
    got = [
        i
        for i in game.variations.shapes_at[line]
        if i not in done and not shapes[i].outline & ~mine
    ]
    for i in got:
        points[seat] += shapes[i].length * game.scoring.scale
    if got:
        new.shapes = old.shapes + tuple((seat, i) for i in got)


def _near_of(board: LineBoard, mask: int) -> int:
    """The lines at a dot of any line in `mask`."""
    out = 0
    for line in _bits(mask):
        a, b = board.lines[line]
        out |= board.dot_lines[a] | board.dot_lines[b]
    return out


def _crossed_of(crossing: tuple[int, ...], mask: int) -> int:
    out = 0
    for line in _bits(mask):
        out |= crossing[line]
    return out


def _put(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _nth_bit(mask: int, n: int) -> int:
    """The index of the n-th set bit (0-based), by bisecting on counts of the low bits."""
    low, high = 0, mask.bit_length()
    while low < high:
        mid = (low + high) // 2
        if (mask & ((1 << (mid + 1)) - 1)).bit_count() > n:
            high = mid
        else:
            low = mid + 1
    return low
