"""The puzzles' pick index (issue 35): a row per puzzle, scope (its pool, its game) and
theme ("" for any), each with a random key, so `next` picks by the index, not by reading
the pool. The mined puzzles stored already get theirs here; the shipped set's are written
by the server (server/puzzles/picks.py).

Revision ID: 0006
Revises: 0005
"""

import json
import random

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    picks = op.create_table(
        "vertex_puzzle_picks",
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("theme", sa.String(32), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("pick", sa.Float, nullable=False),
        sa.Column("shipped", sa.Integer, nullable=False),
    )
    op.create_index(
        "ix_vertex_puzzle_picks_pick", "vertex_puzzle_picks", ["scope", "theme", "pick"]
    )
    conn = op.get_bind()
    rng = random.Random()
    rows = []
    for r in conn.execute(sa.text("SELECT id, game, pool, data FROM vertex_puzzles")):
        try:
            themes = [str(t) for t in json.loads(r.data).get("themes", []) if t]
        except (ValueError, AttributeError):
            themes = []
        for scope in dict.fromkeys((r.pool, r.game)):
            for theme in dict.fromkeys(["", *themes]):
                rows.append(
                    {
                        "scope": scope,
                        "theme": theme,
                        "puzzle_id": r.id,
                        "pick": rng.random(),
                        "shipped": 0,
                    }
                )
    if rows:
        op.bulk_insert(picks, rows)


def downgrade() -> None:
    op.drop_index("ix_vertex_puzzle_picks_pick", table_name="vertex_puzzle_picks")
    op.drop_table("vertex_puzzle_picks")
