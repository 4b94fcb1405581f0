"""The operator's `vertex db`: `upgrade` (storage/upgrades.py's migrations), `export` and
`import` (a backup as JSON lines, `dump.py` and `load.py`, of the tables `tables.py` names).

Imports `storage` for the schema and its version, and `lobby` and `live` for the tables they
keep (the lobby's rows, the spectators' lines).
"""
