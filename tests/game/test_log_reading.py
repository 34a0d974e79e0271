"""One reader tells a file's kind from its content (server/game/importers/reading.py), for
riichi-replay and the replay page alike: an mjlog, a tenhou.net/6 log as one object or one a
line, or other JSON left to the caller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.game.importers.reading import NOT_JSON, LogError, Read, read_text

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def test_an_mjlog_is_read_as_an_mjlog():
    text = (CORPUS / "tenhou-mjlog" / "double-ron.mjlog").read_text()
    assert read_text(text).log.format == "mjlog"


def test_a_tenhou6_log_is_read_as_one_object_or_one_hand_a_line():
    one = next((CORPUS / "tenhou6").glob("*.json")).read_text()
    assert read_text(one).log.format == "tenhou6"
    lines = (CORPUS / "mjscore" / "six-kongs.json").read_text()
    assert "\n" in lines.strip() and read_text(lines).log.format == "tenhou6"


def test_other_json_is_left_to_the_caller_and_other_text_is_not_json():
    assert read_text('{"format": "riichi-server-record/1"}') == Read(None, {"format": "riichi-server-record/1"})
    assert read_text("plain words").content is NOT_JSON and read_text("plain words").log is None


@pytest.mark.parametrize("text, kind", [
    ('<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "mjlog: "),
    (json.dumps({"name": ["A", "B", "C", "D"], "log": [[1, 2]]}), "tenhou.net/6 log: "),
])
def test_a_log_that_cannot_be_read_says_its_kind(text, kind):
    with pytest.raises(LogError) as raised:
        read_text(text)
    assert str(raised.value).startswith(kind)
