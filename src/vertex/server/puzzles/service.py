"""Puzzles for the API: which one comes next, the daily one, an attempt judged and rated.

The shipped set is read from the package once a process; mined puzzles come from the
store. Judging runs in a thread (the solver holds the GIL only between its C calls and a
puzzle position solves in milliseconds); ratings are Weng–Lin (`table/ratings.py`): an
attempt is a two-seat game between the player and the puzzle, solved = the player wins.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from vertex.puzzles.judge import Refused, Verdict, check_line, judge, line_states, position
from vertex.puzzles.lessons import lesson
from vertex.puzzles.mine import WRONG, Candidate, candidates_from_review
from vertex.puzzles.model import Puzzle, pool_name
from vertex.puzzles.shipped import shipped
from vertex.server.errors import ApiError
from vertex.server.players.identity import Me
from vertex.server.puzzles import offer, picks, rows
from vertex.server.puzzles.picks import ANY
from vertex.server.puzzles.rows import Rating
from vertex.server.storage.store import Store
from vertex.server.table import ratings

#: Marked positions of one reviewed game put to the solver for puzzles (each ≤ 1 s).
MINE_AT_MOST = 12
#: A record longer than this is not a game of these boards.
MAX_PLIES = 2000


def refused(exc: Refused) -> ApiError:
    """The judge's refusal as the API's (each code a literal, for the catalogs' test)."""
    p = exc.params
    if exc.code == "puzzle-illegal":
        return ApiError("puzzle-illegal", exc.message, 422, params=p)
    if exc.code == "puzzle-over":
        return ApiError("puzzle-over", exc.message, 422, params=p)
    if exc.code == "puzzle-reply":
        return ApiError("puzzle-reply", exc.message, 422, params=p)
    if exc.code == "puzzle-line":
        return ApiError("puzzle-line", exc.message, 422, params=p)
    return ApiError("puzzle-unknown", exc.message, 404, params=p)


def unknown(pid: str) -> ApiError:
    return ApiError("puzzle-unknown", "no such puzzle", 404, params={"id": pid[:16]})


class Puzzles:
    def __init__(self, store: Store, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self.by_id: dict[str, Puzzle] = {p.id: p for p in shipped()}
        self.by_game: dict[str, list[Puzzle]] = {}
        self.seeded = False  # the shipped set's pick rows are up to date (picks.py)
        for p in shipped():
            self.by_game.setdefault(p.game, []).append(p)

    # ---- finding ---------------------------------------------------------------------------
    async def get(self, pid: str) -> Puzzle:
        found = self.by_id.get(pid)
        if found is None and len(pid) <= 16:
            found = await self.store.db.reading(self._one, pid)
        if found is None:
            raise unknown(pid)
        return found

    def _one(self, pid: str) -> Puzzle | None:
        with self.store.engine.connect() as conn:
            return rows.one(conn, pid)

    def _mined(self) -> list[Puzzle]:
        with self.store.engine.connect() as conn:
            return rows.mined(conn)

    async def next(
        self,
        game: str,
        theme: str | None,
        me: Me | None,
        after: str | None,
        pool: str | None = None,
    ) -> Puzzle:
        """A puzzle of the game or one of its boards (and theme), picked by the store's index
        (picks.py): for a player, one not yet tried, nearest their rating among 12 read from
        a random point; for a guest, the one at a random point, other than `after`."""
        scope = offer.scope(self.by_game, game, pool, theme)
        if not self.seeded:
            await self.store.db.writing(_seed, self.store, list(self.by_id.values()))
            self.seeded = True
        at, n = random.random(), 1 if me is None else 12
        player = None if me is None else me.id
        got = await self.store.db.reading(
            _pick, self.store, scope, theme or ANY, at, n, after, player
        )
        if not got:  # every one tried, or only `after` there: any at all
            got = await self.store.db.reading(
                _pick, self.store, scope, theme or ANY, at, 1, None, None
            )
        found = [(p, x.mu) for x in got if (p := self.by_id.get(x.puzzle_id) or x.puzzle())]
        if not found:
            raise ApiError("puzzle-none", "no puzzle with this theme yet", 404)
        if me is None or len(found) == 1:
            return found[0][0]
        mine = await self.store.db.reading(self._player_rating, me.id)
        target = mine.mu if mine else ratings.MU
        return min(found, key=lambda pm: abs((pm[0].rating if pm[1] is None else pm[1]) - target))[
            0
        ]

    async def daily(self, game: str, board: str | None = None) -> Puzzle:
        """The same puzzle all day (UTC) for everyone, from the shipped set (of the board)."""
        scope = offer.scope(self.by_game, game, board, None)  # refusals: game, board
        pool = [p for p in self.by_game[game] if board in (None, pool_name(game, p.options))]
        day = datetime.datetime.fromtimestamp(self.now(), datetime.UTC).date().isoformat()
        digest = hashlib.sha256(f"{day}:{scope}".encode()).digest()
        return pool[int.from_bytes(digest[:4], "big") % len(pool)]

    async def lesson(self, game: str, me: Me | None) -> dict[str, Any]:
        steps = await asyncio.to_thread(lesson, game)
        if not steps:
            raise ApiError(
                "puzzle-game", "no lesson for this game", 404, params={"game": game[:64]}
            )
        return {
            "game": game,
            "steps": [{"step": step, "puzzle": await self.view(p, me)} for step, p in steps],
        }

    # ---- views -----------------------------------------------------------------------------
    async def view(self, puzzle: Puzzle, me: Me | None = None) -> dict[str, Any]:
        """The API's puzzle: DESIGN §5b's fields, the position's state (like a table's view:
        the page draws it and offers its legal moves), the hint region, the player's rating."""
        rated = await self.store.db.reading(self._puzzle_rating, puzzle.id)
        out: dict[str, Any] = {
            "id": puzzle.id,
            "game": puzzle.game,
            "options": puzzle.options,
            "pool": pool_name(puzzle.game, puzzle.options),
            "moves": list(puzzle.moves),
            "to_move": puzzle.to_move,
            "goal": puzzle.goal.to_json(),
            "rating": round(rated.mu if rated else puzzle.rating),
            "themes": list(puzzle.themes),
            "turns": puzzle.turns,
            "hint": list(puzzle.hint),
            "url": f"/puzzles/{puzzle.id}",
            "state": position(puzzle).to_dict(),
        }
        if me is not None:
            mine = await self.store.db.reading(self._player_rating, me.id)
            out["player_rating"] = round(mine.mu if mine else ratings.MU)
            done = await self.store.db.reading(self._attempted, me.id, puzzle.id)
            if done is not None:
                out["attempted"] = done
        return out

    # ---- attempts --------------------------------------------------------------------------
    async def attempt(self, pid: str, body: Any, me: Me | None) -> dict[str, Any]:
        puzzle = await self.get(pid)
        if not isinstance(body, dict) or "moves" not in body:
            raise ApiError("puzzle-line", "send {moves: [...]}", 422, params={"limit": 64})
        try:
            moves = check_line(body["moves"])
            verdict = await asyncio.to_thread(judge, puzzle, moves)
        except Refused as exc:
            raise refused(exc) from exc
        out: dict[str, Any] = {
            "solved": verdict.status == "solved",
            "status": verdict.status,
            "done": verdict.done,
            "reply": verdict.reply,
        }
        if verdict.failed_at is not None:
            out["failed_at"] = verdict.failed_at
        state = await asyncio.to_thread(_after, puzzle, moves, verdict)
        out["state"] = state
        if verdict.done:
            out["solution"] = list(puzzle.solution)
            if me is not None:
                out.update(await self._rate(puzzle, me, verdict.status == "solved"))
        return out

    async def give_up(self, pid: str, me: Me | None) -> dict[str, Any]:
        puzzle = await self.get(pid)
        out: dict[str, Any] = {"solution": list(puzzle.solution)}
        if me is not None:
            out.update(await self._rate(puzzle, me, False))
        return out

    async def positions(self, pid: str, body: Any) -> dict[str, Any]:
        puzzle = await self.get(pid)
        if not isinstance(body, dict) or "moves" not in body:
            raise ApiError("puzzle-line", "send {moves: [...]}", 422, params={"limit": 64})
        try:
            moves = check_line(body["moves"])
            states = await asyncio.to_thread(line_states, puzzle, moves)
        except Refused as exc:
            raise refused(exc) from exc
        return {"states": states}

    async def _rate(self, puzzle: Puzzle, me: Me, solved: bool) -> dict[str, Any]:
        for _ in range(3):  # a first rating of the same puzzle by two players at once
            try:
                return await self.store.db.writing(self._rate_once, puzzle, me.id, solved)
            except IntegrityError:
                continue
        raise ApiError("busy", "try again", 503)

    def _rate_once(self, puzzle: Puzzle, player: str, solved: bool) -> dict[str, Any]:
        with self.store.engine.begin() as conn:
            return rows.rate_attempt(conn, puzzle, player, solved, self.now())

    def _player_rating(self, player: str) -> Rating | None:
        with self.store.engine.connect() as conn:
            return rows.player_rating(conn, player)

    def _puzzle_rating(self, pid: str) -> Rating | None:
        with self.store.engine.connect() as conn:
            return rows.puzzle_rating(conn, pid)

    def _attempted(self, player: str, pid: str) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            return rows.attempted(conn, player, pid)

    # ---- mining ----------------------------------------------------------------------------
    async def mine_review(self, tid: str, record_json: str, review: dict[str, Any]) -> None:
        """The review's hook (`Reviewer.on_done`, issue 35's review): the finished game's
        record and its review → candidate puzzles, stored (known positions skipped). Runs the
        solver in a thread, a second at most a marked position, `MINE_AT_MOST` of them."""
        try:
            record = json.loads(record_json)
            moves = [str(m["move"]) for m in record["moves"]]
            rows = [r for r in review.get("moves", []) if isinstance(r, dict)][:MAX_PLIES]
            game, options = str(record["game"]), dict(record.get("options") or {})
            seed = int(record.get("seed") or 0)
        except (ValueError, KeyError, TypeError):
            return  # not a record this code knows: nothing to mine
        marked = [r for r in rows if r.get("mark") in WRONG][:MINE_AT_MOST]
        if not marked:
            return
        found = await asyncio.to_thread(
            candidates_from_review, game, options, moves, marked, seed=seed, budget_s=1.0
        )
        await self.store_mined(found)

    async def store_mined(self, found: list[Candidate]) -> int:
        """Store mined candidates; those whose position is known (shipped or stored) are
        skipped. The count stored."""
        fresh = [c.puzzle for c in found if c.puzzle.id not in self.by_id]
        return await self.store.db.writing(self._store_mined, fresh) if fresh else 0

    def _store_mined(self, fresh: list[Puzzle]) -> int:
        n = 0
        rng = random.Random()
        with self.store.engine.begin() as conn:
            for p in fresh:
                if rows.add_puzzle(conn, p, pool_name(p.game, p.options), self.now()):
                    picks.add_rows(conn, picks.pick_rows(p, False, rng), self.store.db.sqlite)
                    n += 1
        return n


def _after(puzzle: Puzzle, moves: list[str], verdict: Verdict) -> dict[str, Any]:
    """The position after the line and the computer's reply, as the page draws it."""
    state = position(puzzle)
    for m in [*moves, *verdict.reply]:
        if state.is_over:
            break
        state = state.play(m)
    view: dict[str, Any] = state.to_dict()
    return view


def _seed(store: Store, every: list[Puzzle]) -> int:
    with store.engine.begin() as conn:
        return picks.seed_shipped(conn, every, store.db.sqlite)


def _pick(store: Store, *args: Any) -> list[picks.Picked]:
    with store.engine.connect() as conn:
        return picks.pick(conn, *args)
