"""Every game: one package each, whose `__init__` lists its games (`GAMES`, light metadata
and options) for the registry; the rules load only when a game is created."""
