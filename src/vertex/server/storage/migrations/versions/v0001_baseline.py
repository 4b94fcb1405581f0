"""The baseline: the schema as Vertex shipped it before migrations (the code created it with
`metadata.create_all` at every start).

Each table is created only where it is missing: a database from before migrations has the
tables of the release that made it (the first ones had only tables and events; bests, the
lobby's rows, fences and spectator lines came later, added by create_all at a start), and
their columns never changed (storage/upgrades.py checks them before this runs).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[sa.Table]:
    m = sa.MetaData()
    return [
        sa.Table(
            "vertex_tables",
            m,
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("spec", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("creator", sa.String(64), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("updated_at", sa.Float, nullable=False),
            sa.Index("ix_vertex_tables_creator", "creator", "created_at"),
            sa.Index("ix_vertex_tables_status", "status"),
        ),
        sa.Table(
            "vertex_events",
            m,
            sa.Column("table_id", sa.String(40), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(32), nullable=False),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ),
        sa.Table(
            "vertex_bests",
            m,
            sa.Column("table_id", sa.String(40), primary_key=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("levels", sa.Integer, nullable=False),
            sa.Column("height_mm", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Index("ix_vertex_bests_name", "name", "levels", "height_mm"),
            sa.Index("ix_vertex_bests_rank", "levels", "height_mm"),
        ),
        sa.Table(
            "vertex_lobby",
            m,
            sa.Column("table_id", sa.String(40), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("creator", sa.String(64), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("quick", sa.Integer, nullable=False),
            sa.Column("free_seats", sa.Integer, nullable=False),
            sa.Column("summary", sa.Text, nullable=False),
            sa.Column("listed_at", sa.Float, nullable=False),
            sa.Column("updated_at", sa.Float, nullable=False),
            sa.Index("ix_vertex_lobby_status", "status", "game", "listed_at"),
            sa.Index("ix_vertex_lobby_creator", "creator", "status"),
        ),
        sa.Table(
            "vertex_fences",
            m,
            sa.Column("table_id", sa.String(40), primary_key=True),
            sa.Column("epoch", sa.BigInteger, nullable=False),
        ),
        sa.Table(
            "vertex_spectator_lines",
            m,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.String(40), nullable=False),
            sa.Column("name", sa.String(200), nullable=True),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Index("ix_vertex_spectator_lines_table", "table_id", "id"),
        ),
    ]


def upgrade() -> None:
    bind = op.get_bind()
    have = set(sa.inspect(bind).get_table_names())
    for table in _tables():
        if table.name not in have:
            table.create(bind)  # with its indexes


def downgrade() -> None:
    bind = op.get_bind()
    for table in reversed(_tables()):
        table.drop(bind, checkfirst=True)
