"""Ratings as the pages read them: current ratings, their changes, results per game and
the leaderboard (app/ratings/ writes them)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import (
    Match,
    MatchPlayer,
    Rating,
    RatingChange,
    User,
)
from app.store.matches import visible_to


def rating_changes_of(*, session: Session, match_ids: Sequence[str]) -> list[RatingChange]:
    if not match_ids:
        return []
    return list(
        session.scalars(
            select(RatingChange)
            .where(RatingChange.match_id.in_(match_ids))
            .order_by(RatingChange.match_id, RatingChange.seat)
        )
    )


def results_by_game(*, session: Session, user_id: str) -> list[tuple[str, int, int]]:
    """(game, finished matches played, won) for one user, every match counted."""
    rows = session.execute(
        select(Match.game, func.count(), func.count().filter(MatchPlayer.won.is_(True)))
        .join(MatchPlayer, MatchPlayer.match_id == Match.id)
        .where(MatchPlayer.user_id == user_id, Match.status == "finished")
        .group_by(Match.game)
        .order_by(Match.game)
    ).all()
    return [(game, int(played), int(won)) for game, played, won in rows]


def ratings_of(*, session: Session, user_id: str) -> list[Rating]:
    return list(
        session.scalars(select(Rating).where(Rating.user_id == user_id).order_by(Rating.game))
    )


def rating_history(*, session: Session, user_id: str, viewer_id: str | None) -> list[RatingChange]:
    """One user's rating changes, oldest first, for the matches ``viewer_id`` may see: each
    names its match and when it was played, so a private match's stays with its players
    (the totals, ``ratings_of`` and ``results_by_game``, still count every match)."""
    return list(
        session.scalars(
            select(RatingChange)
            .join(Match, Match.id == RatingChange.match_id)
            .where(RatingChange.user_id == user_id, visible_to(viewer_id))
            .order_by(RatingChange.at, RatingChange.id)
        )
    )


def leaderboard(*, session: Session, game: str, limit: int) -> list[tuple[Rating, str]]:
    """The best rated accounts in ``game``: (rating row, username), best first."""
    rows = session.execute(
        select(Rating, User.username)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game, Rating.matches > 0, User.username.is_not(None))
        .order_by(Rating.rating.desc(), Rating.mu.desc(), User.username)
        .limit(limit)
    ).all()
    return [(rating, str(username)) for rating, username in rows]
