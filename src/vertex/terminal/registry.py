"""Text boards for the terminal: a renderer per kind of board (the view's `board.kind`, as
the page picks its board modules), registered by its module here. Renderers draw from the
state's public view (`to_dict()`) and capabilities, never from a game's internals."""

from __future__ import annotations

import json
from collections.abc import Callable

from vertex.core.game import State
from vertex.core.registry import import_submodules

TextBoard = Callable[[State], str]
_BOARDS: dict[str, TextBoard] = {}
_loaded = False


def text_board(*kinds: str) -> Callable[[TextBoard], TextBoard]:
    """Decorator: `fn(state) -> str` draws the boards of these kinds."""

    def wrap(fn: TextBoard) -> TextBoard:
        for kind in kinds:
            _BOARDS[kind] = fn
        return fn

    return wrap


def _load() -> None:
    global _loaded
    if not _loaded:
        import_submodules("vertex.terminal")
        _loaded = True


def render(state: State) -> str:
    """The state drawn as text, with scores and whose turn it is."""
    _load()
    board = state.to_dict()["board"]
    draw = _BOARDS.get(board.get("kind", ""))
    body = draw(state) if draw else json.dumps(board, indent=1)
    return body + "\n" + status_line(state)


def status_line(state: State) -> str:
    symbols = state.to_dict()["board"].get("symbols") or [""] * state.game.seats
    scores = "  ".join(
        f"seat {s}{' ' + symbols[s] if symbols[s] else ''}: {v:g}"
        for s, v in enumerate(state.scores)
    )
    if state.is_over:
        won = state.winners
        if len(won) == state.game.seats:
            verdict = "a draw"
        elif len(won) == 1:
            verdict = f"seat {won[0]} wins"
        else:
            verdict = "shared win: " + ", ".join(f"seat {s}" for s in won)
        return f"{scores}\ngame over — {verdict}"
    due = ", ".join(f"seat {s}" for s in state.to_move)
    return f"{scores}\nto move: {due}"
