"""Visibility from many probe points at once (E-LOS, E-ARC, E-LOS-MOVE).

A *probe* is a model of a given size placed in turn at each of many plan points.
:func:`probe_visibility` answers, for every probe point and every placed model, in
one call:

* ``seen_by[i, j]``: model ``j`` sees the probe at point ``i`` from its front arc,
  as placed (E-LOS, E-ARC);
* ``sees[i, j]``: the probe at point ``i`` sees model ``j`` with 360° vision
  (E-LOS-MOVE: a model may turn).

Each answer is the one ``Table.line_of_sight`` gives on the table with the probe
model added at that point (see below for the pairs that search leaves undecided), and
carries its evidence (a witness segment, or the blockers of a certificate), built on
demand by :meth:`ProbeVisibility.seen_by_evidence` and :meth:`ProbeVisibility.sees_evidence`.

Where a probe stands: on the highest walkable surface whose footprint contains the
point (a walkable roof, else the table). A point is *standable* when the probe's base
lies wholly on that surface and its hitbox overlaps no scenery solid and no model
(touching is fine); elsewhere both answers are False.

The work is shared: the table's obstacles (one STRtree, one placement of the solids)
are built once, the candidate solids of all pairs come from one query, and the cheap
tests of :mod:`.probe_shortcuts` (sampled witnesses, the cover certificate) settle most
pairs together as array operations; the exact search
(:func:`~skirmish.geometry.los.line_of_sight_batch`) gets the rest in one batch per
direction. The probe itself is never an obstacle for its own sight lines (E-LOS: the
two models themselves do not block), so it needs no placement of its own.

Each answer is ``Table.line_of_sight``'s wherever that search is certified; where it
gives up (stage "undecided") a cheap test may still settle the pair, with its proof.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import shapely

from ..errors import SkirmishError
from ..geometry.los import DEFAULT_TOLERANCE, OUT_OF_ARC, LosAnswer, Obstacles, Viewer, Viewers, line_of_sight_batch
from ..rules.eldfall.sizes import SIZES
from .pieces import Model
from .probe_shortcuts import ACROSS, CENTRE, Pairs, candidates, covered, restrict, sampled_witnesses
from .results import LineOfSight
from .table import CONTACT_TOLERANCE, Table, check_tolerance

#: The id the probe model carries in evidence and in the oracle table.
PROBE_ID = "probe"
#: Heights closer than this count as one level (a solid under the surface, or overhead).
Z_TOL = 1e-3

#: Why a point is not standable (``ProbeVisibility.obstruction``).
Obstruction = Literal["", "off the table", "off the surface", "scenery", "model"]
_REASONS: tuple[Obstruction, ...] = ("", "off the table", "off the surface", "scenery", "model")


@dataclass(frozen=True, eq=False, repr=False)
class ProbeVisibility:
    """Visibility between a probe model at each of ``points`` and the models ``model_ids``.

    Arrays: ``points`` (n, 2); ``z`` (n,) the height of the surface the probe stands on;
    ``standable`` bool (n,); ``seen_by`` and ``sees`` bool (n, m). Where a point is not
    standable, ``seen_by`` and ``sees`` are False and ``obstruction(i)`` says why.
    """

    table: Table
    probe: Model
    points: np.ndarray
    z: np.ndarray
    model_ids: tuple[str, ...]
    standable: np.ndarray
    seen_by: np.ndarray
    sees: np.ndarray
    tolerance: float
    _reason: np.ndarray
    _blocker: tuple[str, ...]
    _seen_by_raw: dict[tuple[int, int], LosAnswer]
    _sees_raw: dict[tuple[int, int], LosAnswer]
    _names: tuple[str, ...]

    def __repr__(self) -> str:
        n, m = self.seen_by.shape
        return (f"ProbeVisibility({n} points, {int(self.standable.sum())} standable, probe size "
                f"{self.probe.size} of side {self.probe.side!r}, {m} models)")

    @property
    def certified(self) -> np.ndarray:
        """bool (n, m): both answers of the cell are proven (False only where the LoS search
        gave up, stage "undecided": counted as not visible, like ``LineOfSight.certified``)."""
        n, m = self.seen_by.shape
        out = np.ones((n, m), bool)
        for store in (self._seen_by_raw, self._sees_raw):
            for (i, j), a in store.items():
                if a.stage == "undecided":
                    out[i, j] = False
        return out

    @property
    def exposure(self) -> np.ndarray:
        """Per point: how many of the models see the probe (0 where not standable)."""
        return self.seen_by.sum(1)

    @property
    def seen_count(self) -> np.ndarray:
        """Per point: how many of the models the probe sees (0 where not standable)."""
        return self.sees.sum(1)

    def obstruction(self, i: int) -> str:
        """Why point ``i`` is not standable ("" when it is): off the table, off the
        surface, or the scenery piece or model its base would overlap."""
        why = _REASONS[int(self._reason[i])]
        return f"{why}: {self._blocker[i]}" if self._blocker[i] else why

    def probe_at(self, i: int) -> Model:
        """The probe model standing at point ``i``."""
        x, y = self.points[i]
        return replace(self.probe, x=float(x), y=float(y), z=float(self.z[i]) if self.standable[i] else 0.0)

    def oracle_table(self, i: int) -> Table:
        """The table with the probe placed at point ``i`` (``Table.line_of_sight`` on it is the
        slow, obvious answer this batch agrees with)."""
        return replace(self.table, models=(*self.table.models, self.probe_at(i)))

    def seen_by_evidence(self, i: int, j: int) -> LineOfSight:
        """The proof of ``seen_by[i, j]``: LoS from model ``j``'s front arc to the probe at point ``i``."""
        raw = self._raw(self._seen_by_raw, i, j)
        return self._line(self.model_ids[j], self.probe.id, raw, "front")

    def sees_evidence(self, i: int, j: int) -> LineOfSight:
        """The proof of ``sees[i, j]``: 360° LoS from the probe at point ``i`` to model ``j``."""
        raw = self._raw(self._sees_raw, i, j)
        return self._line(self.probe.id, self.model_ids[j], raw, "all")

    def _raw(self, store: dict[tuple[int, int], LosAnswer], i: int, j: int) -> LosAnswer:
        n, m = self.seen_by.shape
        if not (-n <= i < n and -m <= j < m):
            raise SkirmishError(f"probe cell ({i}, {j}) is outside {n} points x {m} models")
        i, j = i % n, j % m
        if not self.standable[i]:
            x, y = self.points[i]
            raise SkirmishError(f"probe point {i} at ({x:g}, {y:g}) is not standable ({self.obstruction(i)}): "
                                "it has no line of sight to prove")
        return store[(i, j)]

    def _line(self, frm: str, to: str, r: LosAnswer, arc: Literal["front", "all"]) -> LineOfSight:
        reason: Literal["clear", "out_of_arc", "blocked"] = \
            "clear" if r.visible else ("out_of_arc" if r.out_of_arc else "blocked")
        return LineOfSight(frm, to, r.visible, reason, r.witness, tuple(self._names[o] for o in r.blockers),
                           self.tolerance, arc, r.stage)


