"""Every error code the server's source can send is one protocol/messages.py defines, every
one it defines is sent somewhere, and PROTOCOL.md's "Errors" names exactly those.

The codes are found by reading the source (ast), not by running it: the first argument of
every call of `error`, `LobbyError` and `ProtocolError` under server/ and protocol/, a
string or `ErrorCode.NAME`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from protocol.messages import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
SENDERS = {"error", "LobbyError", "ProtocolError", "RematchError", "LadderRefused"}  # what takes an error code as its first argument


def codes_in_source() -> dict[str, list[str]]:
    """code -> the places (file:line) that send it; a code passed on from elsewhere (a
    variable) is not a new code and is not counted."""
    found: dict[str, list[str]] = {}
    for path in sorted([*ROOT.glob("server/**/*.py"), *ROOT.glob("protocol/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SENDERS):
                continue
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "code"), None)
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                code = first.value
            elif isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) \
                    and first.value.id == "ErrorCode":
                code = first.attr.lower()  # ErrorCode's names are its values in capitals (checked below)
            else:
                continue
            found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_error_code_the_server_sends_is_defined_in_protocol_messages():
    found = codes_in_source()
    assert len(found) >= 20, f"the scan found too few codes to be reading the sources: {sorted(found)}"
    undefined = {code: where for code, where in found.items() if code not in ERROR_CODES}
    assert not undefined, f"codes the server sends that ERROR_CODES lacks: {undefined}"


def test_every_defined_error_code_is_sent_by_the_server():
    unused = set(ERROR_CODES) - set(codes_in_source())
    assert not unused, f"ERROR_CODES names codes no server code sends: {sorted(unused)}"


def test_error_code_names_are_their_values_in_capitals():
    from protocol.messages import ErrorCode

    assert [code.name for code in ErrorCode] == [code.value.upper() for code in ErrorCode]
    assert ERROR_CODES == tuple(code.value for code in ErrorCode)


def test_protocol_md_names_exactly_the_defined_error_codes():
    text = (ROOT / "protocol" / "PROTOCOL.md").read_text()
    errors = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `([a-z_]+)` \|", errors, re.M))  # the first column of its table
    assert named == set(ERROR_CODES), f"missing: {set(ERROR_CODES) - named}, not codes: {named - set(ERROR_CODES)}"
