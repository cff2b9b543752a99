"""Royal Wife-Swap: a trick-taking game where trick winners build card "families".

Rule source: the published rule text of "Royal Wife-Swap" by Roger Kingdon (2008), with our
rulings, which win where the text is silent or ambiguous. The rules as implemented, rulings
included, are in docs/rules/wifeswap.md.

Shape of a round: the dealer's left leads; everyone follows suit when able; the trick goes to
the highest card by rank then suit unless a court card meets its nemesis. The trick winner then
takes one "arrangement" step: a single action stating their whole new family layout (or a
pass), validated as a whole. Unused trick cards and orphans go to the bottom of the stock and
everyone refills to seven from the winner clockwise.

Layouts are too many to list, so ``legal_actions`` offers ``pass`` plus a modest set of useful
concrete layouts (each applies exactly as listed) and ``apply`` also accepts any other complete
valid layout, normalising the order of families and cards first. ``preview`` (the optional
member of games.kit.base.Rules) runs the same validation and says what a layout would score, so
the client's arrangement board holds no scoring of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.account import N_, Told, say, seats, suit
from games.kit.base import (
    Action,
    IllegalAction,
    check_action_shape,
    check_turn,
    is_card_action,
    require_legal,
    top_scorers,
)
from games.kit.cards import shuffled
from games.kit.engine import Engine
from games.kit.frozen import Record, evolve, freeze, remove_card, thaw
from games.kit.options import IntRange
from games.kit.phrasing import addressed
from games.kit.tricks import cards_played
from games.wifeswap.families import (
    DECK,
    DECK_SET,
    FAMILY_KEY,
    SUIT,
    Layout,
    can_hold,
    canonical_layout,
    family_points,
    family_problem,
    hand_key,
    is_royal,
    spouses,
    trick_winner,
    useful_layouts,
)

HAND_SIZE = 7
IDLE_TRICK_CAP = 20  # tricks in a row with no trick or hand card newly laid
TRICK_CAP = 200  # tricks in one round
ROUND_CAP = 50  # rounds in one match, whatever the target

# --- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WifeSwapState:
    """Everything about a match. Hands are sorted (hand_key); layouts are canonical."""

    seats: int
    seed: int | str
    options: tuple[tuple[str, Any], ...]
    deals: int  # deals made so far: deal k (k >= 1) uses shuffle counter k
    dealer: int
    round_no: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # top first
    families: tuple[Layout, ...]  # per seat
    leader: int
    trick: tuple[tuple[int, str], ...]  # (seat, card) in play order
    arranger: int  # the trick winner during the arrangement step, else -1
    last_trick: tuple[tuple[int, str], ...]  # shown until the next trick starts
    last_winner: int
    tricks: int  # tricks completed this round
    idle: int  # tricks in a row with nothing newly laid
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # round scores of finished rounds
    end_reason: str  # why the last round ended ("" before the first ends)
    last: Record | None
    over: bool

    def option(self, name: str) -> Any:
        return dict(self.options)[name]


@dataclass(frozen=True)
class Outcome:
    """A validated arrangement, ready to settle."""

    layout: Layout
    orphans: tuple[str, ...]
    laid: tuple[str, ...]  # trick and hand cards newly put into families


# Each card's place in a sorted hand (hand_key), worked out once: hands are sorted often.
HAND_ORDER: dict[str, tuple[int, int]] = {card: hand_key(card) for card in DECK}


def sorted_hand(cards: Iterable[str]) -> list[str]:
    """A hand in the order it is shown."""
    return sorted(cards, key=HAND_ORDER.__getitem__)


def _parse_cards(value: object, what: str) -> list[str]:
    if not isinstance(value, list):
        raise IllegalAction(f"{what} must be a list of card codes.")
    for card in value:
        if not isinstance(card, str) or card not in DECK_SET:
            raise IllegalAction(f"{what} holds {card!r}, which is not a card code like 7S or 10H.")
    return value


class WifeSwapRules(Engine[WifeSwapState]):
    """The Rules contract (games.kit.base.Rules) for Royal Wife-Swap."""

    name = "wifeswap"
    title = "Royal Wife-Swap"
    min_seats = 3
    max_seats = 5
    lower_scores_win = False
    table_options = (
        IntRange("target", N_("Play to this many points"), 500, 50, 5000),
        IntRange(
            "rounds",
            N_("Fixed number of rounds (0: play to the target)"),
            0,
            0,
            ROUND_CAP,
            caption=N_("Rounds"),
            names=((0, N_("no fixed number")),),
        ),
    )

    # --- setup ----------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> WifeSwapState:
        # Counter 0 is the dealer draw; deal k uses counter k (``deals`` counts them).
        opts, dealer, order, _ = self.opening(seats, seed, options, deck)
        hands, stock = _deal(order, seats, dealer)
        return WifeSwapState(
            seats=seats,
            seed=seed,
            options=tuple(sorted(opts.items())),
            deals=1,
            dealer=dealer,
            round_no=1,
            hands=hands,
            stock=stock,
            families=((),) * seats,
            leader=(dealer + 1) % seats,
            trick=(),
            arranger=-1,
            last_trick=(),
            last_winner=-1,
            tricks=0,
            idle=0,
            totals=(0,) * seats,
            history=(),
            end_reason="",
            last=None,
            over=False,
        )

    # --- turn order and legal actions ------------------------------------------------------

    def to_act(self, state: WifeSwapState) -> list[int]:
        if state.over:
            return []
        if state.arranger >= 0:
            return [state.arranger]
        return [(state.leader + len(state.trick)) % state.seats]

    def legal_actions(self, state: WifeSwapState, seat: int) -> list[Action]:
        if state.over:
            return []
        awaited = (
            state.arranger
            if state.arranger >= 0
            else (state.leader + len(state.trick)) % state.seats
        )
        if seat != awaited:
            return []
        if state.arranger >= 0:
            listed: list[Action] = [{"type": "pass"}]
            trick = tuple(c for _, c in state.trick)
            for layout, orphans in useful_layouts(state.families[seat], trick, state.hands[seat]):
                families = [list(f) for f in layout]
                listed.append({"type": "arrange", "families": families, "orphans": list(orphans)})
            return listed
        return [{"type": "play", "card": c} for c in _playable(state, seat)]

    # --- apply ----------------------------------------------------------------------------

    def apply(self, state: WifeSwapState, seat: int, action: Action) -> WifeSwapState:
        if state.arranger < 0:
            act = require_legal(
                self, state, seat, action, explain=_explain_play, plainly_legal=_plainly_legal
            )
            return _play(state, seat, act["card"])
        kind, _, outcome = self._arrangement_step(state, seat, action)
        return _settle(state, outcome, kind)

    def preview(self, state: WifeSwapState, seat: int, action: Action) -> dict[str, Any]:
        """What the trick winner's layout would score, validated exactly as ``apply`` does.

        For ``arrange`` and ``pass``: the families in the order the action lists them (so
        family i of the answer is family i of the layout), each with its cards, points,
        kind and whether it is Royal, the orphans and the total. Nothing about the draws
        that would follow. A card play is only validated (``{}``).
        """
        if state.arranger < 0:
            require_legal(self, state, seat, action, explain=_explain_play)
            return {}
        kind, act, outcome = self._arrangement_step(state, seat, action)
        listed = act["families"] if kind == "arrange" else state.families[seat]
        families = [
            {
                "cards": list(f),
                "points": family_points(f),
                "royal": is_royal(f),
                "kind": spouses(f)[0],
            }
            for f in listed
        ]
        return {
            "families": families,
            "orphans": list(outcome.orphans),
            "total": sum(f["points"] for f in families),
        }

    def _arrangement_step(
        self, state: WifeSwapState, seat: int, action: Action
    ) -> tuple[str, Action, Outcome]:
        """The trick winner's ``pass`` or ``arrange``, checked: (kind, action, outcome).

        The one validation of the arrangement step, shared by ``apply`` and ``preview``.
        """
        check_turn(self, state, seat)
        act = check_action_shape(action)
        kind = act["type"]
        if kind == "pass":
            if set(act) != {"type"}:
                raise IllegalAction("A pass takes no other fields.")
            return kind, act, Outcome(state.families[seat], (), ())
        if kind == "arrange":
            return kind, act, _listed_outcome(state, act) or resolve_arrangement(state, act)
        raise IllegalAction(say(N_("You won the trick: arrange your families or pass.")))

    # --- views and results ----------------------------------------------------------------

    def view_says(self, state: WifeSwapState, seat: int | None) -> dict[str, Any]:
        phase = "over" if state.over else ("arrange" if state.arranger >= 0 else "play")
        families = [
            [
                {
                    "cards": list(f),
                    "kind": spouses(f)[0],
                    "royal": is_royal(f),
                    "points": family_points(f),
                }
                for f in layout
            ]
            for layout in state.families
        ]
        last_trick = None
        if state.last_trick:
            # Face up, as played, for everyone: the whole table saw these cards played, and
            # showing them again says nothing of where they went since (hidden_cards).
            last_trick = {"cards": cards_played(state.last_trick), "winner": state.last_winner}
        last_round = None
        if state.history:
            last_round = {
                "round": len(state.history),
                "scores": list(state.history[-1]),
                "reason": state.end_reason,
            }
        common = self.common_view(
            state,
            seat,
            phase=phase,
            message=_message(state, phase, seat),
            last=thaw(state.last),
        )
        return common | {
            "round": state.round_no,
            "leader": state.leader,
            "trick": cards_played(state.trick),
            "trick_winner": state.arranger if state.arranger >= 0 else None,
            "last_trick": last_trick,
            "families": families,
            "round_scores": [sum(family_points(f) for f in lay) for lay in state.families],
            "totals": list(state.totals),
            "round_history": [list(r) for r in state.history],
            "last_round": last_round,
            "stock_size": len(state.stock),
            "tricks_this_round": state.tricks,
            "tricks_without_laying": state.idle,
            "target": state.option("target"),
            "rounds": state.option("rounds"),
        }

    def is_over(self, state: WifeSwapState) -> bool:
        return state.over

    def scores(self, state: WifeSwapState) -> list[int]:
        return list(state.totals)

    def winners(self, state: WifeSwapState) -> list[int]:
        return top_scorers(state.totals) if state.over else []

    # --- introspection for the contract test ----------------------------------------------

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def zones(self, state: WifeSwapState) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {"stock": list(state.stock)}
        zones["trick"] = [c for _, c in state.trick]
        for seat in range(state.seats):
            zones[f"hand{seat}"] = list(state.hands[seat])
            zones[f"families{seat}"] = [c for f in state.families[seat] for c in f]
        return zones

    def hidden_cards(self, state: WifeSwapState, seat: int | None) -> frozenset[str]:
        hidden: set[str] = set(state.stock)
        for other in range(state.seats):
            if other != seat:
                hidden.update(state.hands[other])
        # The one exception: the last completed trick stays face up, as played, until the
        # next trick starts or a new deal (last_trick is then empty). Its cards are public
        # wherever they went since, under the stock or drawn into a hand; which cards were
        # drawn, and by whom, is still told nowhere.
        return frozenset(hidden.difference(c for _, c in state.last_trick))


# --- dealing --------------------------------------------------------------------------------


def _deal(
    order: Sequence[str], seats: int, dealer: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Seven cards each, one at a time clockwise from the dealer's left; the rest is stock."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    for i in range(HAND_SIZE * seats):
        hands[(dealer + 1 + i) % seats].append(order[i])
    stock = tuple(order[HAND_SIZE * seats :])
    return tuple(tuple(sorted_hand(h)) for h in hands), stock


# --- playing to the trick ---------------------------------------------------------------------


def _playable(state: WifeSwapState, seat: int) -> list[str]:
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    led = SUIT[state.trick[0][1]]
    follow = [c for c in hand if SUIT[c] == led]
    return follow or list(hand)


def _plainly_legal(state: WifeSwapState, seat: int, action: object) -> bool:
    """A card play to the trick, following suit, by the seat awaited
    (games.kit.base.require_legal)."""
    return (
        not state.over
        and state.arranger < 0
        and seat == (state.leader + len(state.trick)) % state.seats
        and is_card_action(action, "play", _playable(state, seat))
    )


def _explain_play(state: WifeSwapState, seat: int, act: Action) -> Told:
    kind = act["type"]
    if kind != "play":
        return say(N_("It is your turn to play a card to the trick."))
    if set(act) != {"type", "card"}:
        return "A play names only its 'card'."
    card = act.get("card")
    if not isinstance(card, str) or card not in DECK_SET:
        return f"{card!r} is not a card code like 7S or 10H."
    if card not in state.hands[seat]:
        return say(N_("You do not hold that card."))
    led = SUIT[state.trick[0][1]]
    return say(N_("You must follow suit: you hold {suit}."), suit=suit(led, "french"))


def _play(state: WifeSwapState, seat: int, card: str) -> WifeSwapState:
    trick = (*state.trick, (seat, card))
    changes: dict[str, Any] = {}
    if len(trick) == 1:
        # The previous trick stays on show only until the next one starts.
        changes.update(last_trick=(), last_winner=-1)
    if len(trick) == state.seats:
        changes.update(arranger=trick_winner(trick))
    return evolve(
        state,
        hands=remove_card(state.hands, seat, card),
        trick=trick,
        last=(("seat", seat), ("type", "play"), ("card", card)),
        **changes,
    )


# --- the arrangement step ----------------------------------------------------------------------


def resolve_arrangement(state: WifeSwapState, act: Mapping[str, Any]) -> Outcome:
    """Validate a whole proposed layout for the trick winner; say exactly what is wrong."""
    extra = set(act) - {"type", "families", "orphans"}
    if extra:
        raise IllegalAction(
            f"An arrangement has only 'families' and 'orphans', not {sorted(extra)!r}."
        )
    if "families" not in act:
        raise IllegalAction("An arrangement must list 'families': your complete new layout.")
    raw = act["families"]
    if not isinstance(raw, list):
        raise IllegalAction("'families' must be a list of families, each a list of cards.")
    families = [_parse_cards(f, f"Family {i + 1}") for i, f in enumerate(raw)]
    orphans = _parse_cards(act.get("orphans", []), "'orphans'")
    seat = state.arranger
    table = {c for f in state.families[seat] for c in f}
    trick = [c for _, c in state.trick]
    hand = set(state.hands[seat])
    seen: set[str] = set()
    for card in [c for f in families for c in f] + orphans:
        if card in seen:
            raise IllegalAction(say(N_("{card} is listed twice."), card=card))
        seen.add(card)
        if card not in table and card not in hand and card not in trick:
            raise IllegalAction(
                say(
                    N_(
                        "{card} is not yours to lay: it is not in your hand, the trick or "
                        "your families."
                    ),
                    card=card,
                )
            )
    for card in orphans:
        if card in hand:
            raise IllegalAction(
                say(
                    N_("{card} is in your hand: only cards from your families can be orphans."),
                    card=card,
                )
            )
        if card not in table:
            raise IllegalAction(
                say(
                    N_(
                        "{card} is from the trick: only cards from your families can be "
                        "orphans (unused trick cards go under the stock by themselves)."
                    ),
                    card=card,
                )
            )
    missing = sorted(table - seen, key=FAMILY_KEY.__getitem__)
    if missing:
        raise IllegalAction(
            say(
                N_(
                    "{card} is in your families and table cards never go back to hand: "
                    "put it in a family or list it as an orphan."
                ),
                card=missing[0],
            )
        )
    for i, family in enumerate(families):
        problem = family_problem(family)
        if problem:
            shown = " ".join(family) if family else say(N_("empty"))
            raise IllegalAction(
                say(
                    N_("Family {number} ({cards}): {problem}"),
                    number=i + 1,
                    cards=shown,
                    problem=problem,
                )
            )
    for card in orphans:
        for i, family in enumerate(families):
            if can_hold(family, card):
                raise IllegalAction(
                    say(
                        N_("{card} cannot be an orphan: family {number} ({cards}) can hold it."),
                        card=card,
                        number=i + 1,
                        cards=" ".join(family),
                    )
                )
    placed = {c for f in families for c in f}
    laid = tuple(c for c in trick if c in placed) + tuple(
        c for c in state.hands[seat] if c in placed
    )
    return Outcome(canonical_layout(families), tuple(orphans), laid)


def _listed_outcome(state: WifeSwapState, act: Mapping[str, Any]) -> Outcome | None:
    """The outcome of an arrangement exactly as ``legal_actions`` lists it (valid as listed,
    so it needs no checking), or None: ``resolve_arrangement`` then checks it."""
    families, orphans = act.get("families"), act.get("orphans")
    if len(act) != 3 or type(families) is not list or type(orphans) is not list:
        return None
    if not all(type(f) is list for f in families):
        return None
    seat = state.arranger
    trick = tuple(c for _, c in state.trick)
    hand = state.hands[seat]
    listed = (tuple(tuple(f) for f in families), tuple(orphans))
    if listed not in useful_layouts(state.families[seat], trick, hand):
        return None
    placed = {c for f in listed[0] for c in f}
    laid = tuple(c for c in trick if c in placed) + tuple(c for c in hand if c in placed)
    return Outcome(listed[0], listed[1], laid)


def _settle(state: WifeSwapState, outcome: Outcome, kind: str) -> WifeSwapState:
    """Lay out the winner's families, return cards under the stock, refill, maybe end round."""
    seat = state.arranger
    n = state.seats
    placed = {c for f in outcome.layout for c in f}
    families = list(state.families)
    families[seat] = outcome.layout
    hands: list[Sequence[str]] = list(state.hands)
    hands[seat] = [c for c in hands[seat] if c not in placed]
    unused = tuple(c for _, c in state.trick if c not in placed)
    stock = list(state.stock) + list(unused) + list(outcome.orphans)
    for k in range(n):
        drawer = (seat + k) % n
        need = HAND_SIZE - len(hands[drawer])
        if need > 0:
            hands[drawer] = tuple(sorted_hand([*hands[drawer], *stock[:need]]))
            del stock[:need]
    idle = 0 if outcome.laid else state.idle + 1
    tricks = state.tricks + 1
    last: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "arrange":
        last.update(
            laid=list(outcome.laid), laid_count=len(outcome.laid), orphans=len(outcome.orphans)
        )
    after = evolve(
        state,
        # Every hand is sorted: untouched, drawn into (sorted above) or the winner's with
        # cards taken out.
        hands=tuple([h if type(h) is tuple else tuple(h) for h in hands]),
        stock=tuple(stock),
        families=tuple(families),
        leader=seat,
        trick=(),
        arranger=-1,
        last_trick=state.trick,
        last_winner=seat,
        tricks=tricks,
        idle=idle,
        last=freeze(last),
    )
    if any(not h for h in hands):
        return _end_round(after, "a player had no cards at the start of a trick")
    if idle >= IDLE_TRICK_CAP:
        return _end_round(after, f"{IDLE_TRICK_CAP} tricks in a row without a card newly laid")
    if tricks >= TRICK_CAP:
        return _end_round(after, f"{TRICK_CAP} tricks were played")
    return after


