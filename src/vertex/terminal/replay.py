"""`vertex replay RECORD.json`: replay a record and print the final state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vertex.core.errors import VertexError
from vertex.core.record import replay

HELP = "replay a game record and print its final state as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a record file (JSON), or - for standard input")


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text()
    except OSError as exc:
        print(f"error: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        state = replay(text)
    except VertexError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(state.to_dict(), indent=1))
    return 0
