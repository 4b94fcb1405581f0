"""The analysis's time limit per board (analyst.py): boards small enough for the solver to
settle exactly from early on (4×4 Dots and Boxes: 40 lines) get the longer limit."""

from __future__ import annotations

from pathlib import Path

import pytest

import vertex
from vertex.server.compute.analyst import Analyst
from vertex.server.settings import Settings
from vertex.server.site.quotas import LocalQuotas


def test_a_four_by_four_board_gets_the_longer_limit(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'v.db'}", ai_executor="thread")
    analyst = Analyst(settings, LocalQuotas())
    four = vertex.create_game("dots-and-boxes", rows=4, cols=4)
    five = vertex.create_game("dots-and-boxes", rows=5, cols=5)
    assert analyst.limit_for(four) == settings.analysis_exact_time_s == 10.0
    assert analyst.limit_for(five) == settings.analysis_time_s == 3.0
    assert analyst.limit_for(vertex.create_game("juxtapose")) == 3.0


def test_the_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERTEX_ANALYSIS_TIME_S", "2.5")
    monkeypatch.setenv("VERTEX_ANALYSIS_EXACT_TIME_S", "12")
    monkeypatch.setenv("VERTEX_ANALYSIS_EXACT_LINES", "24")
    settings = Settings.from_env("sqlite://")
    assert (settings.analysis_time_s, settings.analysis_exact_time_s) == (2.5, 12.0)
    assert settings.analysis_exact_lines == 24
