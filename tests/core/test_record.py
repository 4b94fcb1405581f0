"""Records: JSON round trips, the text form, replay, and bad records."""

from __future__ import annotations

import json

import pytest

import vertex
from vertex import Record, RecordError


def played() -> vertex.State:
    state = vertex.create_game("dots-and-boxes", rows=2, cols=2).initial_state(seed=11)
    for move in ["a1-b1", "b2-b1", "a2-b2", "a1-a2"]:
        state = state.play(move)
    return state


def test_record_fields() -> None:
    state = played()
    rec = state.record(seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "ai"}])
    data = json.loads(rec.to_json())
    assert data["game"] == "dots-and-boxes"
    assert data["options"]["rows"] == 2
    assert data["seed"] == 11
    assert data["seats"][1] == {"name": "Bot", "kind": "ai"}
    # the canonical spelling is recorded, whatever was typed
    assert [m["move"] for m in data["moves"]] == ["a1-b1", "b1-b2", "a2-b2", "a1-a2"]
    assert [m["seat"] for m in data["moves"]] == [0, 1, 0, 1]
    assert data["result"] == {"is_over": False, "scores": [0, 1], "winners": []}


def test_replay_equals() -> None:
    state = played()
    assert vertex.replay(state.record()) == state
    assert vertex.replay(state.record().to_json()) == state
    assert vertex.replay(json.loads(state.record().to_json())) == state
    assert vertex.replay(state.record()) != state.play("b2-c2")


def test_text_form() -> None:
    text = played().record().to_text()
    assert text.startswith("# game: dots-and-boxes\n")
    assert "\n1 b1-b2\n" in text and text.endswith("1 a1-a2\n")


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("not json", "must be JSON"),
        ("[]", "bad record"),
        ('{"game": "dots-and-boxes", "moves": [{"seat": 0}]}', "moves.0.move"),
        ('{"game": "chess"}', "unknown game"),
        ('{"game": "dots-and-boxes", "options": {"rows": 99}}', "rows"),
        ('{"game": "dots-and-boxes", "moves": [{"seat": 1, "move": "a1-b1"}]}', "move 1"),
        ('{"game": "dots-and-boxes", "moves": [{"seat": 0, "move": "a1-z1"}]}', "no dot z1"),
        ('{"game": "dots-and-boxes", "moves": [{"seat": null, "move": "end"}]}', "agreement"),
        ('{"game": "dots-and-boxes", "moves": [{"seat": null, "move": "boom"}]}', "table action"),
        ('{"game": "dots-and-boxes", "extra": 1}', "extra"),
    ],
)
def test_bad_records(data: str, says: str) -> None:
    with pytest.raises(RecordError, match=says):
        vertex.replay(data)


def test_record_model_round_trip() -> None:
    rec = played().record()
    assert Record.from_json(rec.to_json()) == rec
