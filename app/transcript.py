"""A finished match as a readable text transcript: who played, every move in words, the
result, the rating changes, and the seed with its hash so that anyone can check the deal.

Moves are told from their wire form (the record's actions, public once the match is
over): the kind of move, the card named in words ("the queen of hearts"), any other
choice; under each, the table's own message after it (the spectator's view: who won the
trick, who is to play), with seat numbers replaced by names. The rules stay in games/:
this module only replays the match with ``games.states`` and reads the views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import games
from app.models import Match, MatchEvent, RatingChange, iso
from games.cards import JOKER, card_name, french_deck, spanish_deck, tarot_deck

# What each kind of move is called in words; any other kind is shown by its name.
VERBS = {
    "play": "plays",
    "draw": "draws",
    "pass": "passes",
    "gift": "gives",
    "graveyard": "takes the graveyard",
    "order": "chooses the order",
    "score": "scores with",
    "usurp": "usurps with",
    "sluff": "sluffs off",
    "uprise": "plays a Downcard:",
    "give_in": "gives in",
    "challenge": "challenges",
    "free_play": "makes the free play with",
    "arrange": "arranges families:",
}

CARDS = {
    "french": {*french_deck(), JOKER},
    "spanish": set(spanish_deck()),
    "tarot": set(tarot_deck()),
}


def _value(value: Any, pack: str) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(_value(item, pack) for item in value) + ")" if value else "none"
    if isinstance(value, str):
        if value in CARDS[pack]:
            return f"the {card_name(value, pack)}"
        return value.replace("_", " ")
    if value is None:
        return "nothing"
    return str(value)


def describe(action: dict[str, Any], pack: str) -> str:
    """A move in words, without who made it: "plays the queen of hearts"."""
    kind = str(action.get("type"))
    words = [VERBS.get(kind, kind.replace("_", " "))]
    for key, value in action.items():
        if key == "type":
            continue
        shown = _value(value, pack)
        words.append(shown if key == "card" else f"{key.replace('_', ' ')} {shown}")
    return " ".join(words)


def _named(text: str, names: Sequence[str]) -> str:
    """The engines' "Seat 2" as the name of the player in seat 2."""
    for seat in range(len(names), 0, -1):
        text = text.replace(f"Seat {seat}", names[seat - 1])
    return text


def transcript(
    match: Match,
    events: Sequence[MatchEvent],
    changes: Sequence[RatingChange],
    usernames: Mapping[str, str | None],
) -> str:
    rules = games.get(match.game)
    names = [str(p["name"]) for p in sorted(match.players, key=lambda p: p["seat"])]
    lines = [
        f"Parlour · {rules.title} · match {match.id}",
        f"Started {iso(match.created_at)}, finished {iso(match.finished_at)}"
        + (" · rated" if match.rated else ""),
        "Options: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in match.options.items()),
        "",
        "Players",
    ]
    for player in sorted(match.players, key=lambda p: p["seat"]):
        who = "computer player" if player.get("bot") else usernames.get(player.get("user_id") or "")
        lines.append(
            f"  Seat {player['seat'] + 1}: {player['name']}" + (f" ({who})" if who else "")
        )
    lines += [
        "",
        f"Seed hash (SHA-256 of the seed, shown from the first move): {match.seed_hash}",
        f"Seed (revealed at the end): {match.seed}",
        "",
        "Moves",
    ]
    steps = games.states(
        rules,
        match.seat_count,
        int(match.seed),
        match.options,
        None,
        ((event.seat, event.action) for event in events),
    )
    next(steps)  # the deal
    for event, state in zip(events, steps, strict=True):
        lines.append(f"  {event.seq:>3}. {names[event.seat]} {describe(event.action, rules.pack)}.")
        message = rules.view(state, None).get("message")
        if message:
            lines.append(f"       {_named(str(message), names)}")
    lines += ["", "Result"]
    winners = set(match.winners or [])
    for seat, score in enumerate(match.scores or []):
        lines.append(f"  {names[seat]}: {score}" + (" — winner" if seat in winners else ""))
    if changes:
        lines += ["", "Ratings"]
        for change in changes:
            delta = change.rating_after - change.rating_before
            lines.append(
                f"  {names[change.seat]}: {change.rating_before} → {change.rating_after}"
                f" ({delta:+d})"
            )
    return "\n".join(lines) + "\n"
