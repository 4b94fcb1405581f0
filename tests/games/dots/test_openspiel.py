"""Dots and Boxes against OpenSpiel's `dots_and_boxes`, move by move.

Mapping of OpenSpiel actions to our line names, for a board of R rows × C columns of boxes
(OpenSpiel's num_rows, num_cols; its row 0 is the top row, as ours):
- actions 0 .. (R+1)·C − 1 are horizontal lines "h,r,c" = r·C + c, joining dots (c, r) and
  (c+1, r): our `<col c><row r+1>-<col c+1><row r+1>`, e.g. action 0 = a1-b1;
- actions H .. H + R·(C+1) − 1, with H = (R+1)·C, are vertical lines "v,r,c" = H + r·(C+1) + c,
  joining dots (c, r) and (c, r+1): our `<col c><row r+1>-<col c><row r+2>`, e.g. H = a1-a2.
OpenSpiel's players 0 and 1 are our seats 0 and 1; its state text shows a box's owner as
"1" / "2" (player + 1) in the box. With utility_margin=true its returns are the final margin.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import vertex  # noqa: E402
from vertex.games.dots.engine import DotsState  # noqa: E402
from vertex.lattice.names import dot_name  # noqa: E402


def action_to_line(action: int, rows: int, cols: int) -> str:
    horizontal = (rows + 1) * cols
    if action < horizontal:
        r, c = divmod(action, cols)
        return f"{dot_name(c, r)}-{dot_name(c + 1, r)}"
    r, c = divmod(action - horizontal, cols + 1)
    return f"{dot_name(c, r)}-{dot_name(c, r + 1)}"


def openspiel_owners(state: object, rows: int, cols: int) -> list[int | None]:
    """Box owners read off OpenSpiel's state text, row by row from the top."""
    text = str(state).split("\n")
    owners: list[int | None] = []
    for r in range(rows):
        row = text[2 * r + 1]
        for c in range(cols):
            mark = row[4 * c + 2] if len(row) > 4 * c + 2 else " "
            owners.append(None if mark == " " else int(mark) - 1)
    return owners


def our_owners(state: DotsState, rows: int, cols: int) -> list[int | None]:
    # our cells are built row by row, left to right: cell index = r·cols + c
    return [state.cell_owner(r * cols + c) for r in range(rows) for c in range(cols)]


def test_action_mapping_examples() -> None:
    assert action_to_line(0, 2, 3) == "a1-b1"
    assert action_to_line(8, 2, 3) == "c3-d3"
    assert action_to_line(9, 2, 3) == "a1-a2"
    assert action_to_line(16, 2, 3) == "d2-d3"


@pytest.mark.parametrize(
    ("rows", "cols", "games"), [(2, 2, 60), (3, 3, 50), (2, 3, 50), (3, 5, 40)]
)
def test_matches_openspiel(rows: int, cols: int, games: int) -> None:
    peer_game = pyspiel.load_game(
        f"dots_and_boxes(num_rows={rows},num_cols={cols},utility_margin=true)"
    )
    rng = random.Random(rows * 100 + cols)
    for _ in range(games):
        peer = peer_game.new_initial_state()
        ours = vertex.create_game("dots-and-boxes", rows=rows, cols=cols).initial_state()
        assert isinstance(ours, DotsState)
        while not peer.is_terminal():
            peer_moves = sorted(action_to_line(a, rows, cols) for a in peer.legal_actions())
            assert sorted(ours.legal_moves()) == peer_moves
            assert ours.to_move == (peer.current_player(),)
            action = rng.choice(peer.legal_actions())
            peer.apply_action(action)
            new = ours.play(action_to_line(action, rows, cols))
            assert isinstance(new, DotsState)
            ours = new
            assert our_owners(ours, rows, cols) == openspiel_owners(peer, rows, cols)
        assert ours.is_over
        margin = ours.scores[0] - ours.scores[1]
        assert peer.returns() == [margin, -margin]
