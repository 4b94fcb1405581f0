"""Being one site across processes, and fair limits on it: the Redis bus between processes
(`bus.py`), table leases (which process owns a table's computer seats and clock), shared
process fields and presence (who is connected), the quotas and allowances of addresses and
seats (`quotas.py`, `allowances.py`, `rates.py`) and how an outage of Redis or the
database is told to clients (`faults.py`). Each has a local twin for a one-process site.

Imports only the foundation modules: it knows nothing of tables or storage.
"""
