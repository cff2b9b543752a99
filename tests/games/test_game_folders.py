"""What a game must provide, checked for every game in the registry.

A game is one bundle in ``games.GAMES`` (games.kit.game.Game) built in its own folder
``games/<name>/``, and a few files beside the engine that the site needs:

- ``rules``: every member of the contract (games.kit.base.Rules), defined in the folder;
- ``describe``: the public account of each move, defined in the folder;
- ``sampler``: ``sample`` and ``standing`` defined in the folder, and a positive ``scale``;
- ``presentation``: a ``pack`` the client has faces for and a one-sentence ``blurb``;
- docs/rules/<name>.md: the rules for players (the rules page);
- static/js/table/<name>.js: the client's table module for the game;
- static/css/games/<name>.css: the game's stylesheet.

``missing_pieces`` names each piece a bundle lacks; it is tried on deliberately incomplete
bundles too, so that a sixth game missing a piece is told which one.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import games

ROOT = Path(__file__).resolve().parents[2]

# The contract's members (games.kit.base.Rules), listed so that a missing one is named.
CONTRACT = (
    "name",
    "title",
    "min_seats",
    "max_seats",
    "lower_scores_win",
    "past_deal_keys",
    "default_options",
    "options_schema",
    "new_game",
    "to_act",
    "legal_actions",
    "apply",
    "view",
    "is_over",
    "scores",
    "winners",
    "deck",
    "zones",
    "hidden_cards",
)
PACKS = ("french", "spanish", "tarot")  # the card faces the client has


def _defined_in(thing: object, package: str) -> bool:
    """Whether ``thing`` (a function, or an object by its class) comes from ``package``."""
    module = str(getattr(thing, "__module__", None) or type(thing).__module__)
    return module == package or module.startswith(package + ".")


def files_for(name: str) -> dict[str, Path]:
    """The files beside the engine that a game called ``name`` needs."""
    return {
        "its rules for players": ROOT / "docs" / "rules" / f"{name}.md",
        "its table module": ROOT / "static" / "js" / "table" / f"{name}.js",
        "its stylesheet": ROOT / "static" / "css" / "games" / f"{name}.css",
    }


def missing_pieces(bundle: Any, *, check_files: bool = True) -> list[str]:
    """Every piece the game ``bundle`` lacks, each named in a sentence."""
    rules = getattr(bundle, "rules", None)
    name = getattr(rules, "name", None)
    if not isinstance(name, str) or not name:
        return ["the game has no rules with a name"]
    folder = f"games.{name}"
    missing = [
        f"{name}: its rules lack the contract member {member!r}"
        for member in CONTRACT
        if not hasattr(rules, member)
    ]
    if not _defined_in(rules, folder):
        missing.append(f"{name}: its rules are not defined in its folder games/{name}/")
    describe = getattr(bundle, "describe", None)
    if not callable(describe):
        missing.append(f"{name}: it has no describer (the public account of each move)")
    elif not _defined_in(describe, folder):
        missing.append(f"{name}: its describer is not defined in its folder games/{name}/")
    sampler = getattr(bundle, "sampler", None)
    for part in ("sample", "standing"):
        function = getattr(sampler, part, None)
        if not callable(function):
            missing.append(f"{name}: its sampler has no {part!r}")
        elif not _defined_in(function, folder):
            missing.append(f"{name}: its sampler's {part!r} is not in its folder games/{name}/")
    scale = getattr(sampler, "scale", None)
    if not isinstance(scale, float | int) or scale <= 0:
        missing.append(f"{name}: its sampler has no positive 'scale'")
    presentation = getattr(bundle, "presentation", None)
    if getattr(presentation, "pack", None) not in PACKS:
        missing.append(f"{name}: its presentation names no pack of cards the client has")
    blurb = getattr(presentation, "blurb", None)
    if not isinstance(blurb, str) or not blurb.endswith(".") or "\n" in blurb:
        missing.append(f"{name}: its presentation has no one-sentence blurb")
    if check_files:
        for piece, path in files_for(name).items():
            if not path.is_file():
                missing.append(f"{name}: {piece} {path.relative_to(ROOT)} is missing")
    return missing


@pytest.mark.parametrize("bundle", games.GAMES, ids=lambda bundle: bundle.name)
def test_every_game_provides_every_piece(bundle: games.Game[Any]) -> None:
    assert missing_pieces(bundle) == []


def test_the_registry_is_derived_from_the_bundles() -> None:
    names = [bundle.name for bundle in games.GAMES]
    assert len(set(names)) == len(names), "two bundles share a name"
    assert {bundle.name: bundle.rules for bundle in games.GAMES} == games.REGISTRY
    assert all(games.game(name) is bundle for name, bundle in zip(names, games.GAMES, strict=True))


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known games: coins, cupid"):
        games.game("chess")


def test_a_game_lacking_pieces_is_told_which() -> None:
    class HalfRules:  # a rules object with a name and a title, and nothing else
        name = "sixth"
        title = "Sixth"

    fake = SimpleNamespace(
        rules=HalfRules(),
        describe=None,
        sampler=SimpleNamespace(sample=lambda state, seat, rng: state),
        presentation=SimpleNamespace(pack="klingon", blurb=""),
    )
    missing = missing_pieces(fake)
    assert "sixth: its rules lack the contract member 'new_game'" in missing
    assert "sixth: its rules lack the contract member 'legal_actions'" in missing
    assert "sixth: its rules lack the contract member 'title'" not in missing
    assert "sixth: its rules are not defined in its folder games/sixth/" in missing
    assert "sixth: it has no describer (the public account of each move)" in missing
    assert "sixth: its sampler's 'sample' is not in its folder games/sixth/" in missing
    assert "sixth: its sampler has no 'standing'" in missing
    assert "sixth: its sampler has no positive 'scale'" in missing
    assert "sixth: its presentation names no pack of cards the client has" in missing
    assert "sixth: its presentation has no one-sentence blurb" in missing
    assert "sixth: its rules for players docs/rules/sixth.md is missing" in missing
    assert "sixth: its table module static/js/table/sixth.js is missing" in missing
    assert "sixth: its stylesheet static/css/games/sixth.css is missing" in missing
    assert missing_pieces(SimpleNamespace()) == ["the game has no rules with a name"]


def test_a_whole_game_under_a_new_name_lacks_only_its_own_folder_and_files() -> None:
    # Cupid's pieces, renamed: everything is there, but nothing lives in games/sixth/.
    cupid = games.game("cupid")
    renamed = SimpleNamespace(**{f.name: getattr(cupid, f.name) for f in dataclasses.fields(cupid)})
    renamed.rules = SimpleNamespace(**{m: getattr(cupid.rules, m) for m in CONTRACT})
    renamed.rules.name = "sixth"
    assert missing_pieces(renamed, check_files=False) == [
        "sixth: its rules are not defined in its folder games/sixth/",
        "sixth: its describer is not defined in its folder games/sixth/",
        "sixth: its sampler's 'sample' is not in its folder games/sixth/",
        "sixth: its sampler's 'standing' is not in its folder games/sixth/",
    ]
