"""The languages Parlour speaks, and which one a person reads.

The order of precedence: a language asked for in the address (``?lang=fr``, which the
picker also stores in the ``lang`` cookie), the account's setting, the cookie, the
browser's ``Accept-Language``, and English.
"""

from __future__ import annotations

from babel import Locale, negotiate_locale

# Each language by its code, with its own name for itself (what the picker shows).
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "fr": "Français"}
DEFAULT = "en"
COOKIE = "lang"
# The picker's choice is kept for a year.
COOKIE_SECONDS = 365 * 24 * 3600


PSEUDO = "qps"  # app/i18n/pseudo.py: offered only where the settings allow it


def known(code: str | None, *, pseudo: bool = False) -> str | None:
    """``code`` if Parlour speaks it (any case; ``es-MX`` is Spanish), else None;
    ``pseudo``: the pseudo-language counts too."""
    if not code:
        return None
    base = code.strip().replace("_", "-").split("-", 1)[0].lower()
    if pseudo and base == PSEUDO:
        return base
    return base if base in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header Parlour speaks (by quality)."""
    if not header:
        return None
    asked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            asked.append((-quality, index, tag.strip()))
    preferred = [tag.replace("-", "_") for _, _, tag in sorted(asked)]
    chosen = negotiate_locale(preferred, list(LANGUAGES), sep="_")
    if chosen is None:  # "es-MX" and the like: their language, not that region's
        chosen = next((code for tag in preferred if (code := known(tag))), None)
    return known(chosen)


def choose(
    *,
    asked: str | None = None,
    account: str | None = None,
    cookie: str | None = None,
    accept_language: str | None = None,
    pseudo: bool = False,
) -> str:
    """The language a person reads, from what is known of them (see the module's text);
    ``pseudo``: the pseudo-language may be asked for."""
    return (
        known(asked, pseudo=pseudo)
        or known(account)
        or known(cookie, pseudo=pseudo)
        or from_accept_language(accept_language)
        or DEFAULT
    )


def locale(language: str) -> Locale:
    return Locale.parse(language)
