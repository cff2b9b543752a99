"""``python -m app.i18n compile``: compile the catalogues (what `make translations` runs);
``python -m app.i18n update``: bring them up to date with the sources (`make
translations-update`), new messages untranslated."""

from __future__ import annotations

import sys

from app.i18n.catalogues import compile_all
from app.i18n.extraction import update


def main(argv: list[str]) -> int:
    if argv == ["compile"]:
        for path in compile_all():
            print(f"compiled {path}")
        return 0
    if argv == ["update"]:
        for path in update():
            print(f"updated {path}")
        return 0
    print("usage: python -m app.i18n compile|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
