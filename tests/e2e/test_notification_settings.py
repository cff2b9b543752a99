"""The notifications page in a real browser: an account sets its address, a webhook and
the events each tells of, and sees them kept after a reload; the push switch is offered
once the service worker is registered; a guest sees the push switch only. The page passes
axe-core."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.accessibility import assert_accessible

pytestmark = pytest.mark.e2e

PASSWORD = "correct horse battery"


@pytest.fixture
def server(live_server_factory: Callable[..., object]) -> object:
    """A server that would send e-mail (nothing is sent in this test: no event occurs)
    with addresses confirmed at once."""
    return live_server_factory(
        SMTP_HOST="127.0.0.1", SMTP_PORT="9", EMAIL_CONFIRMATION="off", NOTIFY_POLL_SECONDS="0"
    )


def test_an_account_sets_its_notifications(pages) -> None:
    ann = pages.open("ann")
    ann.goto("/")
    ann.locator("#signup-btn").click()
    ann.locator("#account-username").fill("Ann")
    ann.locator("#account-password").fill(PASSWORD)
    ann.locator("#account-submit").click()
    expect(ann.locator("#account-button")).to_contain_text("Ann")
    ann.locator("#account-button").click()
    ann.locator("#my-notifications").click()
    expect(ann.locator("h1")).to_have_text("Notifications")
    expect(ann.locator("#push-toggle")).to_be_enabled()
    expect(ann.locator("#push-status")).to_have_text("Off for this browser.")
    expect(ann.locator("#email-turns")).to_be_checked()

    ann.locator("#notify-email").fill("ann@example.org")
    ann.locator("#notify-webhook").fill("http://127.0.0.1:9/hook")
    ann.locator("#email-endings").uncheck()
    ann.locator("#webhook-reminders").uncheck()
    ann.locator("#notify-save").click()
    expect(ann.locator("#notify-saved")).to_have_text("Saved.")
    expect(ann.locator("#email-state")).to_have_text("Confirmed.")
    expect(ann.locator("#webhook-secret-line")).to_be_visible()
    expect(ann.locator("#webhook-secret")).to_have_text(re.compile(r"^[0-9a-f]{48}$"))
    assert_accessible(ann, "the notifications page")
    pages.shot(ann, "notification-settings")

    ann.reload()
    expect(ann.locator("#notify-email")).to_have_value("ann@example.org")
    expect(ann.locator("#notify-webhook")).to_have_value("http://127.0.0.1:9/hook")
    expect(ann.locator("#email-endings")).not_to_be_checked()
    expect(ann.locator("#webhook-reminders")).not_to_be_checked()
    expect(ann.locator("#email-turns")).to_be_checked()

    pages.allow("status of 422")  # the refusal below, as the browser logs it
    ann.locator("#notify-webhook").fill("ftp://example.org/")
    ann.locator("#notify-save").click()
    expect(ann.locator("#notify-error")).to_contain_text("http:// or https://")


def test_a_guest_is_offered_push_only(pages) -> None:
    guest = pages.open("guest")
    guest.goto("/notifications")
    expect(guest.locator("#push-status")).to_have_text("Off for this browser.")
    expect(guest.locator("#notify-form")).to_have_count(0)
    expect(guest.locator("main")).to_contain_text("E-mails and webhooks are for accounts")
    assert_accessible(guest, "the notifications page of a guest")
