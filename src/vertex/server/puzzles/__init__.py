"""Puzzles on the site (DESIGN.md §5b): the shipped set and mined puzzles, attempts judged
by the solver (`vertex.puzzles.judge`), puzzle ratings for players with a key.

- rows.py: the tables (mined puzzles, each puzzle's rating, players' puzzle ratings, attempts);
- picks.py: the index `next` picks from (a random key per puzzle, scope and theme);
- offer.py: the games, boards and themes a player can choose;
- service.py: next / daily / one puzzle / an attempt, with the ratings.

It imports table (the ratings model), site, storage and players (who a request is), and the
rules-side package `vertex.puzzles`; api and the hub import it.
"""
