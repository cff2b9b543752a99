"""Royal Wife-Swap's card order and family rules, and the layouts we offer trick winners.

Rule source: the published rule text of "Royal Wife-Swap" by Roger Kingdon (2008) with our
rulings; docs/rules/wifeswap.md has the rules as implemented. This module is pure functions
over card codes: trick strength and nemesis pairs, what makes a family legal and what it
scores, and ``useful_layouts``, the concrete arrangements ``legal_actions`` lists (the game
itself is in ``games.wifeswap``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from games.kit.account import N_, Told, say, suit
from games.kit.cards import french_deck, rank_of, suit_of

MAX_ARRANGEMENTS = 48  # concrete layouts listed by legal_actions (besides "pass")
DECK: tuple[str, ...] = tuple(french_deck())
DECK_SET = frozenset(DECK)

# Trick strength: rank first (A high, 2 low), then suit (S > H > C > D).
RANK_STRENGTH = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10"), 2)}
RANK_STRENGTH.update({"J": 11, "Q": 12, "K": 13, "A": 14})
SUIT_STRENGTH = {"D": 0, "C": 1, "H": 2, "S": 3}
# Each court card's nemesis rank within its own suit.
NEMESIS = {"K": "2", "Q": "3", "J": "4", "10": "5"}
# Where a card can sit in a family besides as a spouse.
SENIOR_MEMBER_RANKS = frozenset(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J"))
JUNIOR_MEMBER_RANKS = frozenset(("A", "2", "3", "4", "5", "6", "7", "8", "9"))
# Display/canonical order inside a family: spouses first (K Q J 10), then 9..2, A; suits S H C D.
FAMILY_RANKS = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
FAMILY_RANK_ORDER = {r: i for i, r in enumerate(FAMILY_RANKS)}
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}


# Per-card lookups: these run in the inner loops of listing arrangements.
RANK: dict[str, str] = {c: rank_of(c) for c in DECK}
SUIT: dict[str, str] = {c: suit_of(c) for c in DECK}
# A card's place in the family order (rank, then suit) as one number: quicker to sort by.
FAMILY_KEY: dict[str, int] = {
    c: FAMILY_RANK_ORDER[RANK[c]] * len(SUIT_ORDER) + SUIT_ORDER[SUIT[c]] for c in DECK
}


def strength(card: str) -> tuple[int, int]:
    """How strongly a card plays in a trick (before nemesis pairs)."""
    return RANK_STRENGTH[RANK[card]], SUIT_STRENGTH[SUIT[card]]


def hand_key(card: str) -> tuple[int, int]:
    """Hands are kept sorted by suit (S H C D), then high to low."""
    return SUIT_ORDER[SUIT[card]], -RANK_STRENGTH[RANK[card]]


def card_points(card: str) -> int:
    """A=1, 2-9 their pips, 10/J/Q/K ten."""
    rank = RANK[card]
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


def beaten_court(trick: Sequence[tuple[int, str]]) -> str | None:
    """The court card whose nemesis decides a complete trick, if any: of several court
    cards meeting their nemesis, the highest (by rank then suit)."""
    played = {card for _, card in trick}
    courts = [
        card
        for card in played
        if RANK[card] in NEMESIS and NEMESIS[RANK[card]] + SUIT[card] in played
    ]
    return max(courts, key=strength) if courts else None


def nemesis_of(court: str) -> str:
    """The card that beats ``court`` in a trick: its nemesis rank in its suit."""
    return NEMESIS[RANK[court]] + SUIT[court]


def trick_winner(trick: Sequence[tuple[int, str]]) -> int:
    """The seat that wins a complete trick.

    A court card meeting its nemesis decides the trick; with several such pairs the nemesis
    of the highest court card (by rank then suit) wins. Otherwise the strongest card wins,
    off-suit cards included (there are no trumps and no "led suit wins" rule).
    """
    played = {card: seat for seat, card in trick}
    court = beaten_court(trick)
    if court is not None:
        return played[nemesis_of(court)]
    return played[max(played, key=strength)]


# --- families -----------------------------------------------------------------------------

Family = tuple[str, ...]
Layout = tuple[Family, ...]


def canonical_family(cards: Iterable[str]) -> Family:
    """A family's cards in the documented order: K Q J 10 9 ... 2 A, suits S H C D."""
    return tuple(sorted(cards, key=FAMILY_KEY.__getitem__))


