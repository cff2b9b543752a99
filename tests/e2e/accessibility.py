"""axe-core in the browser tests: a page is checked as it stands, and any violation, of any
impact, fails the test with the rule, the elements and axe's own explanation.

axe-core comes from npm with the project's other JavaScript tools (package.json; `make
test` installs it before the tests run): nothing is fetched while the tests run. It is put
into the page with Playwright's ``evaluate``, which runs through the browser's debugging
protocol and so is not refused by the app's Content-Security-Policy (no inline scripts):
the page is checked with the very headers it is served with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
MISSING = "axe-core is not installed: `make test` installs it (npm install, package.json)"

RUN = """async () => {
  // A change just made is still moving (cards flying, scores pulsing): check the page at
  // rest. An endless animation (the pulse of a turn marker) never finishes: not waited for.
  const ending = document.getAnimations().filter(
    (a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
  );
  const settled = Promise.all(ending.map((a) => a.finished.catch(() => null)));
  await Promise.race([settled, new Promise((done) => setTimeout(done, 3000))]);
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes
      .slice(0, 5)
      .map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


def violations(page: Page) -> list[dict[str, Any]]:
    """What axe-core finds wrong on the page now."""
    if not AXE.exists():
        pytest.fail(MISSING, pytrace=False)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


def assert_accessible(page: Page, where: str) -> None:
    """No axe-core violation at all on the page as it stands."""
    found = violations(page)
    lines = [
        f"{v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"    {n['target']}: {n['summary']}" for n in v["nodes"])
        for v in found
    ]
    assert not found, f"axe-core on {where}:\n" + "\n".join(lines)
