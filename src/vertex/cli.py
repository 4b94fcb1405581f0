"""The `vertex` command. Each subcommand lives in its own module with HELP, add_arguments, run."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType

SUBCOMMANDS = {
    "play": "vertex.terminal.play",
    "replay": "vertex.terminal.replay",
    "solve": "vertex.terminal.solve",
    "serve": "vertex.server.cli",
    "db": "vertex.server.db.cli",
    "puzzles": "vertex.puzzles.cli",
}


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:  # that feature is not part of this build
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vertex", description="Vertex: pen-and-paper games")
    sub = parser.add_subparsers(dest="command", required=True)
    for command, module_name in SUBCOMMANDS.items():
        module = _module(module_name)
        if module is None:
            continue
        p = sub.add_parser(command, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`vertex play … | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
