"""Accounts of moves as data: message ids with their arguments, and how to put one into words.

The describers never write a sentence in a language: they say what happened as a tree of
plain JSON values (a *told* value), and whoever shows it renders it in its reader's
language (the server, through its catalogues: app/i18n/accounts.py). The tree is made of

- a phrase: ``{"id": "{who} played {card}", "args": {"who": …, "card": …}}`` — a message
  id (the English text, with named ``{placeholders}``) and what fills it; with ``"plural"``
  and ``"n"`` the id is the singular and the form follows ``n`` (given to it as ``{n}``);
- a seat: ``{"seat": 0}``, or several: ``{"seats": [0, 2]}`` ("Seat 1 and Seat 3");
- a card: ``{"card": "QD", "pack": "french"}`` ("the queen of diamonds"), with ``"title"``
  (a character card's proper name, kept in every language) or ``"bare": true`` (no
  article: "queen of diamonds"); a suit alone: ``{"suit": "O", "pack": "spanish"}``;
- compositions: ``{"sentence": [...]}`` (clauses joined with semicolons, the first letter
  up and a full stop), ``{"clauses": [...]}`` (joined the same, as part of a sentence),
  ``{"list": [...]}`` ("a, b and c"), ``{"commas": [...]}`` ("a, b, c") and
  ``{"text": [...]}`` (sentences one after the other);
- a number (written as it is) or a string (a proper name, written as it is).

``N_`` marks a message id, ``ngettext`` a plural pair and ``pgettext`` a message in a
context (a pack's card names) for extraction (Babel reads them into the ``games``
catalogue): none of them translates anything. :func:`render` puts a told
value into words with any :class:`Language` — the server's catalogues, or :data:`ENGLISH`,
the message ids themselves (``games.describe`` gives that rendering as ``text``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

Told = Any  # a JSON value of the shape above


def N_(message: str) -> str:
    """Mark ``message`` as a message id of the games' catalogue; it is returned unchanged."""
    return message


def ngettext(singular: str, plural: str, n: int, **args: Told) -> dict[str, Any]:
    """A phrase whose form follows ``n``. Named as gettext's own so that Babel extracts the
    pair; it translates nothing (the renderer does, with the reader's catalogue)."""
    phrase: dict[str, Any] = {"id": singular, "plural": plural, "n": n}
    if args:
        phrase["args"] = args
    return phrase


def say(message: str, **args: Told) -> dict[str, Any]:
    """A phrase: a message id (marked with ``N_`` where it is written) and its arguments."""
    return {"id": message, "args": args} if args else {"id": message}


def seat(number: int) -> dict[str, int]:
    return {"seat": number}


def seats(numbers: Sequence[int]) -> dict[str, list[int]]:
    return {"seats": list(numbers)}


def card(code: str, pack: str, title: str | None = None, bare: bool = False) -> dict[str, Any]:
    told: dict[str, Any] = {"card": code, "pack": pack}
    if title:
        told["title"] = title
    if bare:
        told["bare"] = True
    return told


def suit(letter: str, pack: str) -> dict[str, str]:
    return {"suit": letter, "pack": pack}


def sentence(*clauses: Told) -> dict[str, Any]:
    """Clauses joined with semicolons, the first letter up and a full stop at the end."""
    return {"sentence": [c for c in clauses if c]}


def clauses(*parts: Told) -> dict[str, Any]:
    """Clauses joined with semicolons, inside a sentence."""
    return {"clauses": [p for p in parts if p]}


def listing(items: Sequence[Told]) -> dict[str, Any]:
    """``a``, ``a and b``, ``a, b and c``."""
    return {"list": list(items)}


def commas(items: Sequence[Told]) -> dict[str, Any]:
    """``a, b, c``."""
    return {"commas": list(items)}


def text(*sentences: Told) -> dict[str, Any]:
    """Whole sentences one after the other."""
    return {"text": [s for s in sentences if s]}


# --- the words every account shares: joints, ranks and suits ---------------------------

