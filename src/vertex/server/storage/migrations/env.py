"""Alembic's environment: the connection storage/upgrades.py hands over, in its transaction."""

from alembic import context

context.configure(connection=context.config.attributes["connection"], target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
