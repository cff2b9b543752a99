"""The rules contract shared by every game, and the checks every game makes the same way.

A game is an object with the members of :class:`Rules`, generic in the type of its state,
so that a type checker holds each engine to the contract with its own state type. States
are immutable values (frozen dataclasses and tuples); ``apply`` returns a new state or
raises :class:`IllegalAction` with a sentence a player understands. Actions travel in wire
form: small JSON objects with a ``type`` and their fields.

The checks below make "the match is over", "it is not your turn" and "that is not a legal
move" read the same in every game. :func:`states` folds an action log through ``apply``:
the log plus the seed *is* the match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from games.kit.account import N_, Told, render, say

Action = dict[str, Any]
S = TypeVar("S")
# A state type only ever taken in, never given back (Previews).
S_in = TypeVar("S_in", contravariant=True)


class IllegalAction(ValueError):
    """An action (or a new-game request) that the rules refuse; the message says why.

    ``reason`` is an English sentence, or a told value (games.kit.account) for a sentence
    a person meets at the table: then ``says`` keeps it, for the server to say it in the
    player's language, and the message is its English. A sentence only a program's mistake
    can bring (an action of the wrong shape) stays English, as the protocol is.
    """

    def __init__(self, reason: Told) -> None:
        self.says: Told = None if isinstance(reason, str) else reason
        super().__init__(reason if isinstance(reason, str) else render(reason))


@runtime_checkable
class Rules(Protocol[S]):
    """What every game in ``games.REGISTRY`` provides; ``S`` is the game's state type.

    The members up to ``winners`` are what the server uses. ``deck``, ``zones``,
    ``hidden_cards`` and ``past_deal_keys`` let the shared contract test check conservation
    of cards and hidden information for every game without knowing its rules.

    A game may also have one optional member, ``preview``, described by :class:`Previews`.
    Being optional, it is not a member of this protocol (``isinstance`` would then demand
    it of every game).
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

    def options_text(self, options: Mapping[str, Any]) -> list[str]:
        """A table's ``options`` as players read them, each "label: value" ("Points to win:
        100"), in the game's order; options for one match only (``dealer``) left out."""
        ...

    def options_says(self, options: Mapping[str, Any]) -> list[Told]:
        """``options_text`` told as data (games.kit.account), for each reader's language."""
        ...

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> S: ...

    def to_act(self, state: S) -> list[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action) -> S: ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def view_says(self, state: S, seat: int | None) -> dict[str, Any]:
        """``view`` with its ``message`` told as data alone (``message_says``), for whoever
        words it in its reader's language: the view without the English sentence."""
        ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> list[int]: ...

    def winners(self, state: S) -> list[int]: ...

    # --- introspection used by the shared contract test -------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """Every card of a match with these settings (the order is irrelevant)."""
        ...

    def zones(self, state: S) -> dict[str, list[str]]:
        """Every place a card can be, named, with its cards (including cards out of play).

        The union of all zones is always exactly ``deck(...)``: cards are conserved.
        """
        ...

    def hidden_cards(self, state: S, seat: int | None) -> frozenset[str]:
        """The cards of the deal in play that ``seat`` (``None``: a spectator) may not know
        right now."""
        ...

    # The view keys that sum up a deal already over (Usurp's summary of the hand just ended).
    # The cards they name were made public when that deal ended, and the same cards may have
    # been dealt again since: ``hidden_cards``, which is about the deal in play, does not
    # apply to them, and those keys are the same in every seat's view.
    past_deal_keys: tuple[str, ...]


@runtime_checkable
class Previews(Protocol[S_in]):
    """The optional member of :class:`Rules` that answers "what would this action do?"."""

    def preview(self, state: S_in, seat: int, action: Action) -> dict[str, Any]:
        """What the seat would see of an action without playing it.

        Raises :class:`IllegalAction` exactly as ``apply`` would (same message); returns a
        JSON-safe dict of public consequences only (never anything the seat may not know —
        e.g. never the cards drawn afterwards). The state is never changed.
        """
        ...


# --- a match is its log ---------------------------------------------------------------


