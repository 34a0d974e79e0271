"""No module reads another module's private names (STYLE.md: "What to grow out of": one
module reaching into another's private attributes, `game._pao` read from `settle.py`).

The scan is narrow so that it can be trusted: it collects the private (single-underscore)
names that the server/game modules define (module-level functions, classes and variables,
and attributes their classes set on `self`), then looks through every module under
server/, client_cli/ and protocol/ for
- `from server.game.<module> import _name`,
- `<a server.game module>._name`, and
- `<anything but self or cls>._name`, where `_name` is private to a server/game module other
  than the one being read.
A private name that a module defines for itself may be used there on any object of its own.
What it cannot see: a private name reached through getattr with a computed string.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("server", "client_cli", "protocol")
GAME = ROOT / "server" / "game"


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


def _game_private_names() -> dict[Path, set[str]]:
    return {path: _defined_private_names(ast.parse(path.read_text())) for path in GAME.rglob("*.py")}


def _game_module_aliases(tree: ast.Module) -> set[str]:
    """Local names bound to server.game modules (`from server.game import settle`, `import ... as`)."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "server.game":
            aliases.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.name.startswith("server.game.") and a.asname)
    return aliases


def private_reads(source: str, where: str, others: set[str]) -> list[str]:
    """Where the module `source` (at `where`) reads a private name of another server/game module."""
    tree = ast.parse(source)
    found = []
    modules = _game_module_aliases(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("server.game"):
            found.extend(f"{where}:{node.lineno} imports {a.name} from {node.module}"
                         for a in node.names if _private(a.name))
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner in modules or (owner not in ("self", "cls") and node.attr in others):
                found.append(f"{where}:{node.lineno} reads {ast.unparse(node)}")
    return found


def test_no_module_reads_a_private_name_of_a_game_module() -> None:
    defined = _game_private_names()
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            own = defined.get(path, set())
            others = set().union(*(names for p, names in defined.items() if p != path)) - own
            found.extend(private_reads(path.read_text(), str(path.relative_to(ROOT)), others))
    assert found == []


def test_the_scan_finds_planted_reads_of_private_names() -> None:
    """The scan is not blind: a read like the ones settle.py and flow.py used to make
    (`game._emit(...)`) is found, and so are a game module's private function and import."""
    defined = set().union(*_game_private_names().values())
    assert {"_emit", "_round_ends_game"} <= defined
    planted = ("from server.game import flow\n"
               "from server.game.settle import _ura\n"
               "def f(game):\n"
               "    game._emit('game_end', {})\n"
               "    return flow._round_ends_game\n")
    found = private_reads(planted, "planted.py", defined)
    assert sorted(line.split(" ", 1)[1] for line in found) == [
        "imports _ura from server.game.settle", "reads flow._round_ends_game", "reads game._emit"]
