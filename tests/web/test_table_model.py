"""The page's delta applier (js/table/model.js) in the browser, against the patches the
real server sends: a socket that asks for deltas gets each event's state as a patch, and
the page must rebuild from it exactly the state a socket without deltas is sent — for every
kind of board."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from tests.web.conftest import LiveServer

#: A small table of each board family, and how many moves to play on it.
TABLES: list[tuple[str, dict[str, Any], int]] = [
    ("dots-and-boxes", {"rows": 2, "cols": 3}, 17),  # to the end: the result arrives too
    ("dots-and-triangles", {"size": 2}, 6),
    ("figures", {"rows": 3, "cols": 3}, 8),
    ("vert3x", {"radius": 1}, 6),
    ("juxtapose", {}, 8),
]


def _events(ws: Any, n: int) -> list[dict[str, Any]]:
    out = []
    while len(out) < n:
        msg = json.loads(ws.recv(timeout=30))
        if msg["t"] == "event":
            out.append(msg)
    return out


def _snapshot(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["t"] == "snapshot":
            return msg


def _play(server: LiveServer, game: str, options: dict[str, Any], moves: int) -> dict[str, Any]:
    """Play `moves` moves (or to the end) and return what a delta socket and a full socket
    heard: {"start": snapshot state, "patches": [...], "states": [...], "results": [...]}."""
    tid = server.post(
        "/api/tables", {"game": game, "options": options, "seats": [{"kind": "human"}] * 2}
    )["id"]
    tokens = [
        server.post(f"/api/tables/{tid}/seats/{s}", {"name": n})["token"]
        for s, n in enumerate(["Ann", "Bob"])
    ]
    ws_url = server.url.replace("http", "ws", 1) + f"/ws/tables/{tid}"
    with connect(ws_url + "?deltas=1") as delta, connect(ws_url) as full:
        start = _snapshot(delta)["table"]["state"]
        _snapshot(full)
        played = 0
        while played < moves:
            state = server.get(f"/api/tables/{tid}")["state"]
            if state["is_over"]:
                break
            seat = state["to_move"][0]
            move = state["legal_moves"][played * 7 % len(state["legal_moves"])]
            server.post(f"/api/tables/{tid}/moves", {"token": tokens[seat], "move": move})
            played += 1
        got, sent = _events(delta, played), _events(full, played)
    assert played >= 4 and all("patch" in d and "state" not in d for d in got), game
    return {
        "start": start,
        "events": got,
        "states": [f["state"] for f in sent],
        "results": [f["result"] for f in sent],
    }


def test_the_page_rebuilds_every_state_from_the_server_patches(
    server: LiveServer, context_factory: Any
) -> None:
    games = {game: _play(server, game, options, n) for game, options, n in TABLES}
    page = context_factory().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-game]")
    rebuilt = page.evaluate(
        """async (games) => {
          const base = document.querySelector('link[rel=stylesheet][href*="/static/"]')
            .getAttribute('href').replace(/\\/css\\/.*$/, '');
          const m = await import(base + '/js/table/model.js');
          const out = {};
          for (const [game, g] of Object.entries(games)) {
            // patched() alone, and the model folding the same events in (as the page does)
            const before = JSON.stringify(g.start);
            const states = [];
            let s = g.start;
            for (const ev of g.events) { s = m.patched(s, ev.patch); states.push(s); }
            const model = m.createModel("t");
            m.setView(model, { version: 0, state: g.start, seats: [], result: null }, 0);
            const folded = [];
            for (const ev of g.events) {
              m.applyEvent(model, ev, 0);
              folded.push({ v: model.view.version, state: model.view.state,
                result: model.view.result });
            }
            out[game] = { states, folded, untouched: JSON.stringify(g.start) === before };
          }
          return out;
        }""",
        games,
    )
    for game, g in games.items():
        got = rebuilt[game]
        assert got["untouched"], game  # the state it patched is left as it was
        assert got["states"] == g["states"], game
        assert [f["state"] for f in got["folded"]] == g["states"], game
        assert [f["v"] for f in got["folded"]] == [e["v"] for e in g["events"]], game
        assert [f["result"] for f in got["folded"]] == g["results"], game
    # the game played to its end: the last patch brought the result and a finished state
    boxes = games["dots-and-boxes"]
    assert boxes["states"][-1]["is_over"] and boxes["results"][-1] is not None
