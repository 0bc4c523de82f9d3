"""The island of regions: the second degenerate map (S-ISLAND, S-PIECES).

The same protocol the table and the grid answer, over a graph: regions joined by
borders, distance the fewest region steps (a breadth-first search), contact and
line of sight "in the same region". What stands on the map are the groups of pieces
of one kind in one region, addressed ``KIND@REGION``: ``explorers@r1``, ``towns@r1``,
``cities@r1`` (side ``invaders``), ``dahan@r1`` (side ``dahan``) and
``SPIRIT@r1`` for a spirit's presence (side: the spirit). Every question that takes
two ids also takes bare region ids (``distance("r1", "r4")``). Pieces do not move on
their own on the island, so the movement questions are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import SkirmishError
from ..rules.spiritisland.island import INVADERS, Island, Land
from .base import SameSpaceSight, register_map, unknown_id
from .results import MovePlan, MoveRange

#: The side of explorers, towns and cities; dahan are their own side.
INVADER_SIDE = "invaders"
DAHAN_SIDE = "dahan"
#: Piece kinds that stand as models (blight is a token, not a side).
GROUPS = (*INVADERS, "dahan")


@dataclass(frozen=True)
class Group:
    """The pieces of one kind (or one spirit's presence) in one region."""

    id: str
    kind: str
    region: str
    side: str
    count: int


@register_map
@dataclass(frozen=True, repr=False)
class Regions(SameSpaceSight):
    """The island as a map. Build one with :func:`skirmish.load` from a
    ``map = "regions"`` file (docs/island-format.md), or around an :class:`Island`.

    >>> import skirmish
    >>> isle = skirmish.load("scenarios/island.toml")
    >>> isle.steps("coast-1", "peak"), isle.path("coast-1", "peak")
    (2.0, ('coast-1', 'wood', 'peak'))
    >>> isle.distance("explorers@coast-1", "dahan@wood"), isle.in_contact("towns@coast-2", "dahan@coast-2")
    (1.0, True)
    """

    kind = "regions"
    sight_space = "region"
    sight_pieces = "groups or regions"
    unit = "steps"

    island: Island
    name: str = ""
    source: str = field(default="", compare=False)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"Regions({label}{len(self.island.lands)} regions, {len(self.model_ids)} groups of pieces)"

    def _where(self) -> str:
        return f"{self.source}: " if self.source else ""

    # -- regions ------------------------------------------------------------------------------------
    @property
    def lands(self) -> tuple[Land, ...]:
        return self.island.lands

    def region(self, region_id: str) -> Land:
        if not self.island.has(region_id):
            raise unknown_id("region", region_id, self.island.ids, self._where())
        return self.island.land(region_id)

    def neighbours(self, region_id: str) -> tuple[str, ...]:
        return self.region(region_id).neighbours

    def steps(self, a: str, b: str) -> float:
        """S-ISLAND: fewest region steps between two regions (``inf`` when no borders join them)."""
        self.region(a), self.region(b)
        return self.island.steps(a, b)

    def path(self, a: str, b: str) -> tuple[str, ...]:
        self.region(a), self.region(b)
        return self.island.path(a, b)

    # -- pieces ------------------------------------------------------------------------------------------
    @cached_property
    def groups(self) -> tuple[Group, ...]:
        """Every group of pieces, region by region (invaders, dahan, then presence)."""
        out = []
        for land in self.island.lands:
            for kind in GROUPS:
                n = getattr(land, kind)
                if n:
                    out.append(Group(f"{kind}@{land.id}", kind, land.id, DAHAN_SIDE if kind == "dahan" else INVADER_SIDE, n))
            for spirit, n in land.presence:
                out.append(Group(f"{spirit}@{land.id}", "presence", land.id, spirit, n))
        return tuple(out)

    @cached_property
    def _group_index(self) -> dict[str, Group]:
        return {g.id: g for g in self.groups}

    @property
    def model_ids(self) -> tuple[str, ...]:
        return tuple(g.id for g in self.groups)

    @property
    def models(self) -> tuple[Group, ...]:
        """The groups (the table's name for what stands on a map)."""
        return self.groups

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(g.side for g in self.groups))

    def group(self, model_id: str) -> Group:
        g = self._group_index.get(model_id)
        if g is None:
            raise unknown_id("group of pieces", model_id, self._group_index, self._where())
        return g

    def side_of(self, model_id: str) -> str:
        return self.group(model_id).side

    def region_of(self, place: str) -> str:
        """The region of a group of pieces, or a region id itself."""
        g = self._group_index.get(place)
        if g is not None:
            return g.region
        if self.island.has(place):
            return place
        raise unknown_id("group of pieces or region", place, [*self._group_index, *self.island.ids], self._where())

    # -- the protocol --------------------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        """Region steps between two groups (or regions); 0 in the same region."""
        return self.island.steps(self.region_of(a), self.region_of(b))

    def distance_matrix(self) -> tuple[tuple[str, ...], np.ndarray]:
        ids = self.model_ids
        order = {r: i for i, r in enumerate(self.island.ids)}
        at = np.array([order[self._group_index[i].region] for i in ids], dtype=int)
        full = np.full((len(order), len(order)), np.inf)
        for r in set(at.tolist()):  # one breadth-first search per region that holds a group
            d = self.island.distances_from(self.island.ids[r])
            full[r, [order[x] for x in d]] = list(d.values())
        return ids, full[np.ix_(at, at)]

    def in_contact(self, a: str, b: str) -> bool:
        """Contact is sharing a region."""
        return self.region_of(a) == self.region_of(b)

    def space_of(self, piece: str) -> str:
        """The island has no sight rule (powers reach by range); as on the grid, pieces in one
        region see each other and others do not (:class:`SameSpaceSight`)."""
        return self.region_of(piece)

    def _unsupported(self, what: str) -> SkirmishError:
        return SkirmishError(f"the island's region map does not answer {what}: pieces on the island do not move on "
                             "their own (explorers arrive by S-EXPLORE; spirits act by powers: skirmish island play; "
                             "steps between regions: skirmish island distance)", kind="map_kind")

    def plan_move(self, model_id: str, to: tuple[float, float] | str) -> MovePlan:
        self.group(model_id)
        raise self._unsupported("a planned move")

    def check_move(self, model_id: str, via: Sequence[tuple[float, float]]) -> MovePlan:
        self.group(model_id)
        raise self._unsupported("a checked move")

    def movement_range(self, model_id: str) -> MoveRange:
        self.group(model_id)
        raise self._unsupported("a movement range")

    # -- for drawing ----------------------------------------------------------------------------------------
    @cached_property
    def positions(self) -> dict[str, tuple[float, float]]:
        """Where each region is drawn: its ``at`` from the file, else a deterministic
        spring layout of the graph in the unit square (y up)."""
        return layout_positions(self.island)

    def layout(self) -> dict[str, Any]:
        """Everything a summary or a drawing needs, as plain data."""
        isl = self.island
        return {"map": "regions", "name": self.name, "unit": self.unit,
                "regions": [{"id": land.id, "terrain": land.terrain, "coastal": land.coastal,
                             "adjacent": list(land.neighbours), **land.to_json(),
                             "at": list(self.positions[land.id])} for land in isl.lands],
                "borders": [list(b) for b in isl.borders()],
                "models": [{"id": g.id, "side": g.side, "kind": g.kind, "region": g.region, "count": g.count}
                           for g in self.groups],
                "island": {"fear": isl.fear, "terror": isl.terror, "blight": isl.blight, "blighted": isl.blighted,
                           "blighted_at": isl.blighted_at, "defeat_at": isl.defeat_at, "round": isl.round,
                           "explore": [list(e) for e in isl.explore], "spirits": list(isl.spirits),
                           "energy": isl.energy, "range": isl.range}}


