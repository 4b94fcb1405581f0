"""Names and chat are counted and cleaned by grapheme cluster: what a reader sees as one
character counts as one; the joiners writing needs pass, control characters do not."""

from __future__ import annotations

import json
import unicodedata

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_table, recv_until, take
from vertex.server.errors import ApiError
from vertex.server.text import MARKS, check_text, graphemes

FAMILY = "👨\u200d👩\u200d👧"  # one character: three people joined by ZWJ
PERSIAN = "می\u200cخواهم"  # "I want", with the ZWNJ Persian spelling needs
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # tag characters


def test_characters_are_counted_as_a_reader_sees_them() -> None:
    assert graphemes(FAMILY) == 1 and len(FAMILY) == 5
    assert graphemes("e\u0301") == 1  # e + combining acute
    assert graphemes(PERSIAN) == 7
    assert graphemes(SCOTLAND) == 1
    assert graphemes("👍🏽") == 1  # with a skin tone


@pytest.mark.parametrize("name", [FAMILY, PERSIAN, SCOTLAND, "Zoë", "李小龍", "Ann " + FAMILY])
def test_names_with_joiners_are_accepted(name: str) -> None:
    assert check_text(name, 40, "name") == name


def test_names_are_trimmed_and_normalised() -> None:
    assert check_text("  Zoe\u0308 ", 40, "name") == "Zoë"  # NFC: one code point


def test_the_limit_is_in_characters_not_code_points() -> None:
    assert check_text(FAMILY * 40, 40, "name") == FAMILY * 40  # 200 code points
    with pytest.raises(ApiError) as refused:
        check_text(FAMILY * 41, 40, "name")
    assert refused.value.code == "bad-name"
    assert refused.value.params == {"why": "too-long", "limit": 40, "length": 41}


@pytest.mark.parametrize(
    "bad",
    [
        "a\x00b",  # NUL
        "a\x1bb",  # escape
        "a\nb",  # a newline inside
        "a\u202eb",  # right-to-left override: text that reads as something else
        "a\u200bb",  # zero-width space: a name passing for another
        "a\u2028b",  # line separator
        "a\ue000b",  # private use
    ],
)
def test_control_and_invisible_characters_are_refused(bad: str) -> None:
    for what, code in (("name", "bad-name"), ("chat", "bad-chat")):
        with pytest.raises(ApiError) as refused:
            check_text(bad, 40, what)  # type: ignore[arg-type]
        assert refused.value.code == code and refused.value.params == {"why": "control"}


@pytest.mark.parametrize(
    "blank",
    [
        "".join(map(chr, range(0xE0061, 0xE0068))),  # emoji tag letters without their flag
        "\u200d\u200d",  # joiners alone
        "\u0301\u0302",  # combining marks with nothing under them
        "\u200c \u200d",
    ],
)
def test_text_one_cannot_see_is_refused(blank: str) -> None:
    """Issue 37: a name of emoji tag characters alone showed blank."""
    for what, code in (("name", "bad-name"), ("chat", "bad-chat")):
        with pytest.raises(ApiError) as refused:
            check_text(blank, 40, what)  # type: ignore[arg-type]
        assert refused.value.code == code and refused.value.params == {"why": "invisible"}


def test_a_character_may_carry_a_few_marks_not_hundreds() -> None:
    """Issue 37: 300 combining marks on one letter passed (and drew over the lines around)."""
    for fine in ("Tiếng Việt", "क्षत्रिय", "བསྒྲུབས", "a" + "\u0301" * MARKS):
        assert check_text(fine, 40, "name") == unicodedata.normalize("NFC", fine)
    with pytest.raises(ApiError) as refused:
        check_text("Z" + "\u0336\u0301" * 150, 40, "name")
    assert refused.value.params == {"why": "marks", "limit": MARKS}
    # a flag with its tags is still a flag (England)
    england = "\U0001f3f4" + "".join(map(chr, (0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067)))
    assert check_text(england + "\U000e007f", 40, "name")


def test_a_seat_taken_and_a_chat_line_with_joiners(client: TestClient) -> None:
    tid = new_table(client)["id"]
    token = take(client, tid, 0, FAMILY * 40)  # 40 characters of 5 code points each
    take(client, tid, 1, PERSIAN)
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["name"] for s in seats] == [FAMILY * 40, PERSIAN]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        ws.send_text(json.dumps({"t": "chat", "text": PERSIAN + " " + FAMILY, "id": 1}))
        assert recv_until(ws, lambda m: m.get("id") == 1)["t"] == "ack"
        ws.send_text(json.dumps({"t": "chat", "text": "hi\x07", "id": 2}))
        got = recv_until(ws, lambda m: m.get("id") == 2)
        assert got["t"] == "error" and got["code"] == "bad-chat"


def test_a_name_with_a_control_character_takes_no_seat(client: TestClient) -> None:
    other = new_table(client)["id"]
    r = client.post(f"/api/tables/{other}/seats/0", json={"name": "Eve\u202e"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-name"
    assert client.get(f"/api/tables/{other}").json()["seats"][0]["name"] is None
