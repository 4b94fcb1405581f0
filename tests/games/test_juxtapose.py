"""Juxtapose (RULES.md §3): counts, every win kind, moved-last, draws, notation and the views."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import vertex
from vertex.games.juxtapose import MOVE_NAMES, JuxtaposeState, move_code
from vertex.terminal.registry import render

SQUARES = [f"{c}{r}" for r in "1234" for c in "abcd"]

# A full drop phase with no line on the board and d4 empty. Dropped in reading order, so the
# last pyramid dropped is Y2 on c4 (next to the empty square). Blue a2-c2-d2 is three of a
# colour in a row but not consecutive.
BASE = """
Y1 B3 B2 P1
P2 G2 R2 B1
Y3 G3 G1 R3
R1 P3 Y2 ..
"""

# d1 empty: sliding B1 up from d2 completes a row of small pyramids.
SLIDE_WIN = """
R1 Y1 G1 ..
B2 R3 B3 B1
P2 Y3 G2 G3
R2 P1 P3 Y2
"""


def new(**options: Any) -> JuxtaposeState:
    state = vertex.create_game("juxtapose", **options).initial_state(seed=0)
    assert isinstance(state, JuxtaposeState)
    return state


def play(state: JuxtaposeState, *moves: str) -> JuxtaposeState:
    for move in moves:
        assert not state.is_over, f"game ended before {move}"
        nxt = state.play(move)
        assert isinstance(nxt, JuxtaposeState)
        state = nxt
    return state


def drops(layout: str, **options: Any) -> JuxtaposeState:
    """Drop the layout's pyramids in reading order (a1, b1, …, d4)."""
    names = layout.split()
    moves = [f"{p}@{sq}" for sq, p in zip(SQUARES, names, strict=True) if p != ".."]
    return play(new(**options), *moves)


def winning_squares(state: JuxtaposeState) -> list[list[str]]:
    return sorted(state.to_dict()["board"]["winning_lines"])


# ---- counts ----------------------------------------------------------------------------------
def test_perft_start_and_two_moves() -> None:
    start = new()
    first = start.legal_moves()
    assert len(first) == 240  # 15 pyramids x 16 squares
    assert sum(len(start.play(m).legal_moves()) for m in first) == 50_400  # 240 x 14 x 15


def test_slide_phase_move_count() -> None:
    state = drops(BASE)
    assert state.to_dict()["board"]["phase"] == "slide"
    moves = state.legal_moves()
    # 42 adjacent pairs, 3 of them touch the empty d4; of the slides, c4 holds Y2 (dropped last)
    assert len([m for m in moves if "<>" in m]) == 39
    assert [m for m in moves if "<>" not in m] == ["d3>d4"]


def test_size_lines_and_colour_lines_counted_by_brute_force() -> None:
    # Four small pyramids on any four squares win exactly when the squares are one of the
    # 10 size lines; the three reds on any three squares exactly on the 24 runs of three.
    small = ["R1", "Y1", "G1", "B1"]
    wins = 0
    for squares in itertools.combinations(SQUARES, 4):
        state = play(new(), *[f"{p}@{sq}" for p, sq in zip(small, squares, strict=True)])
        wins += state.is_over
    assert wins == 10
    reds = ["R1", "R2", "R3"]
    wins = 0
    for squares in itertools.combinations(SQUARES, 3):
        state = play(new(), *[f"{p}@{sq}" for p, sq in zip(reds, squares, strict=True)])
        wins += state.is_over
    assert wins == 24


# ---- wins --------------------------------------------------------------------------------------
SIZE_LINES = [
    ["a1", "b1", "c1", "d1"],
    ["a4", "b4", "c4", "d4"],
    ["a1", "a2", "a3", "a4"],
    ["d1", "d2", "d3", "d4"],
    ["a1", "b2", "c3", "d4"],
    ["d1", "c2", "b3", "a4"],
]


@pytest.mark.parametrize("line", SIZE_LINES, ids="-".join)
@pytest.mark.parametrize("size", ["1", "2", "3"])
def test_four_of_a_size_win_in_every_direction(line: list[str], size: str) -> None:
    moves = [f"{c}{size}@{sq}" for c, sq in zip("RYGB", line, strict=True)]
    before = play(new(), *moves[:3])
    assert not before.is_over
    assert before.wins_at_once(moves[3])
    state = play(before, moves[3])
    assert state.is_over
    assert state.winners == (1,)  # the fourth drop is seat 1's
    assert state.scores == (0.0, 1.0)
    assert winning_squares(state) == [sorted(line, key=SQUARES.index)]