def canonical_layout(families: Iterable[Iterable[str]]) -> Layout:
    """Families in canonical order: compared card by card (so senior families come first).

    The families of a layout share no card, so comparing them card by card is comparing
    their first cards (an empty family, never valid, would come first).
    """
    key = FAMILY_KEY.__getitem__
    fams = [tuple(sorted(f, key=key)) for f in families]
    if len(fams) > 1:
        fams.sort(key=lambda f: key(f[0]) if f else -1)
    return tuple(fams)


def spouses(family: Sequence[str]) -> tuple[str, tuple[str, str]]:
    """``("senior" | "junior", (suit, suit))`` of a valid family."""
    king = queen = jack = ten = ""
    for card in family:
        rank = RANK[card]
        if rank == "K":
            king = card
        elif rank == "Q":
            queen = card
        elif rank == "J":
            jack = card
        elif rank == "10":
            ten = card
    if king:
        return "senior", (SUIT[king], SUIT[queen])
    return "junior", (SUIT[jack], SUIT[ten])


def holder(family: Sequence[str]) -> tuple[frozenset[str], tuple[str, str]]:
    """The member ranks and suits a (valid) family can take in."""
    kind, suits = spouses(family)
    return (SENIOR_MEMBER_RANKS if kind == "senior" else JUNIOR_MEMBER_RANKS), suits


def can_hold(family: Sequence[str], card: str) -> bool:
    """Could ``card`` join this (valid) family as a member?"""
    ranks, suits = holder(family)
    return RANK[card] in ranks and SUIT[card] in suits


def is_royal(family: Sequence[str]) -> bool:
    kind, (a, b) = spouses(family)
    return kind == "senior" and a == b


def family_points(family: Sequence[str]) -> int:
    """Card points of a family, doubled for a Royal family (K and Q of one suit)."""
    total = sum(card_points(c) for c in family)
    return total * 2 if is_royal(family) else total


def _suits_words(suits: Iterable[str]) -> Told:
    """``hearts``, or ``hearts or clubs``: the spouses' suits."""
    first, *rest = [suit(s, "french") for s in dict.fromkeys(suits)]
    if not rest:
        return first
    return say(N_("{suit} or {other}"), suit=first, other=rest[0])


def family_problem(family: Sequence[str]) -> Told | None:
    """Why these cards are not a legal family (told as games.kit.account tells, a clause
    to follow a family), or ``None`` when they are."""
    by_rank: dict[str, list[str]] = {"K": [], "Q": [], "J": [], "10": []}
    for card in family:
        if RANK[card] in by_rank:
            by_rank[RANK[card]].append(card)
    kings, queens, jacks, tens = by_rank["K"], by_rank["Q"], by_rank["J"], by_rank["10"]
    if kings or queens:
        if len(kings) != 1 or len(queens) != 1:
            return say(
                N_(
                    "a senior family needs exactly one king and one queen "
                    "(it has {kings} and {queens})."
                ),
                kings=len(kings),
                queens=len(queens),
            )
        suits = (SUIT[kings[0]], SUIT[queens[0]])
        for card in family:
            if card not in (kings[0], queens[0]) and SUIT[card] not in suits:
                return say(
                    N_("{card} cannot be a member: members must be {suits}, the suit of a spouse."),
                    card=card,
                    suits=_suits_words(suits),
                )
        return None
    if jacks or tens:
        if len(jacks) != 1 or len(tens) != 1:
            return say(
                N_(
                    "a junior family needs exactly one jack and one ten "
                    "(it has {jacks} and {tens})."
                ),
                jacks=len(jacks),
                tens=len(tens),
            )
        if SUIT[jacks[0]] == SUIT[tens[0]]:
            return say(
                N_(
                    "{jack} and {ten} are of the same suit: a jack may not marry a ten "
                    "of his own suit (incest)."
                ),
                jack=jacks[0],
                ten=tens[0],
            )
        suits = (SUIT[jacks[0]], SUIT[tens[0]])
        for card in family:
            if card not in (jacks[0], tens[0]) and SUIT[card] not in suits:
                return say(
                    N_("{card} cannot be a member: members must be {suits}, the suit of a spouse."),
                    card=card,
                    suits=_suits_words(suits),
                )
        return None
    return say(
        N_("it has no marriage: a family starts with a king and a queen, or a jack and a ten.")
    )


