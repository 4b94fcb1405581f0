"""Storage: the database schema and the store of tables' event logs, results and bests
(`store.py`, `schema.py`, with group commits), and the repository that loads tables from
their log, takes their events (store, fold, broadcast) and keeps each table's recent
messages for sockets that come back (`repository.py`, `recent.py`). The schema's versioned
migrations (`migrations/`, Alembic) and the version check at the start (`upgrades.py`).

Imports `table` and `site` (the bus a stored event is published on).
"""
