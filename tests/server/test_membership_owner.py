"""One owner for a session's membership (issue 15, "The table manager": "the lobby writes it,
from the table's replies"): `session.table`, `session.seat` and `session.joining` are
assigned in server/membership.py and nowhere else in the server (a session's own __init__
sets them to nothing)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMBERSHIP = {"table", "seat", "joining"}
OWNER = ROOT / "server" / "membership.py"


def membership_writes(source: str, where: str) -> list[str]:
    """Where `source` assigns .table, .seat or .joining of an object other than `self`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for part in ast.walk(target):
                if (isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store) and part.attr in MEMBERSHIP
                        and not (isinstance(part.value, ast.Name) and part.value.id == "self")):
                    found.append(f"{where}:{node.lineno} assigns {ast.unparse(part)}")
    return found


def test_only_the_membership_writes_a_sessions_table_seat_and_joining():
    found = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        if path != OWNER:
            found += membership_writes(path.read_text(), str(path.relative_to(ROOT)))
    assert found == []
    assert membership_writes(OWNER.read_text(), "membership.py")  # the owner itself is seen writing them


def test_the_scan_finds_a_planted_write():
    planted = "def join(session, table):\n    session.table, session.seat = table, 0\n    session.joining = None\n"
    assert [line.split(" ", 1)[1] for line in membership_writes(planted, "planted.py")] == [
        "assigns session.table", "assigns session.seat", "assigns session.joining"]
