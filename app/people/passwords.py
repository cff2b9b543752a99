"""Password hashes: argon2id through pwdlib, with its recommended parameters.

Hashing takes a tenth of a second or more on purpose, so callers run it in a worker
thread. ``verify`` checks against a fixed hash when there is no account, so that asking
about a username that does not exist takes as long as a wrong password.
"""

from __future__ import annotations

from functools import lru_cache

from pwdlib import PasswordHash

_hasher = PasswordHash.recommended()


@lru_cache(maxsize=1)
def _nobody() -> str:
    return _hasher.hash("no account has this password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify(password: str, stored: str | None) -> tuple[bool, str | None]:
    """(whether ``password`` matches ``stored``, a new hash to store when the parameters
    have changed since it was made)."""
    if stored is None:
        _hasher.verify(password, _nobody())
        return False, None
    return _hasher.verify_and_update(password, stored)
