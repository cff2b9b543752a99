"""What the moderation page draws from: a report's evidence says which of its lines a
moderator deleted since (no "Delete line" on them), a person's record carries the reports
about them, and moderators find the page in the header."""

from __future__ import annotations

from tests.app.helpers import NewClient, account, started_room
from tests.app.test_moderation import moderator, said


def test_deleted_lines_are_marked_in_the_evidence(new_client: NewClient) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    with bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb:
        bad = said(wb, "table", "a slur")
        said(wb, "table", "fine words")
    body = {"username": "Bob", "reason": "abuse", "text": "", "chat_id": bad["id"]}
    assert ann.post("/api/reports", json=body).status_code == 201
    mod.delete(f"/api/moderation/chat/{bad['id']}", params={"reason": "slur"})
    [report] = mod.get("/api/moderation/reports").json()["reports"]
    assert report["evidence"]["line"]["deleted"] is True
    assert [(x["text"], x["deleted"]) for x in report["evidence"]["lines"]] == [
        ("a slur", True),
        ("fine words", False),
    ]
    [about] = mod.get("/api/moderation/people/Bob").json()["reports"]
    assert about["evidence"]["line"]["deleted"] is True


def test_the_header_links_the_moderation_page_for_moderators_only(new_client: NewClient) -> None:
    ann = account(new_client, "Ann")
    mod = moderator(new_client)
    assert 'id="moderation-link"' in mod.get("/").text
    assert 'id="moderation-link"' not in ann.get("/").text
