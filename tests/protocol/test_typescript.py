"""The web client's protocol names are generated from protocol/ (protocol/typescript.py), and
the file in web/src/ is what protocol/ makes now; the page names no message, event, result,
error or bye by a string of its own."""

from __future__ import annotations

import re
from pathlib import Path

from protocol.events import EventType
from protocol.messages import ByeCode, ErrorCode, MessageType
from protocol.typescript import COMMAND, NAMES, OUT, members_of, render

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "web" / "src"


def test_web_src_protocol_names_is_current() -> None:
    assert OUT.parent == SRC
    assert OUT.exists() and OUT.read_text() == render(), \
        f"web/src/{OUT.name} is not what protocol/ makes now: run {COMMAND} (then npm --prefix web run build)"


def test_the_generated_names_are_the_protocols() -> None:
    text = render()
    for enum in (MessageType, EventType, ErrorCode, ByeCode):
        for member in enum:
            assert f'  {member.name}: "{member.value}",' in text


# The page's own words that are protocol names as well: the screen shown ("table", "join",
# "waiting"), where the page starts and a link's kind ("join", "watch"), a sound ("win").
OWN_WORDS = {"lobby", "join", "waiting", "table", "watch", "win"}
OWN_OPERANDS = {"screen", "to", "kind", "sound"}
COMPARED = re.compile(r'([\w$.?]*\w)\s*(?:===|!==)\s*"([a-z_]+)"|(?:case|type:)\s*"([a-z_]+)"')


def test_the_page_names_messages_events_and_codes_with_the_generated_constants() -> None:
    """A string in web/src/*.ts (but the generated file) that is one of the generated names,
    compared with, in a `case`, or a map's `type`, is a name kept by hand."""
    names = {value for _, _, values in NAMES for _, value in members_of(values)}
    found = []
    for path in sorted(SRC.glob("*.ts")):
        if path == OUT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in COMPARED.finditer(line):
                operand, name = match[1], match[2] or match[3]
                own = operand is not None and operand.split(".")[-1] in OWN_OPERANDS and name in OWN_WORDS
                if name in names and not own:
                    found.append(f"{path.name}:{number}: {match[0]}")
    assert not found, f"protocol names kept by hand in web/src (use web/src/{OUT.name}): {found}"
