"""Bot arguments of riichi-arena: each form read, and a bad one a one-line error."""

from __future__ import annotations

import pytest

from client_cli.arena.specs import BotKind, SpecError, check_spec, parse_spec


def test_each_form_is_read():
    assert parse_spec("builtin").strength == 100
    assert parse_spec("builtin:70").strength == 70
    assert parse_spec("random").kind is BotKind.RANDOM
    assert parse_spec("shanten").kind is BotKind.SHANTEN
    py = parse_spec("py:examples.simple_bot:SimpleBot")
    assert (py.kind, py.module, py.cls) == (BotKind.PY, "examples.simple_bot", "SimpleBot")
    assert parse_spec('mjai:"python bot.py {seat}"').command == "python bot.py {seat}"
    assert parse_spec("mjai:python bot.py").command == "python bot.py"


@pytest.mark.parametrize("text", ["bogus", "builtin:101", "builtin:strong", "random:3", "py:mod", "py:mod:",
                                  "mjai:", 'mjai:""'])
def test_a_bad_argument_is_a_clear_error(text):
    with pytest.raises(SpecError) as caught:
        parse_spec(text)
    assert "\n" not in str(caught.value) and text in str(caught.value)


def test_a_py_bot_that_does_not_import_is_named():
    with pytest.raises(SpecError, match="cannot import 'no_such_module_here'"):
        check_spec(parse_spec("py:no_such_module_here:Bot"))
    with pytest.raises(SpecError, match="has no class 'Nope'"):
        check_spec(parse_spec("py:examples.simple_bot:Nope"))
