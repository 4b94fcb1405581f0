"""`vertex db upgrade | export FILE | import FILE [--database URL]`.

Exit codes: 0 done, 1 refused or failed (one line on stderr saying why; nothing changed by
an import or upgrade that failed), 2 a usage error (argparse).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from vertex.server.settings import DEFAULT_DATABASE
from vertex.server.storage.schema import shown_url

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

HELP = "upgrade a database's schema, or export it to (import it from) a backup file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    for action, helptext in (
        ("upgrade", "bring the database to this Vertex's schema (versioned migrations)"),
        ("export", "write every table's rows to FILE as JSON lines (- : standard output)"),
        ("import", "read a backup FILE (- : standard input) into an empty database"),
    ):
        p = sub.add_parser(action, help=helptext, description=helptext)
        if action != "upgrade":
            p.add_argument("file", metavar="FILE")
        p.add_argument(
            "--database",
            default=os.environ.get("VERTEX_DATABASE_URL") or DEFAULT_DATABASE,
            help="SQLAlchemy URL, as for vertex serve (default: $VERTEX_DATABASE_URL or "
            "%(default)s)",
        )


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from vertex.server.db.load import ImportRefused
    from vertex.server.storage.upgrades import SchemaError, failure

    url: str = args.database
    try:
        if args.action == "upgrade":
            _upgrade(url)
        elif args.action == "export":
            _export(url, args.file)
        else:
            _import(url, args.file)
    except (SchemaError, ImportRefused, _Refused) as exc:
        print(f"vertex db {args.action}: {exc}", file=sys.stderr)
        return 1
    except SQLAlchemyError as exc:
        print(f"vertex db {args.action}: {failure(url, exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"vertex db {args.action}: {exc.strerror or exc}: {exc.filename}", file=sys.stderr)
        return 1
    return 0


class _Refused(Exception):
    pass


@contextmanager
def _engine(url: str, must_exist: bool) -> Iterator[Engine]:
    from sqlalchemy.engine import make_url

    from vertex.server.storage.schema import make_engine

    try:
        parsed = make_url(url)
    except Exception:
        raise _Refused(f"--database {url!r} is not a database URL") from None
    path = parsed.database
    local = parsed.get_backend_name() == "sqlite" and path and path != ":memory:"
    if must_exist and local and not Path(str(path)).is_file():
        raise _Refused(f"no database file at {path}")
    engine = make_engine(url, statement_deadline=False)
    try:
        yield engine
    finally:
        engine.dispose()


def _upgrade(url: str) -> None:
    from vertex.server.storage import upgrades

    with _engine(url, must_exist=True) as engine:
        found, head = upgrades.upgrade(engine, url)
    was = {"empty": "an empty database", "shipped": "the schema from before migrations"}.get(
        found.kind, f"revision {found.revision}"
    )
    if found.kind == "current":
        print(f"{shown_url(url)}: already at schema revision {head}", file=sys.stderr)
    else:
        print(f"{shown_url(url)}: upgraded from {was} to revision {head}", file=sys.stderr)


def _export(url: str, file: str) -> None:
    from vertex.server.db.dump import export_lines

    with _engine(url, must_exist=True) as engine:
        lines = export_lines(engine, url)
        if file == "-":
            rows = _write(lines, sys.stdout)
        else:
            # a whole backup or none: written aside, renamed over FILE once complete
            partial = Path(file + ".partial")
            try:
                with partial.open("w", encoding="utf-8", newline="\n") as out:
                    rows = _write(lines, out)
                    out.flush()
                    os.fsync(out.fileno())  # on disk before it takes the backup's name
                os.replace(partial, file)
            finally:
                partial.unlink(missing_ok=True)
    print(f"exported {rows} rows from {shown_url(url)} to {file}", file=sys.stderr)


def _write(lines: Iterator[str], out: TextIO) -> int:
    n = -2  # the header and end lines are no rows
    for line in lines:
        out.write(line)
        n += 1
    return n


def _import(url: str, file: str) -> None:
    from vertex.server.db.load import import_lines

    with _engine(url, must_exist=False) as engine:
        if file == "-":
            counts = import_lines(engine, url, sys.stdin)
        else:
            with open(file, encoding="utf-8", newline="\n") as source:
                counts = import_lines(engine, url, source)
    print(
        f"imported {sum(counts.values())} rows into {shown_url(url)} "
        f"({', '.join(f'{k} {v}' for k, v in counts.items())})",
        file=sys.stderr,
    )