def probe_model(table: Table, size: str | Model, side: str | None = None) -> Model:
    """The probe: a fresh model of ``size`` (E-SIZE letter) on ``side``, or a copy of a
    given model (its size, base, height and states) to be moved point to point."""
    if isinstance(size, Model):
        return size if side is None else replace(size, side=side)
    if size not in SIZES:
        raise SkirmishError(f"probe size {size!r}: expected one of {', '.join(SIZES)}")
    if PROBE_ID in table.ids():
        raise SkirmishError(f"{table._where()}a piece is called {PROBE_ID!r}; the probe needs that id: rename it")
    return Model(PROBE_ID, side if side is not None else "", size, 0.0, 0.0)


def probe_visibility(table: Table, points: np.ndarray | Any, size: str | Model, side: str | None = None, *,
                     models: tuple[str, ...] | list[str] | None = None,
                     tolerance: float = DEFAULT_TOLERANCE) -> ProbeVisibility:
    """Place a probe of ``size`` at each of ``points`` ((n, 2) inches) and solve its line of
    sight with the models, in one batch.

    ``size`` is a size letter, or a :class:`Model` to move point to point (it is taken
    off the table first, so its old place neither blocks nor counts). ``side`` is the
    probe's side; when given, the models asked about are those *not* of that side
    (its enemies); ``models`` names them explicitly instead (default: every model).
    """
    pts = np.array(points, float).reshape(-1, 2)
    if not np.isfinite(pts).all():
        raise SkirmishError("probe points must be finite (x, y) pairs in inches")
    check_tolerance(tolerance)
    probe = probe_model(table, size, side)
    if isinstance(size, Model) and size.id in table.model_ids:
        table = replace(table, models=tuple(m for m in table.models if m.id != size.id))
    if models is None:
        ids = tuple(m.id for m in table.models if side is None or m.side != side)
    else:
        ids = tuple(models)
        for mid in ids:
            table.model(mid)
    index = {mid: k for k, mid in enumerate(table.model_ids)}
    cols = np.array([index[mid] for mid in ids], int)
    z, reason, blocker = _standing(table, pts, probe)
    ok = reason == 0
    n, m = len(pts), len(ids)
    seen_by = np.zeros((n, m), bool)
    sees = np.zeros((n, m), bool)
    seen_raw: dict[tuple[int, int], LosAnswer] = {}
    sees_raw: dict[tuple[int, int], LosAnswer] = {}
    obs = table.los_obstacles
    rows = np.flatnonzero(ok)
    if len(rows) and m:
        front, back = _solve(obs, table, probe, pts[rows], z[rows], cols, tolerance)
        ii = np.repeat(rows, m)
        jj = np.tile(np.arange(m), len(rows))
        keys = list(zip(ii.tolist(), jj.tolist()))
        seen_by[ii, jj] = [a.visible for a in front]
        sees[ii, jj] = [a.visible for a in back]
        seen_raw = dict(zip(keys, front))
        sees_raw = dict(zip(keys, back))
    for arr in (pts, z, ok, seen_by, sees):
        arr.setflags(write=False)
    return ProbeVisibility(table, probe, pts, z, ids, ok, seen_by, sees, tolerance, reason, blocker,
                           seen_raw, sees_raw, obs.names)


