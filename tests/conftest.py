"""The whole suite: which tests are of a slow kind, and how long any test may take.

`make test` runs everything; `make check` leaves out the slow kinds (marked here, in one
place, by where the tests live):
- `browser`: drives Chromium (tests/web);
- `process`: starts real processes (`vertex serve`, a fresh interpreter, a worker pool);
- `physics`: runs Verticality, whose every move is a MuJoCo simulation;
- `long`: pure computation that takes seconds alone (deep perft, fuzzing, memory checks).

No test may hang: pytest-timeout fails any test past the suite's limit (pyproject.toml), and
the slow kinds get `SLOW_KIND_TIMEOUT` instead unless they ask for their own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Searches on one thread each: two test workers share the machine's cores, and a level-5
# move taking a second core would starve the other's timed tests (`core.spare_core`; its
# own test sets it back). Servers the tests start inherit it.
os.environ.setdefault("VERTEX_AI_THREADS", "1")

#: Seconds a browser, process, physics or long test may take before it fails.
SLOW_KIND_TIMEOUT = 900
SLOW_KINDS = ("browser", "process", "physics", "long")
TESTS = Path(__file__).resolve().parent

#: kind -> tests of that kind: a file or folder under tests/, or "file::test name prefix".
MARKED: dict[str, tuple[str, ...]] = {
    "browser": ("web/",),
    "process": (
        "server/site/test_processes.py",
        "server/pages/test_web_build.py::test_the_build_",
        "server/storage/test_restart.py",
        "server/db/test_serve_schema.py",
        "server/site/test_faults.py",
        "server/site/test_database_faults.py",
        "server/site/test_addresses.py::test_a_local_client_cannot_choose_its_address",
        "server/compute/test_orphans.py",
        "server/compute/test_ponder_workers.py::test_a_worker_ponders",
        "server/compute/test_dead_workers.py",
        "server/lobby/test_lobby_processes.py",
        "server/test_unload_processes.py",
        "server/deploy/test_deploy.py::test_a_",
        "server/test_observability.py::test_metrics_",
        "server/deploy/test_deploy.py::test_nginx_",
        "core/test_registry.py::test_bad_options_are_refused_before_the_rules_load",
        "server/api/test_slow_connections.py",
        "server/live/test_slow_reader.py",
        "server/pages/test_analysis.py::test_in_a_worker_process",
        "core/test_registry.py::test_listing_the_games_loads_no_rules",
        "core/test_registry.py::test_a_dots_game_never_loads_mujoco",
        "physics/test_physics.py::test_bit_identical_in_one_process_and_across_processes",
        "games/verticality/test_determinism.py::test_same_moves_same_poses_across_processes",
    ),
    "physics": (
        "physics/",
        "games/verticality/",
        "ai/test_tower.py",
        "server/table/test_verticality.py",
        "server/table/test_verticality_view.py",
        "server/table/test_verticality_first_tower.py",
        "web/test_verticality_first_tower.py",
        "server/pages/test_bests.py::test_the_board_lists_solo_towers",
    ),
    "long": (
        "server/api/test_fuzz.py",
        "server/api/test_openapi_fuzz.py",
        "games/test_perft.py::test_vert3x_perft_matches_the_brute_force",
        "lattice/test_caches.py::test_many_custom_boards_keep_memory_flat",
        "ai/test_players.py",
        "ai/test_core_differential.py::test_a_tiny_table_still_gives_exact_values",
        "server/pages/test_analysis.py::test_a_four_by_four_game",
        "server/storage/test_lazy.py",
        "server/test_play.py::test_a_human_against_a_computer",
        "server/test_play.py::test_a_whole_game_of_each_kind",
        "server/test_play.py::test_reconnecting_with_since",
    ),
}
#: Parametrized cases of any test that play Verticality (its physics) are physics tests.
PHYSICS_GAME = "verticality"


def _kinds(item: pytest.Item) -> set[str]:
    rel = Path(str(item.fspath)).resolve().relative_to(TESTS).as_posix()
    here = f"{rel}::{item.name}"
    kinds = {
        kind
        for kind, places in MARKED.items()
        for place in places
        if (here.startswith(place) if "::" in place else rel.startswith(place))
    }
    if PHYSICS_GAME in item.name:
        kinds.add("physics")
    return kinds


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for kind in _kinds(item):
            item.add_marker(getattr(pytest.mark, kind))
        if item.get_closest_marker("timeout") is None and any(
            item.get_closest_marker(kind) for kind in SLOW_KINDS
        ):
            item.add_marker(pytest.mark.timeout(SLOW_KIND_TIMEOUT))
