"""Puzzles (DESIGN.md §5b): mined puzzles, puzzle ratings, players' puzzle ratings and
their attempts (one per player and puzzle).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vertex_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_vertex_puzzles_pool", "vertex_puzzles", ["pool", "created_at"])
    op.create_table(
        "vertex_puzzle_ratings",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "vertex_puzzle_players",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
    )
    op.create_table(
        "vertex_puzzle_attempts",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("vertex_puzzle_attempts")
    op.drop_table("vertex_puzzle_players")
    op.drop_table("vertex_puzzle_ratings")
    op.drop_index("ix_vertex_puzzles_pool", table_name="vertex_puzzles")
    op.drop_table("vertex_puzzles")
