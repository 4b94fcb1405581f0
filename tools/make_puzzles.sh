#!/bin/sh
# The shipped puzzle set (src/vertex/puzzles/data), as README "Puzzles" says: one bounded,
# niced run of `vertex puzzles make` a pool. The computer players think for a time budget, so
# a new run finds another (equally checked) set; the files append, skipping known positions.
set -e
D=src/vertex/puzzles/data
V="nice -n 19 env PYTHONPATH=src .venv/bin/python -m vertex.cli puzzles make"
$V dots-and-boxes rows=3 cols=3 --count 70 --per-theme 25 --seed 1 --minutes 10 --quiet --out $D/dots-and-boxes-3x3.jsonl
$V dots-and-boxes rows=4 cols=4 --count 90 --per-theme 30 --seed 2 --minutes 15 --quiet --out $D/dots-and-boxes-4x4.jsonl
$V dots-and-boxes rows=5 cols=5 --count 50 --per-theme 20 --seed 3 --minutes 15 --quiet --out $D/dots-and-boxes-5x5.jsonl
$V dots-and-triangles size=4 --count 60 --per-theme 20 --seed 4 --minutes 10 --quiet --out $D/dots-and-triangles-4.jsonl
$V juxtapose --count 60 --per-theme 45 --seed 5 --minutes 12 --quiet --out $D/juxtapose.jsonl
# the deeper Juxtapose kinds are rare in play: a longer run that keeps only them
$V juxtapose --count 30 --seed 11 --minutes 20 --quiet --only win-in-2 --only win-in-3 --only defence --out $D/juxtapose.jsonl
# wins in 2 and 3 (issue 35) are found late in the drop phase, where runs for them only play
$V juxtapose --count 30 --seed 12 --minutes 20 --quiet --only win-in-2 --out $D/juxtapose.jsonl
$V juxtapose --count 20 --seed 13 --minutes 25 --quiet --only win-in-3 --out $D/juxtapose.jsonl
$V juxtapose --count 20 --seed 15 --minutes 30 --quiet --only win-in-3 --out $D/juxtapose.jsonl
