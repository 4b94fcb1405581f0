"""Players (DESIGN.md §5a): names (names.py), keys and who a request is (identity.py), and
what profiles, histories and leaderboards show (profiles.py). No registration: a name and
a key. A key is shown once, kept only as its hash, and never logged or sent to anyone else.

Imports `table`, `site` (the per-address limits) and `storage`.
"""
