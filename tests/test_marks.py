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
            if not target.exists() or (name and f"def {name}" not in target.read_text()):
                missing.append(place)
    assert not missing, f"marked in tests/conftest.py but not found: {missing}"