# --- listing useful arrangements ------------------------------------------------------------------


@lru_cache(maxsize=256)
def useful_layouts(
    current_layout: Layout, trick: tuple[str, ...], hand: tuple[str, ...]
) -> tuple[tuple[Layout, tuple[str, ...]], ...]:
    """A modest set of useful complete layouts for the trick winner, each valid as listed.

    In priority order: lay everything possible; each new King-Queen marriage (alone, and
    with every member that fits it); each new Jack-Ten marriage, including bachelors taken
    from senior families; each partner swap between the winner's families; each spouse
    replaced by a trick or hand card; each single member added. Displaced cards go to the
    first family that can hold them, else become orphans. Truncated to MAX_ARRANGEMENTS.
    The result depends only on the arguments, so it is cached (views ask again).
    """
    current: list[list[str]] = [list(f) for f in current_layout]
    avail = list(trick) + sorted(hand, key=FAMILY_KEY.__getitem__)
    out: list[tuple[Layout, tuple[str, ...]]] = []
    seen = {canonical_layout(current)}
    valid = set(current_layout)

    def offer(fams: list[list[str]], displaced: Sequence[str] = (), check: bool = False) -> None:
        if len(out) >= MAX_ARRANGEMENTS:
            return
        orphans: list[str] = []
        if displaced:
            homes = [(holder(f), f) for f in fams]
            for card in displaced:
                home = _first_home(homes, card)
                if home is None:
                    orphans.append(card)
                else:
                    home.append(card)
        # Every generator below builds valid families by construction, except a swapped-in
        # spouse, which may make a junior marriage incestuous: check those (``check``).
        if check and any(tuple(f) not in valid and family_problem(f) for f in fams):
            return
        layout = canonical_layout(fams)
        if layout in seen:
            return
        seen.add(layout)
        out.append((layout, tuple(sorted(orphans, key=FAMILY_KEY.__getitem__))))

    def copy() -> list[list[str]]:
        return [list(f) for f in current]

    offer(_greedy(copy(), avail))
    # New marriages, from trick and hand cards and from unmarried J/10 senior members.
    kings = [c for c in avail if RANK[c] == "K"]
    queens = [c for c in avail if RANK[c] == "Q"]
    for king in kings:
        for queen in queens:
            fams = copy()
            fams.append([king, queen])
            offer(fams)
            fams = copy()
            fams.append([king, queen])
            offer(_add_members(fams, len(fams) - 1, avail))
    singles = [(c, None) for c in avail] + [
        (c, i) for i, f in enumerate(current) for c in f if RANK[c] in ("J", "10")
    ]
    jacks = [(c, i) for c, i in singles if RANK[c] == "J" and (i is None or _senior(current[i]))]
    tens = [(c, i) for c, i in singles if RANK[c] == "10" and (i is None or _senior(current[i]))]
    for jack, ji in jacks:
        for ten, ti in tens:
            if SUIT[jack] == SUIT[ten]:
                continue
            fams = copy()
            for card, idx in ((jack, ji), (ten, ti)):
                if idx is not None:
                    fams[idx].remove(card)
            fams.append([jack, ten])
            offer(fams)
    # Partner swaps between two of the winner's own families.
    kinds = [spouses(f)[0] for f in current]
    for i in range(len(current)):
        for j in range(i + 1, len(current)):
            kind_i, kind_j = kinds[i], kinds[j]
            if kind_i != kind_j:
                continue
            spouse_rank = "Q" if kind_i == "senior" else "10"
            a = next(c for c in current[i] if RANK[c] == spouse_rank)
            b = next(c for c in current[j] if RANK[c] == spouse_rank)
            offer(*_swap(current, {i: (a, b), j: (b, a)}), check=True)
    # A spouse replaced by a trick or hand card (the upgrade to a Royal marriage, say).
    for i, family in enumerate(current):
        kind = kinds[i]
        spouse_ranks = ("K", "Q") if kind == "senior" else ("J", "10")
        for card in avail:
            if RANK[card] in spouse_ranks:
                old = next(c for c in family if RANK[c] == RANK[card])
                offer(*_swap(current, {i: (old, card)}), check=True)
    # Single members added.
    holders = [holder(f) for f in current]
    for card in avail:
        for i, (ranks, suits) in enumerate(holders):
            if RANK[card] in ranks and SUIT[card] in suits:
                fams = copy()
                fams[i].append(card)
                offer(fams)
    return tuple(out)