COLOUR_LINES = [
    ["a1", "b1", "c1"],  # row, at the edge
    ["b4", "c4", "d4"],
    ["a1", "a2", "a3"],  # column
    ["d2", "d3", "d4"],
    ["a1", "b2", "c3"],  # long diagonals
    ["b2", "c3", "d4"],
    ["d1", "c2", "b3"],
    ["c2", "b3", "a4"],
    ["b1", "c2", "d3"],  # short diagonals
    ["a2", "b3", "c4"],
    ["c1", "b2", "a3"],
    ["d2", "c3", "b4"],
]


@pytest.mark.parametrize("line", COLOUR_LINES, ids="-".join)
def test_three_of_a_colour_win_in_every_direction(line: list[str]) -> None:
    # sizes in a jumbled order: the colour line does not care
    moves = [f"P{size}@{sq}" for size, sq in zip("312", line, strict=True)]
    state = play(new(players=3), *moves)
    assert state.winners == (2,)
    assert state.scores == (0.0, 0.0, 1.0)
    assert winning_squares(state) == [sorted(line, key=SQUARES.index)]


@pytest.mark.parametrize(
    "squares",
    [
        ["a1", "b1", "d1"],  # same row, a gap
        ["a1", "b2", "d4"],  # same diagonal, a gap
        ["c1", "d1", "a2"],  # consecutive in reading order: the board does not wrap
        ["d1", "a1", "b1"],
        ["a4", "a1", "a2"],  # columns do not wrap either
        ["c1", "d2", "a3"],  # nor diagonals
        ["a1", "b1", "b2"],  # bent
    ],
    ids="-".join,
)
def test_three_of_a_colour_not_in_a_straight_run_do_not_win(squares: list[str]) -> None:
    state = play(new(), *[f"G{i}@{sq}" for i, sq in zip("123", squares, strict=True)])
    assert not state.is_over


def test_four_mixed_sizes_or_a_wrapped_line_do_not_win() -> None:
    assert not play(new(), "R1@a1", "Y1@b1", "G1@c1", "B2@d1").is_over
    assert not play(new(), "R1@c1", "Y1@d1", "G1@a2", "B1@b2").is_over
    # two of one colour and four of a size without a line: nothing
    assert not play(new(), "R1@a1", "R2@b1", "Y1@c2", "G1@d2", "B1@a3").is_over


def test_a_drop_can_make_two_lines() -> None:
    # P1 on d1 completes the small row a1-d1 and the purple column d1-d3
    state = play(new(), "R1@a1", "Y1@b1", "G1@c1", "P2@d2", "P3@d3")
    assert not state.is_over
    state = play(state, "P1@d1")
    assert state.winners == (1,)
    assert winning_squares(state) == [["a1", "b1", "c1", "d1"], ["d1", "d2", "d3"]]


def test_no_line_on_the_base_layout() -> None:
    state = drops(BASE)
    assert not state.is_over
    assert len(state.history) == 15
    assert state.to_move == (1,)  # 15 drops: seat 0 made the last one


def test_swap_completing_two_lines_at_once() -> None:
    state = drops(BASE)
    assert sorted(state.winning_moves()) == sorted(
        ["c1<>d2", "d1<>d2", "b2<>a3", "b2<>c3", "c3<>b4"]
    )
    assert state.wins_at_once("a3<>b2")  # any spelling
    # G2 to a3 makes the green row a3-c3; Y3 to b2 makes the large column b1-b4
    won = state.play("a3<>b2")
    assert won.history[-1] == (1, "b2<>a3")
    assert won.winners == (1,)
    assert winning_squares(won) == [["a3", "b3", "c3"], ["b1", "b2", "b3", "b4"]]
    assert won.legal_moves() == []


def test_slide_that_wins() -> None:
    state = drops(SLIDE_WIN)
    assert not state.is_over
    assert state.wins_at_once("d2>d1")
    assert not state.wins_at_once("c1>d1")
    won = state.play("d2>d1")
    assert won.winners == (1,)
    assert winning_squares(won) == [["a1", "b1", "c1", "d1"]]


