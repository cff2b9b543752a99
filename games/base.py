"""The rules contract shared by every game (DESIGN.md §3).

A game is an object with the members of :class:`Rules`. States are immutable values
(frozen dataclasses and tuples); ``apply`` returns a new state or raises
:class:`IllegalAction` with a sentence a player understands. Actions travel in wire form:
small JSON objects with a ``type`` and their fields.

This module also holds the few helpers every game shares, so that "the match is over",
"it is not your turn" and "that is not a legal move" read the same in every game, and
:func:`replay`, which folds an action log through ``apply``: the log plus the seed *is*
the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

State = Any
Action = dict[str, Any]
S = TypeVar("S")


class IllegalAction(ValueError):
    """An action (or a new-game request) that the rules refuse; the message says why."""


@runtime_checkable
class Rules(Protocol):
    """What every game in ``games.REGISTRY`` provides.

    The first block is the contract of DESIGN.md §3. ``deck``, ``zones`` and
    ``hidden_cards`` let the shared contract test check conservation of cards and
    hidden information for every game without knowing its rules.

    A game may also have one optional member, ``preview(state, seat, action) -> dict``:
    what the seat would see of an action without playing it. It raises
    :class:`IllegalAction` exactly as ``apply`` would (same message) and returns a
    JSON-safe dict of public consequences only (never anything the seat may not know —
    e.g. never the cards drawn afterwards). Being optional, it is not a member of this
    protocol (``isinstance`` would then demand it of every game): :class:`Previews`
    describes it, and games without it need nothing.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    lower_scores_win: bool  # True where scores count against you (Cups: cards left)

    def default_options(self) -> dict[str, Any]: ...

    def options_schema(self) -> list[dict[str, Any]]:
        """The table options a host may set, for forms and validation.

        Each entry: ``{"name", "label", "type": "int" | "choice" | "bool", "default"}`` plus
        ``"min"``/``"max"`` for ints and ``"choices"`` (a list of values) for choices. The
        shared contract test plays every combination of the ``choice`` and ``bool`` options.
        """
        ...

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> State: ...

    def to_act(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def is_over(self, state: State) -> bool: ...

    def scores(self, state: State) -> list[int]: ...

    def winners(self, state: State) -> list[int]: ...

    # --- introspection used by the shared contract test -------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """Every card of a match with these settings (the order is irrelevant)."""
        ...

    def zones(self, state: State) -> dict[str, list[str]]:
        """Every place a card can be, named, with its cards (including cards out of play).

        The union of all zones is always exactly ``deck(...)``: cards are conserved.
        """
        ...

    def hidden_cards(self, state: State, seat: int | None) -> frozenset[str]:
        """The cards that ``seat`` (``None``: a spectator) may not know right now."""
        ...


@runtime_checkable
class Previews(Protocol):
    """The optional member of :class:`Rules` that answers "what would this action do?"."""

    def preview(self, state: State, seat: int, action: Action) -> dict[str, Any]:
        """What the seat would see of an action without playing it.

        Raises :class:`IllegalAction` exactly as ``apply`` would (same message); returns a
        JSON-safe dict of public consequences only (never anything the seat may not know —
        e.g. never the cards drawn afterwards). The state is never changed.
        """
        ...


# --- shared checks --------------------------------------------------------------------


def check_seats(rules: Rules, seats: int) -> None:
    """Refuse a seat count outside the game's range."""
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise IllegalAction(f"The number of seats must be a whole number, not {seats!r}.")
    if not rules.min_seats <= seats <= rules.max_seats:
        if rules.min_seats == rules.max_seats:
            wanted = f"exactly {rules.min_seats}"
        else:
            wanted = f"between {rules.min_seats} and {rules.max_seats}"
        raise IllegalAction(f"{rules.title} is played by {wanted} players, not {seats}.")


def merge_options(
    defaults: Mapping[str, Any],
    given: Mapping[str, Any] | None,
    choices: Mapping[str, Iterable[Any]] | None = None,
    *,
    extra: Iterable[str] = ("dealer",),
) -> dict[str, Any]:
    """Return ``defaults`` updated with ``given``, refusing unknown options.

    ``choices`` maps an option to the values it may take (a ``range`` or a collection);
    options without an entry are only checked for type (same type as the default).
    ``extra`` names options with no default (``dealer``); games check their values.
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise IllegalAction("Options must be a JSON object.")
    merged = dict(defaults)
    allowed = set(defaults) | set(extra)
    for key, value in given.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise IllegalAction(f"Unknown option {key!r}; this game knows: {known}.")
        if choices and key in choices:
            # Same type as well as equal: True is not 1 and 15.0 is not 15.
            if not any(type(value) is type(o) and value == o for o in choices[key]):
                shown = _describe_choices(choices[key])
                raise IllegalAction(f"Option {key!r} must be {shown}, not {value!r}.")
        elif key in defaults and defaults[key] is not None:
            expected = type(defaults[key])
            if type(value) is not expected:
                raise IllegalAction(f"Option {key!r} must be a {expected.__name__}, not {value!r}.")
        merged[key] = value
    return merged


def _describe_choices(values: Iterable[Any]) -> str:
    if isinstance(values, range):
        return f"a whole number from {values.start} to {values.stop - 1}"
    shown = [repr(v) for v in values]
    return "one of " + ", ".join(shown)


def check_dealer(options: Mapping[str, Any], seats: int) -> int | None:
    """The fixed first dealer from ``options["dealer"]``, or ``None`` to choose by the rules."""
    dealer = options.get("dealer")
    if dealer is None:
        return None
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise IllegalAction(f"Option 'dealer' must be a seat from 0 to {seats - 1}.")
    return dealer


def check_deck(deck: Sequence[str] | None, expected: Sequence[str]) -> list[str] | None:
    """Refuse a stacked ``deck`` that is not exactly the game's cards."""
    if deck is None:
        return None
    if isinstance(deck, str) or not isinstance(deck, Sequence):
        raise IllegalAction("A deck must be a list of card codes.")
    given = list(deck)
    if sorted(given, key=str) != sorted(expected):
        missing = sorted(set(expected) - set(given))
        extra = sorted(set(map(str, given)) - set(expected))
        detail = []
        if missing:
            detail.append("missing " + " ".join(missing))
        if extra:
            detail.append("unknown " + " ".join(extra))
        if not detail:
            detail.append("some card appears twice")
        raise IllegalAction(
            f"The deck must hold exactly the game's {len(expected)} cards ({'; '.join(detail)})."
        )
    return given


def check_turn(rules: Rules, state: State, seat: Any) -> None:
    """Refuse an action from a seat that is not awaited (or when the match is over)."""
    if rules.is_over(state):
        raise IllegalAction("The match is over.")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalAction(f"There is no seat {seat!r} at this table.")
    to_act = rules.to_act(state)
    if seat not in range(len(rules.scores(state))):
        raise IllegalAction(f"There is no seat {seat} at this table.")
    if seat not in to_act:
        raise IllegalAction("It is not your turn.")


def check_action_shape(action: Any) -> Action:
    """Refuse anything that is not a JSON object with a string ``type``."""
    if not isinstance(action, Mapping):
        raise IllegalAction("An action must be a JSON object with a 'type'.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("An action must have a 'type' naming what you do.")
    return dict(action)


def require_legal(
    rules: Rules,
    state: State,
    seat: Any,
    action: Any,
    *,
    explain: Any = None,
) -> Action:
    """The shared gate at the top of every ``apply``: turn, shape, then legality.

    ``legal_actions`` is the truth (DESIGN.md §9.4); an action is legal when it equals one
    of them exactly. ``explain(state, seat, action)``, when given, returns the game's own
    sentence for why a refused action is illegal (e.g. "You must follow suit (hearts).").
    """
    check_turn(rules, state, seat)
    act = check_action_shape(action)
    legal = rules.legal_actions(state, seat)
    if act in legal:
        return act
    reason = explain(state, seat, act) if explain is not None else None
    if reason:
        raise IllegalAction(reason)
    kinds = sorted({a["type"] for a in legal})
    if act["type"] not in kinds:
        raise IllegalAction(
            f"You cannot {act['type']!r} now; you may: {', '.join(kinds)}."
            if kinds
            else "You have no move now."
        )
    raise IllegalAction(f"That {act['type']} is not allowed now.")


def rotate(seat: int, steps: int, seats: int) -> int:
    """The seat ``steps`` places clockwise (left) of ``seat``."""
    return (seat + steps) % seats


def top_scorers(scores: Sequence[int], *, lowest: bool = False) -> list[int]:
    """Every seat holding the best score (ties share)."""
    if not scores:
        return []
    best = min(scores) if lowest else max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def replay(
    name: str,
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Iterable[tuple[int, Action]],
) -> State:
    """Rebuild a match: ``new_game`` then ``apply`` every ``(seat, action)`` in order."""
    from games import get  # the registry imports the games, which import this module

    rules = get(name)
    state = rules.new_game(seats, seed, options, deck)
    for seat, action in actions:
        state = rules.apply(state, seat, action)
    return state
