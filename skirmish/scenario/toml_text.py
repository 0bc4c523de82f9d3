"""TOML text for scenario files: values, keys and catalogue keys (no scenario types here,
so the table writer and the grid writer share it without importing each other)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def toml_value(v: Any) -> str:
    """A Python value as TOML (strings quoted, lists and inline tables recursively)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e15 else repr(float(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    return repr(v)


def toml_key(k: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)


def catalogue_keys(items: Iterable[T], builtin: Mapping[str, T], slug: Callable[[T], str]) -> dict[T, str]:
    """A catalogue key per distinct item: the built-in key of an equal item, else a free
    key made from ``slug(item)`` (``-2``, ``-3``, ... appended when it is taken)."""
    out: dict[T, str] = {}
    taken = set(builtin)
    for item in items:
        if item in out:
            continue
        key = next((k for k, b in builtin.items() if b == item), None)
        if key is None:
            base = key = slug(item)
            n = 2
            while key in taken:
                key, n = f"{base}-{n}", n + 1
            taken.add(key)
        out[item] = key
    return out
