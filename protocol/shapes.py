"""The kinds of value a message field may hold, and the one check of a map against its fields.

A message's fields are a dict: name -> (kinds, required), `kinds` a tuple of what the
value may be, any one of them: a Python type (`str`, `int`, `bool`, `float`, `NONE`),
`TILE` (a tile id, 0-135), or one of the shapes below for what nests.  `check_fields`
checks a map against its fields; given a list, it also collects every tile id it passes
(the leak checker of the tests asks which tiles a receiver was shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NONE = type(None)


class Tile:
    """The kind of a tile id: an integer 0-135 (never instantiated: only named in fields)."""


TILE = Tile


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list whose every item is one of `items`."""

    items: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class MapOf:
    """A map with these fields (name -> (kinds, required)) and no others."""

    fields: dict[str, tuple[tuple[Any, ...], bool]]


@dataclass(frozen=True, slots=True)
class KeyedMap:
    """A map whose keys are any strings (seats as "0"-"3", a rule's name) and whose every
    value is one of `values`."""

    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Typed:
    """A map whose "type" string says which fields it has (an event, an action, a hand's result)."""

    shapes: dict[str, dict[str, tuple[tuple[Any, ...], bool]]]


@dataclass(frozen=True, slots=True)
class Among:
    """A string out of a closed set (an enum's values)."""

    values: frozenset[str]


Fields = dict[str, tuple[tuple[Any, ...], bool]]
PLAIN = (str, int, float, bool, NONE)  # a scalar of any kind (an override's value)

# What each kind is called in a message to a person (the protocol's words, not Python's).
_WORDS = {str: "a string", int: "an integer", bool: "true or false", dict: "a map", list: "a list",
          float: "a number", NONE: "nil", TILE: "a tile id (0-135)"}


class ShapeError(ValueError):
    """A value that is not what its fields say; the message names where and what, in one line."""


def check_fields(value: dict[str, Any], fields: Fields, where: str, tiles: list[tuple[str, int]] | None = None) \
        -> None:
    """Raise ShapeError unless `value` (a map) has every required field, only known fields
    (besides "type"), and each of the kinds its fields allow."""
    for name, (kinds, required) in fields.items():
        if name not in value:
            if required:
                raise ShapeError(f"'{where}' needs the field '{name}'")
            continue
        check_kinds(value[name], kinds, f"{where}.{name}", tiles)
    no_unknown_fields(value, fields, where)


def no_unknown_fields(value: dict[str, Any], fields: Any, where: str) -> None:
    """Raise ShapeError if `value` has a field (besides "type") that `fields` does not name."""
    extra = sorted(str(k) for k in value if k != "type" and k not in fields)
    if extra:
        raise ShapeError(f"'{where}' has unknown field(s): {', '.join(extra)[:80]}")


def check_kinds(value: Any, kinds: tuple[Any, ...], where: str, tiles: list[tuple[str, int]] | None = None) -> None:
    """Raise ShapeError unless `value` is one of `kinds` (the first that fits is checked in full)."""
    for kind in kinds:
        if _fits(value, kind):
            return _check_inside(value, kind, where, tiles)
    raise ShapeError(f"'{where}' must be {' or '.join(_word(k) for k in kinds)}")


def _fits(value: Any, kind: Any) -> bool:
    """Whether `value` is of `kind` on the outside (what is inside is checked after)."""
    if kind is TILE:
        return type(value) is int and 0 <= value < 136
    if isinstance(kind, type):
        return isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
    if isinstance(kind, ListOf):
        return isinstance(value, list)
    if isinstance(kind, Among):
        return isinstance(value, str) and value in kind.values
    return isinstance(value, dict)  # MapOf, KeyedMap, Typed


def _check_inside(value: Any, kind: Any, where: str, tiles: list[tuple[str, int]] | None) -> None:
    if kind is TILE:
        if tiles is not None:
            tiles.append((where, value))
    elif isinstance(kind, ListOf):
        for i, item in enumerate(value):
            check_kinds(item, kind.items, f"{where}[{i}]", tiles)
    elif isinstance(kind, MapOf):
        check_fields(value, kind.fields, where, tiles)
    elif isinstance(kind, KeyedMap):
        for key, item in value.items():
            check_kinds(item, kind.values, f"{where}.{key}", tiles)
    elif isinstance(kind, Typed):
        name = value.get("type")
        shape = kind.shapes.get(name) if isinstance(name, str) else None
        if shape is None:
            raise ShapeError(f"'{where}.type' must be one of: {', '.join(kind.shapes)}")
        check_fields(value, shape, f"{where}.{name}", tiles)


def _word(kind: Any) -> str:
    if isinstance(kind, ListOf):
        return "a list"
    if isinstance(kind, Among):
        return "one of " + ", ".join(sorted(kind.values))
    if isinstance(kind, (MapOf, KeyedMap, Typed)):
        return "a map"
    return _WORDS[kind]
