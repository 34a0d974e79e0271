"""No module reads another module's private names (STYLE.md: "What to grow out of": one
module reaching into another's private attributes, `game._pao` read from `settle.py`).

The scan is narrow so that it can be trusted: it collects the private (single-underscore)
names that the modules of a package define (module-level functions, classes and variables,
and attributes their classes set on `self`), then looks through every module under
server/, client_cli/ and protocol/ for
- `from <the package>.<module> import _name`,
- `<a module of the package>._name`, and
- `<anything but self or cls>._name`, where `_name` is private to a module of the package
  other than the one being read.
The packages: the engine (server/game), the table (server/table: nothing outside a table
reads its private state, issue 15) and the store (server/store).
A private name that a module defines for itself may be used there on any object of its own.
What it cannot see: a private name reached through getattr with a computed string.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("server", "client_cli", "protocol")
PACKAGES = ("server.game", "server.table", "server.store")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_private_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _private(node.name):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name) and _private(t.id))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and _private(item.name):
                    names.add(item.name)
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
    return names


def _private_names(package: str) -> dict[Path, set[str]]:
    folder = ROOT.joinpath(*package.split("."))
    return {path: _defined_private_names(ast.parse(path.read_text())) for path in folder.rglob("*.py")}


def _module_aliases(tree: ast.Module, package: str) -> set[str]:
    """Local names bound to the package's modules (`from server.game import settle`, `import ... as`)."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            aliases.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.name.startswith(package + ".") and a.asname)
    return aliases


def private_reads(source: str, where: str, others: set[str], package: str = "server.game") -> list[str]:
    """Where the module `source` (at `where`) reads a private name of another module of `package`."""
    tree = ast.parse(source)
    found = []
    modules = _module_aliases(tree, package)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package):
            found.extend(f"{where}:{node.lineno} imports {a.name} from {node.module}"
                         for a in node.names if _private(a.name))
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner in modules or (owner not in ("self", "cls") and node.attr in others):
                found.append(f"{where}:{node.lineno} reads {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_reads_a_private_name_of_another_module_of_the_engine_the_table_or_the_store(package) -> None:
    defined = _private_names(package)
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            own = defined.get(path, set())
            others = set().union(*(names for p, names in defined.items() if p != path)) - own
            found.extend(private_reads(path.read_text(), str(path.relative_to(ROOT)), others, package))
    assert found == []


def test_the_scan_finds_planted_reads_of_private_names() -> None:
    """The scan is not blind: a read like the ones settle.py and flow.py used to make
    (`game._emit(...)`) is found, and so are a game module's private function and import."""
    defined = set().union(*_private_names("server.game").values())
    assert {"_emit", "_round_ends_game"} <= defined
    planted = ("from server.game import flow\n"
               "from server.game.settle import _ura\n"
               "def f(game):\n"
               "    game._emit('game_end', {})\n"
               "    return flow._round_ends_game\n")
    found = private_reads(planted, "planted.py", defined)
    assert sorted(line.split(" ", 1)[1] for line in found) == [
        "imports _ura from server.game.settle", "reads flow._round_ends_game", "reads game._emit"]


def test_the_scan_finds_a_planted_read_of_a_tables_private_state() -> None:
    """As the lobby once called the table's `_seat_for` from outside the table's task."""
    defined = set().union(*_private_names("server.table").values())
    assert {"_out", "_seat_of", "_finish"} <= defined
    planted = ("def route(table, session):\n"
               "    return table.core._seat_of(session.id), table.core._out\n")
    found = private_reads(planted, "planted.py", defined, "server.table")
    assert sorted(line.split(" ", 1)[1] for line in found) == ["reads table.core._out", "reads table.core._seat_of"]
