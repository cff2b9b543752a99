"""What people type, made safe to store and show; the limits; the fixed reactions.

Control characters and the bidirectional formatting characters are removed (a
right-to-left override would make a line read differently from what was written);
line breaks and tabs become spaces. What is left is trimmed and must be 1 to 500
characters long, and show something: a line made only of characters that draw nothing
(zero-width spaces, Hangul fillers, a braille blank; app/invisible.py) is refused.
"""

from __future__ import annotations

import unicodedata

from app.i18n.marks import N_
from app.invisible import looks_blank
from app.refusal import Refusal

MAX_CHARS = 500

# The embeddings, overrides and isolates, and the marks (LRM, RLM, ALM).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Whitespace that breaks a line: shown as one space.
BREAKS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")

REACTIONS = ("👍", "😂", "😮", "😢", "🎉", "Well played")


def _kept(char: str) -> str:
    if char in BREAKS:
        return " "
    if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
        return ""
    return char


def clean(text: str) -> str:
    """``text`` without control or bidi formatting characters, trimmed."""
    return "".join(_kept(char) for char in text).strip()


def checked_text(text: str) -> str:
    """The cleaned text, or a refusal when nothing is left, nothing shows or it is too
    long."""
    cleaned = clean(text)
    if not cleaned:
        raise Refusal("chat_empty", N_("Write something first."), 422)
    if looks_blank(cleaned):
        raise Refusal(
            "chat_invisible",
            N_("This message shows nothing: it is made only of invisible characters."),
            422,
        )
    if len(cleaned) > MAX_CHARS:
        raise Refusal(
            "chat_too_long",
            N_("A message is at most {most} characters; this one has {length}."),
            422,
            most=MAX_CHARS,
            length=len(cleaned),
        )
    return cleaned
