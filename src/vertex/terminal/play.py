"""`vertex play GAME [key=value…] [--vs random|LEVEL]`: a game at the terminal.

People at one keyboard take the seats in turn; `--vs` gives every seat but the first to a
computer player. Bad input is explained and asked again; nothing is lost.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any, Protocol, TextIO

from vertex.core.errors import VertexError
from vertex.core.game import Game, State
from vertex.core.registry import create_game
from vertex.core.rng import Rng
from vertex.terminal.options import parse_options
from vertex.terminal.registry import render

HELP = "play a game in the terminal"


class Chooser(Protocol):
    def choose(self, state: State, seat: int, budget_s: float) -> str: ...


class RandomChooser:
    """Uniformly random moves, from the game's own sampler."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "terminal-random")

    def choose(self, state: State, seat: int, budget_s: float) -> str:
        move, self.rng = state.sample_move(seat, self.rng)
        return move


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id, e.g. dots-and-boxes")
    parser.add_argument("options", nargs="*", help="options as key=value, e.g. rows=3")
    parser.add_argument("--vs", default=None, help="computer opponent: random or a level 1-5")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    parser.add_argument("--budget", type=float, default=2.0, help="computer seconds per move")


def make_opponent(game: Game[Any], vs: str, seed: int) -> Chooser:
    if vs == "random":
        return RandomChooser(seed)
    if not vs.isdigit() or not 1 <= int(vs) <= 5:
        raise VertexError(f"--vs takes 'random' or a level from 1 to 5 (got {vs!r})")
    from vertex.ai import player

    chooser: Chooser = player(game, int(vs), seed=seed)
    return chooser


def run(args: argparse.Namespace) -> int:
    return play(args, sys.stdin, sys.stdout)


def play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    try:
        game = create_game(args.game, **parse_options(args.options))
        opponent = make_opponent(game, args.vs, seed) if args.vs else None
    except VertexError as exc:
        print(f"error: {exc}", file=out)
        return 2
    state = game.initial_state(seed=seed)
    people = {0} if opponent else set(range(game.seats))
    print(f"{game.name} — seed {seed}. Type a move, 'help', 'save FILE' or 'quit'.", file=out)
    while not state.is_over:
        print("\n" + render(state), file=out)
        for seat in state.to_move:
            if state.is_over or seat not in state.to_move:
                break
            if seat not in people:
                assert opponent is not None
                move = opponent.choose(state, seat, args.budget)
                state = state.play(move, seat=seat)
                print(f"seat {seat} plays {move}", file=out)
                continue
            result = ask(state, seat, inp, out)
            if result is None:
                print("bye", file=out)
                return 0
            state = result
    print("\n" + render(state), file=out)
    return 0


def ask(state: State, seat: int, inp: TextIO, out: TextIO) -> State | None:
    """Read moves for `seat` until one is legal; None when the player quits or input ends."""
    while True:
        print(f"seat {seat}> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit", "q"):
            return None
        if text in ("help", "?"):
            moves = state.legal_moves()
            if moves is None:
                schema = state.game.move_schema()
                print(f"moves: {schema.get('description', schema)}", file=out)
                if schema.get("examples"):
                    print("for example: " + " | ".join(schema["examples"]), file=out)
            else:
                print("legal moves: " + " ".join(moves), file=out)
            continue
        if text.startswith("save "):
            path = Path(text[5:].strip())
            try:
                path.write_text(state.record().to_json(indent=1))
                print(f"saved the record to {path}", file=out)
            except OSError as exc:
                print(f"could not save: {exc.strerror}", file=out)
            continue
        try:
            return state.play(text, seat=seat)
        except VertexError as exc:
            print(f"not played: {exc}", file=out)
