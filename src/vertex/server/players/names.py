"""Player names: what a name may be, the key it is unique by, and the look-alike skeleton.

A name is a display name (text.py's checks: printable, no invisible tricks, marks bounded)
of 2 to 20 characters (graphemes). Two names are the same name when they fold alike (NFKC,
then case folding): `key`. Names that only look alike count as taken too: `skeleton` maps
every character to one representative of its class of confusables (Unicode's
confusables.txt, as the `confusable-homoglyphs` package ships it; the classes are closed
under "looks like", so `l`, `1`, `I` and `|` are one) — the idea of UTS #39's skeleton. The
store keeps both with unique indexes, so uniqueness holds across processes.

A name that mixes scripts (Latin with Cyrillic: "pаypal") is refused outright: that is how
look-alikes are made. Scripts that are written together are one script here (UTS #39's
"highly restrictive" level): Han with Hiragana and Katakana (Japanese), Han with Hangul
(Korean), Han with Bopomofo, each also with Latin.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from dataclasses import dataclass
from importlib import resources

from confusable_homoglyphs import categories

from vertex.server.errors import ApiError
from vertex.server.text import check_text, graphemes

SHORTEST = 2
LONGEST = 20
#: Scripts that mix in normal writing (besides Common and Inherited, which go with any).
_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA", "LATIN"}),
    frozenset({"HAN", "HANGUL", "LATIN"}),
    frozenset({"HAN", "BOPOMOFO", "LATIN"}),
)
_ANY = frozenset({"COMMON", "INHERITED"})


@dataclass(frozen=True)
class Name:
    shown: str  # as the player wrote it (trimmed, NFC)
    key: str  # NFKC + casefold: the name's identity, and how it is looked up
    skeleton: str  # what it looks like: unique too


def fold(text: str) -> str:
    """The key a name is unique and looked up by."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _bad(message: str, why: str, reason: str, **params: int) -> ApiError:
    # `why`: the page's words (errors.json, as for other names); `reason`: the contract's
    # three kinds (length, characters, mixed-scripts)
    return ApiError("bad-name", message, 422, params={"why": why, "reason": reason, **params})


def check_name(raw: str) -> Name:
    """A claimed name, or 422 `bad-name`."""
    try:
        shown = check_text(raw, LONGEST, "name")
    except ApiError as exc:
        why = str(exc.params.get("why", "control"))
        reason = "length" if why in ("empty", "too-long") else "characters"
        more = {k: v for k, v in exc.params.items() if k != "why"}
        raise _bad(exc.message, why, reason, **more) from None
    length = graphemes(shown)
    if length < SHORTEST:
        raise _bad(
            f"a name has at least {SHORTEST} characters",
            "too-short",
            "length",
            limit=SHORTEST,
            length=length,
        )
    if mixed_scripts(shown):
        raise _bad("a name is written in one script", "mixed-scripts", "mixed-scripts")
    key = fold(shown)
    return Name(shown, key, skeleton(shown))


def scripts(text: str) -> frozenset[str]:
    return frozenset(categories.alias(ch) for ch in text) - _ANY


def mixed_scripts(text: str) -> bool:
    found = scripts(text)
    return len(found) > 1 and not any(found <= together for together in _TOGETHER)


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative: its class's plainest member (ASCII
    first, then the shortest, then the lowest code point)."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for char, entries in data.items():
        for entry in entries:
            a, b = find(char), find(entry["c"])
            if a != b:
                parent[a] = b
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(find(x), []).append(x)
    out: dict[str, str] = {}
    for group in members.values():
        rep = min(group, key=lambda s: (not s.isascii(), len(s), s))
        rep = fold(rep)
        for x in group:
            if len(x) == 1:
                out[x] = rep
    return out


def skeleton(name: str) -> str:
    """What a name looks like: each character as its confusables' representative, before
    case folding (an upper-case I looks like an l, its folded i does not) and after, marks
    and spacing dropped (a dot or a space more must not make a new name)."""
    classes = _classes()
    nfkc = unicodedata.normalize("NFKC", name)
    once = "".join(classes.get(ch, ch) for ch in unicodedata.normalize("NFD", nfkc))
    again = "".join(classes.get(ch, ch) for ch in fold(once))
    return "".join(
        ch
        for ch in unicodedata.normalize("NFD", again)
        if unicodedata.category(ch)[0] not in ("M", "Z") and ch not in "-_.·'"
    )
