"""A finished match as a readable text transcript: who played, every move in words, what
was said at the table, the result, the rating changes, and the seed with its hash so that
anyone can check the deal.

Each move is told in the words the review shows beside it and the table's log used: the
game's public account of it (``games.describe``) in the reader's language, seats named by
their players (app/i18n/accounts.py), with the
same note when the clock or a computer standing in made it. What was said at the table is
placed where the review shows it: after the moves made before it was said. The rules stay
in games/: this module only replays the match with ``games.states`` and reads the accounts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import games
from app.i18n.accounts import account_text
from app.i18n.catalogues import Words, words
from app.i18n.languages import DEFAULT
from app.i18n.marks import N_
from app.models import ChatMessage, Match, MatchEvent, RatingChange, iso
from app.records.review import replayed


def _made_by(event: MatchEvent, player: Mapping[str, Any], said: Words) -> str:
    """Who made a move, when it was not the seat's own player (as the review says it)."""
    if event.timeout:
        return " " + said.gettext(N_("(time ran out: the clock played this move)"))
    if (event.played_by or {}).get("bot") and player.get("user_id"):
        return " " + said.gettext(N_("(played by a computer standing in)"))
    return ""


def _said(message: ChatMessage, said: Words) -> str:
    """One line of table talk: who said it (and that they were watching) and what."""
    text = " ".join(message.text.split())  # one line, whatever was typed
    if message.channel == "watchers":
        line = said.gettext(N_("{name} (watching): {text}"), name=message.name, text=text)
    else:
        line = said.gettext(N_("{name}: {text}"), name=message.name, text=text)
    return f"       {iso(message.at)} {line}"


def _moves(
    match: Match, events: Sequence[MatchEvent], names: Sequence[str], said: Words
) -> Iterator[tuple[MatchEvent, str]]:
    """Every move with its account in ``language``, replayed from the seed and the log."""
    rules = games.get(match.game)
    players = {p["seat"]: p for p in match.players}
    steps = replayed(match, events)
    before = next(steps)  # the deal
    for event, after in zip(events, steps, strict=True):
        account = games.describe(rules, before, event.seat, event.action, after)
        text = account_text(account["says"], said.language, names)
        yield event, text + _made_by(event, players.get(event.seat, {}), said)
        before = after


def transcript(
    match: Match,
    events: Sequence[MatchEvent],
    changes: Sequence[RatingChange],
    usernames: Mapping[str, str | None],
    chat: Sequence[ChatMessage],
    language: str = DEFAULT,
) -> str:
    """The match in words; ``chat`` is what was said while it was on and after it;
    ``language``: the one its moves are told in."""
    rules = games.get(match.game)
    said = words(language)
    names = [str(p["name"]) for p in sorted(match.players, key=lambda p: p["seat"])]
    options = "; ".join(account_text(line, language) for line in rules.options_says(match.options))
    started, finished = iso(match.created_at), iso(match.finished_at)
    lines = [
        said.gettext(N_("Parlour · {game} · match {match}"), game=rules.title, match=match.id),
        said.gettext(
            N_("Started {started}, finished {finished}"), started=started, finished=finished
        )
        + (" · " + said.gettext(N_("rated")) if match.rated else ""),
        said.gettext(N_("Options: {options}"), options=options or said.gettext(N_("none"))),
        "",
        said.gettext(N_("Players")),
    ]
    for player in sorted(match.players, key=lambda p: p["seat"]):
        if player.get("bot"):
            who = said.gettext(N_("computer player"))
        else:
            who = usernames.get(player.get("user_id") or "") or ""
        where = said.gettext(N_("Seat {seat}"), seat=player["seat"] + 1)
        lines.append(f"  {where}: {player['name']}" + (f" ({who})" if who else ""))
    lines += [
        "",
        said.gettext(
            N_("Seed hash (SHA-256 of the seed, shown from the first move): {hash}"),
            hash=match.seed_hash,
        ),
        said.gettext(N_("Seed (revealed at the end): {seed}"), seed=match.seed),
        "",
        said.gettext(N_("Moves")),
    ]
    # A line said at version v was said after v moves, where the review shows it.
    talk = sorted(chat, key=lambda m: (m.version, m.id))
    heard = 0
    for made, (event, text) in enumerate(_moves(match, events, names, said)):
        while heard < len(talk) and talk[heard].version <= made:
            lines.append(_said(talk[heard], said))
            heard += 1
        lines.append(f"  {event.seq:>3}. {text}")
    lines += [_said(message, said) for message in talk[heard:]]
    lines += ["", said.gettext(N_("Result"))]
    winners = set(match.winners or [])
    for seat, score in enumerate(match.scores or []):
        won = " — " + said.gettext(N_("winner")) if seat in winners else ""
        lines.append(f"  {names[seat]}: {score}{won}")
    if changes:
        lines += ["", said.gettext(N_("Ratings"))]
        left = {player["seat"] for player in match.players if player.get("left")}
        for change in changes:
            delta = change.rating_after - change.rating_before
            gone = (
                " — " + said.gettext(N_("left the table: rated last"))
                if change.seat in left
                else ""
            )
            lines.append(
                f"  {names[change.seat]}: {change.rating_before} → {change.rating_after}"
                f" ({delta:+d}){gone}"
            )
    return "\n".join(lines) + "\n"
