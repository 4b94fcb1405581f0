"""Slow tables' deadlines: per table, the next moment its clock runs out (days a move), so a
table with nobody connected can leave memory and still lose on time: each process's sweeper
finds the due ones with one indexed query (upkeep.py).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vertex_deadlines",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("v", sa.Integer, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
    )
    op.create_index("ix_vertex_deadlines_deadline", "vertex_deadlines", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_vertex_deadlines_deadline", "vertex_deadlines")
    op.drop_table("vertex_deadlines")
