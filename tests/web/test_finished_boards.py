"""Boards once their game is over (issue 33, items 17 and 18): a finished GYØ board's points
are written where each can be read (no two labels overlap), and a Juxtapose game won while
dropping tells no phase any more. Screenshots desktop and phone, en/it/ru."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import vertex
from tests.web.conftest import PHONE, LiveServer, open_seat, shot, sit, switch_lang, wait_turn
from vertex.server import Limits


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Whole games are played over HTTP here: the seats may send far more than 20 a second."""
    fast = Limits(messages_per_second=10_000.0, message_burst=10_000)
    with LiveServer(tmp_path_factory.mktemp("finished"), limits=fast) as live:
        yield live


def finished_table(server: LiveServer, game: str, options: dict[str, Any], moves: list[str]) -> str:
    """A two-seat table of `game` played to its end over HTTP with `moves`: "id#token", the
    first seat's (its page opens on the finished board)."""
    made = server.post(
        "/api/tables", {"game": game, "options": options, "seats": [{"kind": "human"}] * 2}
    )
    table = str(made["id"])
    tokens = [sit(server, table, n, name) for n, name in enumerate(["Ann", "Bob"])]
    state = vertex.create_game(game, **options).initial_state()
    for move in moves:
        seat = state.to_move[0]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})
        state = state.play(move, seat=seat)
    assert state.is_over
    return f"{table}#{tokens[0]}"


def random_game(game: str, options: dict[str, Any], seed: int) -> list[str]:
    """A whole game of seeded random moves (the same every run)."""
    rng = random.Random(seed)
    state = vertex.create_game(game, **options).initial_state()
    moves: list[str] = []
    while not state.is_over:
        move = rng.choice(sorted(state.legal_moves()))
        moves.append(move)
        state = state.play(move, seat=state.to_move[0])
    return moves


def open_finished(context_factory: Any, server: LiveServer, ref: str, **kw: Any) -> Any:
    table, token = ref.split("#")
    page = open_seat(context_factory, server, table, token, 0, **kw)
    wait_turn(page, "")
    return page


OVERLAPS = """() => {
    const boxes = [...document.querySelectorAll('[data-vert3x] svg text[data-points]')]
        .map(el => ({k: el.dataset.points, text: el.textContent, b: el.getBBox()}));
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const p = boxes[i].b, q = boxes[j].b;
        if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height
            && q.y < p.y + p.height) out.push([boxes[i].k, boxes[i].text, boxes[j].k,
                boxes[j].text]);
    }
    const hidden = boxes.length - [...document.querySelectorAll(
        '[data-vert3x] svg text[data-points]:not([visibility=hidden])')].length;
    return {count: boxes.length, hidden, overlaps: out};
}"""


@pytest.mark.timeout(300)
def test_a_finished_gyo_board_writes_every_score_apart(
    server: LiveServer, context_factory: Any
) -> None:
    options = {"rules": "gyo", "size": 15}
    ref = finished_table(server, "vert3x", options, random_game("vert3x", options, seed=7))
    page = open_finished(context_factory, server, ref)
    found = page.evaluate(OVERLAPS)
    assert found["count"] > 20, found
    assert found["overlaps"] == [], found["overlaps"]
    assert found["hidden"] == 0  # every number found room
    shot(page, "finished-gyo-15-desktop")
    phone = open_finished(context_factory, server, ref, **PHONE)
    assert phone.evaluate(OVERLAPS)["overlaps"] == []
    shot(phone, "finished-gyo-15-phone")
    assert page.errors == [] and phone.errors == []


@pytest.mark.timeout(120)
def test_a_finished_gyo_board_at_the_default_size(server: LiveServer, context_factory: Any) -> None:
    options = {"rules": "gyo"}
    ref = finished_table(server, "vert3x", options, random_game("vert3x", options, seed=3))
    page = open_finished(context_factory, server, ref)
    assert page.evaluate(OVERLAPS)["overlaps"] == []
    shot(page, "finished-gyo-default-desktop")


# Four pyramids dropped in a row that share a colour win at once, with 11 left in the stash.
DROP_WIN = ["P2@a3", "G1@b3", "G3@d3", "G2@c3"]


@pytest.mark.timeout(120)
def test_juxtapose_won_while_dropping_shows_no_phase(
    server: LiveServer, context_factory: Any
) -> None:
    ref = finished_table(server, "juxtapose", {}, DROP_WIN)
    page = open_finished(context_factory, server, ref)
    page.wait_for_selector("[data-board-result]:not([hidden])")
    assert page.locator(".jx-phase").is_hidden()
    assert "Drop phase" not in page.inner_text("[data-table]")
    shot(page, "juxtapose-drop-win-en")
    for lang in ("it", "ru"):
        switch_lang(page, lang)
        assert page.locator(".jx-phase").is_hidden()
        shot(page, f"juxtapose-drop-win-{lang}")
    phone = open_finished(context_factory, server, ref, **PHONE)
    phone.wait_for_selector("[data-board-result]:not([hidden])")
    assert phone.locator(".jx-phase").is_hidden()
    shot(phone, "juxtapose-drop-win-phone")
    assert page.errors == [] and phone.errors == []
