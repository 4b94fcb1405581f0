"""Types of the compiled core (`_core.c`, `_core.h`); see `vertex.ai.dots.core` for the wrapper."""

from collections.abc import Callable, Sequence
from typing import Any

MAX_LINES: int
MAX_CELLS: int
MAX_THREADS: int
TABLE_FORMAT: int

def names_of(mask: int, names: tuple[str, ...]) -> list[str]: ...
def bit_bytes(
    masks: int | tuple[int, ...], n: int, codes: tuple[int, ...] = ..., /
) -> bytearray: ...
def bit_indices(mask: int, /) -> list[int]: ...
def bind_state(cls: type, fallback: Callable[..., Any]) -> dict[str, Callable[..., Any]]: ...
def bind_env(
    step: Callable[..., Any],
    ordered_step: Callable[..., Any],
    legal_actions: Callable[..., Any],
    finish: Callable[..., Any],
    reset: Callable[..., Any],
    ordered_reset: Callable[..., Any],
    env_cls: type,
    wrapper_cls: type,
) -> dict[str, Callable[..., Any]]: ...

class Rules:
    def __init__(
        self,
        all_lines: int,
        line_cells: Sequence[Sequence[int]],
        cell_lines: Sequence[Sequence[int]],
        line_reach: Sequence[int],
        touch_rule: bool,
        extra_turn: bool,
        names: tuple[str, ...],
        by_name: dict[str, int],
    ) -> None: ...

class Core:
    def __init__(
        self,
        lines: int,
        line_cells: Sequence[Sequence[int]],
        cell_lines: Sequence[Sequence[int]],
        misere: bool,
        extra_turn: bool,
        touch_rule: bool,
        line_reach: Sequence[int],
        symmetries: Sequence[Sequence[int]],
        order: Sequence[int],
        table_bytes: int,
    ) -> None: ...
    def solve(
        self,
        drawn: int,
        reach: int,
        deadline: float | None = None,
        poll: Callable[[int, int], bool] | None = None,
        best: bool = True,
        mtdf: bool = True,
        history: bool = False,
        chains: bool = True,
        threads: int = 1,
        guess: int = 0,
        quiet: int = 0,
        handout: int = 3,
        sac_quiet: int = ...,
        junctions: bool = False,
        hard: bool = False,
        stabilizer: bool = False,
        alone: int = -1,
        first: int = -1,
    ) -> tuple[int, list[int]] | None: ...
    def loony(self, drawn: int, /) -> tuple[int, bool] | None: ...
    def probe(self, drawn: int, /) -> tuple[int, int, int] | None: ...
    def cancel(self) -> None: ...
    def clear(self) -> None: ...
    def stats(self) -> dict[str, int]: ...
    def passes(self) -> list[tuple[float, int, int, int]]: ...
    def walk(self) -> tuple[int, bool, list[tuple[int, int, int]]] | None: ...
    def save_table(self, file: Any, /) -> None: ...
    def load_table(self, file: Any, /) -> int: ...
    def save_entries(self, file: Any, min_work: int, /) -> int: ...
    def load_entries(self, file: Any, /) -> int: ...
    def canonical(self, drawn: int) -> int: ...
    def draw(self, drawn: int, line: int) -> tuple[int, int]: ...
    def legal(self, drawn: int, reach: int) -> int: ...
    def reach_after(self, reach: int, line: int) -> int: ...
    def uct(
        self,
        drawn: int,
        reach: int,
        turn: int,
        scores: tuple[int, int],
        iterations: int,
        seconds: float,
        seed: int,
        c: float = 1.4,
    ) -> tuple[int, list[tuple[int, int, float]]]: ...
    def mcts(
        self,
        drawn: int,
        reach: int,
        turn: int,
        scores: tuple[int, int],
        iterations: int,
        seconds: float,
        seed: int,
        only: int = 0,
        c: float = 0.7,
        live: int = -1,
        smart: bool = True,
    ) -> tuple[int, list[tuple[int, int, float]]]: ...
    def random_playouts(
        self, drawn: int, reach: int, turn: int, seats: int, count: int, seed: int
    ) -> list[tuple[int, ...]]: ...
