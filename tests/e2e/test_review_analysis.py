"""The computer's analysis in a real browser: a person plays a short Cupid match against the
easy computer, always the first card offered (the lowest), and the review, pending at
first, then marks the moves the computer would have played otherwise and says what it
would have played."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer
from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import api_json, create_room, play_to_end, wait_table
from tests.e2e.seeded import seeded_server

pytestmark = pytest.mark.e2e

# Every match is dealt from this seed: with it, Ann's lowest card every time loses
# something somewhere, so the analysis marks at least one of her moves.
SEED = 7
WORDS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


@pytest.fixture
def server(tmp_path: Path, sqlite_template: Path) -> Iterator[LiveServer]:
    with seeded_server(
        tmp_path, sqlite_template, SEED, BOT_DELAY="0.02", ANALYSIS_POLL_SECONDS="0.2"
    ) as live:
        yield live


def test_the_review_shows_the_computers_marks_and_better_moves(pages) -> None:
    ann = pages.open("ann")
    room_id = create_room(ann, game="cupid", name="Ann", options={"target": 25})
    ann.locator('[data-action="bot"][data-seat="1"]').click()
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    ann.locator("#start-btn").click()
    wait_table(ann)
    play_to_end([ann], timeout=240)
    match_id = api_json(ann, f"/api/rooms/{room_id}")["match_id"]

    ann.goto(f"/matches/{match_id}")
    expect(ann.locator("#review-controls")).to_be_visible()
    status = ann.locator("#analysis-status")
    expect(status).to_contain_text("Accuracy: Ann", timeout=120_000)
    analysis = api_json(ann, f"/api/matches/{match_id}/analysis")
    assert analysis["status"] == "done"
    marked = [d for d in analysis["decisions"] if d["mark"] in WORDS]
    assert marked, analysis["decisions"]
    decision = marked[0]
    item = ann.locator(f'#analysis-moves li[data-seq="{decision["seq"]}"]')
    expect(item.get_by_role("img", name=WORDS[decision["mark"]])).to_be_visible()
    # The same mark on the list of every move, beside that move.
    entry = ann.locator(f'#move-list .move-marks[data-step="{decision["seq"]}"]')
    expect(entry.get_by_role("img", name=WORDS[decision["mark"]])).to_be_attached()
    item.get_by_role("button").click()
    expect(ann.locator("#step-label")).to_contain_text(f"Move {decision['seq']} of")
    verdict = ann.locator("#review-verdict")
    expect(verdict).to_contain_text("The computer would have played")
    expect(verdict.get_by_role("img", name=WORDS[decision["mark"]])).to_be_visible()
    expect(ann.locator("#analysis-chart svg[role=img]")).to_be_visible()
    pages.shot(ann, "review-with-analysis")
    assert_accessible(ann, "the review with its analysis")
