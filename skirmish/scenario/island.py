"""Island files (``map = "regions"``, Spirit island) in, a validated :class:`Regions` out.

The format is documented in ``docs/island-format.md``. Every refusal is a
:class:`ScenarioError` naming the file, the entry and the field, as for the table.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from ..maps.regions import DAHAN_SIDE, GROUPS, INVADER_SIDE, Regions
from ..rules.spiritisland.island import BLIGHTED_AT, DEFEAT_AT, PIECES, TERRAINS, Land, island
from . import fields as F
from .fields import Entry, show

#: Names a spirit may not take: they are sides or piece kinds of their own.
RESERVED = (INVADER_SIDE, DAHAN_SIDE, *GROUPS, "blight", "presence")


def island_from_dict(data: dict[str, Any], source: str = "<dict>") -> Regions:
    """Validate a parsed ``map = "regions"`` file and build its :class:`Regions`."""
    top = Entry(source, "", data)
    top.take("format", F.integer)
    top.take("map", F.one_of("regions"))
    for key, why in (("mode", "measurement modes (E-MODE) belong to the table; an island is measured in steps"),
                     ("table", 'an island has [[regions]], not [table] (or drop map = "regions")'),
                     ("grid", 'an island has [[regions]], not [grid] (that is map = "grid")')):
        if top.has(key):
            raise top.error(key, why)
    name = top.take("name", F.string, "")
    counters = _island(top.child("island")) if top.has("island") else {}
    raw = top.take("regions", lambda v: v, None)
    if raw is None:
        raise top.error("regions", 'required: at least one [[regions]] entry (id, terrain, adjacent, ...)')
    if not isinstance(raw, list) or not raw:
        raise top.error("regions", f"expected an array of tables ([[regions]]), got {show(raw)}")
    top.done()
    entries = [Entry(source, f"regions[{i}]", r) for i, r in enumerate(raw)]
    ids: dict[str, int] = {}
    for i, e in enumerate(entries):
        rid = e.take("id", _region_id)
        if rid in ids:
            raise e.error("id", f"duplicate id {show(rid)}, already used by regions[{ids[rid]}]")
        ids[rid] = i
        e.label = f'{e.label} (id "{rid}")'
    lands = [_land(e, ids) for e in entries]
    _check_connected(lands, entries)
    if "blighted" not in counters:
        counters["blighted"] = sum(land.blight for land in lands) >= counters.get("blighted_at", BLIGHTED_AT)
    return Regions(island(lands, **counters), name, source)


def _check_connected(lands: list[Land], entries: list[Entry]) -> None:
    """An island is one piece of land (S-ISLAND): every region is reached from the first
    across borders (a region that borders nothing was measured "not connected" and never
    explored into)."""
    nbrs = {land.id: set(land.neighbours) for land in lands}
    for land in lands:  # (borders go both ways; the island names a one-way one itself)
        for n in land.neighbours:
            nbrs[n].add(land.id)
    seen, todo = {lands[0].id}, [lands[0].id]
    while todo:
        for n in nbrs[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    apart = [i for i, land in enumerate(lands) if land.id not in seen]
    if apart:
        i = apart[0]
        raise entries[i].error("adjacent", f"no chain of borders joins it to {show(lands[0].id)}: an island is one "
                               f"piece of land; give it a border ({len(apart)} region"
                               f"{'s' if len(apart) != 1 else ''} apart: "
                               f"{', '.join(lands[k].id for k in apart)})")


def _region_id(value: Any) -> str:
    rid = F.ident(value)
    if "@" in rid:
        raise ValueError(f"a region id may not contain '@' (pieces are addressed KIND@REGION), got {show(rid)}")
    return rid


def _whole(low: int = 0) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        v = F.integer(value)
        if v < low:
            raise ValueError(f"expected a whole number, {low} or more, got {v}")
        return v
    return parse


def _terrain(value: Any) -> str:
    if not isinstance(value, str) or value not in TERRAINS:
        close = difflib.get_close_matches(str(value), TERRAINS, n=1)
        hint = f" (did you mean {show(close[0])}?)" if close else ""
        raise ValueError(f"unknown terrain {show(value)}{hint}; one of {', '.join(TERRAINS)}")
    return value


def _explore_entry(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (_terrain(value),)
    if isinstance(value, list) and value:
        out = tuple(_terrain(v) for v in value)
        if len(set(out)) != len(out):
            raise ValueError(f"a terrain twice in one round: {show(value)}")
        return out
    raise ValueError(f"expected a terrain or a list of terrains, like \"jungle\" or [\"sands\", \"wetland\"]; "
                     f"got {show(value)}")


def _island(e: Entry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "explore": tuple(e.take("explore", F.list_of(_explore_entry, what="a list of terrains (or lists of them)"), [])),
        "fear": e.take("fear", _whole(), 0),
        "blighted_at": e.take("blighted_at", _whole(1), BLIGHTED_AT),
        "defeat_at": e.take("defeat_at", _whole(1), DEFEAT_AT),
        "energy": e.take("energy", _whole(), 2),
        "range": e.take("range", _whole(), 1),
        "round": e.take("round", _whole(1), 1),
    }
    if e.has("blighted"):
        out["blighted"] = e.take("blighted", F.boolean)
    if out["defeat_at"] <= out["blighted_at"]:
        raise e.error("defeat_at", f"the spirits lose at a blight above the one that blights the island "
                      f"(blighted_at = {out['blighted_at']}), got {out['defeat_at']}")
    out["fear_effects"] = out["fear"] // 16
    e.done()
    return out


def _presence(e: Entry) -> tuple[tuple[str, int], ...]:
    p = e.child("presence")
    out = []
    for spirit in p.data:
        if spirit in RESERVED or "@" in spirit or not spirit.strip():
            raise p.error(spirit, f"a spirit may not be called {show(spirit)} (reserved: {', '.join(RESERVED)}; "
                          "no '@')")
        out.append((spirit, p.take(spirit, _whole())))
    p.done()
    return tuple(out)


def _land(e: Entry, ids: dict[str, int]) -> Land:
    rid = e.data["id"]
    terrain = e.take("terrain", _terrain)
    coastal = e.take("coastal", F.boolean, False)
    adjacent = e.take("adjacent", F.list_of(F.ident, what="a list of region ids"), [])
    for other in adjacent:
        if other == rid:
            raise e.error("adjacent", f"{show(rid)} is this region itself; a region does not border itself")
        if other not in ids:
            close = difflib.get_close_matches(other, list(ids), n=1)
            hint = f"; did you mean {show(close[0])}?" if close else f" (regions: {', '.join(list(ids)[:12])})"
            raise e.error("adjacent", f"unknown region {show(other)}{hint}")
    if len(set(adjacent)) != len(adjacent):
        dup = next(a for a in adjacent if adjacent.count(a) > 1)
        raise e.error("adjacent", f"{show(dup)} is named twice")
    pieces = {k: e.take(k, _whole(), 0) for k in PIECES}
    presence = _presence(e) if e.has("presence") else ()
    ravage = e.take("ravage", F.boolean, False)
    build = e.take("build", F.boolean, False)
    at = e.take("at", F.list_of(F.number, n=2, what="[x, y] (two numbers, for drawing)"), None)
    e.done()
    return Land(rid, terrain, coastal, tuple(adjacent), presence=presence, ravage=ravage, build=build,
                at=(at[0], at[1]) if at is not None else None, **pieces)


def island_to_toml(isle: Regions) -> str:
    """The file text of an island: ``island_from_dict(tomllib.loads(island_to_toml(r))) == r``
    (borders are written on both sides; spirits' unspent energy is not kept)."""
    from .toml_text import toml_value

    isl = isle.island
    out = ["format = 1", 'map = "regions"']
    if isle.name:
        out.append(f"name = {toml_value(isle.name)}")
    out += ["", "[island]", f"explore = {toml_value([e[0] if len(e) == 1 else list(e) for e in isl.explore])}",
            f"fear = {isl.fear}", f"blighted_at = {isl.blighted_at}", f"defeat_at = {isl.defeat_at}",
            f"blighted = {toml_value(isl.blighted)}", f"energy = {isl.energy}", f"range = {isl.range}",
            f"round = {isl.round}"]
    for land in isl.lands:
        out += ["", "[[regions]]", f"id = {toml_value(land.id)}", f"terrain = {toml_value(land.terrain)}"]
        if land.coastal:
            out.append("coastal = true")
        out.append(f"adjacent = {toml_value(list(land.neighbours))}")
        out += [f"{k} = {getattr(land, k)}" for k in PIECES if getattr(land, k)]
        if land.presence:
            out.append(f"presence = {toml_value(dict(land.presence))}")
        out += [f"{k} = true" for k in ("ravage", "build") if getattr(land, k)]
        if land.at is not None:
            out.append(f"at = {toml_value(list(land.at))}")
    return "\n".join(out) + "\n"
