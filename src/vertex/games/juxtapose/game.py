"""The rules of `juxtapose` — Juxtapose, a Looney Pyramids game on a 4×4 board (RULES.md §3).

A position is a handful of small immutable values, so a copy is a few attribute stores:
- `squares`: a 16-tuple, square index → pyramid index or -1 (empty). Square index is
  `row * 4 + column` with `a1` = 0 (top-left) and `d4` = 15, so index order is the canonical
  order of RULES.md (smaller row first, then smaller column).
- `where`: a 15-tuple, pyramid index → square index or -1 (still in the stash). A pyramid's
  index is `colour * 3 + size - 1`, colours in the order R, Y, G, B, P: `R1` = 0, `P3` = 14.
- `stash` and `moved_last`: 15-bit masks of pyramid indices.
- `past`: the slide-phase position keys seen so far, the current one last (threefold
  repetition); a key packs the board (4 bits a square), the seat to move and `moved_last`.
- `winner`, `lines`, `draw`: how the game ended, if it has.

For the computer players (DESIGN §3) moves also have a small integer code:
`p * 16 + square` for a drop (0..239), `256 + a * 16 + b` for a swap (a < b) and
`512 + from * 16 + to` for a slide. The fast path, with no checks beyond what the code says:
- `state.move_codes()` — the legal moves as codes (same order as `legal_moves()`);
- `state.apply(code)` — the next state (the history gets the canonical move name);
- `state.wins_at_once(move)` — does this legal move (code or string) make a winning line
  for the mover? A line ends the game at once, so none is on the board before the move and
  only the colours and sizes of the pyramids it shifts need a look: a few mask operations,
  no new state. `state.winning_moves()` lists them all.
- `move_code(text)` / `MOVE_NAMES[code]` convert between the two spellings.
"""

from __future__ import annotations

from typing import Any

from vertex.core.capabilities import Diagram
from vertex.core.errors import IllegalMove, NotationError
from vertex.core.game import Entry, Game, State
from vertex.games.juxtapose import JUXTAPOSE
from vertex.games.juxtapose.options import JuxtaposeOptions

SIZE = 4
COLOURS = "RYGBP"
COLOUR_NAMES = ("red", "yellow", "green", "blue", "purple")
PYRAMIDS = 15
ALL_PYRAMIDS = (1 << PYRAMIDS) - 1
EMPTY = -1

SWAP_BASE = 256
SLIDE_BASE = 512


def square_name(sq: int) -> str:
    return f"{'abcd'[sq % SIZE]}{sq // SIZE + 1}"


def pyramid_name(p: int) -> str:
    return f"{COLOURS[p // 3]}{p % 3 + 1}"


SQUARE_NAMES = tuple(square_name(sq) for sq in range(SIZE * SIZE))
PYRAMID_NAMES = tuple(pyramid_name(p) for p in range(PYRAMIDS))


def _neighbours(sq: int, diagonal: bool) -> list[int]:
    r, c = divmod(sq, SIZE)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (not diagonal and dr and dc):
                continue
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                out.append((r + dr) * SIZE + c + dc)
    return out


#: Squares sharing a side with each square (slides), and sharing a side or corner (swaps).
ORTHOGONAL = tuple(tuple(_neighbours(sq, False)) for sq in range(SIZE * SIZE))
ADJACENT = tuple(frozenset(_neighbours(sq, True)) for sq in range(SIZE * SIZE))
#: Every pair of adjacent squares, smaller index first: 42 pairs on 4×4.
ADJACENT_PAIRS = tuple((a, b) for a in range(SIZE * SIZE) for b in sorted(ADJACENT[a]) if a < b)


def _runs(length: int) -> list[tuple[int, ...]]:
    """Every straight run of `length` consecutive squares (rows, columns, both diagonals)."""
    runs = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(SIZE):
            for c in range(SIZE):
                cells = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    runs.append(tuple(rr * SIZE + cc for rr, cc in cells))
    return runs


def _mask(squares: tuple[int, ...]) -> int:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


#: Size lines: 4 rows, 4 columns, 2 long diagonals. Colour lines: all 24 runs of three.
SIZE_LINES = tuple(_runs(SIZE))
COLOUR_LINES = tuple(_runs(3))
_SIZE_LINE_MASKS = tuple(_mask(line) for line in SIZE_LINES)
_COLOUR_LINE_BY_MASK = {_mask(line): line for line in COLOUR_LINES}
#: For each square, the size lines through it as (mask, squares).
_SIZE_LINES_AT = tuple(
    tuple((m, line) for m, line in zip(_SIZE_LINE_MASKS, SIZE_LINES, strict=True) if sq in line)
    for sq in range(SIZE * SIZE)
)


