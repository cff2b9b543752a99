"""HTML pages (Jinja2). The pages are thin: the browser modules under static/js do the rest.

Every page gets the visitor's identity. A first-time visitor (or one whose session ended)
is offered a generated guest name but nothing is stored for them: their guest (a user row,
a session and its signed cookie) is made when they first do something — join, open a
room, set a name, chat — by the browser's first such call (static/js/lib/api.js), so that
crawlers and passers-by leave no rows behind. A session past half its life is extended, so
a browser in use stays signed in. The page hands the browser its boot data
(who you are, which room or match) as JSON in the page, escaped for its script block by
the one ``script_json`` filter (app/http/page_data.py); everything live comes over /api
and /ws.
The rules pages are rendered from docs/rules/<game>.md with the ``markdown`` package, or
from docs/rules/<language>/<game>.md where the rules are written in the reader's language.

Each page speaks its reader's language (app/i18n/): the account's setting, else the ``lang``
cookie the picker sets, else ``Accept-Language``. A page's own texts (its title, meta
description, heading) are given to ``_page`` as :class:`Say` — a message id and its params —
and worded there, once the language is known; a signed-in account that picks a language
(``?lang=``) keeps it as its setting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import markdown
from anyio import from_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

import games
from app import store
from app.http.assets import site_assets
from app.http.deps import ADDRESS_CHARS, client_address
from app.http.page_data import script_json
from app.i18n.catalogues import Words, words
from app.i18n.client import client_catalogue
from app.i18n.languages import LANGUAGES, known
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.limits.quotas import Limiter
from app.models import Match, utcnow
from app.moderation.sanctions import refuse_if_origin_banned
from app.people.cookie import set_session_cookie
from app.people.lookup import user_by_name
from app.people.names import guest_name
from app.people.sessions import Authenticator, Identity, Origin, lifetime
from app.refusal import Refusal
from app.rooms import Rooms
from app.rooms.your_tables import awaiting_count, your_tables
from app.routes.games import game_facts
from app.routes.guide import table_guide
from app.routes.players import player_record
from app.rules_texts import RULES_DIR, rules_path
from app.store import moderation as moderation_store

ROOT = Path(__file__).resolve().parents[2]

router = APIRouter(include_in_schema=False)


@cache
def templates_in(language: str) -> Jinja2Templates:
    """The pages in ``language``: Jinja2 with its i18n extension over that language's
    catalogue (``{% trans %}``, ``gettext``, ``ngettext`` in the templates)."""
    env = Environment(
        loader=FileSystemLoader(ROOT / "templates"),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
    )
    said = words(language)
    # ``{{ _("Hello {name}", name=x) }}``: the catalogue's text (trusted: it may hold markup)
    # with its {placeholders} filled in, the values escaped (``Markup.format``).

    def gettext(message: str, /, **params: Any) -> Markup:
        return Markup(said.translations.gettext(message)).format(**params)

    def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Markup:
        text = said.translations.ngettext(singular, plural, n)
        return Markup(text).format(n=said.number(n), **params)

    def pgettext(context: str, message: str, /, **params: Any) -> Markup:
        return Markup(said.translations.pgettext(context, message)).format(**params)

    env.install_gettext_callables(gettext, ngettext, newstyle=False, pgettext=pgettext)  # type: ignore[attr-defined]
    env.globals["number"] = said.number
    env.globals["date"] = said.date
    env.globals["Markup"] = Markup
    env.filters["script_json"] = script_json
    # Static files by their content-hashed addresses, and each page's modules to preload
    # (app/http/assets.py).
    env.globals["static_url"] = lambda path: site_assets().url(path)
    env.globals["module_preloads"] = lambda entry: site_assets().preloads(entry)
    env.globals["languages"] = LANGUAGES
    return Jinja2Templates(env=env)


@dataclass(frozen=True)
class Say:
    """A page's text, worded in the page's language once ``_page`` knows it: a message id
    (marked with ``N_``) and its params (which may be ``Say`` too), or a function of the
    language's words."""

    message: str | Callable[[Words], str]
    params: dict[str, Any] = field(default_factory=dict)

    def worded(self, said: Words) -> str:
        if callable(self.message):
            return self.message(said)
        params = {k: v.worded(said) if isinstance(v, Say) else v for k, v in self.params.items()}
        return said.gettext(self.message, **params)


def say(message: str | Callable[[Words], str], /, **params: Any) -> Say:
    return Say(message, params)


def _games(language: str) -> list[dict[str, Any]]:
    """Every game's facts for the page (the same as GET /api/games) and whether it has a
    rules page."""
    return [
        {
            **game_facts(games.get(name), language),
            "has_rules": (RULES_DIR / f"{name}.md").exists(),
        }
        for name in sorted(games.REGISTRY)
    ]


