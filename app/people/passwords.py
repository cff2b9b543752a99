"""Password hashes: argon2id through pwdlib, with its recommended parameters.

A password is hashed and checked in its NFKC form (NIST SP 800-63B): the same password
typed on another keyboard or system, which may send "é" as one character or as "e" and
a combining accent, is the same password. Hashes made before passwords were normalised
were made from the password as typed, so a check that fails for the normalised form tries
the raw one too, and on success asks for a new hash, of the normalised form, to be stored.

Hashing takes a tenth of a second and 64 MiB or more on purpose, so callers run it in the
hashing pool (app/people/hashing_pool.py). ``verify`` checks against a fixed hash when
there is no account, so that asking about a username that does not exist takes as long as
a wrong password.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pwdlib import PasswordHash

_hasher = PasswordHash.recommended()


def normalised(password: str) -> str:
    return unicodedata.normalize("NFKC", password)


@lru_cache(maxsize=1)
def _nobody() -> str:
    return _hasher.hash("no account has this password")


def hash_password(password: str) -> str:
    return _hasher.hash(normalised(password))


def verify(password: str, stored: str | None) -> tuple[bool, str | None]:
    """(whether ``password`` matches ``stored``, a new hash to store when the parameters
    have changed since it was made or it was made from the password not normalised)."""
    plain = normalised(password)
    if stored is None:
        # As many checks as a wrong password of an existing account costs.
        for attempt in {plain, password}:
            _hasher.verify(attempt, _nobody())
        return False, None
    ok, new_hash = _hasher.verify_and_update(plain, stored)
    if ok or plain == password:
        return ok, new_hash
    if _hasher.verify(password, stored):  # hashed before passwords were normalised
        return True, _hasher.hash(plain)
    return False, None
