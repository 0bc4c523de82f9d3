"""A :class:`Table` back to scenario TOML (format 1): ``loads(dumps(t)) == t``, with the
same catalogue (weapon keys, profiles, script, [game] settings)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.catalogue import Profile
from ..maps.pieces import Model
from ..maps.table import Table
from ..rules.eldfall.weapons import BUILTIN_WEAPONS, Weapon
from .grid import grid_to_toml
from .load import loads
from .toml_text import catalogue_keys, toml_key, toml_value


def _weapon_keys(table: Table) -> dict[Weapon, str]:
    """A catalogue key per weapon: the key the file declared it under, a built-in key for
    an equal built-in weapon, else a new key from its name."""
    known = {**BUILTIN_WEAPONS, **dict(table.catalogue.weapons)}
    items = [w for _, w in table.catalogue.weapons] + [w for m in table.models for w in m.weapons]
    return catalogue_keys(items, known,
                          lambda w: re.sub(r"[^a-z0-9]+", "-", w.name.lower()).strip("-") or "weapon")


def _weapon_lines(key: str, w: Weapon) -> list[str]:
    out = ["", f"[weapons.{toml_key(key)}]", f"name = {toml_value(w.name)}"]
    if w.spell:
        out.append('kind = "spell"')
    if w.template is not None:
        out.append(f"template = {toml_value(w.template)}")
    if w.aura:
        out.append('reach = "aura"')
    elif w.ranged and not (w.spell and len(w.bands) == 1 and w.bands[0].accuracy == 0) and \
            not (w.template and not w.spell and len(w.bands) == 1 and w.bands[0].accuracy == 0):
        out.append(f"bands = {toml_value([[b.max_range, b.accuracy] for b in w.bands])}")
    else:
        out.append(f"reach = {toml_value(w.bands[0].max_range)}")
    if w.pw is not None:
        out.append(f"pw = {w.pw}")
    out.append(f"stk = {toml_value(w.stk)}")
    out.append(f"attribute = {toml_value(w.attribute)}")
    return out


def _profile_lines(p: Profile) -> list[str]:
    out = ["", f"[profiles.{toml_key(p.name)}]"]
    for name in ("size", "diameter", "height"):
        value = getattr(p, name)
        if value is not None:
            out.append(f"{name} = {toml_value(value)}")
    if p.weapons:
        out.append(f"weapons = {toml_value(list(p.weapons))}")
    if p.attributes:
        out.append(f"attributes = {toml_value(dict(p.attributes))}")
    return out


def _own_fields(m: Model, p: Profile | None, keys: dict[Weapon, str],
                known: dict[str, Weapon]) -> dict[str, Any] | None:
    """What ``m`` states beyond profile ``p`` (None when ``p`` cannot express it, e.g. a
    profile attribute the model lacks): size, diameter, height, weapons, attributes."""
    if p is None:
        return None
    prof_weapons = tuple(known[k] for k in p.weapons if k in known)
    if len(prof_weapons) != len(p.weapons) or m.weapons[:len(prof_weapons)] != prof_weapons:
        return None
    if any(k not in m.attributes for k in p.attributes):
        return None
    own: dict[str, Any] = {}
    if m.size != p.size:
        own["size"] = m.size
    for name in ("diameter", "height"):
        value = getattr(m, name)
        if value != getattr(p, name):
            if value is None:
                return None  # the profile's value cannot be taken away
            own[name] = value
    extra = [keys[w] for w in m.weapons[len(prof_weapons):]]
    if extra:
        own["weapons"] = extra
    attrs = {k: v for k, v in m.attributes.items() if p.attributes.get(k) != v}
    if attrs:
        own["attributes"] = attrs
    return own


def _height(z0: float, z1: float) -> float:
    """``z1 - z0`` as the file most likely wrote it (0.3, not 0.2999999999999998) when that
    gives back ``z1`` exactly."""
    h = z1 - z0
    short = round(h, 9)
    return short if z0 + short == z1 else h


def dumps(table: Map) -> str:
    """The scenario file text for a map: everything the file held — weapon keys, profiles,
    scenery with ladders, models with their states, the mode, the ``[game]`` settings and
    the ``[[script]]`` — comments and layout aside."""
    if table.kind == "grid":  # the Party Hard grid of rooms has its own writer, as it has its own loader
        return grid_to_toml(table)  # type: ignore[arg-type]
    if table.kind == "regions":  # the Spirit island has its own writer too (scenario/island.py)
        from .island import island_to_toml
        return island_to_toml(table)  # type: ignore[arg-type]
    assert isinstance(table, Table)
    cat = table.catalogue
    out = ["format = 1"]
    if table.name:
        out.append(f"name = {toml_value(table.name)}")
    out.append(f"mode = {toml_value(table.mode.value)}")
    if cat.game is not None and not isinstance(cat.game, dict):  # (not settings: `skirmish play` names it)
        out.append(f"game = {toml_value(cat.game)}")
    out += ["", "[table]", f"size = {toml_value([table.width, table.depth])}"]
    keys = _weapon_keys(table)
    declared = dict(cat.weapons)
    known = {**BUILTIN_WEAPONS, **declared}
    for key, w in cat.weapons:
        out += _weapon_lines(key, w)
    for w, key in keys.items():
        if key not in known:
            out += _weapon_lines(key, w)
    for p in cat.profiles:
        out += _profile_lines(p)
    for s in table.scenery:
        out += ["", "[[scenery]]", f"id = {toml_value(s.id)}"]
        params = [list(p) for p in s.params] if s.shape == "polygon" else list(s.params)
        out.append(f"{s.shape} = {toml_value(params)}")
        out.append(f"height = {toml_value(_height(s.solid.z0, s.solid.z1))}")
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
    for m in (*table.models, *cat.reserve):
        placed = m in table.models
        out += ["", "[[models]]", f"id = {toml_value(m.id)}", f"side = {toml_value(m.side)}"]
        own = _own_fields(m, cat.profile(m.profile), keys, known)
        if own is None:
            own = {"size": m.size, "diameter": m.diameter, "height": m.height,
                   "weapons": [keys[w] for w in m.weapons], "attributes": dict(m.attributes)}
        else:
            out.append(f"profile = {toml_value(m.profile)}")
        if "size" in own:
            out.append(f"size = {toml_value(own['size'])}")
        if placed:  # a reserve model has no position (E-DEPLOY)
            out.append(f"at = {toml_value([m.x, m.y])}")
        if m.z and placed:
            out.append(f"z = {toml_value(m.z)}")
        if m.facing and placed:
            out.append(f"facing = {toml_value(m.facing)}")
        for name in ("diameter", "height"):
            if own.get(name) is not None:
                out.append(f"{name} = {toml_value(own[name])}")
        if own.get("weapons"):
            out.append(f"weapons = {toml_value(own['weapons'])}")
        if m.states:
            out.append(f"states = {toml_value(sorted(m.states))}")
        if own.get("attributes"):
            out.append(f"attributes = {toml_value(own['attributes'])}")
    if isinstance(cat.game, dict):
        out += ["", "[game]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in cat.game.items()]
    for entry in cat.script:
        out += ["", "[[script]]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in entry.items()]
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
    again = loads(text, source=str(target))
    if again != m or getattr(again, "catalogue", None) != getattr(m, "catalogue", None):
        raise SkirmishError(f"{target}: this {m.kind} does not survive a save and load{hint}; not written")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SkirmishError(f"{target}: cannot save: {exc.strerror}") from None
    return target
