"""A drawn game's result says "A draw" and gives nobody a winner's badge (every seat is
among the result's winners: badges on all of them contradicted the headline)."""

from __future__ import annotations

import random
from typing import Any

import vertex
from tests.web.conftest import open_seat, shot, sit
from tests.web.test_dots import new_table, table_view


def _drawn_line() -> list[str]:
    """The moves of a 2×2 Dots and Boxes game that ends 2–2 (random games until one does)."""
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2)
    rng = random.Random(7)
    while True:
        state, moves = game.initial_state(), []
        while not state.is_over:
            move = rng.choice(list(state.legal_moves()))
            moves.append(move)
            state = state.play(move, state.to_move[0])
        if list(state.scores) == [2, 2]:
            return moves


def test_a_draw_has_no_winner_badges(server: Any, context_factory: Any) -> None:
    table = new_table(server, "dots-and-boxes", {"rows": 2, "cols": 2}, [{"kind": "human"}] * 2)
    tokens = [sit(server, table, 0, "Anna"), sit(server, table, 1, "Bruno")]
    for move in _drawn_line():
        seat = table_view(server, table)["state"]["to_move"][0]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})
    assert table_view(server, table)["result"]["winners"] == [0, 1]
    page = open_seat(context_factory, server, table, tokens[0], 0)
    page.wait_for_selector(".result-scores")
    assert page.inner_text(".result-banner h2") == "A draw"
    assert page.locator(".result-scores .badge").count() == 0
    shot(page, "result-draw")
    assert page.errors == []
