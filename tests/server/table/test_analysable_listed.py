"""The listing says which tables the analysis covers (`capabilities.analysis_seats`), so the
new-table form offers "Analysis allowed" only there (issue 33, item 19); it must agree with the
rule the analysis route and the table view use (`analysable.refusal`)."""

from __future__ import annotations

import vertex
from vertex.server.table.analysable import refusal


def test_analysis_seats_agree_with_the_analysis_rule() -> None:
    listed = {g["id"]: g for g in vertex.list_games()}
    covered = 0
    for gid, game in listed.items():
        seats = game["capabilities"]["analysis_seats"]
        options = game["options"]["properties"]
        counts = [2, 3] if "players" in options else [None]
        for players in counts:
            made = vertex.create_game(gid, **({} if players is None else {"players": players}))
            ok = refusal(made) is None
            assert ok == (seats is not None and made.seats == seats), (gid, players)
            covered += ok
    assert covered >= 3  # the Dots family at two seats
    assert listed["vert3x"]["capabilities"]["analysis_seats"] is None
    assert listed["dots-and-boxes"]["capabilities"]["analysis_seats"] == 2


def test_a_game_with_its_own_clock_names_it() -> None:
    for game in vertex.list_games():
        name = game["capabilities"]["clock_option"]
        if name is not None:
            assert name in game["options"]["properties"], game["id"]
    listed = {g["id"]: g["capabilities"]["clock_option"] for g in vertex.list_games()}
    assert listed["verticality"] == "step_seconds"
    assert listed["dots-and-boxes"] is None
