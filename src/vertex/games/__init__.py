"""Every game, one module or package each; each registers itself on import."""
