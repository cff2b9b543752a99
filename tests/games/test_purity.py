"""games/ is pure Python: no I/O, no clock, no global random, no app/ or framework imports.

The check reads every module's syntax tree, so it also covers code paths no match reaches;
it is itself tested on a module that breaks each rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
MODULES = sorted(GAMES_DIR.rglob("*.py"))

# Pure standard-library modules a rules engine may use (the games package is also allowed).
ALLOWED_IMPORTS = {
    "__future__",
    "abc",
    "bisect",
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "functools",
    "heapq",
    "itertools",
    "math",
    "operator",
    "random",
    "string",
    "typing",
}
FORBIDDEN_CALLS = {"open", "print", "input", "eval", "exec", "compile", "__import__", "breakpoint"}


def impurities(source: str) -> list[str]:
    """Every way ``source`` breaks the purity rule, as readable sentences."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["." * node.level + (node.module or "")]
            if node.module == "random" and {a.name for a in node.names} - {"Random"}:
                found.append("imports a global-RNG function from random")
        else:
            names = []
        for name in names:
            local = name.startswith(".") or name.split(".")[0] == "games"
            if not local and name not in ALLOWED_IMPORTS:
                found.append(f"imports {name}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            found.append(f"calls {node.func.id}()")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"  # only a private, seeded random.Random is allowed
        ):
            found.append(f"uses the global random.{node.attr}")
    return found


def test_the_walk_reaches_the_kit_and_every_game_folder() -> None:
    kit = GAMES_DIR / "kit"
    assert kit / "base.py" in MODULES and kit / "cards.py" in MODULES
    for bundle in games.GAMES:
        folder = GAMES_DIR / bundle.name
        assert {folder / "rules.py", folder / "describe.py", folder / "sampler.py"} <= set(MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GAMES_DIR)))
def test_module_is_pure(path: Path) -> None:
    assert impurities(path.read_text()) == []


def test_the_check_catches_each_kind_of_impurity() -> None:
    bad = """
import os, time
from app import db
from fastapi import FastAPI
from random import shuffle
import random
random.shuffle([1])
open("x")
print(1)
"""
    found = impurities(bad)
    for expected in (
        "imports os",
        "imports time",
        "imports app",
        "imports fastapi",
        "imports a global-RNG function from random",
        "uses the global random.shuffle",
        "calls open()",
        "calls print()",
    ):
        assert expected in found
    good = "import random\nfrom games.kit.cards import shuffled\nrandom.Random(1).shuffle([])\n"
    assert impurities(good) == []
