"""The page's analysis is exact on a 4×4 game once a dozen lines are drawn (issue 19), and
from the eighth line on (issue 36): the compiled core settles it, and the page shows the value
and best moves, not an estimate. (How long it takes is measured by
bench/bench_analysis_4x4.py, not here: the test asserts the answer.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, sit
from tests.web.test_replay import watch

#: 12 quiet lines of a 4×4 game (nothing offered): 28 lines still open.
TWELVE = [
    "d3-e3",
    "a4-b4",
    "b1-c1",
    "e2-e3",
    "c5-d5",
    "b5-c5",
    "c4-d4",
    "d4-e4",
    "a2-a3",
    "b3-c3",
    "c2-d2",
    "b4-c4",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # a generous limit: the test asserts the answer, not how busy the machine is
    with LiveServer(tmp_path_factory.mktemp("exact"), analysis_time_s=60.0) as live:
        yield live


def four_by_four(server: LiveServer, moves: list[str]) -> str:
    """A 4×4 practice table (analysis allowed) with `moves` played by two people."""
    table = str(
        server.post(
            "/api/tables",
            {"game": "dots-and-boxes", "options": {"rows": 4, "cols": 4}, "analysis": True},
        )["id"]
    )
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    for i, move in enumerate(moves):  # no cell closes: the turns alternate
        server.post(f"/api/tables/{table}/moves", {"token": tokens[i % 2], "move": move})
    return table


def test_a_four_by_four_game_after_twelve_lines_is_analysed_exactly(
    context_factory: Any, server: LiveServer
) -> None:
    table = four_by_four(server, TWELVE)
    for name, kw in (("analysis-4x4-desktop", {}), ("analysis-4x4-phone", PHONE)):
        page = watch(context_factory, server, table, **kw)  # a spectator
        page.click('[data-action="analysis"]')
        out = page.wait_for_selector('[data-analysis][data-ply="12"][data-value]', timeout=120_000)
        assert out.get_attribute("data-value") == "0"
        assert out.get_attribute("data-best").split(" ") == [
            "a1-a2", "a1-b1", "a3-b3", "b4-b5", "c4-c5", "d4-d5"
        ]  # fmt: skip
        assert out.get_attribute("data-estimate") is None
        shot(page, name)
        assert no_sideways_scroll(page)
        assert page.errors == []


def test_a_four_by_four_game_after_eight_lines_is_analysed_exactly(
    context_factory: Any, server: LiveServer
) -> None:
    table = four_by_four(server, TWELVE[:8])
    page = watch(context_factory, server, table)
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector('[data-analysis][data-ply="8"][data-value]', timeout=120_000)
    # the plain exact search's answer (no pruning of dominated handouts, one thread)
    assert out.get_attribute("data-value") == "0"
    assert out.get_attribute("data-best").split(" ") == [
        "a1-a2", "a1-b1", "a2-a3", "a2-b2", "a3-a4", "b1-b2", "b2-b3", "b2-c2", "b3-b4",
        "b4-b5", "c1-d1", "c3-d3", "c4-c5", "d1-e1", "d3-d4", "d4-d5", "e1-e2", "e3-e4",
    ]  # fmt: skip
    assert out.get_attribute("data-estimate") is None
    assert page.errors == []
