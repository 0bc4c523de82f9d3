"""Sight between one model, placed in turn at several points, and other models.

The game asks this for the points of a mover's path (who can react, E-REACTION) and
for a policy's candidate destinations. ``skirmish.maps.probes.probe_visibility`` is
the batched primitive for it; until its search is safe on every table (see
docs/game.md), the game solves one batch per point on the table with the model
moved there (``Table.line_of_sight_pairs``), which is exact and always ends.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...maps.pieces import Model
from ...maps.table import Table


@dataclass(frozen=True, eq=False)
class Sight:
    """``seen_by[i, j]``: model ``others[j]`` sees the model at point ``i`` from its front
    arc (E-LOS, E-ARC); ``sees[i, j]``: the model at point ``i`` sees ``others[j]`` all
    round (E-LOS-MOVE; only when asked for). ``tables[i]`` is the table with it there."""

    others: tuple[str, ...]
    seen_by: np.ndarray
    sees: np.ndarray | None
    tables: tuple[Table, ...]


def moved_to(table: Table, model: Model, p: Sequence[float], facing: float | None = None) -> Table:
    """The table with ``model`` standing at ``p`` = (x, y, z) (and facing ``facing``)."""
    m = table.model(model.id)
    if abs(m.x - p[0]) < 1e-12 and abs(m.y - p[1]) < 1e-12 and abs(m.z - p[2]) < 1e-12 and \
            (facing is None or abs(m.facing - facing) < 1e-12):
        return table
    face = m.facing if facing is None else float(facing) % 360.0
    return table.with_model(dataclasses.replace(m, x=float(p[0]), y=float(p[1]), z=float(p[2]), facing=face))


def sight_along(table: Table, model: Model, points: Sequence[Sequence[float]], others: Sequence[str], *,
                both: bool = False) -> Sight:
    """Sight between ``model`` at each of ``points`` ((x, y, z)) and ``others``."""
    ids = tuple(others)
    n, k = len(points), len(ids)
    seen_by = np.zeros((n, k), bool)
    sees = np.zeros((n, k), bool) if both else None
    tables = []
    for i, p in enumerate(points):
        t = moved_to(table, model, p)
        tables.append(t)
        if not k:
            continue
        seen_by[i] = [s.visible for s in t.line_of_sight_pairs([(o, model.id) for o in ids])]
        if sees is not None:
            sees[i] = [s.visible for s in t.line_of_sight_pairs([(model.id, o) for o in ids], arc="all")]
    return Sight(ids, seen_by, sees, tuple(tables))