def scanned_lines(state: JuxtaposeState) -> list[list[str]]:
    """Every line on the board, found by walking it square by square (an independent oracle)."""
    grid = {s["name"]: s["pyramid"] for s in state.to_dict()["board"]["squares"]}
    found = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
        for start in SQUARES:
            c0, r0 = "abcd".index(start[0]), int(start[1]) - 1
            for length, key in ((4, 1), (3, 0)):  # four of a size; three of a colour
                cells = [(c0 + k * dc, r0 + k * dr) for k in range(length)]
                if not all(0 <= c < 4 and 0 <= r < 4 for c, r in cells):
                    continue
                names = ["abcd"[c] + str(r + 1) for c, r in cells]
                pyramids = [grid[n] for n in names]
                if None not in pyramids and len({p[key] for p in pyramids}) == 1:
                    found.append(sorted(names, key=SQUARES.index))
    return sorted(found)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_a_board_scan(players: int) -> None:
    rng = random.Random(players)
    for _ in range(8):
        state = new(players=players)
        while not state.is_over:
            moves = state.legal_moves()
            for move in moves:
                assert state.wins_at_once(move) == state.play(move).is_over
            state = play(state, rng.choice(moves))
            assert winning_squares(state) == scanned_lines(state)
            assert (state.to_dict()["board"]["winning_lines"] != []) == (state.winners != ())
            if not state.is_over:
                assert scanned_lines(state) == []


# ---- moved last ------------------------------------------------------------------------------
def test_last_drop_may_not_slide() -> None:
    state = drops(BASE)
    board = state.to_dict()["board"]
    assert board["moved_last"] == [{"pyramid": "Y2", "square": "c4"}]
    assert board["may_not_slide"] == ["c4"]
    with pytest.raises(vertex.IllegalMove, match="moved last"):
        state.play("c4>d4")
    # it may still be swapped: the rule only stops slides
    assert {"b4<>c4", "d3<>c4", "b3<>c4", "c3<>c4"} <= set(state.legal_moves())


def test_moved_last_after_a_swap_is_both_pyramids() -> None:
    state = play(drops(BASE), "c3<>c4")  # Y2 to c3, G1 to c4
    assert not state.is_over
    board = state.to_dict()["board"]
    assert board["moved_last"] == [
        {"pyramid": "Y2", "square": "c3"},
        {"pyramid": "G1", "square": "c4"},
    ]
    assert sorted(board["may_not_slide"]) == ["c3", "c4"]
    slides = [m for m in state.legal_moves() if "<>" not in m]
    assert slides == ["d3>d4"]
    with pytest.raises(vertex.IllegalMove, match="moved last"):
        state.play("c4>d4")
    # the swap back is allowed (only slides are barred)
    assert "c3<>c4" in state.legal_moves()


def test_moved_last_after_a_slide_is_the_slid_pyramid() -> None:
    state = play(drops(BASE), "d3>d4")  # R3 slides down, d3 is now empty
    board = state.to_dict()["board"]
    assert board["moved_last"] == [{"pyramid": "R3", "square": "d4"}]
    moves = state.legal_moves()
    assert sorted(m for m in moves if "<>" not in m) == ["c3>d3", "d2>d3"]
    assert len(moves) == 39  # 42 pairs - 5 touching d3, + 2 slides
    with pytest.raises(vertex.IllegalMove, match="moved last"):
        state.play("d4>d3")
    # a different pyramid slides; then R3 is free again
    state = play(state, "d2>d3")
    assert "d3>d2" not in state.legal_moves()
    assert "c2>d2" in state.legal_moves()


def test_drop_phase_has_no_slides_to_forbid() -> None:
    state = play(new(), "R1@a1")
    board = state.to_dict()["board"]
    assert board["phase"] == "drop"
    assert board["moved_last"] == [{"pyramid": "R1", "square": "a1"}]
    assert board["may_not_slide"] == []


# ---- draws -------------------------------------------------------------------------------------
def test_threefold_repetition_two_players() -> None:
    state = drops(BASE)
    # positions: P0 (seat 1 to move), then Q, P', Q, P', Q — Q (same board, seat 0 to move,
    # a1 and b1 moved last) is seen the third time after the fifth swap.
    for _ in range(4):
        state = play(state, "a1<>b1")
        assert not state.is_over
    state = play(state, "a1<>b1")
    assert state.is_over
    assert state.winners == (0, 1)
    assert state.scores == (0.5, 0.5)
    assert state.to_dict()["board"]["draw"] == "repetition"


