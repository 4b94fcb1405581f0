"""The table and what happens at it, without I/O: its spec (options, seats, clock), its
events and how each folds into it (`events.py`), turns, clocks, take-backs, agreements,
rematches, chat, absence, what a client may send (`messages.py`, `nesting.py`), the views
and deltas sent to clients, and which games may be analysed.

Imports only the foundation modules (errors, text, settings, tasks) and `vertex.core`:
anything that stores, sends or schedules is a package above this one.
"""
