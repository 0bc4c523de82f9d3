"""A :class:`Table` back to scenario TOML (format 1): ``loads(dumps(t)) == t``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.table import Table
from ..rules.eldfall.weapons import BUILTIN_WEAPONS, Weapon

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


def _weapon_keys(table: Table) -> dict[Weapon, str]:
    return catalogue_keys((w for m in table.models for w in m.weapons), BUILTIN_WEAPONS,
                          lambda w: re.sub(r"[^a-z0-9]+", "-", w.name.lower()).strip("-") or "weapon")


def dumps(table: Map) -> str:
    """The scenario file text for a map (profiles are flattened into the models)."""
    if table.kind == "grid":  # the Party Hard grid of rooms has its own writer, as it has its own loader
        from .grid import grid_to_toml
        return grid_to_toml(table)  # type: ignore[arg-type]
    if table.kind == "regions":  # the Spirit island has its own writer too (scenario/island.py)
        from .island import island_to_toml
        return island_to_toml(table)  # type: ignore[arg-type]
    assert isinstance(table, Table)
    out = ["format = 1"]
    if table.name:
        out.append(f"name = {toml_value(table.name)}")
    out.append(f"mode = {toml_value(table.mode.value)}")
    out += ["", "[table]", f"size = {toml_value([table.width, table.depth])}"]
    keys = _weapon_keys(table)
    for w, key in keys.items():
        if key in BUILTIN_WEAPONS and BUILTIN_WEAPONS[key] == w:
            continue
        out += ["", f"[weapons.{toml_key(key)}]", f"name = {toml_value(w.name)}"]
        if w.ranged:
            out.append(f"bands = {toml_value([[b.max_range, b.accuracy] for b in w.bands])}")
        else:
            out.append(f"reach = {toml_value(w.bands[0].max_range)}")
        if w.pw is not None:
            out.append(f"pw = {w.pw}")
        out.append(f"stk = {toml_value(w.stk)}")
        out.append(f"attribute = {toml_value(w.attribute)}")
    for s in table.scenery:
        out += ["", "[[scenery]]", f"id = {toml_value(s.id)}"]
        params = [list(p) for p in s.params] if s.shape == "polygon" else list(s.params)
        out.append(f"{s.shape} = {toml_value(params)}")
        out.append(f"height = {toml_value(s.solid.z1 - s.solid.z0)}")
        if s.solid.z0:
            out.append(f"base = {toml_value(s.solid.z0)}")
        if not s.blocks_los:
            out.append("blocks_los = false")
        if s.walkable:
            out.append("walkable = true")
        if len(s.ladders) == 1:
            out.append(f"ladder = {toml_value(list(s.ladders[0]))}")
        elif s.ladders:
            out.append(f"ladder = {toml_value([list(p) for p in s.ladders])}")
    for m in table.models:
        out += ["", "[[models]]", f"id = {toml_value(m.id)}", f"side = {toml_value(m.side)}", f"size = {toml_value(m.size)}",
                f"at = {toml_value([m.x, m.y])}"]
        if m.z:
            out.append(f"z = {toml_value(m.z)}")
        if m.facing:
            out.append(f"facing = {toml_value(m.facing)}")
        if m.diameter is not None:
            out.append(f"diameter = {toml_value(m.diameter)}")
        if m.height is not None:
            out.append(f"height = {toml_value(m.height)}")
        if m.weapons:
            out.append(f"weapons = {toml_value([keys[w] for w in m.weapons])}")
        if m.states:
            out.append(f"states = {toml_value(sorted(m.states))}")
        if m.attributes:
            out.append(f"attributes = {toml_value(dict(m.attributes))}")
    return "\n".join(out) + "\n"


def write_scenario(m: Map, path: str | Path, *, hint: str = "") -> Path:
    """Write ``m`` as a scenario file, after checking that the text loads back equal
    (nothing is written otherwise; ``hint`` says why that may fail for this map)."""
    from .load import loads

    target = Path(path)
    text = dumps(m)
    if loads(text, source=str(target)) != m:
        raise SkirmishError(f"{target}: this {m.kind} does not survive a save and load{hint}; not written")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SkirmishError(f"{target}: cannot save: {exc.strerror}") from None
    return target
