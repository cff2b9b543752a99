"""Which language a page is in: ``?lang=`` (kept in the ``lang`` cookie), else the cookie,
else the browser's ``Accept-Language``, else English."""

from __future__ import annotations

import re

from app.i18n.languages import from_accept_language
from tests.app.helpers import NewClient


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found is not None, html[:200]
    return found.group(1)


def test_accept_language_picks_the_first_language_parlour_speaks() -> None:
    assert from_accept_language("es-MX,es;q=0.9,en;q=0.5") == "es"
    assert from_accept_language("de-DE,de;q=0.9,fr;q=0.8,en;q=0.7") == "fr"
    assert from_accept_language("en;q=0.2, fr-CA;q=0.8") == "fr"
    assert from_accept_language("de, it;q=0.5") is None
    assert from_accept_language("fr;q=0, es") == "es"
    assert from_accept_language("") is None


def test_a_page_is_in_the_language_asked_for_and_the_choice_is_kept(
    new_client: NewClient,
) -> None:
    browser = new_client(None)
    assert page_language(browser.get("/").text) == "en"
    spanish = browser.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert page_language(spanish.text) == "es"
    assert 'id="catalogue"' in spanish.text  # the scripts' words come with the page
    french = browser.get("/?lang=fr", headers={"Accept-Language": "es"})
    assert page_language(french.text) == "fr"
    assert "lang=fr" in french.headers["set-cookie"]
    # The cookie outranks the browser's languages from then on.
    assert page_language(browser.get("/", headers={"Accept-Language": "es"}).text) == "fr"
    assert page_language(browser.get("/?lang=en").text) == "en"
    assert 'id="catalogue"' not in browser.get("/").text
    # A language Parlour does not speak changes nothing.
    assert page_language(browser.get("/?lang=de").text) == "en"
