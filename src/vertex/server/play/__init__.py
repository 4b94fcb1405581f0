"""What a table does with what it is asked: the one list of commands (`commands.py`), the
narrow port its handlers are given instead of the hub (`ports.py`), and opening tables,
rematches included (`new_tables.py`).

Imports `table`, `site`, `storage`, `live` and `compute`.
"""