# Translators: two clauses of one sentence (French puts a space before the semicolon).
CLAUSE_JOINT = N_("{clauses}; {clause}")
# Translators: a list: "Seat 1, Seat 2" (then LAST_JOINT: "… and Seat 3").
COMMA_JOINT = N_("{items}, {item}")
LAST_JOINT = N_("{items} and {last}")
# Translators: a character card and its proper name, kept in every language: "the queen of
# diamonds (Anima)".
TITLED = N_("{card} ({title})")
# Translators: a card's name: its rank (with or without its article) then "of" its suit.
CARD = N_("{rank} {suit}")

# A rank with its article ("the queen") and without ("queen"), and a suit after a rank
# ("of spades") and alone ("spades"), per pack: each pack is its own context, for the same
# English word is not always the same card (clubs in the French and the Spanish pack; the
# queen is "dame" in a French pack and "reine" in a French tarot).
Forms = tuple[tuple[str, str], tuple[str, str]]


def pgettext(context: str, message: str) -> tuple[str, str]:
    """Mark ``message`` as a message id used in ``context``. Named as gettext's own so that
    Babel extracts the pair; it translates nothing."""
    return (context, message)


RANKS: dict[str, dict[str, Forms]] = {
    "french": {
        "A": (pgettext("french pack", "the ace"), pgettext("french pack", "ace")),
        "J": (pgettext("french pack", "the jack"), pgettext("french pack", "jack")),
        "Q": (pgettext("french pack", "the queen"), pgettext("french pack", "queen")),
        "K": (pgettext("french pack", "the king"), pgettext("french pack", "king")),
        "": (pgettext("french pack", "the {rank}"), pgettext("french pack", "{rank}")),
        "JK": (pgettext("french pack", "the joker"), pgettext("french pack", "joker")),
    },
    # The Spanish pack's courts by their English names with the Spanish ones beside, as the
    # rules name them (docs/rules/coins.md) and the cards show them.
    "spanish": {
        "A": (pgettext("spanish pack", "the ace"), pgettext("spanish pack", "ace")),
        "J": (
            pgettext("spanish pack", "the knave (Sota)"),
            pgettext("spanish pack", "knave (Sota)"),
        ),
        "N": (
            pgettext("spanish pack", "the knight (Caballo)"),
            pgettext("spanish pack", "knight (Caballo)"),
        ),
        "K": (
            pgettext("spanish pack", "the king (Rey)"),
            pgettext("spanish pack", "king (Rey)"),
        ),
        "": (pgettext("spanish pack", "the {rank}"), pgettext("spanish pack", "{rank}")),
    },
    "tarot": {
        "A": (pgettext("tarot", "the ace"), pgettext("tarot", "ace")),
        "P": (pgettext("tarot", "the page"), pgettext("tarot", "page")),
        "N": (pgettext("tarot", "the knight"), pgettext("tarot", "knight")),
        "Q": (pgettext("tarot", "the queen"), pgettext("tarot", "queen")),
        "K": (pgettext("tarot", "the king"), pgettext("tarot", "king")),
        "": (pgettext("tarot", "the {rank}"), pgettext("tarot", "{rank}")),
    },
}
SUITS: dict[str, dict[str, Forms]] = {
    "french": {
        "S": (pgettext("french pack", "of spades"), pgettext("french pack", "spades")),
        "H": (pgettext("french pack", "of hearts"), pgettext("french pack", "hearts")),
        "D": (pgettext("french pack", "of diamonds"), pgettext("french pack", "diamonds")),
        "C": (pgettext("french pack", "of clubs"), pgettext("french pack", "clubs")),
    },
    "spanish": {
        "C": (pgettext("spanish pack", "of cups"), pgettext("spanish pack", "cups")),
        "O": (pgettext("spanish pack", "of coins"), pgettext("spanish pack", "coins")),
        "S": (pgettext("spanish pack", "of swords"), pgettext("spanish pack", "swords")),
        "B": (pgettext("spanish pack", "of clubs"), pgettext("spanish pack", "clubs")),
    },
    "tarot": {
        "C": (pgettext("tarot", "of cups"), pgettext("tarot", "cups")),
        "O": (pgettext("tarot", "of coins"), pgettext("tarot", "coins")),
        "S": (pgettext("tarot", "of swords"), pgettext("tarot", "swords")),
        "W": (pgettext("tarot", "of wands"), pgettext("tarot", "wands")),
    },
}


# --- rendering -------------------------------------------------------------------------


