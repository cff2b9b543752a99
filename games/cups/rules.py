"""Cups: the shedding game played with the 56-card tarot minor arcana.

Rule source: the published "Simple Rules" of Cups, read through our rulings in
docs/rules/cups.md, which win wherever the text is silent, ambiguous or (being from a
fictional world) needs a reading ("Our ruling").

Shape (OpenSpiel style): constants, the card arithmetic, the frozen state, a small mutable
working copy used inside one turn, then the contract's verbs in order. Players shed cards
onto the dump; spot and court cards of another suit make them draw, an Ace asks everyone
else for a gift, a Cup of the same value takes three dump cards and becomes an active Cup
that reverses play. A player who cannot play lays their hand face up as a graveyard batch.
Cups leave the game whenever the stack runs short; the game ends when someone sheds every
card, when no Cup is left in play, or at the turn cap, and fewer cards is better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.account import N_, Told, ngettext, say, seat, seats
from games.kit.account import card as card_ref
from games.kit.account import seat as seat_ref
from games.kit.account import suit as suit_ref
from games.kit.base import Action, IllegalAction, is_card_action, require_legal, top_scorers
from games.kit.cards import TAROT_RANKS, shuffled, tarot_deck
from games.kit.engine import Engine
from games.kit.frozen import Record, evolve, freeze, thaw
from games.kit.options import Choice, Flag

HAND_SIZE = 7
TAKE = 3  # a Cup takes the top three dump cards
TURN_CAP = 2000
CUP = "C"
RIGHT = -1  # play starts to the right (seat - 1) and reverses on every active Cup
LEFT = 1

SHORTFALLS = ("forgiven", "democratic_league", "magellan")
GRAVEYARD_COUNTS = ("single", "double", "none")
GRAVEYARD_WEIGHT = {"single": 1, "double": 2, "none": 0}

DECK: tuple[str, ...] = tuple(tarot_deck())
# A=1 ... 10=10, Page 11, Knight 12, Queen 13, King 14 (docs/rules/cups.md).
VALUE: dict[str, int] = {card: TAROT_RANKS.index(card[:-1]) + 1 for card in DECK}
SUIT: dict[str, str] = {card: card[-1] for card in DECK}
CUPS_IN_DECK = sum(1 for card in DECK if SUIT[card] == CUP)
# A hand is shown suit by suit, low to high (the deck's own order); play order is kept apart.
SHOWN_ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}


# --- card arithmetic ------------------------------------------------------------------


def playable(active: str, card: str) -> bool:
    """Whether ``card`` may be played on ``active`` ("" = an empty dump: anything goes)."""
    if not active:
        return True
    suit = SUIT[active]
    other = SUIT[card]
    if suit == CUP:
        return other != CUP
    if other == suit:
        return VALUE[card] > VALUE[active] or VALUE[card] == 1
    if other == CUP:
        return VALUE[card] == VALUE[active]
    return True  # any card of another non-Cup suit (it makes its player draw)


# The cards playable on each active card (and on an empty dump, ""), worked out once.
PLAYABLE_ON: dict[str, frozenset[str]] = {
    active: frozenset(card for card in DECK if playable(active, card)) for active in ("", *DECK)
}


# --- state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CupsState:
    """Everything about a match of Cups; immutable, so ``==`` compares matches."""

    seats: int
    seed: int | str
    options: tuple[tuple[str, Any], ...]
    cups_aside: bool
    sit_out: bool
    shortfall: str
    graveyard_counts: str
    shuffles: int  # the next shuffle counter for games.kit.cards.shuffled
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    graveyards: tuple[tuple[tuple[str, ...], ...], ...]  # per seat, batches oldest first
    stack: tuple[str, ...]  # face down, top first
    dump: tuple[str, ...]  # face up, bottom first (the top is last)
    active: str  # the active card ("" when the dump is empty); may be an aside Cup
    aside: tuple[str, ...]  # Cups put aside (option cups_aside); out of play
    out: tuple[str, ...]  # face-up cards that left the game at a reshuffle
    discarded: tuple[str, ...]  # face-down stacks discarded (shortfall democratic_league)
    direction: int  # RIGHT or LEFT
    current: int  # whose turn it is (the Ace's player during a gift step)
    turn: int  # completed turns
    phase: str  # "play", "gift" or "over"
    gifts: tuple[str, ...]  # per seat during a gift step: the card chosen, "" for none
    waiting: tuple[int, ...]  # givers who have not chosen yet
    winners: tuple[int, ...]
    ended: str  # "", "win", "no_cups", "no_hands" or "cap"
    last: Record | None


class _Turn:
    """A working copy of the table for the end of one turn.

    Piles stay the state's tuples until the turn changes them: a seat's hand or graveyard
    becomes a list when first changed (``hand``, ``graveyard``), the other piles are
    replaced. Most turns touch one or two piles, and searching computer players apply
    millions of turns.
    """

    def __init__(self, state: CupsState) -> None:
        self.state = state
        self.hands: list[Sequence[str]] = list(state.hands)
        self.graveyards: list[Sequence[tuple[str, ...]]] = list(state.graveyards)
        self.stack: Sequence[str] = state.stack
        self.dump: Sequence[str] = state.dump
        self.active = state.active
        self.aside = state.aside
        self.out = state.out
        self.discarded = state.discarded
        self.shuffles = state.shuffles
        self.short = False  # a draw found the stack short or empty this turn
        self.missing = 0  # cards a draw could not take (dealt by the magellan variant)
        self.picked_up: list[int] = []

    def hand(self, seat: int) -> list[str]:
        """``seat``'s hand, to change."""
        hand = self.hands[seat]
        if type(hand) is not list:
            hand = self.hands[seat] = list(hand)
        return hand

    def graveyard(self, seat: int) -> list[tuple[str, ...]]:
        """``seat``'s graveyard batches, to change."""
        batches = self.graveyards[seat]
        if type(batches) is not list:
            batches = self.graveyards[seat] = list(batches)
        return batches

    def draw(self, seat: int, count: int) -> int:
        """Draw ``count`` cards for ``seat`` as the shortfall option says; returns how many."""
        if count <= len(self.stack):
            self.hand(seat).extend(self.stack[:count])
            self.stack = self.stack[count:]
            return count
        self.short = True
        if self.state.shortfall == "democratic_league":
            # The too-small stack leaves the game; the draw comes from the bottom of the
            # dump, never its top card.
            self.discarded = (*self.discarded, *self.stack)
            self.stack = ()
            pool = len(self.dump) - 1
            took = max(0, min(count, pool))
            self.hand(seat).extend(self.dump[:took])
            self.dump = self.dump[took:]
            return took
        took = len(self.stack)
        self.hand(seat).extend(self.stack)
        self.stack = ()
        if self.state.shortfall == "magellan":
            self.missing = count - took
        return took

    def reshuffle(self, played: str | None) -> None:
        """The card just played (or the active card) and every Cup in the dump leave the
        game; the rest of the dump becomes the stack and its top card is turned."""
        leaving = played if played is not None else self.active
        dump = list(self.dump)
        out = list(self.out)
        if leaving and dump and dump[-1] == leaving:
            out.append(dump.pop())
        out.extend(card for card in dump if SUIT[card] == CUP)
        self.out = tuple(out)
        rest = [card for card in dump if SUIT[card] != CUP]
        stack = list(shuffled([*self.stack, *rest], self.state.seed, self.shuffles))
        self.shuffles += 1
        self.active = ""
        # Magellan: after the turn of the new active card, the cards the draw missed are
        # dealt face up onto the dump; the last one dealt is the active card.
        turned = min(1 + self.missing, len(stack))
        self.dump = tuple(stack[:turned])
        self.stack = tuple(stack[turned:])
        if turned:
            self.active = self.dump[-1]

    def to_state(self, **changes: Any) -> CupsState:
        """The working copy as a state again, with ``changes`` to the other fields."""
        return evolve(
            self.state,
            hands=tuple([h if type(h) is tuple else tuple(h) for h in self.hands]),
            graveyards=tuple([g if type(g) is tuple else tuple(g) for g in self.graveyards]),
            stack=tuple(self.stack),
            dump=tuple(self.dump),
            active=self.active,
            aside=self.aside,
            out=self.out,
            discarded=self.discarded,
            shuffles=self.shuffles,
            **changes,
        )


