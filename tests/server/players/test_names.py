"""Player names: lengths in graphemes, folding, scripts and look-alike skeletons."""

from __future__ import annotations

import pytest

from vertex.server.errors import ApiError
from vertex.server.players.names import check_name, mixed_scripts, skeleton

pytestmark = pytest.mark.timeout(30)


def test_length_is_counted_in_graphemes() -> None:
    assert check_name("👨‍👩‍👧👍").shown == "👨‍👩‍👧👍"  # two characters, many code points
    with pytest.raises(ApiError) as e:
        check_name("👨‍👩‍👧")
    assert e.value.params["reason"] == "length"
    assert check_name("x" * 20).shown == "x" * 20
    with pytest.raises(ApiError):
        check_name("é" * 21)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Ann", "ANN"), ("Straße", "STRASSE"), ("Ｂｏｂ", "bob"), ("ﬁna", "fina")],
)
def test_names_that_fold_alike_are_one(a: str, b: str) -> None:
    assert check_name(a).key == check_name(b).key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Alice", "AIice"),  # capital I for l
        ("Alice", "A1ice"),
        ("Oscar", "0scar"),
        ("Zoe", "Zoë"),  # a mark more
        ("Bob_1", "Bob 1"),
        ("Bob", "Ｂｏｂ"),
    ],
)
def test_look_alikes_share_a_skeleton(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anna"), ("Bob", "Rob"), ("Иван", "Ivan")])
def test_different_names_keep_different_skeletons(a: str, b: str) -> None:
    assert skeleton(a) != skeleton(b)


@pytest.mark.parametrize("name", ["pаypal", "Ivаn", "Αlpha"])  # Cyrillic а, Greek Α
def test_mixed_scripts_are_refused(name: str) -> None:
    assert mixed_scripts(name)
    with pytest.raises(ApiError) as e:
        check_name(name)
    assert e.value.params["reason"] == "mixed-scripts"


@pytest.mark.parametrize("name", ["田中さん", "カタカナ漢字", "김민수", "Ann 2", "O'Brien", "Иван"])
def test_scripts_written_together_pass(name: str) -> None:
    assert not mixed_scripts(name)
    check_name(name)
