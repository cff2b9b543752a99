"""Where the catalogues live: app/i18n/locale/<language>/LC_MESSAGES/<domain>.po, one per
language and domain (read by the catalogues, written by the extraction)."""

from __future__ import annotations

from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAINS = ("messages", "games", "client")


def catalogue_path(language: str, domain: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
