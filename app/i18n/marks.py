"""``N_``: marks a message for the catalogues where it is written, translated later where
it is said (a refusal is worded where it is raised and translated when it is answered, in
the language of whoever reads it)."""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """``message`` unchanged; extraction (app/i18n/extraction.py) finds it by this name."""
    return message


class Worded(ValueError):
    """A value refused with a sentence for people: the English text, and its message id and
    params, so that the refusal it becomes says it in its reader's language."""

    def __init__(self, message_id: str, /, **params: Any) -> None:
        self.message_id = message_id
        self.params = params
        super().__init__(message_id.format(**params) if params else message_id)


class Mark(str):
    """A message id given as a refusal's param (``what=Mark(N_("Turn time"))``): translated
    too when the refusal is worded, before it is put in its place."""

    __slots__ = ()
