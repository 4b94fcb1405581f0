"""Puzzles (RULES §5): positions where exactly one first move, up to the board's symmetries,
keeps the goal under perfect play; found in games (`make`, `mine`), judged by the solver
(`judge`), shipped as data (`data/*.jsonl`, `shipped`)."""
