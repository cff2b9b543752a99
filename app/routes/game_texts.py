"""The games' words that the server sends as text, in the ``messages`` domain: each game's
lobby sentence (its blurb), the steps of its first-match walkthrough, and the names of its
options and of their choices.

They are written in games/ (each game's presentation and options); listed here, marked,
they are extracted into the server's catalogue and translated where the server sends them
(GET /api/games, the pages' boot data, the table's guide). A game's name (Cupid, Coins,
Cups, Royal Wife-Swap, Usurp) is a name, the same in every language. tests/app keeps this
list and the games' own texts the same.
"""

from __future__ import annotations

from app.i18n.marks import N_

# Each game's lobby sentence.
BLURBS: dict[str, str] = {
    "coins": N_(
        "Three players, the Spanish deck and a cycle of suits: three different suits and the "
        "missing one decides who wins. Only Coins score."
    ),
    "cupid": N_(
        "A racing trick-taking duel with 24 cards: every trick's worth depends on both cards "
        "in it, and the Queen alone takes the King."
    ),
    "cups": N_(
        "Shed your hand with the tarot's minor arcana: beat the active card, make your rivals "
        "draw, reverse the play, and give gifts with an Ace."
    ),
    "usurp": N_(
        "A duel of bluffs: play by the Order, rise face down with an Uprise, and dare your "
        "opponent to Challenge or Give In."
    ),
    "wifeswap": N_(
        "Win tricks, then rearrange the royal families on the table to score — swapping wives "
        "between kings is the whole art."
    ),
}

# Each game's first-match walkthrough: (title, text) per step.
WALKTHROUGHS: dict[str, tuple[tuple[str, str], ...]] = {
    "coins": (
        (
            N_("The aim"),
            N_("Three players; every card of Coins in the tricks you take is a point."),
        ),
        (N_("Playing"), N_("Play any card to the trick: you need not follow suit.")),
        (
            N_("Who takes the trick"),
            N_(
                "Three suits in a trick: the missing suit decides. Two of one suit: the higher "
                "of the pair. All of one suit: the highest."
            ),
        ),
        (N_("Winning"), N_("The first to the target wins at once, even in the middle of a hand.")),
    ),
    "cupid": (
        (N_("The aim"), N_("Two players race to the target score; every trick is one card each.")),
        (
            N_("Winning a trick"),
            N_(
                "The higher card in the ruled order takes the trick, but Anima, the Queen of "
                "Diamonds, takes Cupid, the King of Hearts."
            ),
        ),
        (
            N_("What a trick is worth"),
            N_(
                "Both cards decide: a character with a number scores the number, two hearts "
                "their difference, two spades 1; the Joker makes the trick worth nothing."
            ),
        ),
        (
            N_("After the trick"),
            N_(
                "The winner takes the stock's top card or the turn-up, the other player gets "
                "the other, and the winner leads the next trick."
            ),
        ),
    ),
    "cups": (
        (N_("The aim"), N_("Get rid of every card you hold: the fewest cards at the end wins.")),
        (
            N_("Your turn"),
            N_(
                "On a Coin, Sword or Wand play a higher card of its suit or its Ace, a card of "
                "another suit but Cups (then draw its value), or the Cup of the same value."
            ),
        ),
        (N_("Cups"), N_("On an active Cup play any card but a Cup; then play reverses.")),
        (
            N_("Stuck?"),
            N_("When you cannot play, lay your whole hand as a graveyard and draw as many cards."),
        ),
    ),
    "usurp": (
        (
            N_("The aim"),
            N_("Score more Hand Points than your opponent in each hand to win Game Points."),
        ),
        (
            N_("The Order"),
            N_("The dealer declares the Order: Regal (high cards win) or Common (low cards win)."),
        ),
        (
            N_("Your turn"),
            N_(
                "Play on the Upcard: a Score (its suit), a Usurp (its rank: you choose the "
                "Order) or a Sluff Off (neither, when you hold none of its suit)."
            ),
        ),
        (
            N_("Bluffing"),
            N_(
                "Or Uprise: play face down. Your opponent Gives In or Challenges, and a "
                "challenged card is turned and played as it is."
            ),
        ),
    ),
    "wifeswap": (
        (N_("The aim"), N_("Lay families of cards on the table; their points win the match.")),
        (
            N_("Tricks"),
            N_(
                "Follow suit when you can; the highest card takes the trick, unless a court "
                "card meets its nemesis (a 2 beats a King, a 3 a Queen, a 4 a Jack, a 5 a Ten)."
            ),
        ),
        (
            N_("Families"),
            N_(
                "The trick's winner may lay families: a King and a Queen, or a Jack and a Ten, "
                "with members of their suits. A King and Queen of one suit are Royal: double."
            ),
        ),
        (N_("Refill"), N_("Cards not laid go under the stock, and everyone draws back to seven.")),
    ),
}

# The options' names, as the games give them.
OPTION_LABELS: tuple[str, ...] = (
    N_("Points to win"),
    N_("Played Cups go to a side pile"),
    N_("Empty-handed players sit out (children's game)"),
    N_("Drawing from a short stack"),
    N_("Graveyard cards count"),
    N_("Game Points to win the match"),
    N_("Point table"),
    N_("Reveal pile (turn a Stock card after each turn)"),
    N_("Play to this many points"),
    N_("Fixed number of rounds (0: play to the target)"),
)

# The words for the options' choices that are words (numbers are shown as numbers).
CHOICE_LABELS: dict[str, str] = {
    "forgiven": N_("Forgiven"),
    "democratic_league": N_("Democratic league"),
    "magellan": N_("Magellan"),
    "single": N_("Single"),
    "double": N_("Double"),
    "none": N_("None"),
    "standard": N_("Standard"),
    "alternative": N_("Alternative"),
}
