"""HTML pages (Jinja2). The pages are thin: the browser modules under static/js do the rest.

Every page gets the visitor's identity: a first-time visitor is given a guest identity
(a generated name and the signed session cookie) so that they can create or join a room
without filling in a form first. The page hands the browser its boot data (who you are,
which room or match) as JSON in the page; everything live comes over /api and /ws.
The rules pages are rendered from docs/rules/<game>.md with the ``markdown`` package.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

import games
from app import store
from app.identity import guest_name, new_user_id, set_session_cookie
from app.routes.games import game_facts

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "docs" / "rules"

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=ROOT / "templates")


def _games() -> list[dict[str, Any]]:
    """Every game's facts for the page (the same as GET /api/games) and whether it has a
    rules page."""
    return [
        {**game_facts(games.get(name)), "has_rules": (RULES_DIR / f"{name}.md").exists()}
        for name in sorted(games.REGISTRY)
    ]


def _identity(request: Request) -> tuple[dict[str, str], str | None]:
    """The visitor as ``{"id", "name"}``, and a new user id when a cookie must be set."""
    state = request.app.state
    user_id = state.signer.read(request.cookies.get(state.settings.cookie_name))
    with state.sessions() as session:
        user = store.get_user(session=session, user_id=user_id) if user_id else None
        if user is not None:
            return {"id": user.id, "name": user.name}, None
        created = store.save_user(session=session, user_id=new_user_id(), name=guest_name())
        return {"id": created.id, "name": created.name}, created.id


def _page(
    request: Request, template: str, boot: dict[str, Any], status: int = 200, **context: Any
) -> Response:
    user, new_id = _identity(request)
    facts = _games()
    boot = {"user": user, "games": facts, **boot}
    response = templates.TemplateResponse(
        request,
        template,
        {
            "user": user,
            "games": facts,
            # </ cannot appear inside the JSON text, so the script block cannot be closed early.
            "boot": Markup(json.dumps(boot).replace("</", "<\\/")),
            **context,
        },
        status_code=status,
    )
    if new_id is not None:
        state = request.app.state
        set_session_cookie(response, state.signer, new_id, state.settings)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    return _page(request, "home.html", {"page": "home"}, title="Parlour")


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
def room(request: Request, room_id: str) -> Response:
    return _page(
        request, "room.html", {"page": "room", "room": room_id, "watch": False}, title="Table"
    )


@router.get("/rooms/{room_id}/watch", response_class=HTMLResponse)
def watch(request: Request, room_id: str) -> Response:
    return _page(
        request, "room.html", {"page": "room", "room": room_id, "watch": True}, title="Watching"
    )


@router.get("/join/{code}")
def join_by_code(code: str) -> Response:
    """Short links: /join/ABC123 opens the room page, which accepts codes as well as ids."""
    return RedirectResponse(f"/rooms/{code.strip().upper()}", status_code=303)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request) -> Response:
    return _page(request, "history.html", {"page": "history"}, title="History")


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def review(request: Request, match_id: str) -> Response:
    return _page(request, "review.html", {"page": "review", "match": match_id}, title="Review")


@lru_cache(maxsize=16)
def _rules_html(path: Path, mtime: float) -> str:
    text = path.read_text(encoding="utf-8")
    html: str = markdown.markdown(text, extensions=["tables", "sane_lists", "toc"])
    return html


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules(request: Request, game: str) -> Response:
    path = RULES_DIR / f"{game}.md"
    if game not in games.REGISTRY or not path.exists():
        return _page(
            request,
            "message.html",
            {"page": "message"},
            status=404,
            title="No such game",
            heading="No such game",
            text="There are no rules for that game here.",
        )
    html = _rules_html(path, path.stat().st_mtime)
    return _page(
        request,
        "rules.html",
        {"page": "rules", "game": game},
        title=f"{games.get(game).title} — rules",
        game=games.get(game),
        rules_html=Markup(html),
    )