def _solve(obs: Obstacles, table: Table, probe: Model, pts: np.ndarray, z: np.ndarray, cols: np.ndarray,
           tolerance: float) -> tuple[list[LosAnswer], list[LosAnswer]]:
    """The answers for every (point, model) pair, point-major: model j's front arc to the
    probe, and the probe's 360° view of model j. The cheap tests of
    :mod:`.probe_shortcuts` first, over all pairs; the exact search for the rest."""
    n, m = len(pts), len(cols)
    grown = obs.grown(tolerance)
    r, h = probe.radius, probe.hitbox_height
    others = [table.models[c] for c in cols]
    enemy = np.array([(o.hitbox.x, o.hitbox.y, o.hitbox.radius, o.hitbox.z, o.hitbox.top) for o in others],
                     float).reshape(m, 5)
    facing = np.array([o.facing_vector for o in others], float).reshape(m, 2)
    pk, jk = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)  # pair k = point pk, model jk
    D = np.column_stack([pts, np.full(n, r)])[pk]
    zD = np.column_stack([z, z + h])[pk]
    E, zE = enemy[jk, :3], enemy[jk, 3:]
    none = np.zeros((n * m, 3))
    none[:, 2] = -np.inf
    own = np.column_stack([np.full(n * m, -1), cols[jk]])
    around = Pairs(D, E, none, zD, zE, own)  # the probe's 360° view (E-LOS-MOVE)
    f = facing[jk]
    arc = Pairs(E, D, np.column_stack([f, np.einsum("ij,ij->i", f, E[:, :2])]), zE, zD, own[:, ::-1])  # E-ARC
    front: list[LosAnswer | None] = [None] * (n * m)
    back: list[LosAnswer | None] = [None] * (n * m)
    # E-ARC: the probe must reach into the model's front half-plane
    out = np.einsum("ij,ij->i", arc.H[:, :2], D[:, :2]) + D[:, 2] - arc.H[:, 2] < -1e-12
    for k in np.flatnonzero(out).tolist():
        front[k] = OUT_OF_ARC
    pi, oi = candidates(grown, around)
    names = grown.members or tuple((o,) for o in range(grown.n_owners))

    def settle(store: list[LosAnswer | None], pairs: Pairs, todo: np.ndarray,
               ends: tuple[tuple[float, float], ...]) -> None:
        if not len(todo):
            return
        sp, so = restrict(pi, oi, todo, n * m)
        for k, seg in zip(todo.tolist(), sampled_witnesses(grown, pairs.take(todo), sp, so, ends)):
            if seg is not None:
                store[k] = LosAnswer(True, "witness", witness=seg)

    def cover(store: list[LosAnswer | None], pairs: Pairs, todo: np.ndarray) -> None:
        if not len(todo):
            return
        sp, so = restrict(pi, oi, todo, n * m)
        for k, used in zip(todo.tolist(), covered(grown, pairs.take(todo), sp, so, base=obs)):
            if used is not None:
                store[k] = LosAnswer(False, "separator", blockers=tuple(sorted({b for o in used for b in names[o]})))

    def undecided(store: list[LosAnswer | None]) -> np.ndarray:
        return np.array([k for k, a in enumerate(store) if a is None], int)

    # a sight line from j's front arc, reversed, is one from the probe to j (and a pair the
    # probe's 360° view cannot see, j's front arc cannot either)
    def witnesses(ends: tuple[tuple[float, float], ...]) -> None:
        settle(front, arc, undecided(front), ends)
        for k, a in enumerate(front):
            if a is not None and a.visible and back[k] is None:
                back[k] = _reversed(a)
        settle(back, around, undecided(back), ends)

    witnesses(CENTRE)  # the centre lines first: most open pairs
    cover(back, around, undecided(back))
    for k, a in enumerate(back):
        if front[k] is None and a is not None and not a.visible:
            front[k] = a
    cover(front, arc, undecided(front))
    witnesses(ACROSS)  # more segments for the pairs still open
    # the exact search for what is left
    viewer = np.zeros((len(pts), 6))
    viewer[:, [0, 1]], viewer[:, 3] = pts, z
    viewer[:, [2, 4, 5]] = r, h, -1
    them = Viewers.of([_viewer(o, int(c)) for o, c in zip(others, cols)]).rows
    todo = undecided(front).tolist()
    ask = np.array(todo, int)
    for k, a in zip(todo, line_of_sight_batch(obs, Viewers(them[jk[ask]]), Viewers(viewer[pk[ask]]),
                                              [others[jk[k]].facing_vector for k in todo], tolerance=tolerance)):
        front[k] = a
        if a.visible and back[k] is None:
            back[k] = _reversed(a)
    todo = undecided(back).tolist()
    ask = np.array(todo, int)
    for k, a in zip(todo, line_of_sight_batch(obs, Viewers(viewer[pk[ask]]), Viewers(them[jk[ask]]),
                                              [None] * len(todo), tolerance=tolerance)):
        back[k] = a
    return [a for a in front if a is not None], [a for a in back if a is not None]


