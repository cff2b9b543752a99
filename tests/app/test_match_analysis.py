"""The computer's analysis of a finished match, through the server: queued as the match
ends, done in the worker pool, shown to those who may see the match, and resumed when the
server starts again."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

import games
from app.db import make_engine, make_session_factory
from app.models import MatchAnalysis, utcnow
from app.records.analysis import Analyst
from app.rooms.thinking import Thinkers
from app.store.analyses import claim_analysis
from app.store.database_thread import DatabaseThread
from tests.app.helpers import (
    NewClient,
    account,
    eventually,
    finished_match_row,
    make_app,
    play_out,
    running,
)
from tests.app.test_api import error_of

MARKS = {None, "inaccuracy", "mistake", "blunder", "forced"}
# Analysis on, looking for queued matches often (the tests wait for it).
ANALYSING = {"analysis_poll_seconds": 0.05, "rate_per_second": 1000.0, "rate_burst": 1000}


def finished_match(client: TestClient, **room: Any) -> str:
    """A short Cupid match of ``client`` (seat 0) against the easy computer, played to the
    end; its match id."""
    body = {"game": "cupid", "options": {"target": 10, "dealer": 0}, **room}
    rid = client.post("/api/rooms", json=body).json()["id"]
    assert client.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    assert client.post(f"/api/rooms/{rid}/start").status_code == 200
    last = play_out([client], rid)
    assert last["view"]["over"]
    return str(client.get(f"/api/rooms/{rid}").json()["match_id"])


def analysis_of(client: TestClient, match_id: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/analysis")
    assert response.status_code == 200, response.text
    return dict(response.json())


def done(client: TestClient, match_id: str, timeout: float = 300) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        analysis = analysis_of(client, match_id)
        return analysis if analysis["status"] == "done" else None

    return dict(eventually(check, "the analysis to be done", timeout=timeout))


def test_a_finished_match_is_analysed_for_its_person(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, **ANALYSING)
    with running(app) as new_client:
        ann = account(new_client, "annie")
        match_id = finished_match(ann)
        before = ann.get("/api/players/annie").json()["games"][0]
        analysis = done(ann, match_id)
        review = ann.get(f"/api/matches/{match_id}/review").json()
        after = ann.get("/api/players/annie").json()["games"][0]
    # The player page averages the analysed matches' accuracy per game.
    if before["analysed_matches"] == 0:
        assert before["accuracy"] is None
    assert after["game"] == "cupid" and after["analysed_matches"] == 1
    assert after["accuracy"] == analysis["accuracy"]["0"]
    events = review["match"]["events"]
    hers = [e for e in events if e["seat"] == 0]
    assert [d["seq"] for d in analysis["decisions"]] == [e["seq"] for e in hers]
    rules = games.get("cupid")
    states = {frame["seq"]: frame for frame in review["frames"]}
    assert states  # the review's frames name every step
    for decision, event in zip(analysis["decisions"], hers, strict=True):
        assert decision["seat"] == 0 and decision["played"] == event["action"]
        assert decision["mark"] in MARKS
        assert decision["loss"] >= 0
        if decision["played"] == decision["best"]:
            assert decision["loss"] == 0
        else:
            assert decision["mark"] != "forced"
    assert set(analysis["accuracy"]) == {"0"}
    assert 0 <= analysis["accuracy"]["0"] <= 100
    assert analysis["unit"] == games.game("cupid").marks.unit == "points"
    # Every best move is legal where it was chosen: replay the match and try it.
    replay = games.states(
        rules,
        2,
        int(review["match"]["seed"]),
        review["match"]["options"],
        None,
        [(e["seat"], e["action"]) for e in events],
    )
    judged = {d["seq"]: d for d in analysis["decisions"]}
    for seq, state in enumerate(replay, start=1):
        if seq in judged:
            assert judged[seq]["best"] in rules.legal_actions(state, 0)


def test_a_private_match_analysis_is_its_players_only(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    match_id = finished_match(ann, visibility="private")
    assert analysis_of(ann, match_id)["status"] == "pending"  # analysis is off here
    for path in (f"/api/matches/{match_id}/analysis", "/api/matches/nothing/analysis"):
        error_of(bob.get(path), 404, "match_not_found")


def test_an_unfinished_match_has_no_analysis(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1})
    match_id = ann.post(f"/api/rooms/{rid}/start").json()["match_id"]
    error_of(ann.get(f"/api/matches/{match_id}/analysis"), 409, "not_finished")


def test_a_queued_analysis_survives_a_restart(database_url: str, tmp_path: Path) -> None:
    """Queued by a server that analyses nothing, claimed by one that died at it, and done
    by the next server to start on the same database."""
    first = make_app(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000)
    with running(first) as new_client:
        ann = new_client("Ann")
        match_id = finished_match(ann)
        cookies = dict(ann.cookies)
    engine = create_engine(database_url)
    with engine.begin() as connection:
        row = connection.execute(
            select(MatchAnalysis.status).where(MatchAnalysis.match_id == match_id)
        ).scalar_one()
        assert row == "pending"  # queued with the match's end
        # A process claimed it, then died; its claim would hold for as long as the test
        # could wait (dated a day ahead), so only taking it back at the start frees it.
        connection.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.match_id == match_id)
            .values(claimed_at=utcnow() + timedelta(days=1))
        )
    engine.dispose()
    second = make_app(database_url, tmp_path, **ANALYSING)
    with running(second) as new_client:
        ann = new_client(None)
        ann.cookies.update(cookies)
        # Below pytest's own limit, so that a claim never taken back fails with its reason.
        analysis = done(ann, match_id, timeout=240)
        assert analysis["decisions"] and "0" in analysis["accuracy"]


def test_the_newest_finished_match_is_analysed_first(database_url: str) -> None:
    """A busy server finishes matches faster than it judges them: the players who just
    finished get theirs next, and the backlog waits (a job another process holds is
    passed over)."""
    now = utcnow()
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    with sessions() as session:
        for minutes, match_id in [(30, "oldest"), (20, "older"), (10, "newer"), (0, "held")]:
            session.add(finished_match_row(match_id, "r"))
            session.flush()
            finished = now - timedelta(minutes=minutes)
            claimed = now if match_id == "held" else None
            session.add(
                MatchAnalysis(
                    match_id=match_id, status="pending", queued_at=finished, claimed_at=claimed
                )
            )
        session.commit()
        claims = [claim_analysis(session=session, now=now) for _ in range(4)]
    engine.dispose()
    assert claims == ["newer", "older", "oldest", None]


def test_every_fourth_claim_takes_the_analysis_that_waited_longest(database_url: str) -> None:
    """Newest first would leave a backlog that keeps growing waiting without limit: one
    claim in four takes the oldest job, so every job is done in time."""
    now = utcnow()
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    with sessions() as session:
        for minutes in range(6):
            match_id = f"queued-{minutes}-minutes-ago"
            session.add(finished_match_row(match_id, "r"))
            session.flush()
            session.add(
                MatchAnalysis(
                    match_id=match_id,
                    status="pending",
                    queued_at=now - timedelta(minutes=minutes),
                )
            )
        session.commit()
    analyst = Analyst(DatabaseThread(sessions), Thinkers(1), poll=1, alone=False)

    async def claims() -> list[str | None]:
        return [await analyst._claim() for _ in range(5)]

    claimed = asyncio.run(claims())
    engine.dispose()
    assert claimed == [
        "queued-0-minutes-ago",
        "queued-1-minutes-ago",
        "queued-2-minutes-ago",
        "queued-5-minutes-ago",
        "queued-3-minutes-ago",
    ]


@pytest.mark.parametrize(
    ("workers", "live", "judging", "may"),
    [
        (2, 0, 0, True),
        (2, 1, 0, True),  # one worker thinks a live move, the other judges
        (2, 2, 0, False),  # both think live moves: the judgement waits
        (2, 0, 1, False),  # one judgement at a time: a worker stays free for live moves
        (1, 0, 0, True),
        (1, 1, 0, False),  # the only worker thinks a live move
        (4, 1, 2, True),
        (4, 1, 3, False),
    ],
)
def test_judgements_leave_room_for_live_moves(
    workers: int, live: int, judging: int, may: bool
) -> None:
    thinkers = Thinkers(workers)
    thinkers._live, thinkers._judging = live, judging
    assert thinkers._room_to_judge() is may
