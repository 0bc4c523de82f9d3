"""Sight between one model, placed in turn at several points, and other models.

The game asks this for the points of a mover's path (who can react, E-REACTION) and
for a policy's candidate destinations. With ``both`` (a policy's candidates: sight
both ways), every point is solved in one batch by
``skirmish.maps.probes.probe_visibility`` (the table's obstacles built once, the mover
taken off); a point where the probe would not stand as the path has it (mid-climb, in
the air, or at another height than the surface under it) is solved alone on the table
with the model moved there (``Table.line_of_sight_pairs``): the same answer, slower.
Without (the reactions: only the others' front arcs looking at the mover), the sight
lines of every point go in one batch on the table as it stands, ending on the mover's
hitbox at each point, the mover its own target: its solid never blocks a line that
ends on it, wherever it stood, so this is the one-table answer wherever the point is
(and the table's obstacles serve the action after). Only where a floating piece rests
on the mover is the table without it taken instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
import shapely

from ...geometry.distance import distances_to_cylinders_at
from ...geometry.los import LosAnswer, Segment3, Viewers, line_of_sight_batch
from ...maps.pieces import Model, Scenery
from ...maps.probes import Z_TOL, probe_visibility
from ...maps.table import Table, los_blockers
from ...memo import IdentityMemo
from ...values import with_fields


@dataclass(frozen=True, eq=False)
class Sight:
    """``seen_by[i, j]``: model ``others[j]`` sees the model at point ``i`` from its front
    arc (E-LOS, E-ARC); ``sees[i, j]``: the model at point ``i`` sees ``others[j]`` all
    round (E-LOS-MOVE; only when asked for). ``tables[i]`` is the table with it there.
    ``witness[i][j]``: where ``seen_by`` was solved in one batch (without ``both``), the
    witness segment of a True one (E-LOS), valid on ``tables[i]`` too (None elsewhere)."""

    others: tuple[str, ...]
    seen_by: np.ndarray
    sees: np.ndarray | None
    tables: PathTables
    witness: tuple[tuple[Segment3 | None, ...], ...] | None = None


#: Tables already built, with their LoS obstacles cached: the same table asked again (the
#: mover at the same path point, the board without the same mover) is the same object,
#: so its obstacles are built once.
_TABLES: IdentityMemo[Table] = IdentityMemo(128)


def moved_to(table: Table, model: Model, p: Sequence[float], facing: float | None = None) -> Table:
    """The table with ``model`` standing at ``p`` = (x, y, z) (and facing ``facing``)."""
    m = table.model(model.id)
    if abs(m.x - p[0]) < 1e-12 and abs(m.y - p[1]) < 1e-12 and abs(m.z - p[2]) < 1e-12 and \
            (facing is None or abs(m.facing - facing) < 1e-12):
        return table
    face = m.facing if facing is None else float(facing) % 360.0
    x, y, z = float(p[0]), float(p[1]), float(p[2])
    return _TABLES.get(("at", id(table), m.id, x, y, z, face), (table,),
                 lambda: table.with_model(with_fields(m, x=x, y=y, z=z, facing=face)))


class PathTables(Sequence[Table]):
    """The table with ``model`` moved to each of ``points`` (:func:`moved_to`), each made
    when first asked for (most are never asked: only where a reactor sees the mover, or
    judges its Awareness)."""

    def __init__(self, table: Table, model: Model, points: Sequence[Sequence[float]]):
        self._table, self._model, self._points = table, model, tuple(points)
        self._made: dict[int, Table] = {}

    def __len__(self) -> int:
        return len(self._points)

    def distances(self, other: str) -> list[float]:
        """E-DIST from model ``other`` (where it stands) to the model at each point: what
        ``self[i].distance(other, model)`` gives, without making the tables."""
        m = self._table.model(self._model.id)
        return distances_to_cylinders_at(self._table.model(other).hitbox, self._points, m.radius, m.hitbox_height)

    @overload
    def __getitem__(self, i: int) -> Table: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Table, ...]: ...

    def __getitem__(self, i: int | slice) -> Table | tuple[Table, ...]:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(len(self))[i])
        k = range(len(self._points))[i]  # (IndexError past the end, negative indices)
        got = self._made.get(k)
        if got is None:
            got = self._made[k] = moved_to(self._table, self._model, self._points[k])
        return got


def without(table: Table, model_id: str) -> Table:
    """The table without model ``model_id`` (the probe table of :func:`sight_along`); the
    same object for the same other models and scenery, wherever the model stood."""
    rest = tuple(m for m in table.models if m.id != model_id)
    refs = (table.scenery, *rest)
    return _TABLES.get(("without", model_id, *map(id, refs)), refs, lambda: dataclasses.replace(table, models=rest))


def sight_along(table: Table, model: Model, points: Sequence[Sequence[float]], others: Sequence[str], *,
                both: bool = False, also: Sequence[tuple[str, str]] = (), exact: np.ndarray | None = None) -> Sight:
    """Sight between ``model`` at each of ``points`` ((x, y, z)) and ``others``. ``also``:
    model pairs whose front-arc LoS on ``table`` is wanted next (the action's), solved in
    the same batch where the table as it stands is used, and kept on ``table``.
    ``exact`` (n, k) bool, without ``both``: where it is False only whether ``others[j]``
    sees the model at *some* point matters, so such an entry of ``seen_by`` may be left
    False (unsolved, no witness) once another point of column j is seen
    (``line_of_sight_batch``'s ``any_of``); None: every entry is solved."""
    ids = tuple(others)
    n, k = len(points), len(ids)
    tables = PathTables(table, model, points)
    if not (n and k):
        return Sight(ids, np.zeros((n, k), bool), np.zeros((n, k), bool) if both else None, tables)
    if not both:
        m = table.model(model.id)
        held = _holds_up(table, m)
        any_of = None if exact is None else np.where(np.asarray(exact, bool).reshape(n, k), -1, np.arange(k)).ravel()
        got = _seen_by(without(table, model.id) if held else table, m, points, ids, () if held else also, any_of)
        witness = tuple(zip(*[iter([a.witness for a in got])] * k))  # (point-major: k at a time)
        return Sight(ids, np.array([a.visible for a in got], bool).reshape(n, k), None, tables, witness)
    seen_by = np.zeros((n, k), bool)
    sees = np.zeros((n, k), bool)
    pts = np.array([(p[0], p[1]) for p in points], float)
    pv = probe_visibility(without(table, model.id), pts, table.model(model.id), models=ids)
    z = np.array([p[2] for p in points], float)
    batched = pv.standable & (np.abs(pv.z - z) <= Z_TOL)
    seen_by[batched] = pv.seen_by[batched]
    sees[batched] = pv.sees[batched]
    for i in np.flatnonzero(~batched).tolist():  # the exact one-table answer for the rest
        t = tables[i]
        seen_by[i] = [s.visible for s in t.line_of_sight_pairs([(o, model.id) for o in ids])]
        sees[i] = [s.visible for s in t.line_of_sight_pairs([(model.id, o) for o in ids], arc="all")]
    return Sight(ids, seen_by, sees, tables)


def _holds_up(table: Table, model: Model) -> bool:
    """Whether a floating LoS-blocking piece may rest on ``model`` (its footprint meets the
    model's base): the piece may then block from the table up only while the model
    stands there (E-LOS heights, ``build_obstacles``)."""
    x, y, r = model.x, model.y, model.radius
    for s, (x0, y0, x1, y1) in _floating(table.scenery):
        # (a footprint within r lies in its box grown by r)
        if x0 - r <= x <= x1 + r and y0 - r <= y <= y1 + r and \
                shapely.dwithin(s.solid.footprint, shapely.Point(x, y), r):
            return True
    return False


#: Per scenery (identity): its floating LoS-blocking pieces, each with its footprint's bounds.
_FLOATING: IdentityMemo[list[tuple[Scenery, list[float]]]] = IdentityMemo(64)


def _floating(scenery: tuple[Scenery, ...]) -> list[tuple[Scenery, list[float]]]:
    """The LoS-blocking pieces of ``scenery`` that float (a base above the table), in
    order, each with its footprint's bounds (x0, y0, x1, y1); found once per scenery."""
    def make() -> list[tuple[Scenery, list[float]]]:
        pieces, box = los_blockers(scenery)
        return [(s, b) for s, b in zip(pieces, box.tolist()) if s.solid.z0 > 1e-6]
    return _FLOATING.get((id(scenery),), (scenery,), make)


def _seen_by(rest: Table, model: Model, points: Sequence[Sequence[float]], ids: tuple[str, ...],
             also: Sequence[tuple[str, str]] = (), any_of: np.ndarray | None = None) -> list[LosAnswer]:
    """The answers behind ``seen_by`` (point-major): each of ``ids`` looks from its front
    arc at ``model``'s hitbox standing at each point, on ``rest`` (the table with the
    model where it stands, or without it), in one batch. The model's solid never blocks a
    sight line that ends on it, wherever it stood, so this is the answer on the table
    with the model moved there, wherever the point is (the table as it is needs no new
    obstacles: unless a floating piece rests on the model, :func:`_holds_up`, it blocks as
    on the table without it); nor need they be this table's own: those of a board that
    differs only in where the model stands serve (:meth:`Table.los_obstacles_ending_on`).
    The pairs ``also`` join the batch (:meth:`Table.line_of_sight_with`); ``any_of``: the
    rows' groups (``line_of_sight_batch``)."""
    idx = {mid: k for k, mid in enumerate(rest.model_ids)}
    n, k = len(points), len(ids)
    r, h, own = model.radius, model.hitbox_height, idx.get(model.id, -1)
    targets = np.array([(p[0], p[1], r, p[2], h, own) for p in points], float).reshape(n, 6)  # (Viewer rows)
    others = [rest.models[idx[o]] for o in ids]
    views = np.array([(o.x, o.y, o.radius, o.z, o.hitbox_height, idx[o.id]) for o in others], float).reshape(k, 6)
    src = Viewers(np.concatenate([views] * n))  # point-major: every other at point 0, then 1, ...
    dst = Viewers(np.repeat(targets, k, axis=0))
    facing = [o.facing_vector for o in others] * n
    return rest.line_of_sight_with(also, src, dst, facing, any_of, model.id) if also else \
        line_of_sight_batch(rest.los_obstacles_ending_on(model.id), src, dst, facing, any_of=any_of)
