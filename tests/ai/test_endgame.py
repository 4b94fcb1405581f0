"""Chains and loops: the exact count of simple loony endgames, against hand counts."""

from __future__ import annotations

import vertex
from vertex.ai.dots.endgame import Component, best_opening, components, loony_value
from vertex.ai.dots.kit import DotsKit
from vertex.games.dots.engine import DotsGame, DotsState


def test_single_chain_goes_to_the_other_player() -> None:
    assert loony_value((3,), ()) == -3
    assert loony_value((1,), ()) == -1


def test_two_three_chains() -> None:
    # the taker declines the first (1 for them, 2 back) and gets the whole second: 4 to 2
    assert loony_value((3, 3), ()) == -2


def test_short_chains_are_handed_back_and_forth() -> None:
    # 1-chain, 1-chain, 2-chain: opener gives 1, gets 1, gives 2 → net -2; or the 2 first
    assert loony_value((1, 1, 2), ()) == -2
    assert loony_value((2, 2), ()) == 0


def test_a_loop_and_a_chain() -> None:
    # open the 4-loop first: the taker takes it (4) and opens the 3-chain (−3): net 1 for them
    assert loony_value((3,), (4,)) == -1
    assert loony_value((), (4,)) == -4
    # two 4-loops: take the first and give the second, or decline it (4 back) and take the
    # second: 4 each either way
    assert loony_value((), (4, 4)) == 0


def test_long_chains_keep_control() -> None:
    # the controller declines every chain but the last: 3 + 3 + 3 + 5 against 2 + 2 + 2
    assert loony_value((5, 5, 5, 5), ()) == -8


def chain_board() -> tuple[DotsKit, DotsState]:
    game = vertex.create_game("dots-and-boxes", rows=1, cols=3)
    assert isinstance(game, DotsGame)
    state = game.initial_state()
    for move in ("a1-b1", "b1-c1", "c1-d1", "a2-b2", "b2-c2", "c2-d2"):
        state = state.play(move)  # type: ignore[assignment]
    return DotsKit(game), state


def test_components_of_a_three_chain() -> None:
    kit, state = chain_board()
    comps = components(kit, state.drawn)
    assert comps is not None
    assert len(comps) == 1
    chain = comps[0]
    assert (chain.loop, chain.size) == (False, 3)
    names = [kit.names[ln] for ln in chain.lines]
    assert sorted(names) == ["a1-a2", "b1-b2", "c1-c2", "d1-d2"]
    assert names[0] in ("a1-a2", "d1-d2")  # ends lead outside
    value, comp = best_opening(comps)
    assert value == -3
    assert comp.opening_line() in (chain.lines[0], chain.lines[-1])


def test_two_chain_is_opened_in_the_middle() -> None:
    comp = Component(False, (0, 1), (10, 11, 12))
    assert comp.opening_line() == 11


def test_not_simple_when_a_cell_has_more_than_two_sides_free() -> None:
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2)
    assert isinstance(game, DotsGame)
    assert components(DotsKit(game), 0) is None


def test_loop_of_four() -> None:
    # 2×2 with the outline drawn: the four inner lines make a loop of four cells
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2, border=True)
    assert isinstance(game, DotsGame)
    comps = components(DotsKit(game), game.predrawn)
    assert comps is not None
    assert [(c.loop, c.size) for c in comps] == [(True, 4)]
