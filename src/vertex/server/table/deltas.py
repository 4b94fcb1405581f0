"""State deltas: an event's new state as the few changes from the one before.

A move on a big board changes one line and a few cells, yet its full state is tens of KB
(bench/bench_events.py). A socket that asks for deltas (`?deltas=1`) gets, instead of
`state`, a `patch`: a list of operations on the state it has, `[path, value]` (set),
`[path]` (delete) or `[path, start, count, items]` (splice the list at `path`: remove
`count` items at `start`, insert `items` there), a path being keys and list indices from the
state's root. The client applies them in order, on the state of the event before (events
come gap-free, in version order); on any doubt it reconnects without `since` and gets a
snapshot.
"""

from __future__ import annotations

from typing import Any

#: More operations than this and the full state is sent instead.
MOST_OPS = 512

Patch = list[list[Any]]


def diff(old: Any, new: Any) -> Patch | None:
    """The operations that turn `old` into `new`, or None when a full state is better."""
    out: Patch = []
    if not _diff(old, new, [], out) or not out or not out[0][0]:
        return None if out else []
    return out


def _diff(a: Any, b: Any, path: list[Any], out: Patch) -> bool:
    """Append the operations for a -> b; False when there are too many."""
    if a == b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() - b.keys():
            out.append([[*path, k]])
        for k, v in b.items():
            if k not in a:
                out.append([[*path, k], v])
            elif not _diff(a[k], v, [*path, k], out):
                return False
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and path:
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y and not _diff(x, y, [*path, i], out):
                return False
    elif isinstance(a, list) and isinstance(b, list) and path:
        # one splice: what lies between the common start and the common end
        start, most = 0, min(len(a), len(b))
        while start < most and a[start] == b[start]:
            start += 1
        end = 0
        while end < most - start and a[-1 - end] == b[-1 - end]:
            end += 1
        out.append([path, start, len(a) - start - end, b[start : len(b) - end]])
    else:
        out.append([path, b])
    return len(out) <= MOST_OPS


def apply(state: Any, patch: Patch) -> Any:
    """`patch` applied to a copy of `state` (what the page does, for tests)."""
    import copy

    out = copy.deepcopy(state)
    for op in patch:
        path = op[0]
        target = out
        for key in path[:-1]:
            target = target[key]
        if len(op) == 1:
            del target[path[-1]]
        elif len(op) == 4:
            target[path[-1]][op[1] : op[1] + op[2]] = op[3]
        else:
            target[path[-1]] = op[1]
    return out
