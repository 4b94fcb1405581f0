"""Display names and chat lines: trimmed, normalised, printable, within their limit.

Counted in user-perceived characters (Unicode grapheme clusters, `regex`'s `\\X`): 👨‍👩‍👧 is
one character, not five code points. The joiners that writing needs are kept — ZWJ (emoji
sequences) and ZWNJ (Persian "می‌خواهم") — as are emoji tag characters (subdivision flags);
real control characters, bidirectional overrides and the other invisible format characters,
with which one name can pass for another, are refused. So is text a reader cannot see at all
(only joiners, tags, combining marks and spaces: a blank name), and a character stacked
with more than `MARKS` combining marks (300 marks on one letter pass through lines above
and below it; no writing needs more than a few).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

import regex

from vertex.server.errors import ApiError

_GRAPHEME = regex.compile(r"\X")
#: Format characters (category Cf) that text needs: ZWNJ, ZWJ, and the emoji tags.
_FORMAT_KEPT = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})
#: Categories refused: controls, format (but the above), surrogates, private use,
#: unassigned, line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Categories that show nothing by themselves: format, combining marks, spaces.
_UNSEEN = frozenset({"Cf", "Mn", "Me", "Zs"})
#: Combining marks one character may carry (Vietnamese needs two, Indic and Tibetan stacks
#: a few more).
MARKS = 8


def graphemes(text: str) -> int:
    """How many characters a reader sees in `text`."""
    return len(_GRAPHEME.findall(text))


def _refused(ch: str) -> bool:
    return unicodedata.category(ch) in _REFUSED and ch not in _FORMAT_KEPT


def _marks(grapheme: str) -> int:
    return sum(unicodedata.category(ch) in ("Mn", "Me", "Mc") for ch in grapheme)


def check_text(text: str, limit: int, what: Literal["name", "chat"]) -> str:
    """`text` cleaned (trimmed, NFC), or ApiError `bad-name`/`bad-chat`/`chat-too-long`."""
    text = unicodedata.normalize("NFC", text.strip())
    params: dict[str, Any]
    length = graphemes(text)
    if not text:
        msg, params = f"the {what} is empty", {"why": "empty"}
    elif length > limit:
        msg = f"a {what} may be at most {limit} characters, not {length}"
        params = {"why": "too-long", "limit": limit, "length": length}
        if what == "chat":
            raise ApiError("chat-too-long", msg, params=params)
    elif any(_refused(ch) for ch in text):
        msg, params = f"the {what} has control characters", {"why": "control"}
    elif all(unicodedata.category(ch) in _UNSEEN for ch in text):
        msg, params = f"the {what} has nothing one can see", {"why": "invisible"}
    elif any(_marks(g) > MARKS for g in _GRAPHEME.findall(text)):
        msg = f"a character of the {what} carries more than {MARKS} combining marks"
        params = {"why": "marks", "limit": MARKS}
    else:
        return text
    if what == "chat":
        raise ApiError("bad-chat", msg, params=params)
    raise ApiError("bad-name", msg, params=params)
