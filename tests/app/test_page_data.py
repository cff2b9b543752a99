"""The data a page hands its scripts cannot break out of its script block: whatever a link
or a name holds (``<!--<script>``, ``</script>``, line separators), the page's own scripts
stay as written and the data reads back exactly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import update

from app.db import make_engine
from app.http.page_data import script_json
from app.models import User
from tests.app.helpers import NewClient, account, make_app, running

# A "/" would split the address, so "</script>" is left to the last test.
HOSTILE = ["<!--<script>", "<script>alert(1)", "a\u2028b\u2029c", "&lt;<!--"]
BOOT_OPEN = '<script type="application/json" id="boot">'


def boot_block(page: str) -> str:
    """The text of the boot block as an HTML parser ends it: at the first ``</script``,
    provided nothing in it can change the parser's state (no ``<`` at all)."""
    start = page.index(BOOT_OPEN) + len(BOOT_OPEN)
    text = page[start : page.index("</script", start)]
    assert "<" not in text and ">" not in text and "&" not in text, text
    return text


def assert_scripts_intact(page: str, module: str) -> dict[str, object]:
    """The page holds exactly its two scripts: the boot data, then its module."""
    assert page.count("<script") == 2
    text = boot_block(page)
    after = page.index(BOOT_OPEN) + len(BOOT_OPEN) + len(text)
    rest = page[after:].lstrip()
    assert re.match(
        rf'</script>\n  <script type="module" src="/static/js/pages/{module}\.[0-9a-f]{{12}}\.js">'
        r"</script>",
        rest,
    ), rest[:200]
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("segment", HOSTILE)
def test_a_player_page_keeps_its_scripts_whatever_its_address_holds(
    new_client: NewClient, segment: str
) -> None:
    page = new_client(None).get(f"/players/{quote(segment, safe='')}")
    assert page.status_code == 404  # no account has that name
    assert_scripts_intact(page.text, "message")


def test_a_player_page_hands_its_scripts_the_name_asked_for(new_client: NewClient) -> None:
    account(new_client, "ada")
    page = new_client(None).get("/players/ADA")
    assert page.status_code == 200
    assert assert_scripts_intact(page.text, "player")["player"] == "ADA"


@pytest.mark.parametrize("segment", HOSTILE)
def test_a_missing_room_or_match_page_keeps_its_scripts(
    new_client: NewClient, segment: str
) -> None:
    client = new_client("Ann")
    for path in (f"/rooms/{quote(segment, safe='')}", f"/matches/{quote(segment, safe='')}"):
        page = client.get(path)
        assert page.status_code == 404
        data = assert_scripts_intact(page.text, "message")
        user = {"id": data["user"]["id"], "name": "Ann", "username": None, "moderator": False}
        assert data["user"] == user


def test_a_name_in_the_page_data_stays_data(database_url: str, tmp_path: Path) -> None:
    """Names cannot hold "<" today, but the page must not rely on it: a name written
    straight to the database (as by an older rule) is handed to the scripts as it is."""
    hostile = "<!--<script>\u2028&"
    app = make_app(database_url, tmp_path)
    with running(app) as new_client:
        ann = new_client("Ann")
        user_id = ann.get("/api/session").json()["user_id"]
        engine = make_engine(database_url)
        with engine.begin() as connection:
            connection.execute(update(User).where(User.id == user_id).values(name=hostile))
        engine.dispose()
        app.state.auth.forget_here(user_id)
        for path, module in (
            ("/", "home"),
            ("/history", "history"),
            ("/leaderboard", "leaderboard"),
        ):
            data = assert_scripts_intact(ann.get(path).text, module)
            user = {"id": user_id, "name": hostile, "username": None, "moderator": False}
            assert data["user"] == user


def test_the_escaped_json_reads_back_the_same_data() -> None:
    data = {"name": "<!--<script></script>&amp;\u2028\u2029", "n": [1, None, True]}
    text = str(script_json(data))
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == data