class CupsRules(Engine[CupsState]):
    """The rules of Cups behind the games.kit.base.Rules contract."""

    name = "cups"
    title = "Cups"
    min_seats = 2
    max_seats = 6
    lower_scores_win = True  # scores are cards left
    table_options = (
        Flag("cups_aside", N_("Played Cups go to a side pile"), False),
        Flag("sit_out", N_("Empty-handed players sit out (children's game)"), False),
        Choice(
            "shortfall",
            N_("Drawing from a short stack"),
            "forgiven",
            SHORTFALLS,
            names=(
                ("forgiven", N_("forgiven")),
                ("democratic_league", N_("democratic league")),
                ("magellan", N_("magellan")),
            ),
        ),
        Choice(
            "graveyard_counts",
            N_("Graveyard cards count"),
            "single",
            GRAVEYARD_COUNTS,
            names=(("single", N_("single")), ("double", N_("double")), ("none", N_("none"))),
        ),
    )

    def deck(self, seats: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def new_game(
        self,
        seats: int,
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> CupsState:
        opts, dealer, order, counter = self.opening(seats, seed, options, deck)
        # The first player is the dealer's right; the deal goes the way of play, one card
        # at a time, starting with the first player.
        first = (dealer + RIGHT) % seats
        hands: list[list[str]] = [[] for _ in range(seats)]
        pos = 0
        for _ in range(HAND_SIZE):
            for k in range(seats):
                hands[(first + k * RIGHT) % seats].append(order[pos])
                pos += 1
        return CupsState(
            seats=seats,
            seed=seed,
            options=tuple(sorted(opts.items())),
            cups_aside=opts["cups_aside"],
            sit_out=opts["sit_out"],
            shortfall=opts["shortfall"],
            graveyard_counts=opts["graveyard_counts"],
            shuffles=counter,
            dealer=dealer,
            hands=tuple(tuple(h) for h in hands),
            graveyards=tuple(() for _ in range(seats)),
            stack=tuple(order[pos + 1 :]),
            dump=(order[pos],),
            active=order[pos],
            aside=(),
            out=(),
            discarded=(),
            direction=RIGHT,
            current=first,
            turn=0,
            phase="play",
            gifts=tuple("" for _ in range(seats)),
            waiting=(),
            winners=(),
            ended="",
            last=None,
        )

    # --- whose move and which moves --------------------------------------------------

    def to_act(self, state: CupsState) -> list[int]:
        if state.phase == "gift":
            return list(state.waiting)
        if state.phase == "play":
            return [state.current]
        return []

    def legal_actions(self, state: CupsState, seat: int) -> list[Action]:
        if state.phase == "gift":
            if seat not in state.waiting:
                return []
            gifts: list[Action] = [{"type": "gift", "card": c} for c in state.hands[seat]]
            gifts.append({"type": "gift", "card": None})
            return gifts
        if state.phase != "play" or seat != state.current:
            return []
        allowed = PLAYABLE_ON[state.active]
        cards = [c for c in state.hands[seat] if c in allowed]
        if not cards:
            return [{"type": "graveyard"}]
        return [{"type": "play", "card": c} for c in cards]

    def _explain(self, state: CupsState, seat: int, action: Action) -> Told | None:
        kind = action["type"]
        allowed = {"play": {"type", "card"}, "gift": {"type", "card"}, "graveyard": {"type"}}
        if kind in allowed and set(action) - allowed[kind]:
            return f"A {kind} action has only the fields: {', '.join(sorted(allowed[kind]))}."
        if state.phase == "gift":
            if kind != "gift":
                return say(
                    N_(
                        "{seat} played an ace: everyone else now gives one card from their "
                        "hand, or none."
                    ),
                    seat=seat_ref(state.current),
                )
            return say(N_("You can give only a card from your own hand, or none."))
        if kind == "gift":
            return say(N_("There is no gift to give now: gifts follow an ace."))
        hand = state.hands[seat]
        card = action.get("card")
        if kind == "graveyard":
            return say(
                N_(
                    "You hold a card you can play, so you must play it; the graveyard is only "
                    "for a hand with no playable card."
                )
            )
        if kind != "play":
            return None
        if not isinstance(card, str):
            return 'A play needs a card, such as {"type": "play", "card": "9S"}.'
        if card not in hand:
            return say(N_("You do not hold that card."))
        active = state.active
        if SUIT[active] == CUP:
            return say(N_("On an active Cup you may play any card except another Cup."))
        return say(
            N_(
                "On {card} you may play a higher card of {suit}, the ace of {suit}, any card "
                "of another suit that is not Cups, or the Cup of the same value."
            ),
            card=card_ref(active, "tarot"),
            suit=suit_ref(SUIT[active], "tarot"),
        )

    # --- applying an action ----------------------------------------------------------

    def apply(self, state: CupsState, seat: int, action: Action) -> CupsState:
        waiting = self._gift_wait(state, seat)
        if waiting is not None:
            raise IllegalAction(waiting)
        act = require_legal(
            self, state, seat, action, explain=self._explain, plainly_legal=_plainly_legal
        )
        if act["type"] == "gift":
            return self._gift(state, seat, act["card"])
        if act["type"] == "graveyard":
            return self._graveyard(state, seat)
        return self._play(state, seat, act["card"])

    def _gift_wait(self, state: CupsState, seat: object) -> Told | None:
        """Why a seat that is not awaited in a gift step must wait, said more exactly than
        the generic "It is not your turn." (the Ace's player, a giver who chose, a player
        sitting out); the sentence still says "turn", as the contract test expects."""
        if state.phase != "gift" or not isinstance(seat, int) or isinstance(seat, bool):
            return None
        if seat not in range(state.seats) or seat in state.waiting:
            return None
        if seat == state.current:
            return say(N_("Not your turn: the others are choosing gifts for you."))
        if not self._in_game(state, seat):
            return say(N_("Not your turn: you sit out, so you give no gifts."))
        return ngettext(
            "Not your turn: you have already chosen your gift; waiting for {seats}.",
            "Not your turn: you have already chosen your gift; waiting for {seats}.",
            len(state.waiting),
            seats=seats(state.waiting),
        )

    def _in_game(self, state: CupsState, seat: int) -> bool:
        """Whether ``seat`` still takes part (only the sit_out option takes players out)."""
        return not state.sit_out or bool(state.hands[seat])

    def _play(self, state: CupsState, seat: int, card: str) -> CupsState:
        work = _Turn(state)
        hand = work.hand(seat)
        hand.remove(card)
        active = state.active
        last: dict[str, Any] = {"seat": seat, "type": "play", "card": card}
        reverse = False
        played: str | None = None  # the card that leaves the game if the stack runs short
        if not active:
            effect = "free"  # an empty dump: any card, no effect
        elif SUIT[active] == CUP:
            effect = "reverse"
            reverse = True
        elif SUIT[card] == SUIT[active] and VALUE[card] == 1:
            effect = "ace"
        elif SUIT[card] == SUIT[active]:
            effect = "higher"
        elif SUIT[card] == CUP:
            effect = "take"
        else:
            effect = "draw"
        last["effect"] = effect

        if effect == "take":
            # The take includes the active card: the top three of the dump, or all of it.
            taken = work.dump[-TAKE:]
            work.dump = work.dump[:-TAKE]
            hand.extend(taken)
            last["took"] = len(taken)
            if state.cups_aside:
                work.aside = (*work.aside, card)  # still the active Cup for the next play
            else:
                work.dump = (*work.dump, card)
        else:
            work.dump = (*work.dump, card)
        work.active = card

        if effect == "draw":
            if VALUE[card] <= 10:
                count = VALUE[card]
            else:
                count = sum(1 for s in range(state.seats) if s == seat or self._in_game(state, s))
            last["owed"], last["drew"] = count, work.draw(seat, count)
            played = card

        if effect == "ace":
            givers = tuple(s for s in range(state.seats) if s != seat and self._in_game(state, s))
            if givers:
                return work.to_state(phase="gift", waiting=givers, last=freeze(last))
        return self._end_turn(work, seat, last, reverse, played)

    def _graveyard(self, state: CupsState, seat: int) -> CupsState:
        work = _Turn(state)
        batch = work.hands[seat]
        work.graveyard(seat).append(tuple(batch))
        work.hands[seat] = []
        drew = work.draw(seat, len(batch))
        last = {"seat": seat, "type": "graveyard", "cards": len(batch), "drew": drew}
        return self._end_turn(work, seat, last, False, None)

    def _gift(self, state: CupsState, seat: int, card: str | None) -> CupsState:
        gifts = list(state.gifts)
        gifts[seat] = card or ""
        waiting = tuple(s for s in state.waiting if s != seat)
        if waiting:
            # Gifts stay in the givers' hands, unseen, until everyone has chosen.
            return evolve(
                state,
                gifts=tuple(gifts),
                waiting=waiting,
                last=(("seat", seat), ("type", "gift")),
            )
        work = _Turn(state)
        receiver = state.current
        givers = []
        for k in range(1, state.seats):
            giver = (receiver + k) % state.seats
            if gifts[giver]:
                work.hand(giver).remove(gifts[giver])
                work.hand(receiver).append(gifts[giver])
                givers.append(giver)
        last = {"seat": seat, "type": "gift", "to": receiver, "givers": givers}
        work.state = evolve(state, gifts=tuple("" for _ in gifts), waiting=())
        return self._end_turn(work, receiver, last, False, None)

    def _end_turn(
        self,
        work: _Turn,
        seat: int,
        last: dict[str, Any],
        reverse: bool,
        played: str | None,
    ) -> CupsState:
        """The end-of-turn checks, in the order our rulings fix: empty hands (with the
        sit_out ending when no hand is left), the stack, no Cups left, the turn cap, then the
        reversal and the next player."""
        state = work.state
        sit_out = state.sit_out
        n = state.seats

        # Empty hands: pick up the graveyard, or win at once without one.
        winners = []
        for s in range(n):
            if work.hands[s]:
                continue
            if not work.graveyards[s]:
                winners.append(s)
            elif not sit_out:
                work.hands[s] = [card for batch in work.graveyards[s] for card in batch]
                work.graveyards[s] = []
                work.picked_up.append(s)
        if work.picked_up:
            last["picked_up"] = list(work.picked_up)
        if winners:
            return self._over(work, last, "win", tuple(winners))
        if sit_out and not any(work.hands):
            # Nobody has cards in hand: the smallest graveyard wins, counted in cards
            # whatever graveyard_counts says (under "none" the scores would all tie).
            sizes = [sum(len(b) for b in g) for g in work.graveyards]
            return self._over(work, last, "no_hands", tuple(top_scorers(sizes, lowest=True)))

        # The stack: once per turn, after a draw found it short or empty.
        if work.short:
            work.reshuffle(played)
            last["reshuffled"] = True

        # No Cups left in hands, graveyards, stack or dump.
        if not self._cups_in_play(work):
            return self._over(work, last, "no_cups", None)

        turn = state.turn + 1
        if turn >= TURN_CAP:
            return self._over(work, last, "cap", None)

        direction = -state.direction if reverse else state.direction
        nxt = seat
        for _ in range(n):
            nxt = (nxt + direction) % n
            if not sit_out or work.hands[nxt]:
                break
        return work.to_state(
            direction=direction,
            current=nxt,
            turn=turn,
            phase="play",
            last=freeze(last),
        )

    @staticmethod
    def _cups_in_play(work: _Turn) -> bool:
        """Whether a Cup is in a hand, a graveyard, the stack or the dump: counted as the
        Cups not out of play (aside, out, discarded), since cards are conserved and those
        three piles are short."""
        gone = sum(
            1 for pile in (work.aside, work.out, work.discarded) for c in pile if c[-1] == CUP
        )
        return gone < CUPS_IN_DECK

    def _over(
        self,
        work: _Turn,
        last: dict[str, Any],
        ended: str,
        winners: tuple[int, ...] | None,
    ) -> CupsState:
        """End the match; ``winners`` None means the fewest cards win (ties share)."""
        state = work.to_state(
            phase="over", ended=ended, last=freeze(last), turn=work.state.turn + 1
        )
        if winners is None:
            winners = tuple(top_scorers(self.scores(state), lowest=True))
        return evolve(state, winners=winners)

    # --- what each seat sees ---------------------------------------------------------

    def view_says(self, state: CupsState, seat: int | None) -> dict[str, Any]:
        weight = GRAVEYARD_WEIGHT[state.graveyard_counts]
        graveyards = []
        for s, batches in enumerate(state.graveyards):
            covered = batches[:-1]
            entry: dict[str, Any] = {
                "top": list(batches[-1]) if batches else [],
                "covered": sum(len(b) for b in covered),
                "batches": len(batches),
                "size": sum(len(b) for b in batches),
            }
            if seat == s:
                # Our ruling: owners may look under their own newest batch.
                entry["covered_cards"] = [c for b in covered for c in b]
            graveyards.append(entry)
        gift: dict[str, Any] | None = None
        if state.phase == "gift":
            chosen = [
                s for s in range(state.seats) if s != state.current and s not in state.waiting
            ]
            gift = {"to": state.current, "awaiting": list(state.waiting), "chosen": chosen}
            if seat in chosen:
                # A giver who has chosen sees their own choice; nobody else does yet.
                gift["mine"] = state.gifts[seat] or None
        common = self.common_view(
            state, seat, phase=state.phase, message=_message(state), last=thaw(state.last)
        )
        return common | {
            "hand": sorted(common["hand"], key=SHOWN_ORDER.__getitem__),
            "current": state.current,
            "direction": "right" if state.direction == RIGHT else "left",
            "active": state.active or None,
            "active_is_cup": bool(state.active) and SUIT[state.active] == CUP,
            "dump": list(state.dump),
            "dump_size": len(state.dump),
            "stack_size": len(state.stack),
            "graveyards": graveyards,
            "graveyard_weight": weight,
            "aside": list(state.aside),
            "out": list(state.out),
            "discarded_size": len(state.discarded),
            "sitting_out": [s for s in range(state.seats) if _sits_out(state, s)],
            "gift": gift,
            "turn": state.turn,
            "turn_cap": TURN_CAP,
            "ended": state.ended or None,
            "options": {k: v for k, v in state.options if k != "dealer"},
        }

    # --- results ---------------------------------------------------------------------

    def is_over(self, state: CupsState) -> bool:
        return state.phase == "over"

    def scores(self, state: CupsState) -> list[int]:
        """Cards held: hand plus graveyard (counted once, twice or not at all)."""
        weight = GRAVEYARD_WEIGHT[state.graveyard_counts]
        return [
            len(hand) + weight * sum(len(b) for b in batches)
            for hand, batches in zip(state.hands, state.graveyards, strict=True)
        ]

    def winners(self, state: CupsState) -> list[int]:
        return list(state.winners) if state.phase == "over" else []

    # --- introspection for the contract test -----------------------------------------

    def zones(self, state: CupsState) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {
            "stack": list(state.stack),
            "dump": list(state.dump),
            "aside": list(state.aside),
            "out": list(state.out),
            "discarded": list(state.discarded),
        }
        for s in range(state.seats):
            zones[f"hand {s}"] = list(state.hands[s])
            zones[f"graveyard {s}"] = [c for b in state.graveyards[s] for c in b]
        return zones

    def hidden_cards(self, state: CupsState, seat: int | None) -> frozenset[str]:
        """Other hands, the stack, discarded stacks and other players' covered batches.

        The dump, the side pile and the cards out of the game are face up; so is every
        graveyard's newest batch. A player may look at their own covered batches.
        """
        hidden = set(state.stack)
        hidden.update(state.discarded)
        for s in range(state.seats):
            if s == seat:
                continue
            hidden.update(state.hands[s])
            for batch in state.graveyards[s][:-1]:
                hidden.update(batch)
        return frozenset(hidden)


def _plainly_legal(state: CupsState, seat: int, action: object) -> bool:
    """A playable card played by the seat awaited (games.kit.base.require_legal)."""
    return (
        state.phase == "play"
        and seat == state.current
        and is_card_action(action, "play", state.hands[seat])
        and action["card"] in PLAYABLE_ON[state.active]  # type: ignore[index]
    )


def _sits_out(state: CupsState, seat: int) -> bool:
    """Whether ``seat`` is out of the round (option sit_out): their hand was empty when a
    turn ended and they had a graveyard to keep."""
    if not state.sit_out or state.hands[seat]:
        return False
    if state.phase == "gift" and seat == state.current:
        return False  # the Ace's player: the gifts may still refill their hand
    return not (state.ended == "win" and seat in state.winners)  # won by shedding every card


# How a match ends, for one winner and for several (the view says it; so does the account of
# the move that ended it, games/cups/describe.py).
ENDINGS = {
    "win": (
        N_("{seats} wins by shedding every card."),
        N_("{seats} share the win by shedding every card."),
    ),
    "no_cups": (
        N_("{seats} wins with the fewest cards: no Cups are left in play."),
        N_("{seats} share the win with the fewest cards: no Cups are left in play."),
    ),
    "no_hands": (
        N_("{seats} wins with the smallest graveyard: nobody has cards in hand."),
        N_("{seats} share the win with the smallest graveyard: nobody has cards in hand."),
    ),
    "cap": (
        N_("{seats} wins with the fewest cards after {turns} turns."),
        N_("{seats} share the win with the fewest cards after {turns} turns."),
    ),
}


def _message(state: CupsState) -> Told:
    """One sentence on what is awaited now (the same for every viewer)."""
    if state.phase == "over":
        one, several = ENDINGS[state.ended]
        message = one if len(state.winners) == 1 else several
        args: dict[str, Told] = {"seats": seats(state.winners)}
        if state.ended == "cap":
            args["turns"] = TURN_CAP
        return say(message, **args)
    current = seat(state.current)
    if state.phase == "gift":
        # The same English for one and for several, not in every language (the verb).
        return ngettext(
            "{seat} played an ace: waiting for {seats} to give a card or none.",
            "{seat} played an ace: waiting for {seats} to give a card or none.",
            len(state.waiting),
            seat=current,
            seats=seats(state.waiting),
        )
    if not state.active:
        return say(N_("{seat} to play any card on the empty dump."), seat=current)
    if SUIT[state.active] == CUP:
        return say(N_("{seat} to play on an active Cup; then play reverses."), seat=current)
    return say(N_("{seat} to play."), seat=current)


RULES = CupsRules()
