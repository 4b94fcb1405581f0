"""A solver's table saved and read back (ai/dots/tablefile.py): a stopped solve goes on."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest

import vertex
from vertex.ai.dots import tablefile
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.solver import SolveTimeout
from vertex.core.errors import VertexError

TABLE = 16 << 20


def three_by_three() -> CoreSolver:
    return CoreSolver(vertex.create_game("dots-and-boxes", rows=3, cols=3), table_bytes=TABLE)


def test_a_solved_table_read_back_answers_at_once(tmp_path: Path) -> None:
    first = three_by_three()
    state = first.game.initial_state()
    solved = first.solve(state)
    assert solved.value == -3  # 3×3 is a loss by three for the first player
    path = tmp_path / "3x3.table"
    tablefile.save(first, path, positions=solved.nodes, seconds=solved.seconds)
    again = three_by_three()
    header = tablefile.load(again, path)
    assert header.positions == solved.nodes and header.game == "dots-and-boxes"
    assert again.stored == first.stored > 0
    answer = again.solve(state)
    assert (answer.value, answer.best_moves) == (solved.value, solved.best_moves)
    assert answer.nodes < solved.nodes // 100  # the table had it all


def test_a_stopped_solve_goes_on_from_its_saved_table(tmp_path: Path) -> None:
    game = vertex.create_game("dots-and-boxes", rows=3, cols=4)
    plain = CoreSolver(game, table_bytes=64 << 20)
    state = game.initial_state()
    whole = plain.solve(state)
    stopped = CoreSolver(game, table_bytes=64 << 20)
    with pytest.raises(SolveTimeout):  # stopped at its first poll, a quarter second in
        stopped.solve(state, stop=lambda: True)
    assert 0 < stopped.nodes < whole.nodes
    path = tmp_path / "3x4.table"
    tablefile.save(stopped, path, positions=stopped.nodes, seconds=0.5)
    resumed = CoreSolver(game, table_bytes=64 << 20)
    tablefile.load(resumed, path)
    answer = resumed.solve(state)
    assert answer.value == whole.value == 0 and answer.best_moves == whole.best_moves
    assert answer.nodes < whole.nodes  # what the first run finished is not searched again


def test_a_table_saved_during_a_search_on_two_threads_is_still_exact(tmp_path: Path) -> None:
    game = vertex.create_game("dots-and-boxes", rows=3, cols=4)
    solver = CoreSolver(game, table_bytes=64 << 20, threads=2)
    path = tmp_path / "live.table"
    saved = [0]

    def progress(nodes: int, seconds: float) -> None:
        if not saved[0]:  # the helper thread goes on storing while this copy is taken
            tablefile.save(solver, path, positions=nodes, seconds=seconds)
            saved[0] = 1

    state = game.initial_state()
    solver.solve(state, progress=progress)
    if not saved[0]:  # pragma: no cover - a machine fast enough to solve 3×4 in 0.25 s
        pytest.skip("the solve ended before its first progress call")
    again = CoreSolver(game, table_bytes=64 << 20)
    tablefile.load(again, path)
    answer = again.solve(state)
    assert answer.value == 0 and answer.best_moves == ["c1-c2", "c2-c3", "c3-c4"]


def entries_of(path: Path) -> list[tuple[int, int, int]]:
    """The records of a file of costly entries: (place, w0, w1)."""
    data = path.read_bytes()[tablefile.HEADER_BYTES :]
    assert len(data) % 24 == 0
    return list(struct.iter_unpack("=QQQ", data))


def test_the_costly_entries_alone_carry_a_stopped_solve_on(tmp_path: Path) -> None:
    game = vertex.create_game("dots-and-boxes", rows=3, cols=4)
    state = game.initial_state()
    whole = CoreSolver(game, table_bytes=64 << 20).solve(state)
    stopped = CoreSolver(game, table_bytes=64 << 20)
    with pytest.raises(SolveTimeout):  # stopped at its first poll, a quarter second in
        stopped.solve(state, stop=lambda: True)
    full, costly = tmp_path / "3x4.table", tmp_path / "3x4.costly"
    tablefile.save(stopped, full, positions=stopped.nodes, seconds=0.5)
    tablefile.save(stopped, costly, positions=stopped.nodes, seconds=0.5, min_work=8)
    header = tablefile.read_header(costly)
    assert header.min_work == 8 and header.capacity == stopped.stats()["capacity"]
    records = entries_of(costly)
    # each settled by 2**7 positions or more, in its own place of the same table
    assert 0 < len(records) < stopped.stored // 10
    assert all((w1 >> 48) & 255 >= 8 for _, _, w1 in records)
    assert len({at for at, _, _ in records}) == len(records)
    assert all(at < header.capacity for at, _, _ in records)
    assert costly.stat().st_size < full.stat().st_size // 100
    resumed = CoreSolver(game, table_bytes=64 << 20)
    tablefile.load(resumed, costly)
    assert resumed.stored == len(records)
    answer = resumed.solve(state)
    assert answer.value == whole.value == 0 and answer.best_moves == whole.best_moves
    assert answer.nodes < whole.nodes  # the subtrees settled before are not searched again


def test_damaged_files_of_costly_entries_are_refused_and_leave_the_table_empty(
    tmp_path: Path,
) -> None:
    first = three_by_three()
    first.solve(first.game.initial_state())
    path = tmp_path / "3x3.costly"
    tablefile.save(first, path, positions=1, seconds=1.0, min_work=4)
    data = path.read_bytes()
    capacity = tablefile.read_header(path).capacity
    solver = three_by_three()
    solver.solve(solver.game.initial_state())  # a full table, to be emptied by the refusal
    cut = tmp_path / "cut.costly"
    cut.write_bytes(data[:-5])
    with pytest.raises(VertexError, match="ends inside an entry"):
        tablefile.load(solver, cut)
    assert solver.stored == 0
    assert solver.core.probe(solver.game.initial_state().drawn) is None
    outside = tmp_path / "outside.costly"
    outside.write_bytes(data + struct.pack("=QQQ", capacity, 1, 1 << 48))
    with pytest.raises(VertexError, match="outside the table"):
        tablefile.load(solver, outside)
    assert solver.stored == 0
    odd = tmp_path / "odd.costly"
    odd.write_bytes(data.replace(b'"min_work": 4', b'"min_work": 300', 1))
    with pytest.raises(VertexError, match="damaged header"):
        tablefile.load(solver, odd)


def test_a_table_of_another_board_or_size_is_refused(tmp_path: Path) -> None:
    first = three_by_three()
    first.solve(first.game.initial_state())
    path = tmp_path / "3x3.table"
    tablefile.save(first, path, positions=1, seconds=1.0)
    other = CoreSolver(vertex.create_game("dots-and-boxes", rows=3, cols=4), table_bytes=TABLE)
    with pytest.raises(VertexError, match="rows=3"):
        tablefile.load(other, path)
    misere = CoreSolver(
        vertex.create_game("dots-and-boxes", rows=3, cols=3, misere=True), table_bytes=TABLE
    )
    with pytest.raises(VertexError, match="misere=True"):
        tablefile.load(misere, path)
    bigger = CoreSolver(first.game, table_bytes=2 * TABLE)
    with pytest.raises(VertexError, match="--memory"):
        tablefile.load(bigger, path)
    assert other.stored == misere.stored == bigger.stored == 0


def test_damaged_files_are_refused_and_leave_the_table_empty(tmp_path: Path) -> None:
    first = three_by_three()
    first.solve(first.game.initial_state())
    path = tmp_path / "3x3.table"
    tablefile.save(first, path, positions=1, seconds=1.0)
    data = path.read_bytes()
    cut = tmp_path / "cut.table"
    cut.write_bytes(data[: len(data) // 2])
    solver = three_by_three()
    with pytest.raises(VertexError, match="ends before the table does"):
        tablefile.load(solver, cut)
    assert solver.stored == 0
    assert solver.core.probe(solver.game.initial_state().drawn) is None
    junk = tmp_path / "junk.table"
    junk.write_bytes(b"not a table at all")
    with pytest.raises(VertexError, match="not a solver's table"):
        tablefile.load(solver, junk)
    bad = tmp_path / "bad.table"
    bad.write_bytes(data.replace(b'"format": 1', b'"format": 99', 1))
    with pytest.raises(VertexError, match="another version"):
        tablefile.load(solver, bad)
    mangled = tmp_path / "mangled.table"
    mangled.write_bytes(data.replace(b'"capacity"', b'"capacitx"', 1))
    with pytest.raises(VertexError, match="damaged header"):
        tablefile.load(solver, mangled)
    with pytest.raises(VertexError, match="cannot read"):
        tablefile.load(solver, tmp_path / "absent.table")


def test_a_save_replaces_the_old_table_whole(tmp_path: Path) -> None:
    solver = three_by_three()
    path = tmp_path / "t.table"
    tablefile.save(solver, path, positions=0, seconds=0.0)
    empty = path.stat().st_size
    solver.solve(solver.game.initial_state(), deadline=time.monotonic() + 60)
    tablefile.save(solver, path, positions=solver.nodes, seconds=1.0)
    assert path.stat().st_size == empty  # the same size: header and entries, nothing appended
    assert not (tmp_path / "t.table.part").exists()
    assert tablefile.read_header(path).positions == solver.nodes