def states(
    rules: Rules[S],
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Iterable[tuple[int, Action]],
) -> Iterator[S]:
    """The match as it went: the state after ``new_game``, then after every ``(seat, action)``.

    ``games.replay`` is the last of them; a review of a finished match walks them all.
    """
    state = rules.new_game(seats, seed, options, deck)
    yield state
    for seat, action in actions:
        state = rules.apply(state, seat, action)
        yield state


# --- shared checks --------------------------------------------------------------------


def check_seats(rules: Rules[Any], seats: object) -> None:
    """Refuse a seat count outside the game's range."""
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise IllegalAction(f"The number of seats must be a whole number, not {seats!r}.")
    if not rules.min_seats <= seats <= rules.max_seats:
        if rules.min_seats == rules.max_seats:
            wanted = f"exactly {rules.min_seats}"
        else:
            wanted = f"between {rules.min_seats} and {rules.max_seats}"
        raise IllegalAction(f"{rules.title} is played by {wanted} players, not {seats}.")


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


def check_turn(rules: Rules[S], state: S, seat: object) -> None:
    """Refuse an action from a seat that is not awaited (or when the match is over)."""
    if rules.is_over(state):
        raise IllegalAction(say(N_("The match is over.")))
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalAction(f"There is no seat {seat!r} at this table.")
    to_act = rules.to_act(state)
    if seat in to_act:  # an awaited seat is at the table: the common case, checked first
        return
    if seat not in range(len(rules.scores(state))):
        raise IllegalAction(f"There is no seat {seat} at this table.")
    if seat not in to_act:
        raise IllegalAction(say(N_("It is not your turn.")))


def check_action_shape(action: object) -> Action:
    """Refuse anything that is not a JSON object with a string ``type``."""
    if not isinstance(action, Mapping):
        raise IllegalAction("An action must be a JSON object with a 'type'.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("An action must have a 'type' naming what you do.")
    return dict(action)


# A game's own sentence for why a refused action is illegal (an English string, or a told
# value for a person: IllegalAction), or None for the generic one.
Explain = Callable[[S, int, Action], Told | None]
# A game's quick test that an action is certainly legal (the seat is awaited and the action
# equals one of ``legal_actions``), without listing them; False only means "look closer".
PlainlyLegal = Callable[[S, int, object], bool]


def require_legal(
    rules: Rules[S],
    state: S,
    seat: int,
    action: object,
    *,
    explain: Explain[S] | None = None,
    plainly_legal: PlainlyLegal[S] | None = None,
) -> Action:
    """The shared gate at the top of every ``apply``: turn, shape, then legality.

    ``legal_actions`` is the truth; an action is legal when it equals one of them exactly.
    ``explain(state, seat, action)``, when given, returns the game's own sentence for why a
    refused action is illegal (e.g. "You must follow suit (hearts).").
    ``plainly_legal(state, seat, action)``, when given, accepts the common legal actions
    without listing every legal action (searching computer players apply millions); it
    must never accept what ``legal_actions`` would not list.
    """
    # ``type(seat) is int``: a seat of True would equal seat 1.
    if plainly_legal is not None and type(seat) is int and plainly_legal(state, seat, action):
        return dict(cast(Action, action))
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
            else say(N_("You have no move now."))
        )
    raise IllegalAction(f"That {act['type']} is not allowed now.")


def is_card_action(action: object, kind: str, cards: Sequence[str]) -> bool:
    """Whether ``action`` is exactly ``{"type": kind, "card": c}`` with ``c`` among ``cards``
    (the shape of most legal actions, for a game's ``plainly_legal``)."""
    return (
        type(action) is dict
        and len(action) == 2
        and action.get("type") == kind
        and type(action.get("card")) is str
        and action["card"] in cards
    )


# --- seats ----------------------------------------------------------------------------


def rotate(seat: int, steps: int, seats: int) -> int:
    """The seat ``steps`` places clockwise (left) of ``seat``."""
    return (seat + steps) % seats


def top_scorers(scores: Sequence[int], *, lowest: bool = False) -> list[int]:
    """Every seat holding the best score (ties share)."""
    if not scores:
        return []
    best = min(scores) if lowest else max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]
