"""Production mode refuses to run with a cookie key anyone could know.

User ids are public in every room description, so a known SECRET_KEY would let anyone
sign a session cookie for any user.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pydantic import ValidationError

from app.config import Settings

REAL_KEY = "k3Yq9-longer-than-thirty-two-characters-x"


@pytest.mark.parametrize("key", [None, "", "change-me-in-production", "short-key"])
def test_production_refuses_a_missing_known_or_short_key(key: str | None) -> None:
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(environment="production", secret_key=key)


def test_production_sends_the_cookie_over_https_only_unless_told_otherwise() -> None:
    assert Settings(environment="production", secret_key=REAL_KEY).cookie_secure is True
    plain = Settings(environment="production", secret_key=REAL_KEY, cookie_secure=False)
    assert plain.cookie_secure is False
    assert Settings(secret_key=None).cookie_secure is False  # development keeps make run simple


def test_the_server_will_not_start_in_production_without_a_key(tmp_path: os.PathLike[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "COOKIE_SECURE")}
    env |= {"ENVIRONMENT": "production", "DATABASE_URL": f"sqlite:///{tmp_path}/p.db"}
    ran = subprocess.run(
        [sys.executable, "-m", "app.serve", "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = ran.stderr.strip().splitlines()
    assert ran.returncode != 0
    assert len(lines) == 1, lines  # one line saying what to do, not a traceback
    assert lines[0].startswith("Parlour will not start: ENVIRONMENT=production needs SECRET_KEY")