def test_repetition_counts_the_player_to_move() -> None:
    # with 3 seats the same board and the same seat to move come back only every 6 swaps, so
    # the third time is after the 13th
    state = drops(BASE, players=3)
    for _ in range(12):
        state = play(state, "a1<>b1")
    assert not state.is_over
    state = play(state, "a1<>b1")
    assert state.to_dict()["board"]["draw"] == "repetition"
    assert state.winners == (0, 1, 2)


def test_move_limit_draw() -> None:
    state = drops(BASE, move_limit=4)
    assert state.to_dict()["board"]["slide_moves"] == 0  # drops do not count
    state = play(state, "a1<>b1", "a1<>b1", "a1<>b1")
    assert not state.is_over
    state = play(state, "a1<>b1")
    board = state.to_dict()["board"]
    assert (board["draw"], board["slide_moves"], board["move_limit"]) == ("move limit", 4, 4)
    assert state.winners == (0, 1)


def test_a_win_on_the_last_allowed_move_is_a_win() -> None:
    state = drops(BASE, move_limit=1).play("b2<>a3")
    assert state.winners == (1,)
    assert state.to_dict()["board"]["draw"] is None


def test_default_move_limit_is_200() -> None:
    assert vertex.create_game("juxtapose").options_dict() == {"players": 2, "move_limit": 200}
    with pytest.raises(vertex.OptionsError, match="players"):
        vertex.create_game("juxtapose", players=5)
    with pytest.raises(vertex.OptionsError, match="move_limit"):
        vertex.create_game("juxtapose", move_limit=0)


# ---- notation and bad input -------------------------------------------------------------------
def test_every_code_round_trips() -> None:
    for code, name in MOVE_NAMES.items():
        assert move_code(name) == code
    assert len([c for c in MOVE_NAMES if c < 256]) == 240


def test_other_spellings_record_the_canonical_move() -> None:
    state = play(new(), "r1 @ B3")
    assert state.history[-1] == (0, "R1@b3")
    base = drops(BASE)
    assert base.play("c4 <> b3").history[-1] == (1, "b3<>c4")
    assert base.play("D4<D3").history[-1] == (1, "d3>d4")


@st.composite
def spelled(draw: st.DrawFn) -> tuple[str, str]:
    """A canonical move and the same move with random case, spacing and order."""
    name = draw(st.sampled_from(sorted(MOVE_NAMES.values())))
    if "@" in name:
        left, sep, right = name.partition("@")
    elif "<>" in name:
        left, sep, right = name.partition("<>")
        if draw(st.booleans()):
            left, right = right, left
    else:
        left, sep, right = name.partition(">")
        if draw(st.booleans()):
            left, sep, right = right, "<", left
    pad = st.sampled_from(["", " ", "  "])
    text = draw(pad) + left + draw(pad) + sep + draw(pad) + right + draw(pad)
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return name, "".join(c.swapcase() if f else c for c, f in zip(text, flips, strict=True))


@given(spelled())
def test_parse_format_round_trip(case: tuple[str, str]) -> None:
    name, text = case
    assert MOVE_NAMES[move_code(text)] == name


@given(st.text(max_size=12))
def test_any_text_parses_or_fails_clearly(text: str) -> None:
    try:
        code = move_code(text)
    except vertex.IllegalMove as exc:
        assert str(exc)
    else:
        assert move_code(MOVE_NAMES[code]) == code


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("", "not a move"),
        ("hello", "not a move"),
        ("Q1@b3", "not a pyramid"),
        ("R4@b3", "not a pyramid"),
        ("R1@e5", "not on the 4×4 board"),
        ("R1@", "not a square"),
        ("b3<>", "not a move"),
        ("b3>b3", "twice"),
    ],
)
def test_notation_errors(move: str, words: str) -> None:
    with pytest.raises(vertex.NotationError if words != "twice" else vertex.IllegalMove) as exc:
        new().play(move)
    assert words in str(exc.value)


