"""Reading one TOML table strictly: every refusal names the file, the entry and the field."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..errors import ScenarioError, UnitError
from ..maps.tolerances import MAX_EXTENT
from ..units import angle, length

T = TypeVar("T")
_MISSING = object()


def show(value: object) -> str:
    """A found value as the user wrote it (TOML-ish)."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Entry:
    """One table of the file (the top level, ``[table]``, ``models[2]``, ...).

    ``take`` reads a field through a parser; parsers raise ``ValueError`` with what
    was expected, which becomes ``file: entry: field: message``. ``done`` refuses
    unknown keys, so a typo never passes silently. ``keys``: every key an entry of this
    kind may have, where the reader knows them (a key among them is never taken for a
    typo of a missing one, and ``done`` lists them all).
    """

    def __init__(self, source: str, label: str, data: Any, keys: tuple[str, ...] = ()):
        self.source = source
        self.label = label
        if not isinstance(data, dict):
            raise self.error(None, f"expected a table, got {show(data)}")
        self.data = data
        self.keys = frozenset(keys)
        self.used: set[str] = set()
        self.asked: set[str] = set()  # keys looked for, present or not (for done's "known keys" hint)

    def error(self, field: str | None, message: str) -> ScenarioError:
        parts = [p for p in (self.source, self.label, field) if p]
        return ScenarioError(": ".join([*parts, message]))

    def has(self, key: str) -> bool:
        self.asked.add(key)
        return key in self.data

    def take(self, key: str, parser: Callable[[Any], T], default: Any = _MISSING) -> T:
        self.used.add(key)
        if key not in self.data:
            if default is _MISSING:
                typo = difflib.get_close_matches(key, [k for k in self.data if k not in self.used | self.keys], n=1)
                raise self.error(key, "required field is missing" + (f" (is {typo[0]!r} a typo of it?)" if typo else ""))
            return default
        try:
            return parser(self.data[key])
        except ScenarioError:
            raise
        except (ValueError, TypeError, UnitError) as exc:
            raise self.error(key, str(exc)) from None

    def child(self, key: str, label: str | None = None) -> Entry:
        self.used.add(key)
        return Entry(self.source, ".".join(p for p in (self.label, label or key) if p), self.data[key])

    def entries(self, key: str) -> Iterator[tuple[str, Entry]]:
        """The named sub-tables of a catalogue table such as ``[weapons.NAME]``, each as
        an Entry labelled ``key.NAME`` (no catalogue: nothing)."""
        if not self.has(key):
            return
        cat = self.child(key)
        for name in cat.data:
            cat.used.add(name)
            yield name, Entry(self.source, f"{cat.label}.{name}", cat.data[name])

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        assert not self.keys or self.used | self.asked <= self.keys, (self.label, (self.used | self.asked) - self.keys)
        unknown = [k for k in self.data if k not in self.used and k not in allowed_extra]
        if unknown:
            key = unknown[0]
            known = sorted(self.used | self.asked | self.keys | set(allowed_extra))
            near = difflib.get_close_matches(key, known, n=1)
            raise self.error(key, "unknown key (" + (f"did you mean {near[0]}? " if near else "")
                             + f"known keys here: {', '.join(known)})")


# -- parsers: each takes the raw TOML value and returns a checked Python value --------

def string(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {show(value)}")
    return value


def ident(value: Any) -> str:
    s = string(value)
    if not s.strip():
        raise ValueError("expected a non-empty id")
    if s != s.strip():
        raise ValueError(f"an id may not start or end with spaces, got {show(s)}")
    return s


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {show(value)}")
    return value


def number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, got {show(value)}")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {show(value)}")
    return float(value)


def integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {show(value)}")
    return value


def a_length(value: Any) -> float:
    return length(value)


def positive_length(value: Any) -> float:
    v = length(value)
    if v <= 0:
        raise ValueError(f"expected a length greater than 0, got {show(value)}")
    return v


def an_angle(value: Any) -> float:
    return angle(value)


def one_of(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}, got {show(value)}")
        return value
    return parse


def list_of(item: Callable[[Any], T], *, n: int | None = None, min_n: int = 0, what: str = "a list") -> Callable[[Any], list[T]]:
    def parse(value: Any) -> list[T]:
        if not isinstance(value, list) or (n is not None and len(value) != n) or len(value) < min_n:
            raise ValueError(f"expected {what}, got {show(value)}")
        out = []
        for i, v in enumerate(value):
            try:
                out.append(item(v))
            except (ValueError, TypeError, UnitError) as exc:
                raise ValueError(f"item {i + 1}: {exc}") from None
        return out
    return parse


def coordinate(value: Any) -> float:
    return length(value, allow_negative=True)


#: The longest table side skirmish accepts, in inches (20 ft): larger tables are
#: refused rather than drawn or searched for minutes.
MAX_TABLE_SIDE = MAX_EXTENT


def table_side(value: Any) -> float:
    v = positive_length(value)
    if v > MAX_TABLE_SIDE:
        raise ValueError(f"a table side is at most {MAX_TABLE_SIDE:g} in (20 ft), got {show(value)}")
    return v


point = list_of(coordinate, n=2, what="[x, y] (two lengths)")
size2 = list_of(table_side, n=2, what="[width, depth] (two lengths, each at most 240 in)")
