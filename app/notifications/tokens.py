"""Signed tokens in e-mail links: unsubscribing (works without logging in, for as long as
the address is the account's) and confirming an address (for a week).

Each names the account and the address it was made for, so a link stops working once the
address changes; each kind has its own salt, so one can never pass for the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

CONFIRMATION_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Addressee:
    user_id: str
    email: str


class EmailTokens:
    def __init__(self, secret_key: str) -> None:
        self._unsubscribe = URLSafeSerializer(secret_key, salt="parlour-email-unsubscribe")
        self._confirm = URLSafeTimedSerializer(secret_key, salt="parlour-email-confirm")

    def unsubscribe(self, user_id: str, email: str) -> str:
        return str(self._unsubscribe.dumps([user_id, email]))

    def confirmation(self, user_id: str, email: str) -> str:
        return str(self._confirm.dumps([user_id, email]))

    def read_unsubscribe(self, token: str) -> Addressee | None:
        try:
            return _addressee(self._unsubscribe.loads(token))
        except BadSignature:
            return None

    def read_confirmation(self, token: str) -> Addressee | None:
        try:
            return _addressee(self._confirm.loads(token, max_age=CONFIRMATION_SECONDS))
        except BadSignature:  # a bad signature, or too old (SignatureExpired)
            return None


def _addressee(value: object) -> Addressee | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return Addressee(value[0], value[1])
    return None
