"""A :class:`Table` back to scenario TOML (format 1): ``loads(dumps(t)) == t``."""

from __future__ import annotations

import re
from typing import Any

from ..maps.table import Table
from ..rules.eldfall.weapons import BUILTIN_WEAPONS, Weapon


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e15 else repr(float(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    return repr(v)


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _value(k)


def _weapon_keys(table: Table) -> dict[Weapon, str]:
    keys: dict[Weapon, str] = {w: k for k, w in BUILTIN_WEAPONS.items()}
    taken = set(keys.values())
    for m in table.models:
        for w in m.weapons:
            if w not in keys:
                base = re.sub(r"[^a-z0-9]+", "-", w.name.lower()).strip("-") or "weapon"
                key, n = base, 2
                while key in taken:
                    key, n = f"{base}-{n}", n + 1
                keys[w] = key
                taken.add(key)
    return keys


def dumps(table: Table) -> str:
    """The scenario file text for ``table`` (profiles are flattened into the models)."""
    if table.kind == "grid":  # the Party Hard grid of rooms has its own writer, as it has its own loader
        from .grid import grid_to_toml
        return grid_to_toml(table)  # type: ignore[arg-type]
    out = ["format = 1"]
    if table.name:
        out.append(f"name = {_value(table.name)}")
    out.append(f"mode = {_value(table.mode.value)}")
    out += ["", "[table]", f"size = {_value([table.width, table.depth])}"]
    keys = _weapon_keys(table)
    for w, key in keys.items():
        if key in BUILTIN_WEAPONS and BUILTIN_WEAPONS[key] == w:
            continue
        out += ["", f"[weapons.{_key(key)}]", f"name = {_value(w.name)}"]
        if w.ranged:
            out.append(f"bands = {_value([[b.max_range, b.accuracy] for b in w.bands])}")
        else:
            out.append(f"reach = {_value(w.bands[0].max_range)}")
        if w.pw is not None:
            out.append(f"pw = {w.pw}")
        out.append(f"stk = {_value(w.stk)}")
        out.append(f"attribute = {_value(w.attribute)}")
    for s in table.scenery:
        out += ["", "[[scenery]]", f"id = {_value(s.id)}"]
        params = [list(p) for p in s.params] if s.shape == "polygon" else list(s.params)
        out.append(f"{s.shape} = {_value(params)}")
        out.append(f"height = {_value(s.solid.z1 - s.solid.z0)}")
        if s.solid.z0:
            out.append(f"base = {_value(s.solid.z0)}")
        if not s.blocks_los:
            out.append("blocks_los = false")
        if s.walkable:
            out.append("walkable = true")
        if len(s.ladders) == 1:
            out.append(f"ladder = {_value(list(s.ladders[0]))}")
        elif s.ladders:
            out.append(f"ladder = {_value([list(p) for p in s.ladders])}")
    for m in table.models:
        out += ["", "[[models]]", f"id = {_value(m.id)}", f"side = {_value(m.side)}", f"size = {_value(m.size)}",
                f"at = {_value([m.x, m.y])}"]
        if m.z:
            out.append(f"z = {_value(m.z)}")
        if m.facing:
            out.append(f"facing = {_value(m.facing)}")
        if m.diameter is not None:
            out.append(f"diameter = {_value(m.diameter)}")
        if m.height is not None:
            out.append(f"height = {_value(m.height)}")
        if m.weapons:
            out.append(f"weapons = {_value([keys[w] for w in m.weapons])}")
        if m.states:
            out.append(f"states = {_value(sorted(m.states))}")
        if m.attributes:
            out.append(f"attributes = {_value(dict(m.attributes))}")
    return "\n".join(out) + "\n"
