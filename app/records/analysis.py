"""The computer's analysis of finished matches: the queue's worker in each process, and
the analysis as GET /api/matches/{id}/analysis shows it.

When a match finishes, the transaction that writes its last event queues its analysis
(app/store/analyses.py). Each process's :class:`Analyst` claims pending analyses one at a
time, replays the match (app/records/review.py, the review's replay) and has each
decision a person made judged in the computer players' worker pool (app/rooms/thinking.py,
after the live moves: games.bots.analysis does the judging), then stores the result. The
computers' own moves, and moves the clock played for a person, are not judged. A job a
process dies with stays pending: a lone process takes its jobs back when it starts, and
with several processes the claim's lease runs out and another takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

import games
from app import store
from app.i18n.accounts import account_text
from app.i18n.languages import DEFAULT
from app.models import Match, MatchAnalysis, MatchEvent
from app.records.review import replayed
from app.rooms.thinking import Thinkers
from app.store import analyses
from app.store.database_thread import DatabaseThread
from games.bots.analysis import Judgement, accuracy, seed_for

log = logging.getLogger("parlour")
T = TypeVar("T")
# One claim in this many takes the oldest pending analysis rather than the newest.
OLDEST_EVERY = 4


@dataclass(frozen=True)
class Decision:
    """One decision to judge: the state it was made in, who made it and what they played."""

    seq: int
    state: Any
    seat: int
    played: dict[str, Any]


@dataclass(frozen=True)
class Job:
    """A claimed analysis: the match and the decisions of its people."""

    match_id: str
    game: str
    seed: str
    decisions: list[Decision]


def by_a_person(event: MatchEvent) -> bool:
    """Whether a person chose this move (not a computer, nor the clock for them)."""
    return bool(event.played_by and event.played_by.get("user_id")) and not event.timeout


def job_of(match: Match, events: list[MatchEvent]) -> Job:
    """The decisions of a match's people, each with the state it was made in."""
    decisions = [
        Decision(event.seq, state, event.seat, event.action)
        for state, event in zip(replayed(match, events), events, strict=False)
        if by_a_person(event)
    ]
    return Job(match.id, match.game, match.seed, decisions)


def told_decision(decision: dict[str, Any], language: str) -> dict[str, Any]:
    """A judged decision as the wire carries it: ``best_text`` in ``language`` (from the
    account stored with it; one stored before accounts were kept as data keeps its
    English), without the data it is told from."""
    told = {key: value for key, value in decision.items() if key != "best_says"}
    if "best_says" in decision:
        told["best_text"] = account_text(decision["best_says"], language)
    return told


def analysis_record(match: Match, row: MatchAnalysis, language: str = DEFAULT) -> dict[str, Any]:
    """The analysis on the wire: pending, or done with every judged decision (the best
    move's account in ``language``) and each seat's accuracy; ``unit`` and ``marks`` say
    what the losses are counted in and where the marks begin (games.kit.game.Marks)."""
    marks = games.game(match.game).marks
    done = row.status == "done"
    return {
        "match_id": match.id,
        "status": "done" if done else "pending",
        "unit": marks.unit,
        "marks": {
            "inaccuracy": marks.inaccuracy,
            "mistake": marks.mistake,
            "blunder": marks.blunder,
        },
        "decisions": [told_decision(d, language) for d in row.decisions or []] if done else [],
        "accuracy": (row.accuracy or {}) if done else {},
    }


class Analyst:
    """Claims pending analyses and has them done in the worker pool, one at a time,
    looking for more every ``poll`` seconds while there are none."""

    def __init__(
        self,
        database: DatabaseThread,
        thinkers: Thinkers,
        *,
        poll: float,
        alone: bool,
    ) -> None:
        """``alone``: no other process shares the database's jobs, so every claim found
        at start is a dead process's, taken back at once."""
        self.database = database
        self.thinkers = thinkers
        self.poll = poll
        self.alone = alone
        self._current: str | None = None
        self._claims = 0  # claims tried, to take the oldest job every OLDEST_EVERY-th
        # Told the id of every analysis stored; tests listen here.
        self.on_done: Callable[[str], None] | None = None

    async def run(self) -> None:
        """Take back a dead process's jobs when alone, then analyse until cancelled."""
        try:
            if self.alone:
                try:
                    await self._db(lambda s: analyses.release_claims(session=s))
                except SQLAlchemyError as error:  # their claims run out instead
                    log.warning("taking back pending analyses failed: %s", error)
            while True:
                match_id = await self._claim()
                if match_id is None:
                    await asyncio.sleep(self.poll)
                    continue
                try:
                    await self.analyse(match_id)
                except Exception:  # a worker failed: the claim runs out, and it is tried again
                    log.exception("analysing match %s failed", match_id)
                    await asyncio.sleep(self.poll)
        finally:
            await self._let_go()

    async def _claim(self) -> str | None:
        # Newest first, for the people who just finished; but every OLDEST_EVERY-th claim
        # takes the oldest, so that a backlog that keeps growing still moves, and no job
        # waits without limit.
        self._claims += 1
        oldest = self._claims % OLDEST_EVERY == 0
        try:
            return await self._db(lambda s: analyses.claim_analysis(session=s, oldest=oldest))
        except SQLAlchemyError as error:
            log.warning("looking for analyses failed (tried again later): %s", error)
            return None

    async def analyse(self, match_id: str) -> None:
        """Judge every decision of the people of the claimed match, and store it."""
        self._current = match_id
        try:
            job = await self._db(lambda s: self._load(s, match_id))
            judged: list[dict[str, Any]] = []
            for decision in job.decisions:
                judged.append(
                    await self.thinkers.judge(
                        job.game,
                        decision.state,
                        decision.seat,
                        decision.played,
                        decision.seq,
                        seed_for(job.seed, decision.seq, 0),
                    )
                )
                await self._db(lambda s: analyses.renew_claim(session=s, match_id=match_id))
            marks = games.game(job.game).marks
            figures = accuracy((Judgement.from_json(j) for j in judged), marks)
            await self._db(
                lambda s: analyses.save_analysis(
                    session=s,
                    match_id=match_id,
                    decisions=judged,
                    accuracy={str(seat): value for seat, value in figures.items()},
                )
            )
        except SQLAlchemyError as error:
            log.warning("analysing match %s failed (tried again later): %s", match_id, error)
            return
        finally:
            self._current = None
        if self.on_done is not None:
            self.on_done(match_id)

    @staticmethod
    def _load(session: Session, match_id: str) -> Job:
        match = store.load_match(session=session, match_id=match_id)
        assert match is not None, "an analysis is queued for a stored match"
        return job_of(match, store.load_events(session=session, match_id=match_id))

    async def _let_go(self) -> None:
        """Shutting down in the middle of a job: it is another process's (or the next
        start's) to do, at once."""
        if self._current is None:
            return
        match_id = self._current
        with contextlib.suppress(SQLAlchemyError):
            await self._db(lambda s: analyses.release_claims(session=s, match_ids=[match_id]))

    async def _db(self, work: Callable[[Session], T]) -> T:
        return await self.database.run(work)