def _end_round(state: WifeSwapState, reason: str) -> WifeSwapState:
    """Score the families, then either end the match or deal the next round."""
    points = tuple(sum(family_points(f) for f in layout) for layout in state.families)
    totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
    history = (*state.history, points)
    done = evolve(state, totals=totals, history=history, end_reason=reason)
    best = max(totals)
    unique_top = totals.count(best) == 1
    fixed = state.option("rounds")
    if state.round_no >= ROUND_CAP:
        finished = True
    elif fixed:
        finished = state.round_no >= fixed and unique_top
    else:
        finished = best >= state.option("target") and unique_top
    if finished:
        return evolve(done, over=True)
    dealer = (state.dealer + 1) % state.seats
    deals = state.deals + 1
    hands, stock = _deal(shuffled(DECK, state.seed, deals), state.seats, dealer)
    last = thaw(state.last) or {}
    # The laid cards are back in the new deal now: say how many, not which.
    last.pop("laid", None)
    last["round_over"] = True
    return evolve(
        done,
        deals=deals,
        dealer=dealer,
        round_no=state.round_no + 1,
        hands=hands,
        stock=stock,
        families=((),) * state.seats,
        leader=(dealer + 1) % state.seats,
        trick=(),
        arranger=-1,
        last_trick=(),
        last_winner=-1,
        tricks=0,
        idle=0,
        last=freeze(last),
    )


def _message(state: WifeSwapState, phase: str, viewer: int | None) -> Told:
    """One sentence on what is awaited now, addressing the viewer as "You"."""
    if phase == "over":
        won = top_scorers(state.totals)
        if len(won) == 1:
            return addressed(
                viewer,
                won[0],
                N_("The match is over: you win."),
                N_("The match is over: {seat} wins."),
            )
        if viewer in won:
            others = [s for s in won if s != viewer]
            return say(N_("The match is over: you and {seats} share the win."), seats=seats(others))
        return say(N_("The match is over: {seats} share the win."), seats=seats(won))
    if phase == "arrange":
        return addressed(
            viewer,
            state.arranger,
            N_("You won the trick and may arrange your families or pass."),
            N_("{seat} won the trick and may arrange their families or pass."),
        )
    seat = (state.leader + len(state.trick)) % state.seats
    if not state.trick:
        return addressed(
            viewer, seat, N_("You lead the next trick."), N_("{seat} leads the next trick.")
        )
    return addressed(
        viewer, seat, N_("Your turn to play to the trick."), N_("{seat} to play to the trick.")
    )


RULES = WifeSwapRules()