def layout_positions(isl: Island, iterations: int = 300) -> dict[str, tuple[float, float]]:
    """Region centres in [0, 1]²: the file's ``at`` where every region has one (scaled to
    fit), else a Fruchterman–Reingold layout started from a circle (no randomness)."""
    ids = isl.ids
    n = len(ids)
    if all(land.at is not None for land in isl.lands):
        pts = np.array([land.at for land in isl.lands], dtype=float)
        pts[:, 1] = -pts[:, 1]  # the file's y grows downwards, as a drawing is read
    elif n == 1:
        pts = np.array([[0.5, 0.5]])
    else:
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
        pts = np.column_stack([np.cos(ang), np.sin(ang)])
        idx = {r: i for i, r in enumerate(ids)}
        edges = np.array([(idx[a], idx[b]) for a, b in isl.borders()], dtype=int).reshape(-1, 2)
        k = 1.0 / np.sqrt(n)
        t = 0.1
        for _ in range(iterations):
            delta = pts[:, None, :] - pts[None, :, :]
            dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-6)
            disp = (delta / dist[..., None] * (k * k / dist)[..., None]).sum(axis=1)
            if len(edges):
                d = pts[edges[:, 0]] - pts[edges[:, 1]]
                ln = np.maximum(np.linalg.norm(d, axis=1), 1e-6)
                f = d / ln[:, None] * (ln * ln / k)[:, None]
                np.add.at(disp, edges[:, 0], -f)
                np.add.at(disp, edges[:, 1], f)
            ln = np.maximum(np.linalg.norm(disp, axis=1), 1e-9)
            pts = pts + disp / ln[:, None] * np.minimum(ln, t)[:, None]
            t = max(0.002, t * 0.985)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.where(hi - lo > 1e-9, hi - lo, 1.0)
    scale = 0.8 / span.max()
    centre = (lo + hi) / 2
    pts = (pts - centre) * scale + 0.5
    return {r: (float(x), float(y)) for r, (x, y) in zip(ids, pts)}


__all__ = ["DAHAN_SIDE", "GROUPS", "Group", "INVADER_SIDE", "Regions", "layout_positions"]
