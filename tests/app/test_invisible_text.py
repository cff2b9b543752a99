"""Text that shows nothing is refused: a chat line made only of invisible characters
(zero-width spaces and joiners, the byte order mark, Hangul fillers, a braille blank, the
soft hyphen, tag characters, the Mongolian vowel separator) is neither stored nor sent, and
a guest name or username holding one is refused — while a line with something visible in
it, emoji joined with zero-width joiners included, is written as ever.

Each test that runs the server runs on SQLite and, where TEST_DATABASE_URL is set (CI), on
PostgreSQL.
"""

from __future__ import annotations

import pytest

from app.invisible import looks_blank
from tests.app.helpers import NewClient, next_of
from tests.app.test_api import error_of
from tests.app.test_chat import lines, refusal, say, until_pong

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c\u200d",  # zero-width non-joiner, joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u3164",  # Hangul filler
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # half-width Hangul filler
    "\u2800",  # braille pattern blank
    "\u00ad",  # soft hyphen
    "\U000e0041\U000e007f",  # tag characters
    "\u180e",  # Mongolian vowel separator
    "\u034f\ufe0f",  # combining grapheme joiner, variation selector
    "\u2062",  # invisible times
]


@pytest.mark.parametrize("blank", INVISIBLE)
def test_text_of_invisible_characters_looks_blank(blank: str) -> None:
    assert looks_blank(blank * 3) and looks_blank(f"{blank} {blank}")
    assert not looks_blank(f"{blank}a") and not looks_blank("👩\u200d👩\u200d👧")


def test_a_chat_line_that_shows_nothing_is_refused(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        for blank in INVISIBLE:
            say(wa, "table", f" {blank}{blank} {blank} ")
            error = refusal(wa)
            assert (error["code"], error["about"]) == ("chat_invisible", "chat"), blank
        # Nothing was stored or sent; a line with something to see is.
        assert lines(until_pong(wa)) == []
        say(wa, "table", "gg \u3164 👩\u200d👩\u200d👧")
        assert lines(until_pong(wa)) == ["gg \u3164 👩\u200d👩\u200d👧"]
    # What a new connection is sent of the room's talk is that line alone.
    with ann.websocket_connect(f"/ws/rooms/{rid}") as again:
        log = next_of(again, "chat_log")["messages"]
        assert [line["text"] for line in log] == ["gg \u3164 👩\u200d👩\u200d👧"]


@pytest.mark.parametrize("blank", ["\u3164", "\u115f", "\u1160", "\uffa0"])
def test_a_name_holding_an_invisible_letter_is_refused(new_client: NewClient, blank: str) -> None:
    guest = new_client("Ann")
    for name in (blank * 3, f"Ann{blank}", f"A{blank}nn"):
        message = error_of(guest.post("/api/session", json={"name": name}), 422, "bad_name")
        assert "invisible" in message
        body = {"username": name, "password": "correct horse battery"}
        message = error_of(guest.post("/api/accounts", json=body), 422, "bad_username")
        assert "invisible" in message
    # Nothing changed: the guest keeps the name, and no account was made.
    assert guest.get("/api/session").json()["name"] == "Ann"
    assert guest.get("/api/session").json()["username"] is None
