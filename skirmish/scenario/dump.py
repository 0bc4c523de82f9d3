"""A :class:`Table` back to scenario TOML (format 1): ``loads(dumps(t)) == t``."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.table import Table
from ..rules.eldfall.weapons import BUILTIN_WEAPONS, Weapon
from .grid import grid_to_toml
from .load import loads
from .toml_text import catalogue_keys, toml_key, toml_value


def _weapon_keys(table: Table) -> dict[Weapon, str]:
    return catalogue_keys((w for m in table.models for w in m.weapons), BUILTIN_WEAPONS,
                          lambda w: re.sub(r"[^a-z0-9]+", "-", w.name.lower()).strip("-") or "weapon")


def dumps(table: Map) -> str:
    """The scenario file text for a map (profiles are flattened into the models)."""
    if table.kind == "grid":  # the Party Hard grid of rooms has its own writer, as it has its own loader
        return grid_to_toml(table)  # type: ignore[arg-type]
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


def default_save_path(source: str) -> Path:
    """Where an edited map is saved when no path was given: ``NAME.edited.toml`` beside
    the scenario.

    >>> str(default_save_path("scenarios/mill-ambush.toml"))
    'scenarios/mill-ambush.edited.toml'
    """
    if not source or source.startswith("<"):
        return Path("table.edited.toml")
    p = Path(source)
    return p.with_name(p.stem + ".edited.toml")


def write_scenario(m: Map, path: str | Path, *, hint: str = "") -> Path:
    """Write ``m`` as a scenario file, after checking that the text loads back equal
    (nothing is written otherwise; ``hint`` says why that may fail for this map)."""
    target = Path(path)
    text = dumps(m)
    if loads(text, source=str(target)) != m:
        raise SkirmishError(f"{target}: this {m.kind} does not survive a save and load{hint}; not written")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SkirmishError(f"{target}: cannot save: {exc.strerror}") from None
    return target