class Language(Protocol):
    """What rendering needs of a language (app.i18n.catalogues.Words has it)."""

    def gettext(self, message: str, /, **params: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: Any) -> str: ...


class _English:
    """The message ids themselves: what every account says in English."""

    def gettext(self, message: str, /, **params: Any) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        return self.gettext(message, **params)


ENGLISH: Language = _English()


def seat_token(number: int) -> str:
    """How an account names a seat for its reader's client to put the player's name in:
    "Seat 2" for seat 1, in every language (docs/protocol.md)."""
    return f"Seat {number + 1}"


def render(
    told: Told, language: Language = ENGLISH, name: Callable[[int], str] = seat_token
) -> str:
    """``told`` in words of ``language``; ``name`` names a seat."""
    return _Renderer(language, name).words(told)


class _Renderer:
    def __init__(self, language: Language, name: Callable[[int], str]) -> None:
        self.language = language
        self.name = name

    def words(self, told: Told) -> str:
        # Plain dicts and strings first, by their exact type: a table renders several
        # accounts a move for each reader, and an abstract-class check is the slow one.
        kind = type(told)
        if kind is str:
            return told  # type: ignore[no-any-return]
        if kind is not dict:
            if isinstance(told, bool):
                raise TypeError(f"an account holds no booleans: {told!r}")
            if isinstance(told, int | str):
                return str(told)
            if not isinstance(told, Mapping):
                raise TypeError(f"not an account: {told!r}")
        if "id" in told:
            return self._phrase(told)
        if "seat" in told:
            return self.name(told["seat"])
        if "seats" in told:
            return self._list([self.name(s) for s in told["seats"]])
        if "card" in told:
            return self._card(told)
        if "suit" in told:
            return self.language.pgettext(*SUITS[told["pack"]][told["suit"]][1])
        if "sentence" in told:
            return _sentence(self._clauses(told["sentence"]))
        if "clauses" in told:
            return self._clauses(told["clauses"])
        if "list" in told:
            return self._list([self.words(item) for item in told["list"]])
        if "commas" in told:
            return self._commas([self.words(item) for item in told["commas"]])
        if "text" in told:
            return " ".join(self.words(part) for part in told["text"])
        raise TypeError(f"not an account: {told!r}")

    def _phrase(self, told: Mapping[str, Any]) -> str:
        args = {key: self.words(value) for key, value in (told.get("args") or {}).items()}
        message, plural = told["id"], told.get("plural")
        if plural is not None:
            return self.language.ngettext(message, plural, told["n"], **args)
        return self.language.gettext(message, **args)

    def _card(self, told: Mapping[str, Any]) -> str:
        code, pack = told["card"], told["pack"]
        form = 1 if told.get("bare") else 0
        ranks = RANKS[pack]
        if code in ranks:  # the joker: a card with no suit
            name = self.language.pgettext(*ranks[code][form])
        else:
            rank, letter = code[:-1], code[-1]
            if rank in ranks:
                said = self.language.pgettext(*ranks[rank][form])
            else:
                said = self.language.pgettext(*ranks[""][form], rank=rank)
            of = self.language.pgettext(*SUITS[pack][letter][0])
            name = self.language.gettext(CARD, rank=said, suit=of)
        if told.get("title"):
            return self.language.gettext(TITLED, card=name, title=told["title"])
        return name

    def _clauses(self, parts: Sequence[Told]) -> str:
        said = [self.words(part) for part in parts]
        said = [s for s in said if s]
        if not said:
            return ""
        joined = said[0]
        for clause in said[1:]:
            joined = self.language.gettext(CLAUSE_JOINT, clauses=joined, clause=clause)
        return joined

    def _commas(self, items: Sequence[str]) -> str:
        if not items:
            return ""
        joined = items[0]
        for item in items[1:]:
            joined = self.language.gettext(COMMA_JOINT, items=joined, item=item)
        return joined

    def _list(self, items: Sequence[str]) -> str:
        if len(items) <= 1:
            return "".join(items)
        head = self._commas(items[:-1])
        return self.language.gettext(LAST_JOINT, items=head, last=items[-1])


def _sentence(text: str) -> str:
    """The first letter up and a full stop at the end (unless it ends with one already)."""
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."