def drop_code(p: int, sq: int) -> int:
    return p * 16 + sq


def swap_code(a: int, b: int) -> int:
    a, b = min(a, b), max(a, b)
    return SWAP_BASE + a * 16 + b


def slide_code(src: int, dst: int) -> int:
    return SLIDE_BASE + src * 16 + dst


def _code_name(code: int) -> str:
    kind, rest = divmod(code, 256)
    a, b = divmod(rest, 16)
    if kind == 0:
        return f"{PYRAMID_NAMES[a]}@{SQUARE_NAMES[b]}"
    return f"{SQUARE_NAMES[a]}{'<>' if kind == 1 else '>'}{SQUARE_NAMES[b]}"


#: Canonical names of every well-formed move code (drops, swaps with a < b, slides).
MOVE_NAMES: dict[int, str] = {}
for _p in range(PYRAMIDS):
    for _sq in range(SIZE * SIZE):
        MOVE_NAMES[drop_code(_p, _sq)] = _code_name(drop_code(_p, _sq))
for _a in range(SIZE * SIZE):
    for _b in range(SIZE * SIZE):
        if _a != _b:
            MOVE_NAMES[slide_code(_a, _b)] = _code_name(slide_code(_a, _b))
            if _a < _b:
                MOVE_NAMES[swap_code(_a, _b)] = _code_name(swap_code(_a, _b))
_CODES = {name: code for code, name in MOVE_NAMES.items()}

#: Legal swaps for each empty square (the pairs that do not touch it), as codes.
_SWAPS_BY_EMPTY = tuple(
    tuple(swap_code(a, b) for a, b in ADJACENT_PAIRS if e not in (a, b)) for e in range(16)
)

_FORMS = "a drop like 'R1@b3', a swap like 'b3<>c4' or a slide like 'b3>b4'"


def parse_square(text: str) -> int:
    t = text.strip().lower()
    if len(t) == 2 and t[0] in "abcd" and t[1] in "1234":
        return (int(t[1]) - 1) * SIZE + "abcd".index(t[0])
    if t[:1].isalpha() and t[1:].isdigit():
        raise NotationError(
            f"{text.strip()!r} is not on the 4×4 board: squares run a1 to d4",
            "off-board",
            {"square": text.strip()[:8]},
        )
    raise NotationError(
        f"{text.strip()!r} is not a square: expected a column a-d then a row 1-4, like 'b3'",
        "not-a-square",
        {"text": text.strip()[:20]},
    )


def parse_pyramid(text: str) -> int:
    t = text.strip().upper()
    if len(t) == 2 and t[0] in COLOURS and t[1] in "123":
        return COLOURS.index(t[0]) * 3 + int(t[1]) - 1
    raise NotationError(
        f"{text.strip()!r} is not a pyramid: expected a colour R, Y, G, B or P "
        "then a size 1-3, like 'R1'",
        "not-a-pyramid",
        {"text": text.strip()[:20]},
    )


def move_code(text: str) -> int:
    """Parse any spelling of a move to its code; raises NotationError. Legality is not checked."""
    code = _CODES.get(text)
    if code is not None:
        return code
    t = text.strip()
    if "@" in t:
        left, _, right = t.partition("@")
        return drop_code(parse_pyramid(left), parse_square(right))
    if "<>" in t:
        left, _, right = t.partition("<>")
        return swap_code(*_two_squares(left, right, t))
    if ">" in t:
        left, _, right = t.partition(">")
        src, dst = _two_squares(left, right, t)
        return slide_code(src, dst)
    if "<" in t:  # 'b4<b3' is the slide b3>b4 written the other way round
        left, _, right = t.partition("<")
        dst, src = _two_squares(left, right, t)
        return slide_code(src, dst)
    raise NotationError(f"{t!r} is not a move: expected {_FORMS}", "not-a-move", {"text": t[:20]})


def _two_squares(left: str, right: str, whole: str) -> tuple[int, int]:
    if not left.strip() or not right.strip():
        raise NotationError(
            f"{whole!r} is not a move: expected {_FORMS}", "not-a-move", {"text": whole[:20]}
        )
    a, b = parse_square(left), parse_square(right)
    if a == b:
        raise IllegalMove(
            f"{whole!r} names the square {SQUARE_NAMES[a]} twice",
            "same-square",
            {"square": SQUARE_NAMES[a]},
        )
    return a, b


