"""One module a migration, in the order of their `down_revision`s."""
