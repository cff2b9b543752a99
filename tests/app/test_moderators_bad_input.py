"""A moderator's action given bad input is refused with a clear error and changes nothing:
reports it cannot answer, a missing reason, a duration of the wrong type."""

from __future__ import annotations

from typing import Any

from tests.app.helpers import NewClient, account
from tests.app.test_moderation import error_of, moderator


def report(reporter: Any, username: str) -> int:
    body = {"username": username, "reason": "abuse", "text": "rude"}
    response = reporter.post("/api/reports", json=body)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def open_reports(mod: Any) -> list[int]:
    return [r["id"] for r in mod.get("/api/moderation/reports").json()["reports"]]


def log_size(mod: Any) -> int:
    return len(mod.get("/api/moderation/log").json()["entries"])


def test_an_action_answers_only_existing_reports_about_its_person(new_client: NewClient) -> None:
    ada, cat = account(new_client, "Ada"), account(new_client, "Cat")
    account(new_client, "Bob")
    mod = moderator(new_client)
    about_ada = report(cat, "Ada")
    about_bob = report(ada, "Bob")
    logged = log_size(mod)  # the role's grant
    actions = [
        ("/api/moderation/warnings", {}),
        ("/api/moderation/mutes", {"minutes": 5}),
        ("/api/moderation/bans", {}),
    ]
    for path, extra in actions:
        for ids, expected in (
            ([about_ada], (422, "report_elsewhere")),
            ([99999], (404, "report_not_found")),
            ([about_bob, 99999], (404, "report_not_found")),
        ):
            body = {"username": "Bob", "reason": "x", "report_ids": ids, **extra}
            assert error_of(mod.post(path, json=body)) == expected, (path, ids)
    assert open_reports(mod) == [about_ada, about_bob]
    assert log_size(mod) == logged
    assert cat.get("/api/session").status_code == 200  # Cat is not banned by mistake
    body = {"username": "Bob", "reason": "x", "report_ids": [about_bob]}
    assert mod.post("/api/moderation/warnings", json=body).status_code == 201
    assert open_reports(mod) == [about_ada]


def test_lifting_and_deleting_need_a_reason(new_client: NewClient) -> None:
    account(new_client, "Bob")
    mod = moderator(new_client)
    mute = {"username": "Bob", "reason": "spam", "minutes": 5}
    assert mod.post("/api/moderation/mutes", json=mute).status_code == 201
    before = log_size(mod)
    for path in ("/api/moderation/mutes/Bob", "/api/moderation/bans/Bob", "/api/moderation/chat/1"):
        assert error_of(mod.delete(path)) == (422, "bad_reason"), path
        assert error_of(mod.delete(path, params={"reason": " "})) == (422, "bad_reason"), path
    assert log_size(mod) == before
    assert mod.delete("/api/moderation/mutes/Bob", params={"reason": "appeal"}).status_code == 200


def test_a_mutes_minutes_are_a_whole_number_not_text_or_a_truth_value(
    new_client: NewClient,
) -> None:
    account(new_client, "Bob")
    mod = moderator(new_client)
    logged = log_size(mod)
    for minutes in ("5", True, 5.5):
        body = {"username": "Bob", "reason": "spam", "minutes": minutes}
        assert error_of(mod.post("/api/moderation/mutes", json=body)) == (422, "bad_request")
    assert log_size(mod) == logged
