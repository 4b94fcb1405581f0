"""No turn is nobody's: a computer move or a clock's timeout that fails for a moment (the
store or Redis away on a loaded box) is tried again, rather than leaving the table waiting
for an event that will never come."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.eventually import eventually
from tests.server.conftest import make_settings, new_table, take
from vertex.server import create_app


class Flaky:
    """The repository, as the computer seats and clocks see it, whose first write fails."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.failed: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    async def submit(self, tid: str, make: Any, fence: int | None = None) -> Any:
        if not self.failed:
            self.failed.append(tid)
            raise OperationalError("INSERT INTO events", {}, Exception("database is locked"))
        return await self.real.submit(tid, make, fence=fence)


def test_a_computer_move_the_store_failed_is_tried_again(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        flaky = hub.autoplay.repo = Flaky(hub.autoplay.repo)
        seats = [{"kind": "ai", "level": 1}, {"kind": "human"}]
        tid = new_table(client, seats=seats)["id"]
        take(client, tid, 1, "Bob")  # the computer is due: its first move fails to store
        eventually(
            lambda: client.get(f"/api/tables/{tid}").json()["state"]["to_move"] == [1],
            what="the computer's move, tried again",
        )
        assert flaky.failed == [tid]
        assert len(client.get(f"/api/tables/{tid}/record").json()["moves"]) == 1


def test_a_timeout_the_store_failed_is_tried_again(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        flaky = hub.autoplay.repo = Flaky(hub.autoplay.repo)
        tid = new_table(client, clock={"per_move": 0.5}, on_timeout="lose")["id"]
        take(client, tid, 0, "Ann")
        take(client, tid, 1, "Bob")  # Ann's half second runs out; the first write fails
        view = eventually(
            lambda: client.get(f"/api/tables/{tid}").json(),
            until=lambda v: v["result"] is not None,
            what="the timeout, tried again",
        )
        assert view["result"]["reason"] == "timeout" and flaky.failed == [tid]
