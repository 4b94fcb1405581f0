"""Perft for the line games: a brute force with its own tiny geometry, and the engine's count.

`perft(root, depth)` walks every move sequence; it returns, per depth 1..n, the number of
sequences and the set of distinct positions reached. A position is a plain key (drawn lines
by name with their owners, cell owners, scores, seats to move), built the same way from the
brute force's own model and from the engine's public view (`to_dict()`), so the two can be
compared whole, not only counted.

The brute force knows nothing of `vertex.lattice`: dots are integer pairs, names are written
here, lines are listed from the rules' words (RULES.md §1, §2), and crossing is an exact
orientation test on segments.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

Dot = tuple[int, int]
Line = frozenset[Dot]
Key = Hashable


# ---- names (RULES.md: columns a, b, …, rows from 1 at the top) ---------------------------------
def dot(d: Dot) -> str:
    col, row = d
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(97 + rem) + letters
    return f"{letters}{row + 1}"


def name(line: Line) -> str:
    a, b = sorted(line, key=lambda d: (d[1], d[0]))
    return f"{dot(a)}-{dot(b)}"


def seg(a: Dot, b: Dot) -> Line:
    return frozenset((a, b))


# ---- the walk ---------------------------------------------------------------------------------
def perft(
    root: Any,
    depth: int,
    moves: Callable[[Any], Iterable[Any]],
    play: Callable[[Any, Any], Any],
    key: Callable[[Any], Key],
) -> list[tuple[int, set[Key]]]:
    """Per depth 1..`depth`: (move sequences, distinct positions). Positions are expanded
    once per distinct key (transpositions share their subtree), weighted by paths."""
    out: list[tuple[int, set[Key]]] = []
    level: dict[Key, tuple[Any, int]] = {key(root): (root, 1)}
    for _ in range(depth):
        nxt: dict[Key, tuple[Any, int]] = {}
        total = 0
        for node, paths in level.values():
            for move in moves(node):
                child = play(node, move)
                k = key(child)
                total += paths
                got = nxt.get(k)
                nxt[k] = (child, paths + (got[1] if got else 0))
        out.append((total, set(nxt)))
        level = nxt
    return out


def engine_perft(state: Any, depth: int, key: Callable[[Any], Key]) -> list[tuple[int, set[Key]]]:
    return perft(state, depth, lambda s: s.legal_moves() or [], lambda s, m: s.play(m), key)


# ---- the Dots family (RULES.md §1) ------------------------------------------------------------
@dataclass(frozen=True)
class DotsRules:
    cells: tuple[tuple[Line, ...], ...]  # each cell's sides
    predrawn: frozenset[Line] = frozenset()
    touch: bool = False
    extra_turn: bool = True
    seats: int = 2
    order: tuple[int, ...] = (0, 1)
    lines: frozenset[Line] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", frozenset(s for c in self.cells for s in c))


@dataclass(frozen=True)
class DotsPos:
    drawn: frozenset[Line]
    owner: tuple[int | None, ...]
    turn: int  # index into order


def cells_of(cycles: Iterable[Sequence[Dot]]) -> tuple[tuple[Line, ...], ...]:
    return tuple(tuple(seg(c[i], c[(i + 1) % len(c)]) for i in range(len(c))) for c in cycles)


def squares(rows: int, cols: int, keep: Callable[[int, int], bool] | None = None) -> Any:
    """Unit boxes (c, r) of a rows × cols grid (those `keep` keeps)."""
    return cells_of(
        [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
        for r in range(rows)
        for c in range(cols)
        if keep is None or keep(r, c)
    )


def rhombus(rows: int, cols: int) -> Callable[[int, int], bool]:
    """RULES §1.3: cell (r, c) is kept iff |2r+1−R|·C + |2c+1−C|·R ≤ R·C."""
    return lambda r, c: abs(2 * r + 1 - rows) * cols + abs(2 * c + 1 - cols) * rows <= rows * cols


def big_triangle(n: int) -> Any:
    """RULES §1.2: row r holds dots q = 0..r; small triangles point up and down."""
    cycles = []
    for r in range(n):
        for q in range(r + 1):
            cycles.append([(q, r), (q + 1, r + 1), (q, r + 1)])
            if q < r:
                cycles.append([(q, r), (q + 1, r), (q + 1, r + 1)])
    return cells_of(cycles)


def strip(n: int) -> Any:
    """RULES §1.2: n dots on top, n+1 below, 2n−1 triangles."""
    cycles = []
    for q in range(n):
        cycles.append([(q, 0), (q + 1, 1), (q, 1)])
        if q + 1 < n:
            cycles.append([(q, 0), (q + 1, 0), (q + 1, 1)])
    return cells_of(cycles)


def outline(cells: Sequence[Sequence[Line]]) -> frozenset[Line]:
    """Lines with a cell on one side only."""
    count: dict[Line, int] = {}
    for c in cells:
        for s in c:
            count[s] = count.get(s, 0) + 1
    return frozenset(s for s, n in count.items() if n == 1)


def dots_moves(rules: DotsRules, pos: DotsPos) -> list[Line]:
    free = [ln for ln in rules.lines if ln not in pos.drawn]
    if rules.touch:
        ends = {d for ln in pos.drawn for d in ln}
        free = [ln for ln in free if ends & ln]
    return free


def dots_play(rules: DotsRules, pos: DotsPos, line: Line) -> DotsPos:
    drawn = pos.drawn | {line}
    seat = rules.order[pos.turn]
    owner = list(pos.owner)
    closed = False
    for i, cell in enumerate(rules.cells):
        if line in cell and all(s in drawn for s in cell):
            owner[i], closed = seat, True
    turn = pos.turn if closed and rules.extra_turn else (pos.turn + 1) % len(rules.order)
    return DotsPos(drawn, tuple(owner), turn)


def dots_start(rules: DotsRules) -> DotsPos:
    return DotsPos(rules.predrawn, (None,) * len(rules.cells), 0)


def dots_key(rules: DotsRules, pos: DotsPos) -> Key:
    """Drawn lines, cell owners by corner names, scores, seat to move ((): over)."""
    owners = frozenset(
        (frozenset(dot(d) for s in cell for d in s), o)
        for cell, o in zip(rules.cells, pos.owner, strict=True)
        if o is not None
    )
    scores = tuple(sum(1 for o in pos.owner if o == s) for s in range(rules.seats))
    over = len(pos.drawn) == len(rules.lines | rules.predrawn) or not dots_moves(rules, pos)
    due = () if over else (rules.order[pos.turn],)
    return (frozenset(name(ln) for ln in pos.drawn - rules.predrawn), owners, scores, due)


def dots_engine_key(state: Any) -> Key:
    board = state.to_dict()["board"]
    drawn = frozenset(ln["name"] for ln in board["lines"] if ln["drawn"] and not ln.get("predrawn"))
    owners = frozenset(
        (frozenset(c["dots"]), c["owner"]) for c in board["cells"] if c["owner"] is not None
    )
    return (drawn, owners, tuple(state.scores), state.to_move)


def dots_brute(rules: DotsRules, depth: int) -> list[tuple[int, set[Key]]]:
    return perft(
        dots_start(rules),
        depth,
        lambda p: dots_moves(rules, p),
        lambda p, m: dots_play(rules, p, m),
        lambda p: dots_key(rules, p),
    )


# ---- Vert3x (RULES.md §2) ----------------------------------------------------------------------
@dataclass(frozen=True)
class Vert3xRules:
    lines: frozenset[Line]
    connected: bool = False
    start: tuple[Dot, ...] = ()
    no_cross: bool = True
    vertex_block: bool = False
    lines_per_turn: int = 1
    line_points: int = 0
    triangle_points: int = 1  # a unit triangle (all a player can close in 3 lines)
    seal_inside: bool = False
    seats: int = 2


@dataclass(frozen=True)
class Vert3xPos:
    mine: tuple[frozenset[Line], ...]
    points: tuple[int, ...]
    sealed: frozenset[Line]
    seat: int
    used: int


def orient(a: Dot, b: Dot, c: Dot) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def crosses(p: Line, q: Line) -> bool:
    """The two segments meet at a point that is an end of neither (a proper crossing)."""
    (a, b), (c, d) = tuple(p), tuple(q)
    if p & q:
        return False
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def strictly_inside(tri: Sequence[Dot], x: Fraction, y: Fraction) -> bool:
    a, b, c = tri

    def side(p: Dot, q: Dot) -> Fraction:
        return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])

    s1, s2, s3 = side(a, b), side(b, c), side(c, a)
    return (s1 > 0 and s2 > 0 and s3 > 0) or (s1 < 0 and s2 < 0 and s3 < 0)


def v3_moves(rules: Vert3xRules, pos: Vert3xPos, seat: int) -> list[Line]:
    taken = set().union(*pos.mine)
    theirs = [m for t, m in enumerate(pos.mine) if t != seat]
    out = []
    for ln in rules.lines:
        if ln in taken or ln in pos.sealed:
            continue
        if rules.no_cross and any(crosses(ln, o) for m in theirs for o in m):
            continue
        if rules.vertex_block and any(ln & o for m in theirs for o in m):
            continue
        if rules.connected:
            mine = pos.mine[seat]
            near = {d for o in mine for d in o} if mine else {rules.start[seat]}
            if not near & ln:
                continue
        out.append(ln)
    return out


def v3_play(rules: Vert3xRules, pos: Vert3xPos, line: Line) -> Vert3xPos:
    seat = pos.seat
    mine = pos.mine[seat] | {line}
    points = list(pos.points)
    points[seat] += rules.line_points
    sealed = set(pos.sealed)
    a, b = tuple(line)
    for c in {d for o in mine for d in o} - {a, b}:
        if seg(a, c) in mine and seg(b, c) in mine and orient(a, b, c) != 0:
            points[seat] += rules.triangle_points
            if rules.seal_inside:
                for ln in rules.lines:
                    (p, q) = tuple(ln)
                    pts = [
                        (
                            Fraction(p[0] * (8 - k) + q[0] * k, 8),
                            Fraction(p[1] * (8 - k) + q[1] * k, 8),
                        )
                        for k in range(1, 8)
                    ]
                    if any(strictly_inside((a, b, c), x, y) for x, y in pts):
                        sealed.add(ln)
    new_mine = tuple(mine if t == seat else m for t, m in enumerate(pos.mine))
    new = Vert3xPos(new_mine, tuple(points), frozenset(sealed), seat, pos.used + 1)
    if new.used < rules.lines_per_turn and v3_moves(rules, new, seat):
        return new
    for i in range(1, rules.seats + 1):  # the next seat with a line to draw
        t = (seat + i) % rules.seats
        if v3_moves(rules, new, t):
            return Vert3xPos(new_mine, tuple(points), frozenset(sealed), t, 0)
    return Vert3xPos(new_mine, tuple(points), frozenset(sealed), -1, 0)


def v3_key(pos: Vert3xPos) -> Key:
    owned = frozenset((name(ln), t) for t, m in enumerate(pos.mine) for ln in m)
    return (owned, pos.points, () if pos.seat < 0 else (pos.seat,))


def v3_engine_key(state: Any) -> Key:
    board = state.to_dict()["board"]
    owned = frozenset((ln["name"], ln["owner"]) for ln in board["lines"] if ln["owner"] is not None)
    return (owned, tuple(state.scores), state.to_move)


def v3_brute(rules: Vert3xRules, depth: int) -> list[tuple[int, set[Key]]]:
    root = Vert3xPos((frozenset(),) * rules.seats, (0,) * rules.seats, frozenset(), 0, 0)
    return perft(
        root,
        depth,
        lambda p: v3_moves(rules, p, p.seat) if p.seat >= 0 else [],
        lambda p, m: v3_play(rules, p, m),
        v3_key,
    )


def lattice_lines(dots: set[Dot], steps: Iterable[Dot]) -> frozenset[Line]:
    return frozenset(
        seg(d, (d[0] + dx, d[1] + dy))
        for d in dots
        for dx, dy in steps
        if (d[0] + dx, d[1] + dy) in dots
    )


def hexagon(radius: int) -> tuple[set[Dot], frozenset[Line]]:
    """RULES §2.1: axial dots with |q − r| ≤ R in the (2R+1)² square; three directions."""
    n = 2 * radius
    dots = {(q, r) for r in range(n + 1) for q in range(n + 1) if abs(q - r) <= radius}
    return dots, lattice_lines(dots, [(1, 0), (0, 1), (1, 1)])


def windows(width: int, height: int) -> frozenset[Line]:
    """RULES §2.2: unit steps across and down, and the unit steps along each window's two
    diagonals (window (i, j) spans the dots 2i..2i+2 × 2j..2j+2)."""
    dots = {(x, y) for x in range(2 * width + 1) for y in range(2 * height + 1)}
    out = set(lattice_lines(dots, [(1, 0), (0, 1)]))
    for i in range(width):
        for j in range(height):
            x, y = 2 * i, 2 * j
            out |= {seg((x, y), (x + 1, y + 1)), seg((x + 1, y + 1), (x + 2, y + 2))}
            out |= {seg((x + 2, y), (x + 1, y + 1)), seg((x + 1, y + 1), (x, y + 2))}
    return frozenset(out)


def diagonal_grid(size: int) -> frozenset[Line]:
    """RULES §2.3: size × size dots; unit steps across, down and along both diagonals."""
    dots = {(x, y) for x in range(size) for y in range(size)}
    return lattice_lines(dots, [(1, 0), (0, 1), (1, 1), (1, -1)])
