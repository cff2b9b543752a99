"""The rating model: OpenSkill's Plackett-Luce, a match's ranks, and the rating shown.

Each account has, per game, a skill estimate ``mu`` and its uncertainty ``sigma``
(OpenSkill's defaults for a newcomer: 25 and 25/3). A match ranks its players: the winners
first (tied), then the others by score — highest first, or lowest first in a game where
scores count against you (Cups); equal places tie. A person who walked away from a rated
match (a computer stood in for them at its end) comes after everyone who stayed
(``places_when_some_left``). The rating people see is the conservative estimate
``mu - 3 sigma`` on a friendlier scale: ``1000 + 40 (mu - 3 sigma)``, so a newcomer shows
1000 and it rises as the system grows sure of a good player.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from openskill.models import PlackettLuce

BASE, SCALE = 1000, 40

_model = PlackettLuce()
DEFAULT_MU: float = _model.mu
DEFAULT_SIGMA: float = _model.sigma


def shown(mu: float, sigma: float) -> int:
    """The rating people see."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def ranks(scores: Sequence[int], winners: Sequence[int], lower_scores_win: bool) -> list[int]:
    """Each seat's place, 0 best; equal places share a rank."""
    won = set(winners)

    def place(seat: int) -> tuple[int, int]:
        score = scores[seat] if lower_scores_win else -scores[seat]
        return (0 if seat in won else 1, score)

    places = sorted({place(seat) for seat in range(len(scores))})
    return [places.index(place(seat)) for seat in range(len(scores))]


def places_when_some_left(places: Sequence[int], left: Collection[int]) -> list[int] | None:
    """Each seat's place once the people of the seats ``left`` are ranked as having walked
    away: everyone who stayed keeps their order, and everyone who left comes after them
    all, sharing last place — the result their seat got or last place, whichever is worse.

    None when nobody stayed: there is nobody to rank them against, and a tie among them
    all would reward leaving (a tie shrinks everyone's uncertainty, raising the rating
    shown).
    """
    stayed = sorted({place for seat, place in enumerate(places) if seat not in left})
    if not stayed:
        return None
    last = len(stayed)
    return [last if seat in left else stayed.index(place) for seat, place in enumerate(places)]


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Every player's (mu, sigma) after a match, from their (mu, sigma) before and places."""
    teams = [[_model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = _model.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]
