"""A table whose server process restarts (a deploy): told so by the close code 1012
(SERVICE_RESTART), the page reconnects at once, without waiting out a backoff; a
connection lost for another reason waits its backoff as before. The server's side — a
stopping process closes its sockets with that code — is tests/app/test_deploys.py's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.flows import create_room

pytestmark = pytest.mark.e2e

# Every status the page's socket goes through from now on (#conn's data-status).
RECORD_STATUSES = """() => {
  window.__statuses = [];
  const conn = document.querySelector("#conn");
  new MutationObserver(() => window.__statuses.push(conn.dataset.status))
    .observe(conn, { attributes: true, attributeFilter: ["data-status"] });
}"""


def statuses_until_open(page: Page) -> list[str]:
    """The statuses the socket went through until it was open again."""
    page.wait_for_function("() => window.__statuses.at(-1) === 'open'")
    statuses: list[str] = page.evaluate("window.__statuses.splice(0)")
    return statuses


def test_a_restarting_server_is_rejoined_at_once(pages) -> None:
    page = pages.open("ida", width=800, height=900)
    sockets: list[WebSocketRoute] = []

    def through_to_the_server(route: WebSocketRoute) -> None:
        # The real server behind, so that the test can close the page's side as the server
        # would, with the code it chooses.
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/ws/rooms/"), through_to_the_server)
    create_room(page, game="cupid", name="Ida")
    expect(page.locator("#conn")).to_have_text("Connected")
    page.evaluate(RECORD_STATUSES)

    sockets[-1].close(code=1012, reason="server restarting")
    assert statuses_until_open(page) == ["reconnecting", "open"]
    assert len(sockets) == 2

    # Any other close (here "going away") waits out the backoff first.
    sockets[-1].close(code=1001, reason="going away")
    assert statuses_until_open(page)[:1] == ["waiting"]
    expect(page.locator("#conn")).to_have_text("Connected")