def _identity(request: Request) -> tuple[Identity | None, bool]:
    """The visitor (None: nobody yet), and whether their session cookie must be reset.
    Found once per request: a route that reads it before ``_page`` does (for the page's
    language, or who may see a match) must not extend the session a second time, or the
    page would not reset the cookie the first extension called for."""
    found: tuple[Identity | None, bool] | None = getattr(request.state, "visitor", None)
    if found is None:
        found = request.state.visitor = _find_identity(request)
    return found


def _find_identity(request: Request) -> tuple[Identity | None, bool]:
    auth: Authenticator = request.app.state.auth
    user = auth.identify_now(request.cookies.get(request.app.state.settings.cookie_name))
    if user is None:
        return None, False
    span = lifetime(user.is_account)
    if user.expires_at - utcnow() < span / 2:
        expires_at = utcnow() + span
        with auth.sessions() as session:
            store.extend_session(session=session, session_id=user.session_id, expires_at=expires_at)
        auth.forget_user(user.id)
        return replace(user, expires_at=expires_at), True
    return user, False


def _header_facts(request: Request, identity: Identity) -> tuple[int, bool]:
    """What the header shows the visitor, rendered here so that nothing shifts when the
    page loads: how many of their tables await them, and whether it links the moderation
    page (a moderator's). One database session for both."""
    with request.app.state.sessions() as session:
        rows = store.unfinished_tables(session=session, user_id=identity.id)
        moderator = identity.is_account and moderation_store.is_moderator(
            session=session, user_id=identity.id
        )
    held = request.app.state.rooms.registry.held
    return awaiting_count(your_tables(rows, identity.id, held)), moderator


def _language(request: Request) -> str:
    """The language of the page being answered (as ``_page`` finds it), for what is worded
    before ``_page`` is called (the boot data)."""
    identity, _ = _identity(request)
    return request_language(request, account=identity.language if identity else None)


def _keep_language(request: Request, identity: Identity) -> Identity:
    """A signed-in account that picks a language (``?lang=``) keeps it as its setting."""
    asked = known(request.query_params.get("lang"))
    if asked is None or not identity.is_account or asked == identity.language:
        return identity
    auth: Authenticator = request.app.state.auth
    with auth.sessions() as session:
        store.set_language(session=session, user_id=identity.id, language=asked)
    auth.forget_user(identity.id)
    return replace(identity, language=asked)


def _ban_on(request: Request, language: str) -> str | None:
    """Why and until when a visitor with no session may not start one: their browser, or
    address, is a banned person's (``POST /api/session`` would answer ``banned``)."""
    marks = request.app.state.browser_marks
    origin = Origin(marks.read(request.cookies), client_address(request)[:ADDRESS_CHARS])
    with request.app.state.sessions() as session:
        try:
            refuse_if_origin_banned(session, origin)
        except Refusal as refused:
            return refused.text(language)
    return None


def _page(
    request: Request, template: str, boot: dict[str, Any], status: int = 200, **context: Any
) -> Response:
    identity, set_cookie = _identity(request)
    if identity is not None:
        identity = _keep_language(request, identity)
    language = request_language(request, account=identity.language if identity else None)
    said = words(language)
    awaiting = 0
    if identity is None:
        user: dict[str, str | bool | None] = {"id": None, "name": guest_name(), "username": None}
        # A banned visitor is told so, rather than offered a guest they cannot start.
        banned = _ban_on(request, language)
        if banned is not None:
            boot = {**boot, "banned": banned}
    else:
        awaiting, moderator = _header_facts(request, identity)
        user = {
            "id": identity.id,
            "name": identity.name,
            "username": identity.username,
            # The header links the moderation page for moderators.
            "moderator": moderator,
        }
    facts = _games(language)
    boot = {"user": user, "games": facts, "awaiting": awaiting, **boot}
    context = {k: v.worded(said) if isinstance(v, Say) else v for k, v in context.items()}
    response = templates_in(language).TemplateResponse(
        request,
        template,
        {
            "user": user,
            "games": facts,
            "boot": boot,
            "awaiting": awaiting,
            "language": language,
            # The scripts' words in this language (none in English: the ids are English).
            "catalogue": client_catalogue(language),
            **context,
        },
        status_code=status,
    )
    if set_cookie and identity is not None:
        state = request.app.state
        max_age = int(lifetime(identity.is_account).total_seconds())
        set_session_cookie(response, state.signer, identity.session_id, state.settings, max_age)
    response.headers["Cache-Control"] = "no-store"
    return response


