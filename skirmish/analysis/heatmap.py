"""Exposure heatmaps: where a model of one side can stand unseen (E-LOS, E-ARC, E-LOS-MOVE).

Cells are the centres of a ``step`` grid over the table, from the corner (0, 0). At
each cell a probe model of side S and the given size stands (on the table, or on a
walkable roof where the cell lies on one: :mod:`skirmish.maps.probes`). A cell is
``None`` where it cannot stand: inside scenery, overlapping a model, off the table or
hanging off a roof's edge. Otherwise:

* **exposure** = how many models *not* of side S see the probe, from their front arcs
  as placed (:func:`counted`: not Dead or Incapacitated, who cannot shoot);
* **sees** = how many of those models the probe sees, with 360° vision.

Rows are solved in fixed chunks of :data:`ROWS_PER_JOB` through
:func:`skirmish.scale.run_jobs`, so a heatmap is identical on one core, local
processes or a Dask cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import SkirmishError
from ..geometry.los import DEFAULT_TOLERANCE
from ..maps.probes import probe_visibility
from ..maps.table import Table
from ..rules.eldfall.sizes import SIZES
from ..scale import Backend, run_jobs
from ..values import is_number

#: Rows of cells per job: fixed, so the split never depends on the workers.
ROWS_PER_JOB = 4
#: No more cells than this (a 0.1" step on a 6' x 4' table).
MAX_CELLS = 500_000

Cells = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class Heatmap:
    """Per cell (rows by y, then x): exposure and sees counts, ``None`` where a probe
    cannot stand. ``enemies`` are the models counted (those not of ``side``)."""

    side: str
    size: str
    step: float
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    exposure: Cells
    sees: Cells
    enemies: tuple[str, ...]
    #: cell centres where some line of sight was left undecided (counted as not visible)
    undecided: tuple[tuple[float, float], ...] = ()

    def __repr__(self) -> str:
        return (f"Heatmap(side={self.side!r}, size={self.size!r}, step={self.step:g}, "
                f"{len(self.xs)}x{len(self.ys)} cells, {self.standable} standable, {len(self.enemies)} enemies)")

    @property
    def standable(self) -> int:
        return sum(v is not None for row in self.exposure for v in row)

    def array(self, which: str = "exposure") -> np.ndarray:
        """``exposure`` or ``sees`` as a float (ny, nx) array with NaN where no probe stands."""
        cells = {"exposure": self.exposure, "sees": self.sees}.get(which)
        if cells is None:
            raise SkirmishError(f"a heatmap holds 'exposure' and 'sees', not {which!r}")
        return np.array([[math.nan if v is None else v for v in row] for row in cells], float).reshape(
            len(self.ys), len(self.xs))

    def to_json(self) -> dict[str, Any]:
        """``{"step", "xs", "ys", "exposure": [[…] per y], "sees": [[…] per y]}`` plus the side,
        the size and the enemy ids (schema: docs/analysis.md)."""
        return {"step": self.step, "xs": list(self.xs), "ys": list(self.ys),
                "exposure": [list(r) for r in self.exposure], "sees": [list(r) for r in self.sees],
                "side": self.side, "size": self.size, "enemies": list(self.enemies),
                "undecided": [list(p) for p in self.undecided]}


def cell_centres(table: Table, step: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The centres of a ``step`` grid covering the table from (0, 0)."""
    if not is_number(step) or not (step > 0 and math.isfinite(step)):
        raise SkirmishError(f"--step must be a positive length in inches, got {step!r}", kind="range")
    nx, ny = (max(1, math.ceil(v / step - 1e-9)) for v in (table.width, table.depth))
    if nx * ny > MAX_CELLS:
        raise SkirmishError(f"--step {step:g} gives {nx} x {ny} = {nx * ny} cells on a {table.width:g} x "
                            f"{table.depth:g} in table (at most {MAX_CELLS}); use a larger step", kind="range")
    return tuple((k + 0.5) * step for k in range(nx)), tuple((k + 0.5) * step for k in range(ny))


@dataclass(frozen=True)
class RowsJob:
    """A chunk of rows: everything a worker needs (the table pickles without its caches)."""

    table: Table
    side: str
    size: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    tolerance: float
    enemies: tuple[str, ...] = ()


#: States in which a model cannot attack or react (E-AP: no AP), so it shoots no one.
OUT_OF_ACTION = frozenset({"Dead", "Incapacitated"})


def counted(table: Table, side: str) -> tuple[str, ...]:
    """The models a heatmap counts for a probe of ``side``: those on the table not of
    ``side`` that could shoot (not Dead or Incapacitated)."""
    return tuple(m.id for m in table.models if m.side != side and not m.states & OUT_OF_ACTION)


def solve_rows(job: RowsJob) -> tuple[Cells, Cells, tuple[tuple[float, float], ...]]:
    """Exposure and sees counts for the rows of ``job`` (the work function of a run)."""
    X, Y = np.meshgrid(job.xs, job.ys)
    pv = probe_visibility(job.table, np.column_stack([X.ravel(), Y.ravel()]), job.size, job.side,
                          models=job.enemies, tolerance=job.tolerance)
    nx = len(job.xs)
    exp, sees = pv.exposure.tolist(), pv.seen_count.tolist()
    ok = pv.standable.tolist()
    rows_e = tuple(tuple(exp[k] if ok[k] else None for k in range(r * nx, (r + 1) * nx)) for r in range(len(job.ys)))
    rows_s = tuple(tuple(sees[k] if ok[k] else None for k in range(r * nx, (r + 1) * nx)) for r in range(len(job.ys)))
    doubt = np.flatnonzero(~pv.certified.all(1))
    return rows_e, rows_s, tuple((float(pv.points[k, 0]), float(pv.points[k, 1])) for k in doubt)


def heatmap(table: Table, side: str, size: str, step: float = 1.0, *, tolerance: float = DEFAULT_TOLERANCE,
            workers: int = 1, backend: Backend = "local", scheduler: str | None = None,
            progress: Callable[[int], None] | None = None) -> Heatmap:
    """The exposure heatmap of ``table`` for a model of ``side`` and ``size`` (see the module).

    ``progress(k)`` is called with the number of rows done."""
    sides = table.all_sides()  # (a side all in the reserve, E-DEPLOY, asks where to deploy it)
    if side not in sides:
        raise SkirmishError(f"{table._where()}no side {side!r} on this table; its sides: {', '.join(sides)}")
    if size not in SIZES:
        raise SkirmishError(f"--size {size!r}: expected one of {', '.join(SIZES)}")
    xs, ys = cell_centres(table, step)
    enemies = counted(table, side)
    jobs = [RowsJob(table, side, size, xs, ys[k:k + ROWS_PER_JOB], tolerance, enemies)
            for k in range(0, len(ys), ROWS_PER_JOB)]

    def rows_done(k: int) -> None:
        if progress:
            progress(min(len(ys), k * ROWS_PER_JOB))

    parts = run_jobs(solve_rows, jobs, workers=workers, backend=backend, scheduler=scheduler, progress=rows_done)
    exposure = tuple(r for e, _, _ in parts for r in e)
    sees = tuple(r for _, s, _ in parts for r in s)
    undecided = tuple(p for _, _, u in parts for p in u)
    return Heatmap(side, size, step, xs, ys, exposure, sees, enemies, undecided)
