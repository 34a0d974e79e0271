"""What a bot argument of riichi-arena names, read into a `BotSpec`.

    builtin[:strength]   the built-in strategy (server.players.efficiency); strength 0-100
                         is the share of decisions it makes itself, the rest at random
                         (the arena's own dial: the strategy has no levels; default 100)
    random               a uniform choice among the legal actions (server.players)
    shanten              the older greedy player, no defence (server.players)
    py:module:Class      an SDK bot (a subclass of client_cli.bot.sdk.Bot), made with no arguments
    mjai:COMMAND         any mjai bot, a process through the bridge (client_cli.mjai)

A bad argument raises `SpecError` with one line saying what to write instead.
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass


class SpecError(ValueError):
    """A bot argument that names no bot; the message says what is accepted."""


class BotKind(enum.Enum):
    BUILTIN = "builtin"
    RANDOM = "random"
    SHANTEN = "shanten"
    PY = "py"
    MJAI = "mjai"


IN_PROCESS_STRATEGIES = (BotKind.BUILTIN, BotKind.RANDOM, BotKind.SHANTEN)
FORMS = "builtin[:strength], random, shanten, py:module:Class or mjai:COMMAND"


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One bot of the lineup: its kind and what the kind needs (a strength, a class, a command)."""

    kind: BotKind
    text: str  # as the user wrote it: the bot's name in reports
    strength: int = 100  # builtin only
    module: str = ""  # py only
    cls: str = ""  # py only
    command: str = ""  # mjai only

    @property
    def is_process(self) -> bool:
        return self.kind is BotKind.MJAI


def parse_spec(text: str) -> BotSpec:
    """The bot `text` names (module docstring); SpecError if it names none."""
    head, _, rest = text.partition(":")
    try:
        kind = BotKind(head)
    except ValueError:
        raise SpecError(f"unknown bot {text!r}: use {FORMS}") from None
    if kind is BotKind.BUILTIN:
        return BotSpec(kind, text, strength=_strength(text, rest) if rest else 100)
    if kind in (BotKind.RANDOM, BotKind.SHANTEN):
        if rest:
            raise SpecError(f"bot {text!r}: {head} takes no argument (write just {head!r})")
        return BotSpec(kind, text)
    if kind is BotKind.PY:
        module, _, cls = rest.partition(":")
        if not module or not cls.isidentifier():
            raise SpecError(f"bot {text!r}: write py:module:Class, e.g. py:examples.simple_bot:SimpleBot")
        return BotSpec(kind, text, module=module, cls=cls)
    command = rest.strip()
    if len(command) >= 2 and command[0] == command[-1] and command[0] in "\"'":
        command = command[1:-1].strip()  # mjai:"cmd" quoted once more than the shell takes off
    if not command:
        raise SpecError(f"bot {text!r}: write mjai:COMMAND, e.g. mjai:\"{{python}} -m client_cli.mjai.example_bot\"")
    return BotSpec(kind, text, command=command)


def _strength(text: str, value: str) -> int:
    if not value.isdigit() or not 0 <= int(value) <= 100:
        raise SpecError(f"bot {text!r}: the strength is a whole number 0-100 (the share of decisions "
                        "the built-in strategy makes; the rest are random), e.g. builtin:80")
    return int(value)


def load_class(spec: BotSpec) -> type:
    """The SDK bot class a py: spec names; SpecError if it cannot be imported or is not a class."""
    try:
        module = importlib.import_module(spec.module)
    except ImportError as error:
        raise SpecError(f"bot {spec.text!r}: cannot import {spec.module!r} ({error}); "
                        "run from the folder that holds it or put it on PYTHONPATH") from None
    found = getattr(module, spec.cls, None)
    if not isinstance(found, type):
        raise SpecError(f"bot {spec.text!r}: {spec.module} has no class {spec.cls!r}")
    return found


def check_spec(spec: BotSpec) -> None:
    """Whatever can be checked before play: a py: class must import (SpecError if not)."""
    if spec.kind is BotKind.PY:
        load_class(spec)