class Juxtapose(Game[JuxtaposeOptions]):
    info = JUXTAPOSE
    example = ({}, 10)
    players = "vertex.ai.juxtapose:JuxtaposePlayer"
    random_play_cases = (
        {},
        {"players": 3},
        {"players": 4, "move_limit": 40},
    )
    diagrams = (
        # Four small pyramids in the top row: the first player wins with B1@d1.
        Diagram("size-line", {}, ("R1@a1", "G2@b2", "Y1@b1", "R3@c3", "G1@c1", "P2@a3", "B1@d1")),
        # The three reds on a diagonal: the first player wins with R3@c3.
        Diagram("colour-line", {}, ("R1@a1", "Y2@d1", "R2@b2", "G3@a4", "R3@c3")),
        # After the 15th drop: b4 is empty, and G1 (dropped last) may not slide into it.
        Diagram(
            "slide",
            {},
            (
                "B1@d4",
                "Y2@b2",
                "G2@a3",
                "P2@c2",
                "R1@c3",
                "P3@a4",
                "G3@c4",
                "Y3@a2",
                "B3@b1",
                "R2@d2",
                "Y1@a1",
                "R3@d3",
                "B2@d1",
                "P1@c1",
                "G1@b3",
            ),
        ),
    )

    def move_catalogue(self) -> list[str]:
        return [MOVE_NAMES[code] for code in sorted(MOVE_NAMES)]

    @property
    def seats(self) -> int:
        return self.options.players

    def initial_state(self, seed: int = 0) -> JuxtaposeState:
        return JuxtaposeState(self, seed)


