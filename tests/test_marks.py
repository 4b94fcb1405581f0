"""The slow kinds are marked by where their tests live (tests/conftest.py): every place
named there exists, so a test moved or renamed does not silently leave its kind."""

from __future__ import annotations

from tests.conftest import MARKED, TESTS


def test_every_marked_place_exists() -> None:
    missing = []
    for places in MARKED.values():
        for place in places:
            path, _, name = place.partition("::")
            target = TESTS / path
            named = not name or (target.is_file() and f"def {name}" in target.read_text())
            if not target.exists() or not named:
                missing.append(place)
    assert not missing, f"marked in tests/conftest.py but not found: {missing}"
