"""The page's minified copy (tools/build-web.mjs, run by `make setup`): which file to serve.

The build folder (`build/web` beside `src`) holds, for each JS module, CSS sheet and JSON
catalog of `vertex/web`, its minified copy at the same relative path, an external source map
(`<file>.map`) and precompressed copies (`<file>.br`, `<file>.gz`). A built file is served
only while it is not older than its source: a developer who edits a module with a stale build
gets the source (`make serve` rebuilds first). The source works as is without any build.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import vertex

log = logging.getLogger("vertex.web")

#: Where `make setup` builds the page (overridable, e.g. for an installed package).
WEB_BUILD = Path(
    os.environ.get("VERTEX_WEB_BUILD") or Path(vertex.__file__).parents[2] / "build" / "web"
)
#: The precompressed copies, in the order we prefer them: (Content-Encoding, file ending).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


@dataclass(frozen=True)
class Built:
    """A built file to serve: the minified copy and, by encoding, its compressed copies."""

    path: Path
    compressed: dict[str, Path]

    def pick(self, accept_encoding: str) -> tuple[Path, str | None]:
        """The copy to send a client that sent this Accept-Encoding, and its encoding."""
        accepted = _accepted(accept_encoding)
        for encoding, _ending in ENCODINGS:
            if encoding in accepted and encoding in self.compressed:
                return self.compressed[encoding], encoding
        return self.path, None


def _accepted(header: str) -> set[str]:
    """The codings an Accept-Encoding header allows (q=0 excludes one)."""
    accepted = set()
    for item in header.lower().split(",")[:20]:
        name, _, params = item.strip().partition(";")
        q = params.strip()
        if q.startswith("q="):
            try:
                if float(q[2:]) <= 0:
                    continue
            except ValueError:
                continue
        if name:
            accepted.add(name.strip())
    return accepted


def _fresh(path: Path, than: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_mtime_ns >= than.stat().st_mtime_ns
    except OSError:
        return False


class Build:
    """The build folder of one web folder (`source`)."""

    def __init__(self, folder: Path, source: Path) -> None:
        self.folder = folder
        self.source = source
        self._noted: set[str] = set()

    def find(self, rel: str, source: Path) -> Built | None:
        """The built copy of the source file `source` (at `rel`), if it is up to date."""
        path = self.folder / rel
        if not path.is_file():
            return None
        if not _fresh(path, source):
            if rel not in self._noted:  # once a file: `rel` is one of the source's files
                self._noted.add(rel)
                log.warning(
                    "web: the build of %s is older than its source: serving the source", rel
                )
            return None
        compressed = {}
        for encoding, ending in ENCODINGS:
            copy = path.with_name(path.name + ending)
            if _fresh(copy, path):
                compressed[encoding] = copy
        return Built(path, compressed)

    def source_map(self, rel: str) -> Path | None:
        """The source map `rel` (`<file>.map`) of a built file that is up to date."""
        if not rel.endswith(".map") or "\\" in rel or "\x00" in rel or ".." in rel.split("/"):
            return None
        source = self.source / rel[: -len(".map")]
        path = self.folder / rel
        if not source.is_file() or not _fresh(path, source):
            return None
        if self.folder.resolve() not in path.resolve().parents:
            return None
        return path

    def describe(self) -> str:
        """One line for the log: does the site serve the build, the source, or some of each."""
        if not self.folder.is_dir():
            return f"web: serving the source of the page (no build at {self.folder}: `make setup`)"
        built = stale = 0
        for path in self.source.rglob("*"):
            copy = self.folder / path.relative_to(self.source)
            if path.is_file() and copy.is_file():
                if _fresh(copy, path):
                    built += 1
                else:
                    stale += 1
        line = f"web: serving {built} minified files from {self.folder}"
        if stale:
            line += f"; {stale} are older than their source and served from the source"
            line += " (`make serve` rebuilds)"
        return line
