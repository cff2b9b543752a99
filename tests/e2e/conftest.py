"""Browser fixtures for the end-to-end tests: real Chromium driven by Playwright (sync API).

The browser is the system's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) when there is
one, else Playwright's own Chromium (installed once with ``playwright install chromium`` if
it is missing). Without either these tests fail rather than skip, because the browser
client is part of what CI proves. Every page opened through ``Pages.open`` fails its test on
any console error or uncaught page error, keeps the state messages its room's WebSocket
received (flows.shown_state), and ``shot`` saves screenshots under test-artifacts/<test>/.
A page's person has seen every game's first-match walkthrough already, unless the test
asks for a newcomer (``Pages.open(..., newcomer=True)``), so that the walkthrough's dialog
stands over no other test's table.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

import games
from tests.e2e.flows import listen_to_wire

E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, marked or not: `make test` runs them
    apart from the server tests, whose processes must never start Playwright (its event
    loop would then run in their main thread)."""
    for item in items:
        if E2E_DIR in item.path.parents:
            item.add_marker(pytest.mark.e2e)


ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# How long an `expect` or an action waits for what it waits on before the test fails (every
# wait is on the page; this only bounds it). Playwright's own 5 s for `expect` is too short
# for a busy machine: an account's password hash alone can take seconds there.
WAIT_MS = 20_000
expect.set_options(timeout=WAIT_MS)
# Every game's walkthrough marked as seen (static/js/table/walkthrough.js).
WALKTHROUGHS_SEEN = "".join(
    f"localStorage.setItem('parlour-walkthrough:{game}', 'seen');"
    for game in sorted(games.REGISTRY)
)
NO_BROWSER = "No Chromium: apt-get install chromium, or python -m playwright install chromium"
# For the system's (Debian's) Chromium; Playwright's own build is launched as it comes.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


def playwright_chromium(playwright: Playwright) -> bool:
    """Whether Playwright's own Chromium is there, after one try at installing it."""
    if Path(playwright.chromium.executable_path).exists():
        return True
    try:
        subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"],
            capture_output=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return Path(playwright.chromium.executable_path).exists()


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if Path(CHROMIUM).exists():
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    elif playwright_chromium(playwright):
        browser = playwright.chromium.launch()
    else:
        pytest.fail(NO_BROWSER, pytrace=False)
    yield browser
    browser.close()


@dataclass
class Watched:
    """A page plus the console errors and page errors seen on it."""

    page: Page
    label: str
    errors: list[str] = field(default_factory=list)


class Pages:
    """Opens browser contexts (one per person) and checks them for JavaScript errors."""

    def __init__(self, browser: Browser, base_url: str, artifacts: Path) -> None:
        self.browser = browser
        self.base_url = base_url
        self.artifacts = artifacts
        self.contexts: list[BrowserContext] = []
        self.watched: list[Watched] = []
        self.allowed: list[re.Pattern[str]] = []
        self.count = 0

    def allow(self, pattern: str) -> None:
        """Accept console errors matching ``pattern`` (a test that cuts the network on purpose
        sees the browser's own "WebSocket connection failed" lines)."""
        self.allowed.append(re.compile(pattern))

    def open(
        self,
        label: str,
        *,
        width: int = 1280,
        height: int = 900,
        touch: bool = False,
        newcomer: bool = False,
    ) -> Page:
        """A new person's page; ``touch``: a phone's, with a touch screen and no mouse (taps,
        no hover), as Chromium emulates a mobile device; ``newcomer``: one who has not seen
        the games' walkthroughs yet."""
        context = self.browser.new_context(
            base_url=self.base_url,
            viewport={"width": width, "height": height},
            reduced_motion="no-preference",
            has_touch=touch,
            is_mobile=touch,
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        if not newcomer:
            page.add_init_script(WALKTHROUGHS_SEEN)
        listen_to_wire(page)
        watched = Watched(page, label)
        page.on(
            "console",
            lambda msg: (
                watched.errors.append(f"console: {msg.text}") if msg.type == "error" else None
            ),
        )
        page.on("pageerror", lambda exc: watched.errors.append(f"pageerror: {exc}"))
        self.watched.append(watched)
        return page

    def shot(self, page: Page, name: str) -> Path:
        self.count += 1
        path = self.artifacts / f"{self.count:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def shot_viewport(self, page: Page, name: str) -> Path:
        """A screenshot of what the screen shows (not the whole page)."""
        self.count += 1
        path = self.artifacts / f"{self.count:02d}-{name}.png"
        page.screenshot(path=str(path))
        return path

    def errors(self) -> list[str]:
        return [
            f"[{w.label}] {e}"
            for w in self.watched
            for e in w.errors
            if not any(p.search(e) for p in self.allowed)
        ]

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    path = ARTIFACTS / name
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.png"):
        old.unlink(missing_ok=True)  # a run beside this one may have removed it
    return path


@pytest.fixture
def server(live_server_factory: Callable[..., object]) -> object:
    return live_server_factory(BOT_DELAY="0.02")


@pytest.fixture
def pages(browser: Browser, server: object, artifacts: Path) -> Iterator[Pages]:
    opened = Pages(browser, server.url, artifacts)  # type: ignore[attr-defined]
    yield opened
    errors = opened.errors()
    opened.close()
    assert not errors, "JavaScript errors in the browser:\n" + "\n".join(errors)
