"""Random end points of a move, drawn without building the movement range polygon.

A point is drawn uniformly from the disc of the Movement budget round the model (no
end further away can be reached: a path is never shorter than the straight line),
kept when the model's base may end there on some surface, perhaps within the budget
(a lower bound of the cost from
:meth:`~skirmish.maps.table.Table.end_bounds`, one batch per draw), and accepted when
the game's own check of the whole move passes (``accept``). Rejecting and redrawing
keeps the kept points uniform by plan area over the legal ends; where a base may end on
two surfaces at one plan point (under and on a bridge) they are tried in a random
order and the first accepted is kept: one of the legal ones, drawn evenly.

With ``straight`` the lower bound is the straight-line distance, so no movement net is
built to draw: where the way is open, the check (``accept``) needs none either.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from ...maps.table import Table

T = TypeVar("T")

#: Points drawn per batch (one movement-net query per batch).
BATCH = 8


def sample_ends(table: Table, model_id: str, rng: random.Random, n: int, budget: float,
                accept: Callable[[tuple[float, float, float]], T | None], *, tries: int | None = None,
                straight: bool = False) -> list[T]:
    """Up to ``n`` accepted moves to end points drawn uniformly (by plan area) from where
    ``model_id`` can end within ``budget`` inches; ``accept(end)`` returns the move or
    None (refused). At most ``tries`` points are drawn (30 per wanted point).
    ``straight``: filter by the straight-line bound (no movement net is built to draw)."""
    if n <= 0 or budget <= 0:
        return []
    m = table.model(model_id)
    x0, x1 = max(0.0, m.x - budget), min(float(table.width), m.x + budget)
    y0, y1 = max(0.0, m.y - budget), min(float(table.depth), m.y + budget)
    if x1 <= x0 or y1 <= y0:
        return []
    left = 30 * n if tries is None else tries
    out: list[T] = []
    draw, wide, deep = rng.random, x1 - x0, y1 - y0  # (rng.uniform(x0, x1), rng.uniform(y0, y1): the same draws)
    mx, my, hypot = m.x, m.y, math.hypot
    while len(out) < n and left > 0:
        pts: list[tuple[float, float]] = []
        while len(pts) < BATCH and left > 0:
            left -= 1
            x = x0 + wide * draw()
            y = y0 + deep * draw()
            if hypot(x - mx, y - my) <= budget:
                pts.append((round(x, 4), round(y, 4)))
        if not pts:
            continue
        for (x, y), ends in zip(pts, table.end_bounds(model_id, np.array(pts), within=budget, straight=straight)):
            ok = [z for z, cost in ends if cost <= budget + 1e-9]
            if len(ok) > 1:
                rng.shuffle(ok)
            for z in ok:  # (the first surface accepted)
                got = accept((x, y, z))
                if got is not None:
                    out.append(got)
                    break
            if len(out) == n:
                break
    return out