# What a search engine shows under each page's link (its meta description).
HOME_TEXT = N_(
    "Play Cupid, Coins, Cups, Royal Wife-Swap and Usurp, five original card games, with "
    "friends in the browser: open a table, share its link, or let computer players fill it."
)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    return _page(
        request, "home.html", {"page": "home"}, title="Parlour", description=say(HOME_TEXT)
    )


def _not_found(request: Request, heading: Say, text: Say) -> Response:
    """A bad link: 404, in the site's own page, with the way home."""
    return _page(
        request,
        "message.html",
        {"page": "message"},
        status=404,
        title=heading,
        heading=heading,
        text=text,
        description=say(N_("{heading} on Parlour. {text}"), heading=heading, text=text),
    )


def _room_game(request: Request, room_id_or_code: str) -> str | None:
    """The game of the room with that id or short code (any case), or None: no such room.

    A page answers whether a code exists as plainly as the API does, so trying codes here
    counts against the same quota (app/limits/quotas.py); over it, Refusal (a 429 page)."""
    limiter: Limiter = request.app.state.limiter
    from_thread.run(limiter.look_up, room_id_or_code.strip(), client_address(request))
    with request.app.state.sessions() as session:
        room = store.find_room(session=session, key=room_id_or_code)
        return None if room is None else room.game


def _room_page(request: Request, room_id: str, *, watch: bool) -> Response:
    """The room page, with the game's rules in short for the table's "Rules" drawer, and
    its help on actions and first-match walkthrough (app/routes/guide.py)."""
    game = _room_game(request, room_id)
    if game is None:
        return _not_found(request, say(NO_ROOM), say(NO_ROOM_TEXT))
    rooms: Rooms = request.app.state.rooms
    language = _language(request)
    try:
        # The room as GET /api/rooms/{id} describes it, in the page: the browser starts
        # drawing (and opens the socket) without asking for it first.
        live = from_thread.run(rooms.get, room_id)
    except Refusal:
        return _not_found(request, say(NO_ROOM), say(NO_ROOM_TEXT))
    described = rooms.describe(live, language)
    # With several processes, the proxy sends the socket to the process named here: the
    # room's referee, so that a move need not cross between processes.
    referee = from_thread.run(rooms.referee_name, live)
    title = games.get(game).title
    return _page(
        request,
        "room.html",
        {
            "page": "room",
            "room": room_id,
            "watch": watch,
            "room_info": described,
            "referee": referee,
            "guide": table_guide(game, language),
        },
        title=say(N_("Watching")) if watch else say(N_("Table")),
        description=say(
            N_(
                "A table of {game} on Parlour: watch the match, or take a seat and play it in "
                "the browser with friends and computer players."
            ),
            game=title,
        ),
        game=games.get(game),
        rules_summary=Markup(_rules_summary(game, language)),
    )


NO_ROOM = N_("No such table")
NO_ROOM_TEXT = N_("There is no table with that link or code. Check it, or open a new table.")


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
def room(request: Request, room_id: str) -> Response:
    return _room_page(request, room_id, watch=False)


@router.get("/rooms/{room_id}/watch", response_class=HTMLResponse)
def watch(request: Request, room_id: str) -> Response:
    return _room_page(request, room_id, watch=True)


@router.get("/join/{code}")
def join_by_code(request: Request, code: str) -> Response:
    """Short links: /join/ABC123 opens the room page, which accepts codes as well as ids."""
    if _room_game(request, code) is None:
        return _not_found(request, say(NO_ROOM), say(NO_ROOM_TEXT))
    return RedirectResponse(f"/rooms/{code.strip().upper()}", status_code=303)


@router.get("/tables", response_class=HTMLResponse)
def tables(request: Request) -> Response:
    return _page(
        request,
        "tables.html",
        {"page": "tables"},
        title=say(N_("Your tables")),
        description=say(
            N_(
                "Your unfinished Parlour tables, live and turn-based: those awaiting your move "
                "first, with the game, your opponents, whose turn it is and the deadline."
            )
        ),
    )


@router.get("/friends", response_class=HTMLResponse)
def friends(request: Request) -> Response:
    return _page(
        request,
        "friends.html",
        {"page": "friends"},
        title=say(N_("Friends")),
        description=say(
            N_("Your friends on Parlour: who is here and at which table; asks and blocks.")
        ),
    )


@router.get("/moderation", response_class=HTMLResponse)
def moderation(request: Request) -> Response:
    """The moderators' page; its data comes from /api/moderation, which refuses others."""
    return _page(
        request,
        "moderation.html",
        {"page": "moderation"},
        title=say(N_("Moderation")),
        description=say(N_("The report queue, people's records and the moderators' audit log.")),
    )