def _reversed(a: LosAnswer) -> LosAnswer:
    if a.witness is None:
        return a
    p, q = a.witness
    return LosAnswer(True, "witness", witness=(q, p), bundles=0)


def _viewer(m: Model, owner: int) -> Viewer:
    c = m.hitbox
    return Viewer(c.x, c.y, c.radius, c.z, c.height, owner)


def _standing(table: Table, pts: np.ndarray, probe: Model) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Per point: the height the probe stands at, the obstruction code (0: standable) and
    the piece it would overlap ("" for none)."""
    n = len(pts)
    r, h = probe.radius, probe.hitbox_height
    x, y = pts[:, 0], pts[:, 1]
    z = np.zeros(n)
    surf = np.zeros(n, int)
    surfaces = table.surfaces
    for u in surfaces[1:]:  # by height: the highest walkable top containing the point wins
        on = shapely.contains_xy(u.support, x, y)
        z[on], surf[on] = u.z, u.index
    reason = np.zeros(n, int)
    blocker = [""] * n
    eps = CONTACT_TOLERANCE
    off_table = (x - r < -eps) | (y - r < -eps) | (x + r > table.width + eps) | (y + r > table.depth + eps)
    reason[off_table] = 1
    pp = shapely.points(pts)
    for u in surfaces[1:]:
        at = np.flatnonzero((surf == u.index) & (reason == 0))
        if len(at):
            edge = shapely.distance(u.support.boundary, pp[at])
            reason[at[edge < r - eps]] = 2
    # scenery and models: a solid overlapping the hitbox's heights (by more than the contact
    # tolerance) whose footprint comes closer than touching: the loader's placement rule
    top = z + h
    if table.scenery:
        geoms = [s.solid.footprint for s in table.scenery]
        pi, si = shapely.STRtree(geoms).query(pp, predicate="dwithin", distance=r)
        z0 = np.array([s.solid.z0 for s in table.scenery])[si]
        z1 = np.array([s.solid.z1 for s in table.scenery])[si]
        keep = np.minimum(top[pi], z1) - np.maximum(z[pi], z0) > eps
        pi, si = pi[keep], si[keep]
        circ = np.array([s.solid.circle if s.solid.circle is not None else (np.nan,) * 3 for s in table.scenery]
                        ).reshape(-1, 3)[si]
        gap = shapely.distance(np.array(geoms, object)[si], pp[pi]) - r
        round_ = ~np.isnan(circ[:, 0])
        gap[round_] = np.hypot(x[pi[round_]] - circ[round_, 0], y[pi[round_]] - circ[round_, 1]) - r - circ[round_, 2]
        for i, k in zip(pi[gap < -eps].tolist(), si[gap < -eps].tolist()):
            if reason[i] == 0:
                reason[i], blocker[i] = 3, table.scenery[k].id
    if table.models:
        c = np.array([(o.x, o.y, o.radius, o.z, o.z + o.hitbox_height) for o in table.models])
        plan = np.hypot(x[:, None] - c[None, :, 0], y[:, None] - c[None, :, 1]) < r + c[None, :, 2] - eps
        vert = np.minimum(top[:, None], c[None, :, 4]) - np.maximum(z[:, None], c[None, :, 3]) > eps
        bad = plan & vert
        for i in np.flatnonzero(bad.any(1) & (reason == 0)).tolist():
            reason[i], blocker[i] = 4, table.models[int(np.argmax(bad[i]))].id
    return z, reason, tuple(blocker)
