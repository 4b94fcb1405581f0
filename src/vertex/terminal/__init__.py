"""Playing in the terminal: text boards, the play loop, replay."""
