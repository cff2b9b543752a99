"""No import circles among the modules of app/ and games/, read from their syntax trees.

Every import counts, wherever it is written: at the top of a module, inside a function,
and under ``if TYPE_CHECKING:`` too — a circle that only the type checker follows is still
two modules that each need the other to be understood. ``from package import name`` is an
import of ``package.name`` when that is a module, else of ``package`` itself (its
``__init__``). Importing ``package.module`` is counted as importing that module only, not
also its package's ``__init__``.

The packages are held to the same rule: gathering each module under its package
(``app.rooms.referee`` under ``app.rooms``), no two packages may import each other, however
indirectly — the rooms do not know the chat that reads them, the store does not know the
records told from it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "games")


def module_names() -> dict[str, Path]:
    """Every module of app/ and games/, by its dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of app/ and games/ that the module ``name`` imports."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {target for target in found if target in modules and target != name}


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph gathered by package: ``app.rooms.referee`` counts as ``app.rooms``;
    a module at the root of app/ or games/ stands for itself."""

    def package(module: str) -> str:
        return ".".join(module.split(".")[:2])

    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        found = packages.setdefault(package(module), set())
        found.update(package(t) for t in targets if package(t) != package(module))
    return packages


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it (the first again at the end), or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph[module]):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done:
                cycle = visit(target)
                if cycle is not None:
                    return cycle
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            cycle = visit(module)
            if cycle is not None:
                return cycle
    return None


def test_the_graph_is_read_from_every_module() -> None:
    graph = import_graph()
    assert "app.rooms.referee" in graph and "games.kit.base" in graph
    assert "app.rooms.turn_clocks" in graph["app.rooms.referee"]


def test_the_finder_names_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_of_app_or_games_imports_itself_round_a_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_no_package_of_app_or_games_imports_itself_round_a_circle() -> None:
    cycle = find_cycle(package_graph(import_graph()))
    assert cycle is None, "import circle between packages: " + " -> ".join(cycle or [])
