"""Characters that show nothing, and text made only of them: one definition for chat lines
and for names.

A line or a name of zero-width spaces, Hangul fillers or a braille blank looks empty (or
like a space) yet is not, so a "blank" chat line would be stored and delivered and a
"blank" name could be taken. A character shows nothing when it is:

- white space, a control, a format character or a separator (general categories Cc, Cf,
  Cs, Zs, Zl, Zp) — zero-width spaces and joiners, the soft hyphen, the byte order mark,
  the Mongolian vowel separator, the tag characters;
- a Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt; the standard library
  does not expose the property, so its ranges are written below): besides the format
  characters, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the combining grapheme
  joiner, the variation selectors and the Khmer inherent vowels, which are letters or
  marks that draw nothing;
- one of the few assigned graphic characters whose glyph is empty by design: the braille
  pattern blank (U+2800) and the musical null notehead (U+1D159).
"""

from __future__ import annotations

import unicodedata

# Default_Ignorable_Code_Point, from DerivedCoreProperties.txt (Unicode 15.1; unchanged
# since 9.0 apart from U+180F), as inclusive ranges.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Graphic characters drawn as nothing (they are neither spaces nor ignorable).
BLANK_GLYPHS = frozenset("\u2800\U0001d159")
SHOWS_NOTHING_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Zs", "Zl", "Zp"))


def shows_nothing(char: str) -> bool:
    """Whether ``char`` (one character) draws nothing visible."""
    if char in BLANK_GLYPHS or unicodedata.category(char) in SHOWS_NOTHING_CATEGORIES:
        return True
    point = ord(char)
    return any(first <= point <= last for first, last in DEFAULT_IGNORABLE)


def looks_blank(text: str) -> bool:
    """Whether ``text`` shows nothing at all (the empty text included)."""
    return all(shows_nothing(char) for char in text)


def first_invisible(text: str) -> str | None:
    """The first character of ``text`` that shows nothing, other than a plain space."""
    return next((char for char in text if char != " " and shows_nothing(char)), None)


def described(char: str) -> str:
    """``U+3164 HANGUL FILLER``: a character that cannot be shown, named for people."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'UNNAMED CHARACTER')}"
