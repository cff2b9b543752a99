"""Table options, declared once per game.

A game lists its options as small frozen values — a whole number in a range, a choice among
values, an on/off flag — and everything else follows from that one list: the defaults, the
schema the server sends to forms, the check of the options given to ``new_game``, and which
of them a rematch carries over (``for_rematch``). So every limit is written in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.account import N_, Told, render, say
from games.kit.base import IllegalAction

# Options that every game takes without declaring them, each with whether a rematch carries
# it over. ``dealer`` fixes the first dealer (games.kit.base.check_dealer checks its value
# against the seat count); it holds for one match only, and a rematch deals as the rules say.
UNDECLARED: dict[str, bool] = {"dealer": False}


@dataclass(frozen=True)
class IntRange:
    """A whole number from ``low`` to ``high``, both included."""

    name: str
    label: str
    default: int
    low: int
    high: int
    # How a table's list of options names it (the label when empty), and values with
    # words of their own there ((0, "no fixed number")).
    caption: str = ""
    names: tuple[tuple[int, str], ...] = ()

    @property
    def expected(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def accepts(self, value: object) -> bool:
        # ``type(...) is int``: True is not 1 and 15.0 is not 15, though they compare equal.
        return type(value) is int and self.low <= value <= self.high

    def schema(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "type": "int",
            "default": self.default,
            "min": self.low,
            "max": self.high,
        }


@dataclass(frozen=True)
class Choice:
    """One of a few listed values (words or numbers)."""

    name: str
    label: str
    default: str | int
    choices: tuple[str | int, ...]
    caption: str = ""
    names: tuple[tuple[str | int, str], ...] = ()

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(repr(c) for c in self.choices)

    def accepts(self, value: object) -> bool:
        # Same type as well as equal: True is not 1 and 15.0 is not 15.
        return any(type(value) is type(c) and value == c for c in self.choices)

    def schema(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "type": "choice",
            "default": self.default,
            "choices": list(self.choices),
        }


@dataclass(frozen=True)
class Flag:
    """On or off."""

    name: str
    label: str
    default: bool
    # How a refusal names what was expected. Games whose refusals have always said it
    # otherwise keep their own words.
    expected: str = "a bool"
    caption: str = ""
    names: tuple[tuple[bool, str], ...] = ()

    def accepts(self, value: object) -> bool:
        return type(value) is bool

    def schema(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "bool", "default": self.default}


Option = IntRange | Choice | Flag


def defaults(options: Iterable[Option]) -> dict[str, Any]:
    """The options a new match uses unless told otherwise, in declaration order."""
    return {option.name: option.default for option in options}


def schema(options: Iterable[Option]) -> list[dict[str, Any]]:
    """The declarations as JSON for forms (see games.kit.base.Rules.options_schema)."""
    return [option.schema() for option in options]


# Translators: a table's option and its value: "Points to win: 100".
OPTION_VALUE = N_("{option}: {value}")
YES, NO = N_("yes"), N_("no")


def value_words(option: Option, value: object) -> Told:
    """An option's value as players read it, told (games.kit.account): its own words where
    it has them (marked with ``N_`` where the game declares them), "yes" or "no" for a
    flag, a word value with spaces ("democratic league"), a number as itself."""
    for named, words in option.names:
        if type(named) is type(value) and named == value:
            return say(words)
    if isinstance(value, bool):
        return say(YES if value else NO)
    if isinstance(value, int):
        return value
    return str(value).replace("_", " ")


def told(options: Iterable[Option], values: Mapping[str, Any]) -> list[Told]:
    """A table's options as players read them, in declaration order, told for each reader's
    language (games.kit.account): "Points to win: 100", "Played Cups go to a side pile: no".
    The one wording of options, wherever they are shown (the lobby, the table, the review,
    the transcript); options for one match only (the fixed first dealer) are left out, as
    are values a game does not declare. Labels and captions are marked with ``N_``."""
    return [
        say(
            OPTION_VALUE,
            option=say(option.caption or option.label),
            value=value_words(option, values[option.name]),
        )
        for option in options
        if option.name in values
    ]


def described(options: Iterable[Option], values: Mapping[str, Any]) -> list[str]:
    """:func:`told` in English."""
    return [render(line) for line in told(options, values)]


def for_rematch(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a rematch starts with: the match's own, but for those that hold for one
    match only."""
    return {key: value for key, value in options.items() if UNDECLARED.get(key, True)}


def settle(options: Iterable[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The defaults updated with ``given``, refusing unknown options and values out of bounds.

    Options in ``UNDECLARED`` pass through unchecked; the game checks their values.
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise IllegalAction("Options must be a JSON object.")
    declared = {option.name: option for option in options}
    settled = defaults(declared.values())
    for key, value in given.items():
        option = declared.get(key)
        if option is None and key not in UNDECLARED:
            known = ", ".join(sorted([*declared, *UNDECLARED]))
            raise IllegalAction(f"Unknown option {key!r}; this game knows: {known}.")
        if option is not None and not option.accepts(value):
            raise IllegalAction(f"Option {key!r} must be {option.expected}, not {value!r}.")
        settled[key] = value
    return settled