class JuxtaposeState(State):
    """A Juxtapose position. Every field is an int or a tuple of ints (or None)."""

    __slots__ = (
        "code",
        "draw",
        "lines",
        "moved_last",
        "past",
        "slides",
        "squares",
        "stash",
        "turn",
        "where",
        "winner",
    )

    game: Juxtapose

    def __init__(self, game: Juxtapose, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history: tuple[Entry, ...] = ()
        self.squares: tuple[int, ...] = (EMPTY,) * (SIZE * SIZE)
        self.where: tuple[int, ...] = (EMPTY,) * PYRAMIDS
        self.stash = ALL_PYRAMIDS
        self.moved_last = 0
        self.turn = 0
        self.slides = 0  # slide-phase moves made
        self.code = 0  # the board packed 4 bits a square (pyramid + 1), for position keys
        self.past: tuple[int, ...] = ()  # slide-phase position keys, the current one last
        self.winner: int | None = None
        self.lines: tuple[tuple[int, ...], ...] = ()  # the winning line(s)
        self.draw: str | None = None  # "repetition" or "move limit"

    # ---- the fast path (for the computer players) ----------------------------------------
    @property
    def phase(self) -> str:
        return "drop" if self.stash else "slide"

    def empty_squares(self) -> list[int]:
        return [sq for sq in range(SIZE * SIZE) if self.squares[sq] == EMPTY]

    def move_codes(self) -> list[int]:
        """The legal moves as codes; [] once the game is over."""
        if self.winner is not None or self.draw is not None:
            return []
        if self.stash:
            empties = self.empty_squares()
            stash = self.stash
            return [p * 16 + sq for p in range(PYRAMIDS) if stash >> p & 1 for sq in empties]
        empty = self.squares.index(EMPTY)
        codes = list(_SWAPS_BY_EMPTY[empty])
        for src in ORTHOGONAL[empty]:
            if not self.moved_last >> self.squares[src] & 1:
                codes.append(SLIDE_BASE + src * 16 + empty)
        return codes

    def _shifts(self, code: int) -> list[tuple[int, int]]:
        """(pyramid, new square) for each pyramid the move puts somewhere new."""
        kind, rest = divmod(code, 256)
        a, b = divmod(rest, 16)
        if kind == 0:
            return [(a, b)]
        if kind == 1:
            return [(self.squares[a], b), (self.squares[b], a)]
        return [(self.squares[a], b)]

    def _lines_made(self, shifts: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        """The lines on the board after the move; any there are are new, made by this move."""
        where = list(self.where)
        for p, sq in shifts:
            where[p] = sq
        found: list[tuple[int, ...]] = []
        for p, sq in shifts:
            c = p // 3 * 3
            a, b, d = where[c], where[c + 1], where[c + 2]
            if a >= 0 and b >= 0 and d >= 0:
                line = _COLOUR_LINE_BY_MASK.get((1 << a) | (1 << b) | (1 << d))
                if line is not None and line not in found:
                    found.append(line)
            size_mask = 0
            for q in range(p % 3, PYRAMIDS, 3):
                if where[q] >= 0:
                    size_mask |= 1 << where[q]
            for m, line in _SIZE_LINES_AT[sq]:
                if size_mask & m == m and line not in found:
                    found.append(line)
        return tuple(found)

    def wins_at_once(self, move: int | str) -> bool:
        """Would this legal move make a line (and so win for the mover)? Builds no state."""
        code = move if isinstance(move, int) else move_code(move)
        return bool(self._lines_made(self._shifts(code)))

    def winning_moves(self) -> list[str]:
        return [MOVE_NAMES[c] for c in self.move_codes() if self._lines_made(self._shifts(c))]

    def apply(self, code: int) -> JuxtaposeState:
        """Play the legal move `code` for the seat due (unchecked: the caller knows it is legal)."""
        seat = self.turn
        new = object.__new__(JuxtaposeState)
        new.game = self.game
        new.seed = self.seed
        new.history = (*self.history, (seat, MOVE_NAMES[code]))
        shifts = self._shifts(code)
        lines = self._lines_made(shifts)
        squares = list(self.squares)
        where = list(self.where)
        packed = self.code
        slides = self.slides
        moved = 0
        for p, sq in shifts:
            old = where[p]
            if old >= 0 and squares[old] == p:
                squares[old] = EMPTY
                packed &= ~(15 << 4 * old)
            where[p] = sq
            moved |= 1 << p
        for p, sq in shifts:
            squares[sq] = p
            packed = packed & ~(15 << 4 * sq) | (p + 1) << 4 * sq
        if code < SWAP_BASE:
            new.stash = self.stash & ~moved
        else:
            new.stash = self.stash
            slides += 1
        new.squares = tuple(squares)
        new.where = tuple(where)
        new.moved_last = moved
        new.turn = (seat + 1) % self.game.seats
        new.slides = slides
        new.code = packed
        new.lines = lines
        new.winner = seat if lines else None
        new.draw = None
        if new.stash:
            new.past = ()
        else:
            key = packed | new.turn << 64 | moved << 66
            new.past = (*self.past, key)
            if not lines:
                if new.past.count(key) >= 3:
                    new.draw = "repetition"
                elif slides >= self.game.options.move_limit:
                    new.draw = "move limit"
        return new

    # ---- the contract ---------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.winner is not None or self.draw is not None:
            return ()
        return (self.turn,)

    @property
    def scores(self) -> tuple[float, ...]:
        n = self.game.seats
        if self.winner is not None:
            return tuple(1.0 if s == self.winner else 0.0 for s in range(n))
        if self.draw is not None:
            return (1.0 / n,) * n  # a draw shares the point
        return (0.0,) * n

    @property
    def winners(self) -> tuple[int, ...]:
        if self.winner is not None:
            return (self.winner,)
        if self.draw is not None:
            return tuple(range(self.game.seats))
        return ()

    def legal_moves(self) -> list[str]:
        names = MOVE_NAMES
        return [names[c] for c in self.move_codes()]

    def _play(self, move: str, seat: int) -> JuxtaposeState:
        code = move_code(move)
        self._check(code)
        return self.apply(code)

    def _check(self, code: int) -> None:
        """Raise IllegalMove naming the rule if `code` may not be played now."""
        kind, rest = divmod(code, 256)
        a, b = divmod(rest, 16)
        name = MOVE_NAMES[code]
        if kind == 0:
            if not self.stash:
                raise IllegalMove(
                    f"cannot drop {PYRAMID_NAMES[a]}: the stash is empty and the slide phase has "
                    "begun; swap two neighbours (b3<>c4) or slide into the empty square (b3>b4)",
                    "stash-empty",
                    {"pyramid": PYRAMID_NAMES[a]},
                )
            if not self.stash >> a & 1:
                raise IllegalMove(
                    f"cannot drop {PYRAMID_NAMES[a]}: it is not in the stash "
                    f"(it is on {SQUARE_NAMES[self.where[a]]})",
                    "not-in-stash",
                    {"pyramid": PYRAMID_NAMES[a], "square": SQUARE_NAMES[self.where[a]]},
                )
            if self.squares[b] != EMPTY:
                on = PYRAMID_NAMES[self.squares[b]]
                raise IllegalMove(
                    f"cannot drop on {SQUARE_NAMES[b]}: {on} is already there",
                    "square-taken",
                    {"square": SQUARE_NAMES[b], "pyramid": on},
                )
            return
        if self.stash:
            left = self.stash.bit_count()
            raise IllegalMove(
                f"cannot play {name} in the drop phase: pyramids move only once the stash is "
                f"empty ({left} left); drop one on an empty square, like R1@b3",
                "drop-phase",
                {"left": left},
            )
        if kind == 1:
            if b not in ADJACENT[a]:
                raise IllegalMove(
                    f"cannot swap {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]}: a swap needs "
                    "two squares that share a side or a corner",
                    "swap-apart",
                    {"a": SQUARE_NAMES[a], "b": SQUARE_NAMES[b]},
                )
            for sq in (a, b):
                if self.squares[sq] == EMPTY:
                    raise IllegalMove(
                        f"cannot swap {name}: {SQUARE_NAMES[sq]} is empty "
                        "(to move into the empty square, slide: like b3>b4)",
                        "swap-empty",
                        {"square": SQUARE_NAMES[sq]},
                    )
            return
        if self.squares[a] == EMPTY:
            raise IllegalMove(
                f"cannot slide from {SQUARE_NAMES[a]}: it is empty",
                "slide-from-empty",
                {"square": SQUARE_NAMES[a]},
            )
        if self.squares[b] != EMPTY:
            raise IllegalMove(
                f"cannot slide onto {SQUARE_NAMES[b]}: a pyramid slides only into the empty "
                f"square ({SQUARE_NAMES[self.squares.index(EMPTY)]})",
                "slide-onto-taken",
                {"square": SQUARE_NAMES[b], "empty": SQUARE_NAMES[self.squares.index(EMPTY)]},
            )
        if b not in ORTHOGONAL[a]:
            raise IllegalMove(
                f"cannot slide {name}: a slide goes to a square sharing a side, not a corner "
                "or farther",
                "slide-diagonal",
                {"move": name},
            )
        p = self.squares[a]
        if self.moved_last >> p & 1:
            raise IllegalMove(
                f"cannot slide {PYRAMID_NAMES[p]}: it was moved last, and the pyramid moved last "
                "may not slide (after a swap both swapped pyramids count)",
                "moved-last",
                {"pyramid": PYRAMID_NAMES[p]},
            )

    def _ending(self) -> tuple[str, dict[str, Any]]:
        if self.winner is not None:
            lines = [
                {
                    "kind": "size" if line in SIZE_LINES else "colour",
                    "squares": [SQUARE_NAMES[sq] for sq in line],
                }
                for line in self.lines
            ]
            return "line", {"seat": self.winner, "lines": lines}
        if self.draw == "repetition":
            return "repetition", {}
        return "move-limit", {"limit": self.game.options.move_limit}

    def _board(self) -> dict[str, Any]:
        sliding = self.phase == "slide"
        return {
            "renderer": "juxtapose",  # the page's board module (web/js/boards/juxtapose/)
            "kind": "juxtapose",
            "size": SIZE,
            "squares": [_square_view(sq, self.squares[sq]) for sq in range(SIZE * SIZE)],
            "stash": [PYRAMID_NAMES[p] for p in range(PYRAMIDS) if self.stash >> p & 1],
            "phase": self.phase,
            "moved_last": [
                {"pyramid": PYRAMID_NAMES[p], "square": SQUARE_NAMES[self.where[p]]}
                for p in range(PYRAMIDS)
                if self.moved_last >> p & 1
            ],
            # only the slide phase has slides to forbid
            "may_not_slide": [
                SQUARE_NAMES[self.where[p]]
                for p in range(PYRAMIDS)
                if sliding and self.moved_last >> p & 1
            ],
            "winning_lines": [[SQUARE_NAMES[sq] for sq in line] for line in self.lines],
            "draw": self.draw,
            "slide_moves": self.slides,
            "move_limit": self.game.options.move_limit,
            "blocked": self._blocked(),
        }

    def _blocked(self) -> dict[str, str]:
        """Slides into the empty square that the rules forbid, each with the reason's code:
        `moved-last` (the pyramid moved last may not slide) or `corner` (a slide goes to a
        square sharing a side). The page knows no rules, so it shows the reason it is sent
        when a player tries one of these."""
        if self.stash or self.winner is not None or self.draw is not None:
            return {}
        empty = self.squares.index(EMPTY)
        out: dict[str, str] = {}
        for src in sorted(ADJACENT[empty]):
            name = f"{SQUARE_NAMES[src]}>{SQUARE_NAMES[empty]}"
            if src not in ORTHOGONAL[empty]:
                out[name] = "corner"
            elif self.moved_last >> self.squares[src] & 1:
                out[name] = "moved-last"
        return out


def _square_view(sq: int, p: int) -> dict[str, Any]:
    if p == EMPTY:
        return {"name": SQUARE_NAMES[sq], "pyramid": None}
    return {
        "name": SQUARE_NAMES[sq],
        "pyramid": PYRAMID_NAMES[p],
        "colour": COLOUR_NAMES[p // 3],
        "size": p % 3 + 1,
    }
