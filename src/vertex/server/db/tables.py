"""What a backup holds: every table of the schema, in this order, but those left out here
with the reason (tests/server/db/test_backup.py checks that no table is forgotten)."""

from __future__ import annotations

from sqlalchemy import Table

from vertex.server.live.spectators import spectator_lines_t
from vertex.server.lobby.rows import lobby_t
from vertex.server.puzzles.picks import picks_t
from vertex.server.puzzles.rows import (
    puzzle_attempts_t,
    puzzle_players_t,
    puzzle_ratings_t,
    puzzles_t,
)
from vertex.server.storage.reviews import reviews_t
from vertex.server.storage.schema import (
    bests_t,
    deadlines_t,
    events_t,
    fences_t,
    metadata,
    player_games_t,
    player_seats_t,
    players_t,
    ratings_t,
    results_t,
    tables_t,
)

EXPORTED: tuple[Table, ...] = (
    tables_t,  # each table's spec and status
    events_t,  # its log: seats (with their tokens' hashes), moves, chat, results
    lobby_t,  # the lobby's rows
    spectator_lines_t,  # spectators' chat lines
    bests_t,  # solo Verticality bests
    players_t,  # players: names and their keys' hashes (never a key)
    player_seats_t,  # the seats players hold at open and playing tables
    player_games_t,  # each player's finished games
    ratings_t,  # ratings per pool
    results_t,  # finished tables' records, written once (their ratings)
    deadlines_t,  # slow tables' next deadlines (their sweep wakes them from these)
    reviews_t,  # reviews of whole games (a claim still running is copied as it is)
    puzzles_t,  # puzzles mined from the site's games (the shipped set is in the package)
    puzzle_ratings_t,  # each rated puzzle's rating
    puzzle_players_t,  # players' puzzle ratings
    puzzle_attempts_t,  # players' rated attempts, one per player and puzzle
    picks_t,  # the puzzles' pick index (the shipped set's rows are rewritten as needed)
)

#: Tables a backup leaves out, and why.
LEFT_OUT: dict[Table, str] = {
    fences_t: (
        "lease epochs fence off a table's stale owner on the site that wrote them; a "
        "restored database starts with no owners (an epoch is a time in ms, and one copied "
        "from a site whose clock ran ahead would refuse the new owner's writes until then)"
    ),
}


def every_table() -> list[Table]:
    """The schema's tables, as the code declares them (all modules loaded)."""
    return list(metadata.sorted_tables)
