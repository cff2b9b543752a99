"""The server's own words in the reader's language: the pages (``Accept-Language``, the
picker's ``?lang=`` kept in a cookie, an account's setting above both), the games' blurbs
and options in GET /api/games, refusals over HTTP and on a socket, and e-mails in their
recipient's language."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

import games
from app.i18n.languages import LANGUAGES
from app.routes.game_texts import BLURBS, CHOICE_LABELS, OPTION_LABELS, WALKTHROUGHS
from tests.app.helpers import NewClient, account
from tests.app.notifying import account as notified_account
from tests.app.notifying import deliver, emit, notifying_app, table_awaiting, turn
from tests.app.receivers import smtp_server, text_of
from tests.app.test_moderation import moderator


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found is not None, html[:200]
    return found.group(1)


def test_the_home_page_speaks_the_browsers_language_and_the_pickers(
    new_client: NewClient,
) -> None:
    browser = new_client(None)
    spanish = browser.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).text
    assert page_language(spanish) == "es"
    assert "Juegos de cartas para jugar con amigos" in spanish
    assert "Abrir la mesa" in spanish
    assert "Card games to play with friends" not in spanish

    french = browser.get("/?lang=fr", headers={"Accept-Language": "es"})
    assert "lang=fr" in french.headers["set-cookie"]
    assert page_language(french.text) == "fr"
    assert "Des jeux de cartes à jouer entre amis" in french.text
    # The meta description is worded too.
    assert 'content="Jouez à Cupid, Coins, Cups, Royal Wife-Swap et Usurp' in french.text
    # The cookie keeps it.
    kept = browser.get("/", headers={"Accept-Language": "es"}).text
    assert "Des jeux de cartes à jouer entre amis" in kept

    english = browser.get("/?lang=en").text
    assert "Card games to play with friends" in english


def test_every_page_has_a_picker_of_every_language_in_its_own_words(
    new_client: NewClient,
) -> None:
    page = new_client(None).get("/leaderboard?game=coins&lang=es").text
    picker = re.search(r'<nav class="language-picker"[^>]*>(.*?)</nav>', page, re.S)
    assert picker is not None
    for code, own_name in LANGUAGES.items():
        link = re.search(rf'<a href="[^"]*lang={code}"[^>]*>{own_name}</a>', picker.group(1))
        assert link is not None, (code, picker.group(1))
    current = re.findall(r'<a [^>]*aria-current="true"[^>]*>([^<]+)</a>', picker.group(1))
    assert current == ["Español"]
    # Each link is the same page (its other parameters kept) in that language.
    assert 'href="/leaderboard?game=coins&amp;lang=fr"' in picker.group(1)
    assert "<h1>Clasificación</h1>" in page


def test_a_bad_link_says_so_in_the_readers_language(new_client: NewClient) -> None:
    response = new_client(None).get("/rooms/NOSUCH", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    text = unescape(response.text)
    assert "Cette table n'existe pas" in text
    assert "Aucune table n'a ce lien ou ce code." in text


def test_the_games_blurbs_and_options_are_in_the_readers_language(
    new_client: NewClient,
) -> None:
    english = new_client(None).get("/api/games").json()
    french = new_client(None).get("/api/games", headers={"Accept-Language": "fr"}).json()
    assert [game["name"] for game in french] == [game["name"] for game in english]
    # The games' names are names: the same in every language.
    assert [game["title"] for game in french] == [game["title"] for game in english]
    coins = next(game for game in french if game["name"] == "coins")
    assert coins["blurb"].startswith("Trois joueurs, le jeu espagnol")
    assert coins["options"][0]["label"] == "Points pour gagner"
    for mine, theirs in zip(french, english, strict=True):
        assert mine["blurb"] != theirs["blurb"]
    cups = next(game for game in french if game["name"] == "cups")
    shortfall = next(option for option in cups["options"] if option["name"] == "shortfall")
    assert shortfall["choices"] == ["forgiven", "democratic_league", "magellan"]
    assert shortfall["choice_labels"] == ["Pardonné", "Ligue démocratique", "Magellan"]


def test_the_games_words_the_server_sends_are_all_listed_for_translation() -> None:
    for name in games.REGISTRY:
        presentation = games.game(name).presentation
        assert BLURBS[name] == presentation.blurb
        assert WALKTHROUGHS[name] == tuple(presentation.walkthrough)
        for option in games.get(name).options_schema():
            assert option["label"] in OPTION_LABELS
            words = [c for c in option.get("choices") or [] if isinstance(c, str)]
            assert all(choice in CHOICE_LABELS for choice in words)


def test_a_refusal_is_worded_in_the_requests_language(new_client: NewClient) -> None:
    ann = new_client("Ann")
    for language, said in (("es", "Esa sala no existe."), ("fr", "Cette salle n'existe pas.")):
        refused = ann.post("/api/rooms/NOSUCH/join", headers={"Accept-Language": language})
        assert refused.status_code == 404
        assert refused.json()["code"] == "room_not_found"  # codes are for programs
        assert refused.json()["message"] == said
    english = ann.post("/api/rooms/NOSUCH/join")
    assert english.json()["message"] == "There is no such room."
    # A refusal with params fills them into the translation.
    too_long = ann.post("/api/session", json={"name": "x" * 41}, headers={"Accept-Language": "fr"})
    assert too_long.json()["message"] == "Les noms comptent au plus 20 caractères."


def test_a_sockets_errors_are_in_its_language(new_client: NewClient) -> None:
    ann = new_client("Ann")
    with ann.websocket_connect("/ws/rooms/nope", headers={"Accept-Language": "fr"}) as ws:
        message = ws.receive_json()
        assert message["code"] == "room_not_found"
        assert message["message"] == "Cette salle n'existe pas."
    room = ann.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    with ann.websocket_connect(f"/ws/rooms/{room['id']}", headers={"Accept-Language": "es"}) as ws:
        ws.send_text("{not json")
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "bad_message"
        assert message["message"] == "Ese mensaje no es JSON válido."


def test_an_accounts_language_outranks_the_cookie_and_the_browser(
    new_client: NewClient,
) -> None:
    ann = account(new_client, "ann")
    ann.cookies.set("lang", "fr")
    assert page_language(ann.get("/").text) == "fr"
    assert ann.put("/api/me/language", json={"language": "es"}).json() == {"language": "es"}
    page = ann.get("/", headers={"Accept-Language": "fr"}).text
    assert page_language(page) == "es"
    refused = ann.post("/api/rooms/NOSUCH/join", headers={"Accept-Language": "fr"})
    assert refused.json()["message"] == "Esa sala no existe."
    with ann.websocket_connect("/ws/rooms/nope", headers={"Accept-Language": "fr"}) as ws:
        assert ws.receive_json()["message"] == "Esa sala no existe."

    # A language Parlour does not speak is refused.
    bad = ann.put("/api/me/language", json={"language": "de"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_language"
    # Only accounts have the setting.
    guest = new_client("Bob").put("/api/me/language", json={"language": "es"})
    assert guest.status_code == 403


def test_an_account_that_picks_a_language_keeps_it(new_client: NewClient) -> None:
    ann = account(new_client, "ann")
    assert page_language(ann.get("/tables?lang=fr").text) == "fr"
    ann.cookies.delete("lang")
    assert page_language(ann.get("/", headers={"Accept-Language": "es"}).text) == "fr"
    # In every browser it signs in from.
    other = new_client(None)
    assert other.post("/api/login", json={"username": "ann", "password": "correct horse battery"})
    assert page_language(other.get("/", headers={"Accept-Language": "es"}).text) == "fr"


def test_an_e_mail_is_in_its_recipients_language(database_url: str, tmp_path: Path) -> None:
    address = "ann@example.org"
    with smtp_server() as (mail, port), notifying_app(database_url, tmp_path, port) as timed:
        ann, bob = notified_account(timed, "ann"), notified_account(timed, "bob")
        assert ann.put("/api/me/language", json={"language": "es"}).status_code == 200
        assert ann.put("/api/me/notifications", json={"email": address}).status_code == 200
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        assert deliver(timed) == 1
        (message,) = mail.messages
        assert message["Subject"].startswith("Parlour: Es tu turno en Cupid (hasta el ")
        text = text_of(message)
        assert "Es tu turno en Cupid" in text
        assert "Recibes estos correos de Parlour porque los pediste." in text
        assert "It is your turn" not in text


def test_a_request_refused_before_the_app_reads_it_is_worded_too(new_client: NewClient) -> None:
    refused = new_client("Ann").post(
        "/api/rooms",
        content=b"game=cupid",
        headers={"Content-Type": "text/plain", "Accept-Language": "fr"},
    )
    assert refused.status_code == 415
    assert refused.json()["message"] == "Envoyez le corps de la requête en JSON."


def test_every_page_opens_in_spanish(new_client: NewClient) -> None:
    ann = account(new_client, "ann")
    room = ann.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    expected = {
        f"/rooms/{room['id']}": "Cupid en resumen",
        f"/rooms/{room['id']}/watch": "Las reglas completas de Cupid",
        "/tables": "<h1>Tus mesas</h1>",
        "/friends": "Pedir amistad",
        "/history": "Partidas públicas recientes",
        "/leaderboard": "Mejores jugadores",
        "/players/ann": "Evolución del nivel",
        "/rules/cupid": "Jugar a Cupid",
        "/notifications": "En este dispositivo",
        "/matches/nosuch": "Esa partida no existe",
    }
    for path, text in expected.items():
        page = unescape(ann.get(path, headers={"Accept-Language": "es"}).text)
        assert page_language(page) == "es", path
        assert text in page, path


def test_a_moderators_word_and_a_ban_reach_the_person_in_their_accounts_language(
    new_client: NewClient,
) -> None:
    cat = account(new_client, "Cat")
    assert cat.put("/api/me/language", json={"language": "fr"}).status_code == 200
    mod = moderator(new_client)
    with cat.websocket_connect("/ws/me") as page:
        warned = mod.post("/api/moderation/warnings", json={"username": "Cat", "reason": "be kind"})
        assert warned.status_code == 201, warned.text
        assert page.receive_json()["text"] == "Un modérateur vous avertit : be kind"
        body = {"username": "Cat", "reason": "cheating", "until": "2099-01-01T00:00:00Z"}
        assert mod.post("/api/moderation/bans", json=body).status_code == 201
        told = []
        with pytest.raises(WebSocketDisconnect):
            while True:
                told.append(page.receive_json())
    assert told[-1]["message"] == (
        "Ce compte est banni jusqu'au 2099-01-01 00:00 UTC. Motif : cheating"
    )
