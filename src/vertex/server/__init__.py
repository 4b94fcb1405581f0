"""The Vertex server (DESIGN.md §5): HTTP API and table sockets over tables kept in a store.

A package a concern; each package's `__init__` says what it owns. Where a move goes: a
socket message or HTTP body is parsed in `api/` (its models are `table/messages.py`), the
hub (`hub.py`) hands it to `play/commands.py`, which checks it against the table
(`table/`) and submits the event through the repository (`storage/repository.py`): stored
in the log, folded into the table, sent to the table's sockets (`live/`) and, on a site of
several processes, to the others over Redis (`site/bus.py`); `compute/autoplay.py` then
asks a computer seat for its move, or runs the clock.

Imports go one way, lowest first; a package may import only the ones its line names
(tests/server/test_imports.py reads these lines):

    table:    -
    site:     -
    storage:  table site
    players:  table site storage
    puzzles:  table site storage players
    live:     table site storage
    compute:  table site storage
    play:     table site storage players live compute
    lobby:    table site storage players puzzles live compute play
    hub:      table site storage players puzzles live compute play lobby
    pages:    table site storage players puzzles live compute play lobby hub
    api:      table site storage players puzzles live compute play lobby hub pages
    app:      table site storage players puzzles live compute play lobby hub pages api
    db:       table site storage live compute play lobby puzzles

`players` are the people with a name and a key (DESIGN.md §5a): names, keys, profiles.
`hub` is the wiring of one process, three modules at the top (`hub.py`, `parts.py` — the
parts of one process or of a site — and `upkeep.py`); `app` is `app.py`, `cli.py` and
`__main__.py`; `db` is the operator's `vertex db` (upgrade, export, import). The foundation
modules at the top (`errors.py`, `text.py`, `tasks.py`, `settings.py`, `metrics.py` — the
Prometheus counters — and `logs.py` — JSON log lines) import no package and any module may
import them.
"""

from vertex.server.app import create_app
from vertex.server.settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]
