"""Writing ratings: once per rated match, in the transaction that finishes it; and
rebuilding them all from the match records.

``settle_match`` is the event log's finishing hook (app/rooms/event_log.py): it runs in the
same transaction that appends a match's last event and marks it finished, so a finished
rated match always has its rating changes and a crash can never leave one without them.
It first claims the match (``ratings_applied`` from false to true): a second call for the
same match — a retry, a replayed finish — claims nothing and changes nothing.

A person a computer was standing in for when the match ended walked away (the match's
record says so: app/store/credit.py): they are rated as coming after everyone who stayed,
whatever their seat scored, and those who stayed are rated among themselves by their
seats' results — so leaving a match one is losing never saves a rating.

Order matters where two matches share a player, so the players' rating rows are locked
(in a fixed order, so two transactions cannot wait on each other) and a match is dated
after the last match rated for any of its players. ``rebuild`` then replays the rated
matches in the order of their finishing times and gets the same numbers. Run it with the
servers stopped: it rewrites every rating in one transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

import games
from app.models import Match, MatchPlayer, Rating, RatingChange, table
from app.ratings.model import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    places_when_some_left,
    ranks,
    rate,
    shown,
)

TICK = timedelta(microseconds=1)


# Run as every match finishes, rated or not: built once (app/store/matches.py says why).
_MATCHES = table(Match)
_CLAIM = (
    update(_MATCHES)
    .where(
        _MATCHES.c.id == bindparam("match"),
        _MATCHES.c.rated.is_(True),
        _MATCHES.c.ratings_applied.is_(False),
    )
    .values(ratings_applied=True)
)


def settle_match(connection: Connection, match_id: str, finished_at: datetime) -> None:
    """Apply a finished rated match to its players' ratings, once."""
    claimed = connection.execute(_CLAIM, {"match": match_id})
    if claimed.rowcount != 1:  # not rated, or already applied
        return
    game, scores, winners, players = connection.execute(
        select(Match.game, Match.scores, Match.winners, Match.players).where(Match.id == match_id)
    ).one()
    seats = connection.execute(
        select(MatchPlayer.seat, MatchPlayer.user_id)
        .where(MatchPlayer.match_id == match_id)
        .order_by(MatchPlayer.seat)
    ).all()
    user_ids = [str(user_id) for _seat, user_id in seats if user_id is not None]
    if len(user_ids) != len(seats) or scores is None or winners is None:
        return  # a computer seated from the start: a rated table refuses those
    # Walking away is a loss: whoever a computer stood in for at the end comes last.
    left = {player["seat"] for player in players if player.get("left")}
    places = places_when_some_left(ranks(scores, winners, games.get(game).lower_scores_win), left)
    if places is None:
        return  # everyone left: nobody stayed to be ranked against
    current = _lock_ratings(connection, game, sorted(user_ids), finished_at)
    at = max([finished_at, *(row.updated_at + TICK for row in current.values() if row.matches)])
    if at != finished_at:
        connection.execute(update(Match).where(Match.id == match_id).values(finished_at=at))
    before = [(current[user_id].mu, current[user_id].sigma) for user_id in user_ids]
    after = rate(before, places)
    changes = []
    for seat, user_id, (mu0, sigma0), (mu1, sigma1) in zip(
        range(len(seats)), user_ids, before, after, strict=True
    ):
        connection.execute(
            update(Rating)
            .where(Rating.user_id == user_id, Rating.game == game)
            .values(
                mu=mu1,
                sigma=sigma1,
                rating=shown(mu1, sigma1),
                matches=current[user_id].matches + 1,
                updated_at=at,
            )
        )
        changes.append(
            {
                "match_id": match_id,
                "seat": seat,
                "user_id": user_id,
                "game": game,
                "mu_before": mu0,
                "sigma_before": sigma0,
                "rating_before": shown(mu0, sigma0),
                "mu_after": mu1,
                "sigma_after": sigma1,
                "rating_after": shown(mu1, sigma1),
                "at": at,
            }
        )
    connection.execute(insert(RatingChange), changes)


def _lock_ratings(
    connection: Connection, game: str, user_ids: list[str], now: datetime
) -> dict[str, Any]:
    """The players' rating rows in ``game``, made for newcomers and locked until commit."""
    fresh = [
        {
            "user_id": user_id,
            "game": game,
            "mu": DEFAULT_MU,
            "sigma": DEFAULT_SIGMA,
            "rating": shown(DEFAULT_MU, DEFAULT_SIGMA),
            "matches": 0,
            "updated_at": now,
        }
        for user_id in user_ids
    ]
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(Rating).on_conflict_do_nothing(), fresh)
    rows = connection.execute(
        select(Rating)
        .where(Rating.game == game, Rating.user_id.in_(user_ids))
        .order_by(Rating.user_id)
        .with_for_update()
    ).all()
    return {row.user_id: row for row in rows}


def rebuild(engine: Engine) -> int:
    """Every rating again from the rated matches, in the order they finished; how many."""
    with engine.begin() as connection:
        connection.execute(delete(RatingChange))
        connection.execute(delete(Rating))
        connection.execute(
            update(Match).where(Match.ratings_applied.is_(True)).values(ratings_applied=False)
        )
        rated = connection.execute(
            select(Match.id, Match.finished_at)
            .where(Match.status == "finished", Match.rated.is_(True))
            .order_by(Match.finished_at, Match.id)
        ).all()
        for match_id, finished_at in rated:
            assert finished_at is not None, "a finished match has its time"
            settle_match(connection, match_id, finished_at)
    return len(rated)
