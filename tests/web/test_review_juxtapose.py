"""The review of a Juxtapose game on the table page (issue 35): the move that let a win in 1
slip is a blunder, and choosing it draws the best moves on the board (arrows for swaps and
slides, faded pyramids for drops, numbered), each square of them saying so to a screen
reader; the marks go when the replay moves on. Screenshot: artifacts/web/review-juxtapose.png."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import vertex
from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, sit, switch_lang
from tests.web.test_review import open_review


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("review-jx"), analysis_burst=100) as live:
        yield live


def missed_win_game() -> tuple[list[str], int]:
    """Moves of a finished game where one move lets a win at once slip (its ply)."""
    rng = random.Random(7)
    state = vertex.create_game("juxtapose").initial_state()
    moves: list[str] = []
    missed = -1
    while not state.is_over:
        wins = state.winning_moves()
        legal = state.legal_moves()
        quiet = [m for m in legal if m not in wins]
        if wins and missed < 0 and quiet:
            missed = len(moves)
            move = quiet[0]
        elif wins and missed >= 0:
            move = wins[0]
        else:
            move = rng.choice(quiet or legal)
        moves.append(move)
        state = state.play(move, state.to_move[0])
    return moves, missed


def finished(server: LiveServer) -> tuple[str, int]:
    moves, missed = missed_win_game()
    tid = str(server.post("/api/tables", {"game": "juxtapose", "options": {}})["id"])
    tokens = [sit(server, tid, 0, "Ann"), sit(server, tid, 1, "Bob")]
    state = vertex.create_game("juxtapose").initial_state()
    for move in moves:
        seat = state.to_move[0]
        server.post(f"/api/tables/{tid}/moves", {"token": tokens[seat], "move": move})
        state = state.play(move, seat)
    return tid, missed


def first_square(move: str) -> str:
    return move.split("@")[1] if "@" in move else move.replace("<>", ">").split(">")[0]


def test_the_best_moves_are_drawn_on_the_juxtapose_board(
    server: LiveServer, context_factory: Any
) -> None:
    tid, missed = finished(server)
    page = open_review(context_factory, server, tid)
    assert page.get_attribute(f'[data-review-ply="{missed}"]', "data-mark") == "blunder"
    page.click(f'[data-review-ply="{missed}"]')
    page.wait_for_function(
        "k => document.querySelector('[data-replay]')?.dataset.ply === k", arg=str(missed)
    )
    page.wait_for_selector("[data-bests] [data-best-move]")
    best = server.get(f"/api/tables/{tid}/review")["moves"][missed]["best"]
    assert best
    drawn = page.eval_on_selector_all(
        "[data-bests] [data-best-move]", "els => els.map(e => e.dataset.bestMove)"
    )
    assert drawn == best  # in the list's order, numbered alike
    label = page.get_attribute(f'[data-square="{first_square(best[0])}"]', "aria-label") or ""
    assert "best move 1" in label, label
    shot(page, "review-juxtapose")
    # another ply shown: the marks follow (the missed move's go)
    page.click(f'[data-review-ply="{missed - 1}"]')
    page.wait_for_function(
        "k => document.querySelector('[data-replay]')?.dataset.ply === k", arg=str(missed - 1)
    )
    after = server.get(f"/api/tables/{tid}/review")["moves"][missed - 1]["best"]
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('[data-bests] [data-best-move]')]"
        ".map(e => e.dataset.bestMove)) === JSON.stringify(want)",
        arg=after,
    )
    assert not page.errors


def test_on_a_phone_in_russian(server: LiveServer, context_factory: Any) -> None:
    tid, missed = finished(server)
    page = open_review(context_factory, server, tid, **PHONE)
    switch_lang(page, "ru")
    page.click(f'[data-review-ply="{missed}"]')
    page.wait_for_selector("[data-bests] [data-best-move]")
    best = server.get(f"/api/tables/{tid}/review")["moves"][missed]["best"]
    label = page.get_attribute(f'[data-square="{first_square(best[0])}"]', "aria-label") or ""
    assert "лучший ход 1" in label, label
    assert no_sideways_scroll(page)
    page.locator("[data-bests]").scroll_into_view_if_needed()
    shot(page, "review-juxtapose-phone-ru")
    assert not page.errors
