"""Scenario files (TOML, format 1) in, a validated :class:`Table` out.

The format is documented in ``docs/scenario-format.md``. Every refusal is a
:class:`ScenarioError` naming the file, the entry and the field.
"""

from __future__ import annotations

import math
from dataclasses import replace
import tomllib
from pathlib import Path
from typing import Any, TypeVar, overload

import numpy as np
import shapely
from shapely.geometry import Polygon

from ..errors import ScenarioError
from ..geometry.solids import Prism, disc
from ..maps.base import Map
from ..maps.catalogue import Catalogue, Profile
from ..maps.pieces import Model, Scenery
from ..maps.table import CONTACT_TOLERANCE, Table
from ..maps.table_climb import foot_nearest
from ..rules.eldfall.exchange import MAX_VALUE
from ..rules.eldfall.modes import MODES, Mode
from ..rules.eldfall.sizes import SIZE_ORDER
from ..rules.eldfall.templates import template_spec
from ..rules.eldfall.weapons import BUILTIN_WEAPONS, ReachBand, Weapon
from . import fields as F
from .fields import Entry, show

FORMAT = 1
TOP_KEYS = ("format", "name", "mode", "map", "table", "scenery", "models", "weapons", "profiles")


def read_source(path: str | Path, what: str = "scenario") -> str:
    """The text of a file, or a :class:`ScenarioError` that says why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")  # (a byte-order mark some editors write is dropped)
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ScenarioError(f"{path}: is a directory, expected a {what} .toml file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror}") from None


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parsed TOML, or a :class:`ScenarioError` naming ``source``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None


M = TypeVar("M", bound=Map)


@overload
def load(path: str | Path) -> Map: ...
@overload
def load(path: str | Path, kind: type[M]) -> M: ...


def load(path: str | Path, kind: type[Map] | None = None) -> Map:
    """Load and validate a scenario file: a :class:`Table`, a grid or a region map, as the
    file says. ``kind`` (``Table``, ``Grid``, ``Regions``): the map must be of that class
    (a ScenarioError if not), and a type checker knows it is. A table's ``[game]`` and
    ``[[script]]`` are kept as written (``catalogue.game``, ``catalogue.script``): the
    game and the script runner that read them check them, as ``skirmish check`` does
    (``skirmish.game.eldfall.settings.load_game`` loads a file and checks both)."""
    return _of_kind(loads(read_source(path), source=str(path)), kind, str(path))


@overload
def loads(text: str, source: str = "<string>") -> Map: ...
@overload
def loads(text: str, source: str = "<string>", *, kind: type[M]) -> M: ...


def loads(text: str, source: str = "<string>", *, kind: type[Map] | None = None) -> Map:
    """Validate scenario text (``source`` names it in error messages); ``kind`` as in :func:`load`."""
    return _of_kind(from_dict(parse_toml(text, source), source), kind, source)


def _of_kind(m: Map, kind: type[Map] | None, source: str) -> Map:
    if kind is not None and not isinstance(m, kind):
        raise ScenarioError(f"{source}: a {m.kind} map ({type(m).__name__}), not a {kind.__name__}; "
                            f"load it without a kind, or give a file of that kind")
    return m


def from_dict(data: dict[str, Any], source: str = "<dict>") -> Map:
    """Validate an already parsed scenario (the dict TOML gives): a :class:`Table`, or a
    grid map for ``map = "grid"``."""
    top = Entry(source, "", data)
    fmt = top.take("format", F.integer)
    if fmt != FORMAT:
        raise top.error("format", f"expected {FORMAT} (the only format this version reads), got {show(fmt)}")
    if data.get("game") == "chaosparty":
        raise ScenarioError(f"{source}: a Chaos Party duel (game = \"chaosparty\"), not a map: load it with "
                            "skirmish.scenario.chaos.load_duel; on the command line `skirmish play` or "
                            "`skirmish chaos play` plays it (docs/chaos-format.md)")
    kind = top.take("map", F.one_of("table", "grid", "regions"), "table")
    if kind == "grid":  # the Party Hard grid of rooms has its own loader
        from .grid import grid_from_dict
        return grid_from_dict(data, source)
    if kind == "regions":  # the Spirit island region graph has its own loader (docs/island-format.md)
        from .island import island_from_dict
        return island_from_dict(data, source)
    name = top.take("name", F.string, "")
    mode = Mode(top.take("mode", F.one_of(*MODES), "assisted"))
    if not top.has("table"):
        raise top.error("table", "required section [table] is missing (it needs size = [width, depth])")
    tbl = top.child("table")
    width, depth = tbl.take("size", F.size2)
    tbl.done()

    declared = _weapons(top)
    weapons = {**BUILTIN_WEAPONS, **declared}
    profiles = _profiles(top, weapons)

    scenery = [_scenery(Entry(source, f"scenery[{i}]", raw, SCENERY_KEYS), i)
               for i, raw in enumerate(_array(top, "scenery"))]
    models = [_model(Entry(source, f"models[{i}]", raw, MODEL_KEYS), weapons, profiles)
              for i, raw in enumerate(_array(top, "models"))]
    # E-DEPLOY: a model without ``at`` waits in the reserve until a game deploys it
    placed = [isinstance(raw, dict) and "at" in raw for raw in _array(top, "models")]
    in_file = models  # (error messages name a model by its place in the file's [[models]])
    reserve = [m for m, p in zip(models, placed) if not p]
    models = [m for m, p in zip(models, placed) if p]
    script = _array(top, "script")  # read by skirmish.sim (docs/simulation.md); kept for a lossless save
    game = top.take("game", lambda v: v, None)  # the [game] settings, read by skirmish.game (docs/game.md)
    top.done()

    _check_ids(source, scenery, in_file)
    catalogue = Catalogue(
        tuple(declared.items()),
        tuple(Profile(k, p["size"], p["diameter"], p["height"], p["attributes"], p["weapon_keys"])
              for k, p in profiles.items()),
        tuple(dict(entry) if isinstance(entry, dict) else entry for entry in script), tuple(reserve), game)
    table = Table(width, depth, tuple(models), tuple(scenery), mode, name, source, catalogue)
    _check_placement(source, table, [i for i, p in enumerate(placed) if p])
    return table


def _array(top: Entry, key: str) -> list[Any]:
    raw = top.take(key, lambda v: v, [])
    if not isinstance(raw, list):
        raise top.error(key, f"expected an array of tables ([[{key}]]), got {show(raw)}")
    return raw


def _label(entry: Entry, ident: str) -> None:
    entry.label = f'{entry.label} (id "{ident}")'


# -- weapons and profiles ----------------------------------------------------------------

def _weapons(top: Entry) -> dict[str, Weapon]:
    out = {}
    for key, e in top.entries("weapons"):
        name = e.take("name", F.ident, key)
        pw = e.take("pw", F.integer, None)
        if pw is not None and not 0 <= pw <= MAX_VALUE:  # (the d20 rules take Power 0..99, E-ROLL-DMG)
            raise e.error("pw", f"expected a Power of 0..{MAX_VALUE}, got {pw}")
        stk_raw = e.take("stk", lambda v: v, 1)
        if isinstance(stk_raw, bool) or not isinstance(stk_raw, (int, str)) or \
                (isinstance(stk_raw, int) and stk_raw < 1) or (isinstance(stk_raw, str) and not _is_attribute_name(stk_raw)):
            raise e.error("stk", f"expected a Strike of 1 or more, or an attribute name like \"STA\" (upper case), "
                          f"got {show(stk_raw)}")
        kind = e.take("kind", F.one_of("weapon", "spell"), "weapon")
        spell = kind == "spell"
        template = e.take("template", _template_name, None)
        has_reach, has_bands = e.has("reach"), e.has("bands")
        if template is not None and not has_reach and not has_bands and template_spec(template).kind == "spray":
            # a spray reaches as far as it is long (its main target must be covered, E-TMPL-SPRAY)
            out[key] = Weapon(name, (ReachBand(template_spec(template).length, 0),), True, pw, stk_raw,
                              e.take("attribute", _attribute_name, "ACC"), spell=spell, template=template)
            e.done()
            continue
        if has_reach == has_bands:
            raise e.error(None, "give exactly one of reach = N (melee), reach = \"aura\" (a spell) or "
                          "bands = [[range, accuracy], ...] (ranged)")
        if has_reach and e.data.get("reach") == "aura":
            if not spell:
                raise e.error("reach", 'reach = "aura" is for spells: add kind = "spell" (E-AURA-CAST)')
            e.take("reach", lambda v: v)
            out[key] = Weapon(name, (ReachBand(0.0, 0),), True, pw, stk_raw,
                              e.take("attribute", _attribute_name, "INT"), spell=True, aura=True, template=template)
        elif spell:  # a spell with a reach in inches or bands: used like a ranged weapon (E-AURA-CAST: INT)
            bands = [ReachBand(e.take("reach", F.a_length), 0)] if has_reach else _bands(e)
            out[key] = Weapon(name, tuple(bands), True, pw, stk_raw, e.take("attribute", _attribute_name, "INT"),
                              spell=True, template=template)
        elif has_reach:
            reach = e.take("reach", F.a_length)
            attribute = e.take("attribute", _attribute_name, "MEL")
            out[key] = Weapon(name, (ReachBand(reach, 0),), template is not None, pw, stk_raw, attribute,
                              template=template)
        else:
            bands = _bands(e)
            attribute = e.take("attribute", _attribute_name, "ACC")
            out[key] = Weapon(name, tuple(bands), True, pw, stk_raw, attribute, template=template)
        e.done()
    return out


def _bands(e: Entry) -> list[ReachBand]:
    """A weapon's (or spell's) ``bands``, each reaching further than the one before (E-REACH)."""
    bands = e.take("bands", F.list_of(_band, min_n=1, what="a list of [range, accuracy] bands"))
    for i in range(1, len(bands)):
        if bands[i].max_range <= bands[i - 1].max_range:
            raise e.error("bands", f"band {i + 1} must reach further than band {i} "
                          f"({bands[i].max_range:g} <= {bands[i - 1].max_range:g})")
    return bands


def _is_attribute_name(name: str) -> bool:
    return name.isidentifier() and name == name.upper()


def _attribute_name(value: Any) -> str:
    """The attribute a weapon rolls against: an upper-case identifier such as ACC, MEL, INT."""
    name = F.ident(value)
    if not _is_attribute_name(name):
        raise ValueError(f"attribute names are upper-case identifiers like ACC, MEL, INT, got {show(name)}")
    return name


def _template_name(value: Any) -> str:
    """A template from the template table (E-TMPL), by its canonical name."""
    if not isinstance(value, str):
        raise ValueError(f"expected a template name such as \"circle-small\" or \"spray-large\", got {show(value)}")
    try:
        return template_spec(value).name
    except LookupError as exc:
        raise ValueError(str(exc)) from None


def _band(value: Any) -> ReachBand:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"expected [range, accuracy modifier], got {show(value)}")
    return ReachBand(F.positive_length(value[0]), F.integer(value[1]))


def _attributes(e: Entry, key: str = "attributes") -> dict[str, int]:
    if not e.has(key):
        return {}
    a = e.child(key)
    out = {}
    for name in a.data:
        a.used.add(name)
        if not _is_attribute_name(name):
            raise a.error(name, "attribute names are upper-case identifiers like AGI, SPD, STA, ARM, HP")
        v = a.take(name, F.integer)
        if not 0 <= v <= MAX_VALUE:  # (the d20 rules take attributes up to 99: E-ROLL-ATK, E-MOD-OVER)
            raise a.error(name, f"expected 0..{MAX_VALUE}, got {v}")
        out[name] = v
    return out


def _weapon_keys(e: Entry, weapons: dict[str, Weapon]) -> tuple[str, ...]:
    names = e.take("weapons", F.list_of(F.ident, what="a list of weapon names"), [])
    for k, n in enumerate(names):
        if n not in weapons:
            raise e.error("weapons", f"unknown weapon {show(n)}; declare it under [weapons.{n}] "
                          f"(known: {', '.join(sorted(weapons))})")
        if n in names[:k]:
            raise e.error("weapons", f"{show(n)} is listed twice; a model carries each weapon once")
    return tuple(names)


def _weapon_list(e: Entry, weapons: dict[str, Weapon]) -> tuple[Weapon, ...]:
    return tuple(weapons[n] for n in _weapon_keys(e, weapons))


def _profiles(top: Entry, weapons: dict[str, Weapon]) -> dict[str, dict[str, Any]]:
    out = {}
    for key, e in top.entries("profiles"):
        keys = _weapon_keys(e, weapons)
        out[key] = {
            "size": e.take("size", F.one_of(*SIZE_ORDER), None),
            "diameter": e.take("diameter", F.positive_length, None),
            "height": e.take("height", F.positive_length, None),
            "attributes": _attributes(e),
            "weapons": tuple(weapons[k] for k in keys),
            "weapon_keys": keys,
        }
        e.done()
    return out


# -- scenery and models --------------------------------------------------------------------

def _polygon(value: Any) -> Polygon:
    pts = F.list_of(F.point, min_n=3, what="a list of at least 3 [x, y] points")(value)
    poly = Polygon(pts)
    if shapely.get_num_coordinates(shapely.simplify(poly, 0)) <= 3 or poly.convex_hull.area <= 1e-9:
        raise ValueError("the polygon has no area (are its points in a line?)")
    if not poly.is_valid:
        reason = shapely.is_valid_reason(poly)
        raise ValueError(f"the polygon is not simple ({reason}); list its corners in order around it")
    if poly.area <= 1e-9:
        raise ValueError("the polygon has no area (are its points in a line?)")
    return poly


def _rect(value: Any) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = F.list_of(F.coordinate, n=4, what="[x0, y0, x1, y1]")(value)
    if not (x1 > x0 and y1 > y0):
        raise ValueError(f"expected x0 < x1 and y0 < y1, got {show(value)}")
    return x0, y0, x1, y1


def _circle(value: Any) -> tuple[float, float, float]:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError(f"expected [x, y, radius], got {show(value)}")
    return F.coordinate(value[0]), F.coordinate(value[1]), F.positive_length(value[2])


#: the keys of a ``[[scenery]]`` entry
SCENERY_KEYS = ("id", "polygon", "rect", "circle", "height", "base", "blocks_los", "walkable", "ladder")


def _scenery(e: Entry, index: int) -> Scenery:
    sid = e.take("id", F.ident)
    _label(e, sid)
    shapes = [k for k in ("polygon", "rect", "circle") if e.has(k)]
    if len(shapes) != 1:
        raise e.error(None, "give exactly one footprint: polygon = [[x, y], ...], rect = [x0, y0, x1, y1] "
                      f"or circle = [x, y, radius] (found {', '.join(shapes) or 'none'})")
    shape = shapes[0]
    circle = None
    if shape == "polygon":
        foot = e.take("polygon", _polygon)
        params: tuple = tuple(tuple(p) for p in foot.exterior.coords[:-1])
    elif shape == "rect":
        params = e.take("rect", _rect)
        foot = shapely.box(*params)
    else:
        params = e.take("circle", _circle)
        circle = params
        foot = disc(*params)
    height = e.take("height", F.positive_length)
    base = e.take("base", F.a_length, 0.0)
    if base + height > F.MAX_TABLE_SIDE:  # (as a table side and a model's z: taller is no table's)
        raise e.error("height", f"a piece's top is at most {F.MAX_TABLE_SIDE:g} in above the table, got "
                      f"{base + height:g}")
    blocks = e.take("blocks_los", F.boolean, True)
    walkable = e.take("walkable", F.boolean, False)
    snap = 0.05  # how far (inches) a ladder point may be from the outline (it is snapped onto it)

    def ladder_points(value: Any) -> tuple[tuple[float, float], ...]:
        if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
            pts = F.list_of(F.point, min_n=1, what="a list of [x, y] points")(value)
            return tuple((p[0], p[1]) for p in pts)
        if isinstance(value, list) and len(value) == 2:
            x, y = F.point(value)
            return ((x, y),)
        raise ValueError(f"expected a point [x, y] on the footprint's edge, or a list of them, got {show(value)}")

    ladders = e.take("ladder", ladder_points, ())
    e.done()  # (every key read: a typo such as walkabel is named before what it leads to)
    for i, (lx, ly) in enumerate(ladders):
        if not walkable:
            raise e.error("ladder", "a ladder leads up onto the piece's top, so the piece needs walkable = true")
        gap = (abs(math.hypot(lx - circle[0], ly - circle[1]) - circle[2]) if circle is not None
               else float(shapely.distance(shapely.Point(lx, ly), foot.exterior)))
        if gap > snap:
            which = f"ladder point {i + 1} " if len(ladders) > 1 else "the ladder point "
            raise e.error("ladder", f"{which}[{lx:g}, {ly:g}] is {gap:.3g} in from the footprint's outline; "
                          "a ladder stands against the piece: give a point on its edge")
    return Scenery(sid, Prism(shapely.geometry.polygon.orient(foot, 1.0), base, base + height, circle), shape,
                   params, blocks, walkable, ladders)


#: The States a model may be listed with (E-STATE); "Flying" lets it stand above any surface.
MODEL_STATES = ("Crouched", "Dead", "Incapacitated", "Prone", "Fatigued", "Flying",
                "Bleeding", "Poisoned", "Slowed", "Crippled", "Weakened", "Immobilized", "Blinded")  # E-STATE-OTHER


#: the keys of a ``[[models]]`` entry
MODEL_KEYS = ("id", "side", "profile", "size", "at", "z", "facing", "diameter", "height", "attributes", "weapons",
              "states")


def _model(e: Entry, weapons: dict[str, Weapon], profiles: dict[str, dict[str, Any]]) -> Model:
    mid = e.take("id", F.ident)
    _label(e, mid)
    side = e.take("side", F.ident)
    pname = e.take("profile", F.ident, None)
    prof: dict[str, Any] = {}
    if pname is not None:
        if pname not in profiles:
            raise e.error("profile", f"unknown profile {show(pname)}; declare it under [profiles.{pname}]"
                          + (f" (known: {', '.join(sorted(profiles))})" if profiles else ""))
        prof = profiles[pname]
    size = e.take("size", F.one_of(*SIZE_ORDER), prof.get("size"))
    if size is None:
        raise e.error("size", f"required field is missing (one of {', '.join(SIZE_ORDER)}, here or in its profile)")
    placed = e.has("at")
    x, y = e.take("at", F.point, (0.0, 0.0))  # no ``at``: a reserve model (from_dict)
    for where in ("z", "facing"):
        if not placed and e.has(where):  # (E-DEPLOY: a policy places a reserve model, and faces it)
            raise e.error(where, "a model without `at` waits in the reserve and is placed when the game deploys "
                          f"it: give it `at = [x, y]` too, or drop {where}")
    z = e.take("z", F.a_length, 0.0)
    facing = e.take("facing", F.an_angle, 0.0) % 360.0
    diameter = e.take("diameter", F.positive_length, prof.get("diameter"))
    height = e.take("height", F.positive_length, prof.get("height"))
    attributes = {**prof.get("attributes", {}), **_attributes(e)}
    own = _weapon_list(e, weapons)
    states = frozenset(e.take("states", F.list_of(F.one_of(*MODEL_STATES),
                                                  what="a list of states"), []))
    e.done()
    return Model(mid, side, size, x, y, z, facing, diameter, height, attributes,
                 prof.get("weapons", ()) + tuple(w for w in own if w not in prof.get("weapons", ())),
                 states, pname)


# -- whole-table checks -----------------------------------------------------------------------

def _check_ids(source: str, scenery: list[Scenery], models: list[Model]) -> None:
    seen: dict[str, str] = {}
    for kind, ids in (("scenery", [s.id for s in scenery]), ("models", [m.id for m in models])):
        for i, ident in enumerate(ids):
            where = f"{kind}[{i}]"
            if ident in seen:
                raise ScenarioError(f'{source}: {where} (id "{ident}"): id: duplicate id, already used by {seen[ident]}; '
                                    "ids must be unique among scenery and models")
            seen[ident] = where


def _under(m: Model, s: Scenery) -> bool:
    """Does scenery ``s``'s footprint meet ``m``'s base in plan?"""
    return bool(shapely.distance(shapely.Point(m.x, m.y), s.solid.footprint) < m.radius)


def _stands_on_scenery(m: Model, table: Table) -> bool:
    """A model above the table stands on the walkable top of a piece under its base
    centre (E-HITBOX; as the movement engine has it stand, ``Table.surface_under``: a
    base hanging off an edge by more than half does not stand there)."""
    return any(s.walkable and abs(s.top - m.z) <= CONTACT_TOLERANCE
               and shapely.intersects_xy(s.solid.footprint, m.x, m.y) for s in table.scenery)


def _face_hint(m: Model, table: Table) -> str:
    """Where ``m``'s base would touch the nearest face that spans its height from the
    surface at the face's foot (a model hangs there after a Climb that stopped,
    E-MOVE-CLIMB): a piece on the table or one standing on another's top; the spot
    suggested is one where the model would hang (``Table.on_face``)."""
    here = shapely.Point(m.x, m.y)
    faces = sorted((s for s in table.scenery if s.solid.z0 < m.z - CONTACT_TOLERANCE and s.solid.z1 >= m.z),
                   key=lambda s: (shapely.distance(s.solid.footprint, here), s.id))
    for s in faces:
        x, y = foot_nearest(s.solid.footprint, m.radius, m.x, m.y)
        x, y = round(x, 4), round(y, 4)
        if table.with_model(replace(m, x=x, y=y)).on_face(m.id) is not None:
            return f": its base against {s.id}, e.g. at = [{x:.4f}, {y:.4f}]"
    return " (no face spans that height)" if faces else " (no piece is that tall)"


def _check_placement(source: str, table: Table, index: list[int]) -> None:
    """Every model on the table, on it, on a surface, clear of the others and of scenery;
    ``index[k]``: the place of ``table.models[k]`` in the file's ``[[models]]``."""
    tol = CONTACT_TOLERANCE
    for i, m in zip(index, table.models):
        where = f'{source}: models[{i}] (id "{m.id}")'
        r = m.radius
        if m.x - r < -tol or m.y - r < -tol or m.x + r > table.width + tol or m.y + r > table.depth + tol:
            raise ScenarioError(f"{where}: at: the base (radius {r:.3g} in at {m.x:g}, {m.y:g}) is off the "
                                f"{table.width:g} x {table.depth:g} in table; move it inside")
    for i, m in zip(index, table.models):
        if m.z > F.MAX_TABLE_SIDE:
            raise ScenarioError(f'{source}: models[{i}] (id "{m.id}"): z: at most {F.MAX_TABLE_SIDE:g} in, got {m.z:g}')
        if m.z > tol and "Flying" not in m.states and not _stands_on_scenery(m, table) and \
                table.on_face(m.id) is None:  # (E-MOVE-CLIMB: a Climb may stop on a face)
            flat = [s.id for s in table.scenery if not s.walkable and abs(s.top - m.z) <= tol
                    and shapely.intersects_xy(s.solid.footprint, m.x, m.y)]
            if flat:
                raise ScenarioError(f'{source}: models[{i}] (id "{m.id}"): z: the top of {flat[0]} at z = {m.z:g} is '
                                    f"not walkable, so no model stands on it; set walkable = true on {flat[0]}, or "
                                    'list the model as states = ["Flying"]')
            edge = [s.id for s in table.scenery if s.walkable and abs(s.top - m.z) <= tol and _under(m, s)]
            if edge:  # (its base meets the top, but it hangs off by more than half)
                raise ScenarioError(f'{source}: models[{i}] (id "{m.id}"): at: its base centre ({m.x:g}, {m.y:g}) is '
                                    f"off the top of {edge[0]} at z = {m.z:g}: a model stands on the surface under "
                                    "its centre; move it onto the top, or set z to the surface under its centre")
            tops = sorted({f"{s.top:g}" for s in table.scenery if _under(m, s)})
            raise ScenarioError(f'{source}: models[{i}] (id "{m.id}"): z: nothing under it at z = {m.z:g} '
                                f"({'tops under its base: ' + ', '.join(tops) if tops else 'no scenery under its base'})"
                                '; set z to the surface it stands on, list it as states = ["Flying"], or hang it on a '
                                f"face{_face_hint(m, table)}")
    if table.models:
        hb = [m.hitbox for m in table.models]
        x = np.array([c.x for c in hb])
        y = np.array([c.y for c in hb])
        rad = np.array([c.radius for c in hb])
        z0 = np.array([c.z for c in hb])
        z1 = z0 + np.array([c.height for c in hb])
        plan = np.hypot(x[:, None] - x, y[:, None] - y) < rad[:, None] + rad - tol
        vert = np.minimum(z1[:, None], z1) - np.maximum(z0[:, None], z0) > tol
        clash = np.triu(plan & vert, 1)
        if clash.any():
            i, j = (int(v) for v in np.argwhere(clash)[0])
            a, b = table.models[i], table.models[j]
            raise ScenarioError(f'{source}: models[{index[j]}] (id "{b.id}"): at: its hitbox overlaps the hitbox of '
                                f'models[{index[i]}] (id "{a.id}"); bases may touch but not overlap')
    for i, m in zip(index, table.models):
        c = m.hitbox
        for s in table.scenery:
            p = s.solid
            if min(c.top, p.z1) - max(c.z, p.z0) <= tol:
                continue
            if p.circle is not None:
                inside = math.hypot(c.x - p.circle[0], c.y - p.circle[1]) < c.radius + p.circle[2] - tol
            else:
                inside = shapely.distance(shapely.Point(c.x, c.y), p.footprint) < c.radius - tol
            if inside:
                on_top = shapely.intersects_xy(p.footprint, c.x, c.y)  # (a base stands on what is under its centre)
                hint = (f"; to stand on it set z = {p.z1:g}" if s.walkable and on_top else
                        "; move it clear, or onto the top (its centre over the piece)" if s.walkable else
                        f"; move it clear (z = {p.z1:g} would put it on top)")
                raise ScenarioError(f'{source}: models[{i}] (id "{m.id}"): at: its hitbox is inside scenery '
                                    f'"{s.id}" (z {p.z0:g} to {p.z1:g}){hint}')
