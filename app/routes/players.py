"""Players and ratings over HTTP: a player's page (matches, results per game, ratings and
their history, average accuracy by the computer's analysis) and each game's leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy.orm import Session

import games
from app import store
from app.http.deps import DbSession, MaybeUser
from app.i18n.marks import N_
from app.models import User, iso
from app.people.lookup import user_by_name
from app.records import history
from app.refusal import Refusal
from app.store import MatchFilters, analyses

router = APIRouter(prefix="/api")

PAGE = 20


@router.get("/players/{username}")
def get_player(username: str, session: DbSession, viewer: MaybeUser) -> dict[str, Any]:
    """An account's record: every game it played (played, won and rating, counting every
    match), the history of each rating and its newest matches, both only of the matches
    the caller may see (more through /api/matches?player=)."""
    user = user_by_name(session=session, name=username.strip())
    if user is None or user.username is None:
        raise Refusal(
            "player_not_found", N_("There is no player called {username}."), 404, username=username
        )
    return player_record(session, user, viewer.id if viewer else None)


def player_record(session: Session, user: User, viewer_id: str | None) -> dict[str, Any]:
    """An account's record as ``viewer_id`` may see it (GET /api/players/{username}; the
    player page draws its first view from it on the server)."""
    results = {
        game: (played, won)
        for game, played, won in store.results_by_game(session=session, user_id=user.id)
    }
    ratings = {row.game: row for row in store.ratings_of(session=session, user_id=user.id)}
    accuracy = analyses.accuracy_by_game(session=session, user_id=user.id, viewer_id=viewer_id)
    changes: dict[str, list[dict[str, Any]]] = {}
    for change in store.rating_history(session=session, user_id=user.id, viewer_id=viewer_id):
        changes.setdefault(change.game, []).append(
            {
                "match_id": change.match_id,
                "at": iso(change.at),
                "before": change.rating_before,
                "rating": change.rating_after,
            }
        )
    per_game = []
    for game in sorted(set(results) | set(ratings)):
        played, won = results.get(game, (0, 0))
        rating = ratings.get(game)
        per_game.append(
            {
                "game": game,
                "title": games.get(game).title,
                "played": played,
                "won": won,
                "rating": rating.rating if rating else None,
                "mu": rating.mu if rating else None,
                "sigma": rating.sigma if rating else None,
                "rated_matches": rating.matches if rating else 0,
                "history": changes.get(game, []),
                # The mean of the accuracies the computer's analysis gave them, over the
                # analysed matches the caller may see (None: none yet).
                "accuracy": accuracy[game][0] if game in accuracy else None,
                "analysed_matches": accuracy[game][1] if game in accuracy else 0,
            }
        )
    newest = history.page(
        session,
        MatchFilters(user_id=user.id),
        viewer_id=viewer_id,
        cursor=None,
        limit=PAGE,
    )
    return {
        "user_id": user.id,
        "username": user.username,
        "joined": iso(user.created_at),
        "games": per_game,
        **newest,
    }


@router.get("/leaderboard")
def get_leaderboard(
    session: DbSession, game: str, limit: int = Query(50, ge=1, le=200)
) -> dict[str, Any]:
    """The best rated accounts in one game, best first."""
    if game not in games.REGISTRY:
        raise Refusal("unknown_game", N_("There is no game called {game!r}."), 422, game=game)
    rows = store.leaderboard(session=session, game=game, limit=limit)
    return {
        "game": game,
        "title": games.get(game).title,
        "players": [
            {
                "rank": rank,
                "username": username,
                "user_id": row.user_id,
                "rating": row.rating,
                "mu": row.mu,
                "sigma": row.sigma,
                "matches": row.matches,
            }
            for rank, (row, username) in enumerate(rows, start=1)
        ],
    }
