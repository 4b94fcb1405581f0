"""Verticality: the bytes a move's keyframes cost a spectator, at 30 frames a second of
simulated time (what the engine sends) against 6 a second (one frame in five: the page would
interpolate more), for a placement and a fall on a tall recorded tower.

The tower: `tests/ai/data/tower20_seed0.json` (20 levels, 80 pieces, seed 0, tremor 0). The
placement is the plan's next pyramid; the fall a large pyramid aimed 20 mm off it. Bytes are
the JSON of the tower's view (`pieces` and `keyframes`), as the table view sends it.

Run: .venv/bin/python bench/bench_tower_frames.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import vertex
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.notation import make_aim
from vertex.games.verticality.plan import plan_aim

RECORD = Path(__file__).parents[1] / "tests" / "ai" / "data" / "tower20_seed0.json"


def tower_view(state: VerticalityState) -> dict[str, Any]:
    out: dict[str, Any] = state.to_dict()["board"]["towers"][0]
    return out


def thinned(view: dict[str, Any], every: int) -> dict[str, Any]:
    kf = view["keyframes"]
    keep = [i for i in range(len(kf["times"])) if i % every == 0 or i == len(kf["times"]) - 1]
    frames = {
        "times": [kf["times"][i] for i in keep],
        "pieces": kf["pieces"],
        "frames": [kf["frames"][i] for i in keep],
    }
    return {**view, "keyframes": frames}


def size(view: dict[str, Any]) -> int:
    return len(json.dumps(view, separators=(",", ":")))


def main() -> None:
    record = json.loads(RECORD.read_text())
    state = vertex.create_game("verticality", **record["options"]).initial_state(record["seed"])
    for move in record["moves"]:
        state = state.play(move, seat=0)
    assert isinstance(state, VerticalityState)
    aim = plan_aim(state, 0)
    placed = state.play(str(aim), seat=0)
    fell = state.play(str(make_aim("pyramid", aim.x + 20, aim.y, aim.rot)), seat=0)
    print(f"tower of {state.towers[0].levels} levels, {len(state.towers[0].pieces)} pieces")
    print(f"{'move':<12}{'sim s':>7}{'bodies':>8}{'frames':>8}{'30/s KB':>9}{'6/s KB':>8}")
    for name, after in (("placement", placed), ("fall", fell)):
        assert isinstance(after, VerticalityState)
        view = tower_view(after)
        kf = view["keyframes"]
        print(
            f"{name:<12}{kf['times'][-1]:>7.3f}{len(kf['pieces']):>8}{len(kf['times']):>8}"
            f"{size(view) / 1024:>9.1f}{size(thinned(view, 5)) / 1024:>8.1f}"
        )


if __name__ == "__main__":
    main()
