"""The rules pages' pictures (`GET /api/rules/{game}/diagrams`): positions played with the real
engine from fixed moves, showing what their captions say."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from vertex.core import game_class, game_ids


def by_id(client: TestClient, game: str) -> dict[str, dict[str, Any]]:
    r = client.get(f"/api/rules/{game}/diagrams")
    assert r.status_code == 200, r.text
    return {d["id"]: d["state"] for d in r.json()}


def test_every_game_has_its_pictures(client: TestClient) -> None:
    for game in game_ids():
        got = by_id(client, game)
        assert list(got) == [d.id for d in game_class(game).diagrams]
        for state in got.values():
            assert state["game"] == game and "board" in state


def test_an_unknown_game_is_a_clear_404(client: TestClient) -> None:
    r = client.get("/api/rules/chess/diagrams")
    assert r.status_code == 404
    error = r.json()["error"]
    assert error["code"] == "unknown-game" and "chess" in error["message"]


def test_dots_pictures_show_what_the_captions_say(client: TestClient) -> None:
    boxes = by_id(client, "dots-and-boxes")
    # The second player closed the top-left box and moves again.
    assert boxes["box"]["scores"] == [0, 1] and boxes["box"]["to_move"] == [1]
    assert boxes["box"]["board"]["cells"][0]["owner"] == 1
    # A chain of three: nothing claimed yet, only the three inner-and-end lines left.
    chain = boxes["chain"]
    assert chain["scores"] == [0, 0] and len(chain["legal_moves"]) == 4
    border = boxes["border"]["board"]["lines"]
    # 2·(2+3) outline lines; `predrawn` is sent only where true (absent: false)
    assert sum(line.get("predrawn", False) for line in border) == 10
    assert all(line.get("predrawn", True) is True for line in border)

    tri = by_id(client, "dots-and-triangles")
    assert tri["triangle"]["scores"] == [1, 0]
    assert tri["double"]["scores"] == [2, 0] and tri["double"]["to_move"] == [0]
    # The closed strip of length 4: 3n-2 = 10 lines to play.
    assert len(tri["strip"]["legal_moves"]) == 10


def test_figures_pictures_show_the_rim_and_the_touch_rule(client: TestClient) -> None:
    fig = by_id(client, "figures")
    touch = fig["touch"]["legal_moves"]
    assert "c3-d3" in touch  # shares c3 with c2-c3
    assert "d3-d4" not in touch  # floats in the empty middle
    rhombus = fig["rhombus"]
    assert len(rhombus["board"]["cells"]) == 13
    assert sum(rhombus["scores"]) == 5


def test_vert3x_pictures_score_as_the_rules_say(client: TestClient) -> None:
    v = by_id(client, "vert3x")
    # Classic: 3 lines + a side-1 triangle (3) = 6; the other player's 2 lines = 2.
    assert v["classic"]["scores"] == [6, 2]
    # Trianguliche: a 2× triangle scores 2, a 1× triangle 1; no points for lines.
    assert v["trianguliche"]["scores"] == [2, 1]
    sizes = sorted(t["small"] for t in v["trianguliche"]["board"]["triangles"])
    assert sizes == [1, 2]
    # GYØ, the worked example: D's unit is not T's, so T scores 3 of the 4 units.
    assert v["gyo"]["scores"] == [3, 1]


def test_juxtapose_pictures_end_as_the_captions_say(client: TestClient) -> None:
    j = by_id(client, "juxtapose")
    assert j["size-line"]["winners"] == [0]
    assert j["size-line"]["board"]["winning_lines"] == [["a1", "b1", "c1", "d1"]]
    assert j["colour-line"]["board"]["winning_lines"] == [["a1", "b2", "c3"]]
    slide = j["slide"]
    assert slide["board"]["phase"] == "slide" and not slide["is_over"]
    assert slide["board"]["may_not_slide"] == ["b3"]
    assert "a4>b4" in slide["legal_moves"] and "b3>b4" not in slide["legal_moves"]
