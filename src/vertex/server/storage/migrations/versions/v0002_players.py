"""Players (DESIGN.md §5a): names and key hashes, the seats they hold, their finished
games, their ratings per pool, the results of tables with player seats; and the lobby's
rated Play now columns.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vertex_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(120), nullable=True),
        sa.Column("name_key", sa.String(200), nullable=True),
        sa.Column("skeleton", sa.String(200), nullable=True),
        sa.Column("key_hash", sa.String(64), nullable=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("forgotten", sa.Float, nullable=True),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draws", sa.Integer, nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_vertex_players_name_key", "vertex_players", ["name_key"], unique=True)
    op.create_index("ix_vertex_players_skeleton", "vertex_players", ["skeleton"], unique=True)
    op.create_index("ix_vertex_players_key_hash", "vertex_players", ["key_hash"], unique=True)
    op.create_table(
        "vertex_player_seats",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("my_turn", sa.Integer, nullable=False),
        sa.Column("v", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_vertex_player_seats_player", "vertex_player_seats", ["player_id", "status"])
    op.create_table(
        "vertex_player_games",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(64), nullable=True),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("before", sa.Integer, nullable=True),
        sa.Column("after", sa.Integer, nullable=True),
        sa.Column("summary", sa.Text, nullable=False),
    )
    op.create_index(
        "ix_vertex_player_games_recent",
        "vertex_player_games",
        ["player_id", "ended_at", "table_id"],
    )
    op.create_index(
        "ix_vertex_player_games_game",
        "vertex_player_games",
        ["player_id", "game", "ended_at", "table_id"],
    )
    op.create_table(
        "vertex_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
    )
    op.create_index("ix_vertex_ratings_board", "vertex_ratings", ["pool", "mu", "last_at", "games"])
    op.create_table(
        "vertex_results",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("ratings", sa.Text, nullable=True),
        sa.Column("unrated", sa.String(32), nullable=True),
    )
    op.add_column("vertex_lobby", sa.Column("pool", sa.String(64), nullable=True))
    op.add_column("vertex_lobby", sa.Column("rating", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("vertex_lobby", "rating")
    op.drop_column("vertex_lobby", "pool")
    for name in (
        "vertex_results",
        "vertex_ratings",
        "vertex_player_games",
        "vertex_player_seats",
        "vertex_players",
    ):
        op.drop_table(name)
