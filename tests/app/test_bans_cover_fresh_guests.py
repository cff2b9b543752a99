"""A ban refuses new guests from where the banned account's sessions were opened: its
browsers, and — for guests made after the ban — its network addresses, as a host's mute
covers fresh guests at a table; guests from elsewhere, and guests made before, are not
covered, and the cover ends with the ban."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from app.admin import change_role
from app.models import Sanction, utcnow
from tests.app.helpers import PASSWORD
from tests.app.test_mutes_cover_fresh_guests import Browser, browser, user_id

__all__ = ["browser"]  # the fixture, used by name


def test_a_ban_refuses_fresh_guests_from_the_banned_accounts_addresses(
    browser: Browser,
) -> None:
    bob = browser("10.0.0.2", "Guest")
    assert bob.post("/api/accounts", json={"username": "Bob", "password": PASSWORD}).is_success
    before = browser("10.0.0.2", "Neighbour")  # a guest made before the ban, same network
    mod = browser("10.0.0.9", "Guest")
    assert mod.post("/api/accounts", json={"username": "Mod", "password": PASSWORD}).is_success
    change_role(mod.app.state.sessions, "grant", "Mod")  # type: ignore[attr-defined]
    ban = {"username": "Bob", "reason": "ban evasion", "until": "2099-01-01T00:00:00Z"}
    assert mod.post("/api/moderation/bans", json=ban).status_code == 201

    # Another browser (a private window, or someone else at home) at Bob's address:
    # refused, and told nothing of Bob's ban — nor is its page.
    stranger = browser("10.0.0.2", None)
    fresh = stranger.post("/api/session", json={"name": "Bobby"})
    paused = "Guest play from this network is paused; log in to an account to play."
    assert fresh.json() == {"code": "banned", "message": paused, "detail": paused}
    assert fresh.status_code == 403
    page = stranger.get("/friends")
    assert paused in page.text
    assert "ban evasion" not in page.text and "2099" not in page.text
    # Bob's own browser, its session ended by the ban, is told why and until when.
    again = bob.post("/api/session", json={"name": "Bobby"})
    assert (again.status_code, again.json()["code"]) == (403, "banned")
    assert "ban evasion" in again.json()["message"]
    assert "2099-01-01 00:00 UTC" in again.json()["message"]
    assert "ban evasion" in bob.get("/friends").text
    # An account logs in from there as ever.
    assert stranger.post("/api/login", json={"username": "Mod", "password": PASSWORD}).is_success
    # The guest made there before the ban is someone else as far as the server can tell.
    assert before.get("/api/session").json()["name"] == "Neighbour"
    assert user_id(before)
    # Elsewhere, guests are made as ever.
    assert browser("10.0.0.3", None).post("/api/session", json={"name": "Zed"}).is_success

    # The cover lasts as long as the ban.
    with mod.app.state.sessions() as session:  # type: ignore[attr-defined]
        ended = utcnow() - timedelta(seconds=1)
        session.execute(update(Sanction).where(Sanction.kind == "ban").values(until=ended))
        session.commit()
    assert browser("10.0.0.2", None).post("/api/session", json={"name": "Bobby"}).is_success
