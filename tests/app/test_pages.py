"""The HTML pages: a bad link answers 404 in the site's own page, with the way home; a good
one opens its page, by a room's id or its code."""

from __future__ import annotations

import pytest

from tests.app.helpers import NewClient

BAD_LINKS = [
    "/rooms/NOPE12",
    "/rooms/abc/watch",
    "/join/ZZZZZZ",
    "/matches/nope",
    "/rules/chess",
    "/players/nobody",
]


@pytest.mark.parametrize("path", BAD_LINKS)
def test_a_bad_link_answers_404_with_a_way_home(new_client: NewClient, path: str) -> None:
    page = new_client(None).get(path, follow_redirects=False)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<a class="btn primary" href="/">' in page.text
    assert "site-header" in page.text  # the site's own page, not a bare error


def test_a_room_opens_by_its_id_its_code_and_its_links(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    for path in (
        f"/rooms/{room['id']}",
        f"/rooms/{room['code'].lower()}",
        f"/rooms/{room['id']}/watch",
    ):
        assert ann.get(path).status_code == 200, path
    short = ann.get(f"/join/{room['code'].lower()}", follow_redirects=False)
    assert short.status_code == 303 and short.headers["location"] == f"/rooms/{room['code']}"