@pytest.mark.parametrize(
    ("setup", "move", "words"),
    [
        (["R1@b3"], "R1@c3", "not in the stash"),
        (["R1@b3"], "Y1@b3", "R1 is already there"),
        (["R1@b3", "Y1@c4"], "b3<>c4", "drop phase"),
        (["R1@b3", "Y1@c4"], "b3>b4", "drop phase"),
    ],
)
def test_illegal_drop_phase_moves(setup: list[str], move: str, words: str) -> None:
    state = play(new(), *setup)
    before = state.to_dict()
    with pytest.raises(vertex.IllegalMove, match=words):
        state.play(move)
    assert state.to_dict() == before


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("R1@d4", "slide phase has begun"),
        ("a1<>c1", "share a side or a corner"),
        ("c3<>d4", "d4 is empty"),
        ("a1>b1", "only into the empty square"),
        ("c3>d4", "sharing a side"),
        ("d4>d3", "from d4: it is empty"),
        ("c4>d4", "moved last"),
    ],
)
def test_illegal_slide_phase_moves(move: str, words: str) -> None:
    state = drops(BASE)
    with pytest.raises(vertex.IllegalMove, match=words):
        state.play(move)


def test_no_moves_after_a_win() -> None:
    state = play(new(), "R1@a1", "R2@b1", "R3@c1")
    assert state.to_move == ()
    with pytest.raises(vertex.IllegalMove, match="over"):
        state.play("Y1@d4")


# ---- views ---------------------------------------------------------------------------------------
def test_to_dict_board() -> None:
    state = play(new(), "R1@a1", "B3@d4")
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d
    board = d["board"]
    assert [s["name"] for s in board["squares"]] == SQUARES
    assert board["squares"][0] == {"name": "a1", "pyramid": "R1", "colour": "red", "size": 1}
    assert board["squares"][15] == {"name": "d4", "pyramid": "B3", "colour": "blue", "size": 3}
    assert board["squares"][1] == {"name": "b1", "pyramid": None}
    assert board["stash"] == [
        "R2",
        "R3",
        "Y1",
        "Y2",
        "Y3",
        "G1",
        "G2",
        "G3",
        "B1",
        "B2",
        "P1",
        "P2",
        "P3",
    ]
    assert board["phase"] == "drop"
    assert board["winning_lines"] == []
    assert board["draw"] is None
    assert len(d["legal_moves"]) == 13 * 14


def test_record_replays() -> None:
    state = play(drops(BASE), "d3>d4", "c3<>c4")
    again = vertex.replay(state.record().to_json())
    assert again == state
    assert again.to_dict() == state.to_dict()


def test_text_board() -> None:
    text = render(drops(BASE).play("b2<>a3"))
    assert " 3  G2* G3* G1* R3" in text
    assert "winning line: a3-b3-c3, b1-b2-b3-b4" in text
    assert "seat 1 wins" in text


# ---- refusals name their rule (the page words them: error.illegal-move.<rule>) ----------------
@pytest.mark.parametrize(
    "moves,move,rule,params",
    [
        ([], "zz", "not-a-move", {"text": "zz"}),
        ([], "R1@e5", "off-board", {"square": "e5"}),
        ([], "Q1@b3", "not-a-pyramid", {"text": "Q1"}),
        ([], "R1@b", "not-a-square", {"text": "b"}),
        ([], "b3<>b3", "same-square", {"square": "b3"}),
        ([], "b3>b4", "drop-phase", {"left": 15}),
        (["R1@b3"], "R1@c3", "not-in-stash", {"pyramid": "R1", "square": "b3"}),
        (["R1@b3"], "Y1@b3", "square-taken", {"square": "b3", "pyramid": "R1"}),
    ],
)
def test_a_refused_move_names_its_rule(
    moves: list[str], move: str, rule: str, params: dict[str, Any]
) -> None:
    state = play(new(), *moves)
    with pytest.raises(vertex.IllegalMove) as refused:
        state.play(move)
    assert (refused.value.reason, refused.value.params) == (rule, params)


def test_slide_phase_refusals_name_their_rule() -> None:
    state = drops(BASE)
    cases = {
        "c4>d4": ("moved-last", {"pyramid": "Y2"}),
        "a1<>c3": ("swap-apart", {"a": "a1", "b": "c3"}),
        "d3<>d4": ("swap-empty", {"square": "d4"}),
        "d4>d3": ("slide-from-empty", {"square": "d4"}),
        "c3>c4": ("slide-onto-taken", {"square": "c4", "empty": "d4"}),
        "c3>d4": ("slide-diagonal", {"move": "c3>d4"}),
        "R1@d4": ("stash-empty", {"pyramid": "R1"}),
    }
    for move, (rule, params) in cases.items():
        with pytest.raises(vertex.IllegalMove) as refused:
            state.play(move)
        assert (refused.value.reason, refused.value.params) == (rule, params), move
