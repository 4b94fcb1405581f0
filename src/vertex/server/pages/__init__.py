"""What the page asks beside play: its HTML and static files (`web.py`, `built.py` for the
minified copy), the rules pages' diagrams, the Verticality bests board, replay positions
and the analysis (perfect play) of a position.

Imports the hub and everything below it; not `api`.
"""