def _senior(family: Sequence[str]) -> bool:
    return any(RANK[c] == "K" for c in family)


def _swap(
    current: list[list[str]], changes: Mapping[int, tuple[str, str]]
) -> tuple[list[list[str]], list[str]]:
    """Replace one spouse in each given family; members that no longer fit are displaced."""
    fams = [list(f) for f in current]
    incoming = {new for _, new in changes.values()}
    displaced = [old for old, _ in changes.values() if old not in incoming]
    for i, (old, new) in changes.items():
        family = [new if c == old else c for c in fams[i]]
        spouse_ranks = ("K", "Q") if _senior(family) else ("J", "10")
        pair = [c for c in family if RANK[c] in spouse_ranks]
        members = [c for c in family if RANK[c] not in spouse_ranks]
        # Junior families hold no extra J/10, so every non-spouse card is an ordinary member.
        ranks, suits = holder(pair)
        fits = [RANK[c] in ranks and SUIT[c] in suits for c in members]
        fams[i] = pair + [c for c, fit in zip(members, fits, strict=True) if fit]
        displaced.extend(c for c, fit in zip(members, fits, strict=True) if not fit)
    return fams, displaced


def _add_members(fams: list[list[str]], index: int, avail: Sequence[str]) -> list[list[str]]:
    used = {c for f in fams for c in f}
    for card in avail:
        if card not in used and can_hold(fams[index], card):
            fams[index].append(card)
    return fams


def _greedy(fams: list[list[str]], avail: Sequence[str]) -> list[list[str]]:
    """Lay every trick and hand card that can go somewhere: marriages first, then members."""
    pool = list(avail)

    def take(card: str) -> None:
        pool.remove(card)

    for king in [c for c in pool if RANK[c] == "K"]:
        queen = "Q" + SUIT[king]
        if queen in pool:  # a Royal marriage first: it doubles the family
            take(king)
            take(queen)
            fams.append([king, queen])
    kings = [c for c in pool if RANK[c] == "K"]
    queens = [c for c in pool if RANK[c] == "Q"]
    for king, queen in zip(kings, queens, strict=False):
        take(king)
        take(queen)
        fams.append([king, queen])
    for jack in [c for c in pool if RANK[c] == "J"]:
        ten = next((c for c in pool if RANK[c] == "10" and SUIT[c] != SUIT[jack]), None)
        if ten is not None:
            take(jack)
            take(ten)
            fams.append([jack, ten])
    homes = [(holder(f), f) for f in fams]
    for card in list(pool):
        home = _first_home(homes, card)
        if home is not None:
            take(card)
            home.append(card)
    return fams


def _first_home(
    homes: Sequence[tuple[tuple[frozenset[str], tuple[str, str]], list[str]]], card: str
) -> list[str] | None:
    """The first family (with its precomputed ``holder``) that can take ``card``, if any."""
    rank, suit = RANK[card], SUIT[card]
    for (ranks, suits), family in homes:
        if rank in ranks and suit in suits:
            return family
    return None