@router.get("/history", response_class=HTMLResponse)
def history(request: Request) -> Response:
    return _page(
        request,
        "history.html",
        {"page": "history"},
        title=say(N_("History")),
        description=say(
            N_(
                "Finished matches of Parlour's card games: who played, the scores, the rating "
                "changes, a review of each move by move and its downloads."
            )
        ),
    )


@router.get("/players/{username}", response_class=HTMLResponse)
def player(request: Request, username: str) -> Response:
    """An account's page; a name no account holds answers 404 (as GET /api/players does)."""
    identity, _ = _identity(request)
    with request.app.state.sessions() as session:
        user = user_by_name(session=session, name=username.strip())
        if user is None or user.username is None:
            return _not_found(
                request,
                say(N_("No such player")),
                say(N_("There is no player called {username} here."), username=username),
            )
        record = player_record(session, user, identity.id if identity is not None else None)
    return _page(
        request,
        "player.html",
        {"page": "player", "player": username},
        title=user.username,
        record=record,
        description=say(
            N_(
                "{username} on Parlour: the card games they play, their wins, their "
                "ratings and how those went, and their recent matches."
            ),
            username=user.username,
        ),
    )


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard(request: Request) -> Response:
    return _page(
        request,
        "leaderboard.html",
        {"page": "leaderboard"},
        title=say(N_("Leaderboard")),
        description=say(
            N_(
                "The best rated players of each of Parlour's five card games, by their "
                "OpenSkill rating from rated matches."
            )
        ),
    )


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def review(request: Request, match_id: str) -> Response:
    identity, _ = _identity(request)
    with request.app.state.sessions() as session:
        # A private room's match is shown only to its players (as its API calls are).
        match = store.load_match(session=session, match_id=match_id)
        found = match is not None and (
            store.match_visible_to(
                session=session,
                match_id=match_id,
                viewer_id=identity.id if identity is not None else None,
            )
        )
    if match is None or not found:
        return _not_found(
            request,
            say(N_("No such match")),
            say(N_("There is no match with that link. Your finished matches are in the history.")),
        )
    return _page(
        request,
        "review.html",
        {"page": "review", "match": match_id},
        title=say(N_("Review")),
        heading=say(lambda said: _review_heading(match, said)),
        description=say(
            N_(
                "A finished match on Parlour, move by move: every hand shown, each move in "
                "words, the score as it went and what was said at the table."
            )
        ),
    )


def _review_heading(match: Match, said: Words) -> str:
    """The review's heading, as pages/review.js writes it once the record has loaded: the
    game and who played ("Coins: Ada vs Bob vs Cleo"), here so the page opens with it."""
    names = {player["seat"]: player.get("name") for player in match.players}
    seats = [
        names.get(seat) or said.gettext(N_("Seat {seat}"), seat=said.number(seat + 1))
        for seat in range(match.seat_count)
    ]
    players = seats[0]
    for name in seats[1:]:
        players = said.gettext(N_("{players} vs {name}"), players=players, name=name)
    return said.gettext(N_("{game}: {players}"), game=games.get(match.game).title, players=players)


@lru_cache(maxsize=32)
def _rules_html(path: Path, mtime: float) -> str:
    text = path.read_text(encoding="utf-8")
    html: str = markdown.markdown(text, extensions=["tables", "sane_lists", "toc"])
    return html


@lru_cache(maxsize=32)
def _summary_html(path: Path, mtime: float) -> str:
    """The rules' first section ("In short", "En resumen", "En bref"): the table's
    one-screen summary. Found by its place rather than its heading, so that it is found in
    every language the rules are written in."""
    text = path.read_text(encoding="utf-8")
    heading = text.index("\n## ")
    start = text.index("\n", heading + 1)
    end = text.find("\n## ", start)
    html: str = markdown.markdown(
        text[start : end if end >= 0 else None], extensions=["sane_lists"]
    )
    return html


def _rules_summary(game: str, language: str) -> str:
    path = rules_path(game, language)
    return _summary_html(path, path.stat().st_mtime)


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules(request: Request, game: str) -> Response:
    if game not in games.REGISTRY or not (RULES_DIR / f"{game}.md").exists():
        return _not_found(
            request, say(N_("No such game")), say(N_("There are no rules for that game here."))
        )
    path = rules_path(game, _language(request))
    html = _rules_html(path, path.stat().st_mtime)
    return _page(
        request,
        "rules.html",
        {"page": "rules", "game": game},
        title=say(N_("{game} — rules"), game=games.get(game).title),
        description=say(
            lambda said: said.gettext(
                N_("The rules of {game}: {blurb}"),
                game=games.get(game).title,
                blurb=game_facts(games.get(game), said.language)["blurb"],
            )
        ),
        game=games.get(game),
        rules_html=Markup(html),
    )
