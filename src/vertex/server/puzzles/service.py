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
from vertex.server.puzzles import rows
from vertex.server.puzzles.rows import Rating
from vertex.server.storage.store import Store
from vertex.server.table import ratings

#: Marked positions of one reviewed game put to the solver for puzzles (each ≤ 1 s).
MINE_AT_MOST = 12
#: A record longer than this is not a game of these boards.
MAX_PLIES = 2000

#: Every theme (RULES.md §5), in the order a choice lists them; a game's are those its
#: shipped puzzles have.
THEMES = (
    "chain-control",
    "all-but-two",
    "double-dealing",
    "sacrifice",
    "loops",
    "endgame",
    "opening-safe",
    "win-in-1",
    "win-in-2",
    "win-in-3",
    "defence",
)


def games(by_game: dict[str, list[Puzzle]]) -> list[dict[str, Any]]:
    """The games with puzzles (those of the shipped set), each with its themes."""
    return [
        {"game": game, "themes": [t for t in THEMES if any(t in p.themes for p in pool)]}
        for game, pool in by_game.items()
    ]


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

    async def choices(self, game: str, theme: str | None) -> list[Puzzle]:
        if game not in self.by_game:
            raise ApiError(
                "puzzle-game", "no puzzles for this game", 422, params={"game": game[:64]}
            )
        if theme is not None and theme not in THEMES:
            raise ApiError("puzzle-theme", "no such theme", 422, params={"theme": theme[:64]})
        every = self.by_game.get(game, []) + [
            p for p in await self.store.db.reading(self._mined) if p.game == game
        ]
        return [p for p in every if theme is None or theme in p.themes]

    async def next(self, game: str, theme: str | None, me: Me | None, after: str | None) -> Puzzle:
        """A puzzle of the game (and theme): for a player, one not yet tried, nearest their
        rating among a few drawn at random; for a guest, any other than `after`."""
        choices = await self.choices(game, theme)
        if not choices:
            raise ApiError("puzzle-none", "no puzzle with this theme yet", 404)
        rng = random.Random()
        pool = [p for p in choices if p.id != after] or choices
        if me is None:
            return rng.choice(pool)
        mine = await self.store.db.reading(self._player_rating, me.id)
        target = mine.mu if mine else ratings.MU
        sample = rng.sample(pool, min(12, len(pool)))
        fresh = [
            p for p in sample if await self.store.db.reading(self._attempted, me.id, p.id) is None
        ]
        return min(fresh or sample, key=lambda p: abs(p.rating - target))

    async def daily(self, game: str) -> Puzzle:
        """The same puzzle all day (UTC) for everyone, from the shipped set."""
        pool = self.by_game.get(game, [])
        if not pool:
            await self.choices(game, None)  # the refusal for an unknown game
            raise ApiError("puzzle-none", "no puzzle for this game yet", 404)
        day = datetime.datetime.fromtimestamp(self.now(), datetime.UTC).date().isoformat()
        digest = hashlib.sha256(f"{day}:{game}".encode()).digest()
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
        with self.store.engine.begin() as conn:
            for p in fresh:
                n += rows.add_puzzle(conn, p, pool_name(p.game, p.options), self.now())
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
