"""The computer and analysis workers: worker pools and their states, fair shares between
addresses (`fair.py`), the computer players' runner and the analyst (perfect play), and
`autoplay.py`, which runs a table's computer seats and clock on the process that owns it.

Imports `table`, `site` and `storage`; it does not send to sockets itself (the repository
broadcasts what it stores).
"""
