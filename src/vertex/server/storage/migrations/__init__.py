"""The schema's versioned migrations (Alembic), run by `vertex db upgrade` and, on a new
empty database, by `vertex serve` (storage/upgrades.py; no alembic.ini: configured there).

A change to a table (schema.py, lobby/rows.py, live/spectators.py) comes with a new file in
`versions/` whose `down_revision` is the current head; tests/server/storage/test_upgrades.py
checks that the head's schema is exactly the tables the code declares.
"""
