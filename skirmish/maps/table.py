"""The continuous table of Eldfall Chronicles, built on ``geometry/``."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import numpy as np
import shapely

from ..errors import SkirmishError, UnknownIdError
from ..memo import IdentityMemo
from ..values import is_number, with_fields
from ..geometry.distance import (
    cylinder_distance,
    cylinder_distance_matrix,
    cylinder_prism_distance,
    nearest_points,
)
from ..geometry.los import (
    DEFAULT_TOLERANCE,
    MAX_TOLERANCE,
    LosAnswer,
    Obstacles,
    Viewer,
    Viewers,
    build_obstacles,
    built_but_for,
    line_of_sight_batch,
    surface_samples,
)
from ..geometry.paths import point_capsule_distance
from ..geometry.solids import Cylinder
from ..rules.eldfall.modes import Mode, apply_mode, parse_mode, premeasure_limit
from ..rules.eldfall.sizes import BASE_THICKNESS, size_rank
from ..rules.eldfall.weapons import Weapon
from .base import Map, register_map, unknown_id
from .catalogue import Catalogue
from .pieces import Model, Scenery
from .results import Arc, Cover, LineOfSight, LosArc, Measurement, PointMeasurement, Reach
from .table_movement import TableMovement
from .table_templates import TableTemplates

#: Pairs solved together by one call of the LoS search.
LOS_BATCH = 1024
#: Two solids closer than this (inches, = 0.0254 mm) are in base contact (E-CONTACT).
CONTACT_TOLERANCE = 1e-3


def within_awareness(a: Model, d: float) -> bool | None:
    """E-AWARE: whether a model at E-DIST ``d`` from ``a`` is within ``a``'s Awareness
    (None without AGI); :meth:`Table.in_awareness` once the distance is known."""
    aw = a.awareness
    return None if aw is None else d <= aw + CONTACT_TOLERANCE


def reach_band(a: Model, w: Weapon, d: float) -> int | None:
    """The band (0-based) of ``a``'s weapon ``w`` at E-DIST ``d``, or None out of reach
    (E-REACH): what :func:`reach_at` tells, without the value."""
    return w.band_for(d, CONTACT_TOLERANCE, a.awareness if w.aura else None)  # E-AURA: the user's Awareness


def reach_at(a: Model, b: str, w: Weapon, d: float) -> Reach:
    """E-REACH of ``a``'s weapon ``w`` at model ``b``, E-DIST ``d`` away; :meth:`Table.reach`
    once the distance is known."""
    aura = a.awareness if w.aura else None
    band = reach_band(a, w, d)
    return Reach(a.id, b, w.name, d, band is not None, None if band is None else band + 1,
                 None if band is None else w.bands[band].accuracy, (aura or 0.0) if w.aura else w.reach)


#: Cover answers by everything they depend on (see :meth:`Table.cover`); bounded.
_COVERS: IdentityMemo[Cover] = IdentityMemo(1024)
#: Per scenery (identity): its LoS-blocking pieces and their footprints' bounds.
_BLOCKERS: IdentityMemo[tuple[list[Scenery], np.ndarray]] = IdentityMemo(64)
#: Per scenery (identity): its LoS-blocking pieces' named solids (every board's).
_BLOCKING_SOLIDS: IdentityMemo[list[tuple[str, Any]]] = IdentityMemo(64)


def los_blockers(scenery: tuple[Scenery, ...]) -> tuple[list[Scenery], np.ndarray]:
    """The LoS-blocking pieces of ``scenery``, in order, and their footprints' bounds
    (n, 4): x0, y0, x1, y1 (found once per scenery)."""
    def make() -> tuple[list[Scenery], np.ndarray]:
        pieces = [s for s in scenery if s.blocks_los]
        return pieces, shapely.bounds(np.array([s.solid.footprint for s in pieces], dtype=object)).reshape(-1, 4)
    return _BLOCKERS.get((id(scenery),), (scenery,), make)


@register_map
@dataclass(frozen=True, repr=False)
class Table(TableMovement, TableTemplates, Map):
    """A ``width`` × ``depth`` table (inches) with models and scenery: the continuous map.

    Build one with :func:`skirmish.load` or directly from :class:`Model` and
    :class:`Scenery` values; the value is immutable (``with_model`` gives a new one).
    """

    kind = "table"
    unit = "in"

    width: float
    depth: float
    models: tuple[Model, ...] = ()
    scenery: tuple[Scenery, ...] = ()
    mode: Mode = Mode.ASSISTED
    name: str = ""
    source: str = field(default="", compare=False)
    #: weapon keys, profiles and script as the file held them (for a lossless save)
    catalogue: Catalogue = field(default=Catalogue(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "scenery", tuple(self.scenery))
        object.__setattr__(self, "mode", parse_mode(self.mode))
        for name in ("width", "depth"):
            v = getattr(self, name)
            if not is_number(v) or not 0 < float(v) < math.inf:
                raise SkirmishError(f"{self._where()}table {name} must be a length above 0 (inches), got {v!r}",
                                    kind="range")
        seen: set[str] = set()
        for pid in (*(m.id for m in self.models), *(s.id for s in self.scenery)):
            if pid in seen:  # (every answer names pieces by id)
                raise SkirmishError(f"{self._where()}duplicate id {pid!r}: every model and scenery piece needs its own")
            seen.add(pid)

    def __getstate__(self) -> dict[str, Any]:
        # pickle the fields only: cached indexes (STRtree, arrays) are rebuilt on demand
        return {f: self.__dict__[f] for f in ("width", "depth", "models", "scenery", "mode", "name", "source",
                                               "catalogue")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return (f"Table({label}{self.width:g}x{self.depth:g} in, {len(self.models)} models, "
                f"{len(self.scenery)} scenery, mode={self.mode.value})")

    # -- lookup ---------------------------------------------------------------
    @cached_property
    def _model_index(self) -> dict[str, int]:
        return {m.id: i for i, m in enumerate(self.models)}

    @cached_property
    def _scenery_index(self) -> dict[str, int]:
        return {s.id: i for i, s in enumerate(self.scenery)}

    @property
    def model_ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.models)

    def model(self, model_id: str) -> Model:
        """The model with this id (:class:`UnknownIdError` names close matches)."""
        try:
            return self.models[self._model_index[model_id]]
        except KeyError:
            if any(m.id == model_id for m in self.catalogue.reserve):  # E-DEPLOY
                raise UnknownIdError(f"{self._where()}{model_id!r} is in the reserve (no `at` in the file): it is "
                                     "placed when `skirmish play` deploys it; give it `at = [x, y]` to ask about "
                                     "it here") from None
            raise unknown_id("model", model_id, [*self._model_index, *(m.id for m in self.catalogue.reserve)],
                             self._where()) from None

    def scenery_piece(self, scenery_id: str) -> Scenery:
        try:
            return self.scenery[self._scenery_index[scenery_id]]
        except KeyError:
            raise unknown_id("scenery piece", scenery_id, self._scenery_index, self._where()) from None

    def piece(self, piece_id: str) -> Model | Scenery:
        if piece_id in self._model_index:
            return self.models[self._model_index[piece_id]]
        if piece_id in self._scenery_index:
            return self.scenery[self._scenery_index[piece_id]]
        raise unknown_id("model or scenery piece", piece_id, [*self._model_index, *self._scenery_index],
                         self._where())

    def side_of(self, model_id: str) -> str:
        return self.model(model_id).side

    def _where(self) -> str:
        return f"{self.source}: " if self.source else ""

    def with_model(self, model: Model) -> Table:
        """A copy of the table with ``model`` replacing the model of the same id."""
        i = self._model_index.get(model.id)
        if i is None:
            raise unknown_id("model", model.id, self._model_index, self._where())
        models = list(self.models)
        models[i] = model
        out = with_fields(self, models=tuple(models))  # (the other fields as they are, already checked)
        for kept in ("_model_index", "_scenery_index"):  # (the same ids in the same order)
            if kept in self.__dict__:
                out.__dict__[kept] = self.__dict__[kept]
        return out

    # -- E-DIST, E-CONTACT ----------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        """E-DIST: 3D distance between the nearest points of two hitboxes (or a hitbox and scenery)."""
        got = self._distances.get((a, b))
        if got is None:
            got = self._distances[(a, b)] = self._distance(a, b)
        return got

    @cached_property
    def _distances(self) -> dict[tuple[str, str], float]:
        return {}  # (the table is immutable: each distance is measured once)

    def _distance(self, a: str, b: str) -> float:
        pa, pb = self.piece(a), self.piece(b)
        if isinstance(pa, Scenery) and isinstance(pb, Scenery):
            raise SkirmishError(f"distance: {a!r} and {b!r} are both scenery; measure from a model")
        if isinstance(pa, Scenery):
            pa, pb = pb, pa
        assert isinstance(pa, Model)
        if isinstance(pb, Model):
            return cylinder_distance(pa.hitbox, pb.hitbox)
        return cylinder_prism_distance(pa.hitbox, pb.solid)

    def distance_matrix(self) -> tuple[tuple[str, ...], np.ndarray]:
        """E-DIST between every pair of models, vectorised: ``(ids, n × n matrix)``."""
        boxes = [m.hitbox for m in self.models]
        cols = np.array([(c.x, c.y, c.z, c.radius, c.height) for c in boxes], dtype=float).reshape(-1, 5)
        return self.model_ids, cylinder_distance_matrix(*cols.T)

    def in_contact(self, a: str, b: str) -> bool:
        """E-CONTACT: touching within :data:`CONTACT_TOLERANCE`; a model touches itself."""
        if a == b:
            self.piece(a)
            return True
        return self.distance(a, b) <= CONTACT_TOLERANCE

    def contacts(self, a: str) -> tuple[str, ...]:
        """Every model and scenery piece in base contact with model ``a``."""
        m = self.model(a)
        out = [o.id for o in self.models if o.id != a and cylinder_distance(m.hitbox, o.hitbox) <= CONTACT_TOLERANCE]
        out += [s.id for s in self.scenery if cylinder_prism_distance(m.hitbox, s.solid) <= CONTACT_TOLERANCE]
        return tuple(out)

    # -- E-ARC, E-AWARE, E-REACH ----------------------------------------------
    def arc_of_point(self, a: str, x: float, y: float) -> Arc:
        """E-ARC: the arc of ``a`` that the plan point (x, y) is in (the dividing line is front)."""
        m = self.model(a)
        fx, fy = m.facing_vector
        return "front" if (x - m.x) * fx + (y - m.y) * fy >= -1e-12 else "back"

    def arc(self, a: str, b: str) -> Arc:
        """E-ARC: ``"front"`` when any part of ``b``'s base is in ``a``'s closed front half-plane."""
        ma, mb = self.model(a), self.model(b)
        fx, fy = ma.facing_vector
        ahead = (mb.x - ma.x) * fx + (mb.y - ma.y) * fy + mb.radius
        return "front" if ahead >= -1e-12 else "back"

    def in_awareness(self, a: str, b: str) -> bool | None:
        """E-AWARE: ``b`` is within ``a``'s Awareness when E-DIST ≤ AGI (None without AGI)."""
        return within_awareness(self.model(a), self.distance(a, b))

    def weapons_of(self, a: str) -> tuple[Weapon, ...]:
        return self.model(a).weapons

    def reach(self, a: str, b: str, weapon: str | Weapon) -> Reach:
        """E-REACH: does ``a``'s weapon reach ``b``, and which band (Accuracy modifier) applies.

        RCH 0 means base contact only; the band is chosen by the E-DIST distance and
        numbered from 1 (the shortest), as everywhere in skirmish.
        """
        ma = self.model(a)
        if isinstance(weapon, str):
            w = ma.weapon(weapon)
            if w is None:
                names = [x.name for x in ma.weapons]
                raise SkirmishError(f"{self._where()}model {a!r} has no weapon {weapon!r}"
                                    f"{'; it has: ' + ', '.join(names) if names else ' (it carries no weapons)'}")
        else:
            w = weapon
        return reach_at(ma, b, w, self.distance(a, b))

    # -- E-LOS -----------------------------------------------------------------
    @cached_property
    def los_obstacles(self) -> Obstacles:
        """Every model's hitbox and every LoS-blocking scenery solid, as arrays.
        Owner ``i < len(models)`` is model ``i``."""
        return build_obstacles(self._los_solids)

    @cached_property
    def _los_solids(self) -> list[tuple[str, Any]]:
        """The named solids of :attr:`los_obstacles`, in owner order."""
        scenery = _BLOCKING_SOLIDS.get((id(self.scenery),), (self.scenery,),
                                       lambda: [(s.id, s.solid) for s in self.scenery if s.blocks_los])
        return [(m.id, m.hitbox) for m in self.models] + scenery

    def los_obstacles_ending_on(self, model_id: str) -> Obstacles:
        """Obstacles that answer every sight line with an end on model ``model_id`` as
        :attr:`los_obstacles` does (its solid never blocks such a line): where those are
        not built yet, a board's built lately that differs from this one only in where
        that model stands (``los.built_but_for``); else this board's own."""
        i = self._model_index.get(model_id)
        if i is not None and "los_obstacles" not in self.__dict__:
            got = built_but_for(self._los_solids, i)
            if got is not None:
                return got
        return self.los_obstacles

    def _viewer(self, model_id: str) -> Viewer:
        got = self._viewers.get(model_id)
        if got is None:
            i = self._model_index.get(model_id)
            if i is None:
                self.model(model_id)  # (raises: unknown, or in the reserve)
            assert i is not None
            c = self.models[i].hitbox
            got = self._viewers[model_id] = Viewer(c.x, c.y, c.radius, c.z, c.height, i)
        return got

    @cached_property
    def _viewers(self) -> dict[str, Viewer]:
        return {}

    def line_of_sight(self, a: str, b: str, *, arc: LosArc = "front", tolerance: float = DEFAULT_TOLERANCE,
                      fraction: bool = False) -> LineOfSight:
        """E-LOS: can ``a`` see ``b``? From ``a``'s front half (E-ARC), or from its whole
        hitbox with ``arc="all"`` (E-LOS-MOVE). The answer carries its proof; with
        ``fraction=True`` also the visible share of ``b``'s surface."""
        r = self.line_of_sight_pairs([(a, b)], arc=arc, tolerance=tolerance)[0]
        if fraction:
            r = replace(r, visible_fraction=self.visible_fraction(a, b, arc=arc, tolerance=tolerance))
        return r

    def visible_fraction(self, a: str, b: str, *, arc: LosArc = "front", samples: int = 16,
                         tolerance: float = DEFAULT_TOLERANCE) -> float:
        """The share of ``b``'s hitbox surface (side and top, by area) that ``a`` can see.

        ``b``'s surface is sampled on a stratified grid: ``samples`` angles × ``samples // 2``
        heights on the side, rings on the top, each sample weighted by the area it stands
        for. A sample counts when a sight line reaches it keeping the clearance ε
        (``tolerance``) from every other solid, ``b``'s own far side included: each point is
        taken ε outside ``b``'s surface and gets an exact LoS query from ``a``. A point on a
        cap flush with a blocker's top is not seen. The basis for cover (E-COVER)."""
        _check_sight_args(arc, tolerance)
        if isinstance(samples, bool) or not isinstance(samples, numbers.Integral) or not 2 <= samples <= MAX_SAMPLES:
            raise SkirmishError(f"samples must be a whole number 2..{MAX_SAMPLES}, got {samples!r}", kind="range")
        seen, weights = self._visible_samples(a, b, arc=arc, samples=samples, tolerance=tolerance)
        return float(seen @ weights / weights.sum())

    def _visible_samples(self, a: str, b: str, *, arc: LosArc = "front", samples: int = 16,
                         tolerance: float = DEFAULT_TOLERANCE, only: np.ndarray | None = None,
                         prune: bool = True, any_visible: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`visible_fraction`'s samples: which ones ``a`` sees (only those in the mask
        ``only`` are solved, the rest are False) and their area weights. ``any_visible``:
        as :meth:`_solve_samples`."""
        answers, weights, _ = self._sample_answers(a, b, arc=arc, samples=samples, tolerance=tolerance, only=only,
                                                   prune=prune, any_visible=any_visible)
        return np.array([r is not None and r.visible for r in answers], float), weights

    def _sample_answers(self, a: str, b: str, *, arc: LosArc = "front", samples: int = 16,
                        tolerance: float = DEFAULT_TOLERANCE, only: np.ndarray | None = None,
                        prune: bool = True, any_visible: bool = False
                        ) -> tuple[list[LosAnswer | None], np.ndarray, np.ndarray]:
        """The LoS answer from ``a`` to each of ``b``'s surface samples (None where not
        solved: outside the mask ``only``, or pruned), the samples' area weights and the
        samples (x, y, z). ``any_visible``: as :meth:`_solve_samples`.

        ``prune``: a sample on ``b``'s far side is hidden by ``b`` itself, and is not
        solved: every point of ``a``'s hitbox lies strictly behind the plane tangent to
        ``b`` (grown by ε) there, so every sight line to it enters ``b``."""
        pts, weights, want = self._wanted_samples(a, b, samples, tolerance, only, prune)
        return self._solve_samples(a, pts, want, arc, tolerance, any_visible=any_visible), weights, pts

    def _solve_samples(self, a: str, pts: np.ndarray, want: np.ndarray, arc: LosArc = "front",
                       tolerance: float = DEFAULT_TOLERANCE, leave_out: int = -1, *, any_visible: bool = False
                       ) -> list[LosAnswer | None]:
        """The LoS answer from ``a`` to each point of ``pts`` in the mask ``want`` (None
        elsewhere), in one batch. ``leave_out``: an owner of the LoS obstacles that blocks
        none of these sight lines (the search leaves it out as it does a line's own ends).
        ``any_visible``: only whether some point is seen is asked (one ``any_of`` group of
        ``line_of_sight_batch``): once the first round sees one, the points it leaves open
        are not solved further (answered :data:`MOOT`, not visible); a point seen is
        always answered so, and where none is, every answer is the point's own."""
        ask = np.flatnonzero(want)
        rows = np.zeros((len(ask), 6))
        rows[:, [0, 1, 3]] = pts[ask]
        rows[:, 5] = leave_out  # (points: no radius, no height, no owner of their own)
        facing = self.model(a).facing_vector if arc == "front" else None
        # (every sight line has an end on `a`: a board that differs only in where it stands serves)
        raw = line_of_sight_batch(self.los_obstacles_ending_on(a), Viewers.repeat(self._viewer(a), len(ask)),
                                  Viewers(rows), [facing] * len(ask), tolerance=tolerance,
                                  any_of=np.zeros(len(ask), np.int64) if any_visible else None)
        answers: list[LosAnswer | None] = [None] * len(pts)
        for i, r in zip(ask.tolist(), raw):
            answers[i] = r
        return answers

    def _wanted_samples(self, a: str, b: str, samples: int = 16, tolerance: float = DEFAULT_TOLERANCE,
                        only: np.ndarray | None = None, prune: bool = True
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_sample_answers`' samples of ``b`` (x, y, z), their area weights and which
        of them are solved (in the mask ``only`` and, with ``prune``, not on ``b``'s far side)."""
        ma, mb = self.model(a), self.model(b)
        if a == b:
            raise SkirmishError(f"visible fraction of {a!r} from itself: pick two different models", kind="same_model")
        hb, ha = mb.hitbox, ma.hitbox
        pts, weights = surface_samples(hb, samples, offset=tolerance)
        want = np.ones(len(pts), bool) if only is None else np.asarray(only, bool).copy()
        if prune:
            top = pts[:, 2] > hb.top
            n = (pts[:, :2] - (hb.x, hb.y)) / (hb.radius + tolerance)
            behind = (ha.x - hb.x) * n[:, 0] + (ha.y - hb.y) * n[:, 1] + ha.radius < hb.radius + tolerance - 1e-9
            want &= ~np.where(top, ha.top < hb.top + tolerance - 1e-9, behind)
        return pts, weights, want

    def line_of_sight_all(self, *, arc: LosArc = "front", tolerance: float = DEFAULT_TOLERANCE,
                          progress: Callable[[int], None] | None = None) -> list[LineOfSight]:
        """LoS for every ordered pair of distinct models, in vectorised batches (the pairs of
        one source model go together). ``progress(done)`` is called after each batch."""
        ids = self.model_ids
        return self.line_of_sight_pairs([(x, y) for x in ids for y in ids if x != y], arc=arc, tolerance=tolerance,
                                        progress=progress)

    def line_of_sight_pairs(self, pairs: Sequence[tuple[str, str]], *, arc: LosArc = "front",
                            tolerance: float = DEFAULT_TOLERANCE,
                            progress: Callable[[int], None] | None = None) -> list[LineOfSight]:
        """LoS for the given ordered pairs, solved together in batches of
        :data:`LOS_BATCH` pairs (the same answers as one by one). ``progress(done)`` is
        called after each batch."""
        _check_sight_args(arc, tolerance)
        for pair in pairs:
            if isinstance(pair, str) or len(pair) != 2:
                raise SkirmishError(f"line of sight pairs are (from, to) model ids, got {pair!r}")
            a, b = pair
            if a == b:
                raise SkirmishError(f"line of sight from {a!r} to itself: pick two different models",
                                    kind="same_model")
        # answers already given on this (immutable) table are reused; a call that reports
        # progress (a long batch) solves every pair afresh
        memo = self._los_memo if progress is None else {}
        todo = list(pairs) if progress is not None else \
            [(a, b) for a, b in dict.fromkeys((a, b) for a, b in pairs) if (a, b, arc, tolerance) not in memo]
        raw = []
        for k in range(0, len(todo), LOS_BATCH):  # bounded memory; the rows of a batch stay in cache
            raw += self._solve(todo[k:k + LOS_BATCH], arc, tolerance)
            if progress is not None:
                progress(len(raw))
        self._remember(todo, raw, memo, arc, tolerance)
        return [memo[(a, b, arc, tolerance)] for a, b in pairs]

    def line_of_sight_with(self, pairs: Sequence[tuple[str, str]], sources: Sequence[Viewer],
                           targets: Sequence[Viewer], facings: Sequence[tuple[float, float] | None],
                           any_of: np.ndarray | None = None, ending_on: str | None = None) -> list[LosAnswer]:
        """Raw sight lines (``line_of_sight_batch`` rows on this table's obstacles) solved
        in one batch with the front-arc LoS of ``pairs`` not yet answered on this table,
        which are kept as :meth:`line_of_sight_pairs` keeps its answers (asked later, they
        are answered at once). Returns the raw rows' answers. ``any_of``: the rows' groups
        (``line_of_sight_batch``). ``ending_on``: a model every raw row has an end on; where
        every pair has one on it too, the batch is solved on
        :meth:`los_obstacles_ending_on`."""
        memo = self._los_memo
        todo = [(a, b) for a, b in dict.fromkeys(pairs) if a != b and (a, b, "front", DEFAULT_TOLERANCE) not in memo]
        obs = self.los_obstacles_ending_on(ending_on) if ending_on is not None and \
            all(ending_on in pair for pair in todo) else self.los_obstacles
        raw = self._solve(todo, "front", DEFAULT_TOLERANCE, (sources, targets, facings), any_of, obs)
        self._remember(todo, raw[:len(todo)], memo, "front", DEFAULT_TOLERANCE, obs.names)
        return raw[len(todo):]

    def _solve(self, todo: Sequence[tuple[str, str]], arc: LosArc, tolerance: float,
               rows: tuple[Sequence[Viewer], Sequence[Viewer], Sequence[tuple[float, float] | None]] = ((), (), ()),
               any_of: np.ndarray | None = None, obs: Obstacles | None = None) -> list[LosAnswer]:
        """One batch: the model pairs ``todo``, then the raw ``rows`` (sources, targets,
        facings; ``any_of``: their groups, as ``line_of_sight_batch`` takes them), on the
        obstacles ``obs`` (default: :attr:`los_obstacles`)."""
        src = Viewers.of([self._viewer(a) for a, _ in todo]) + rows[0]
        dst = Viewers.of([self._viewer(b) for _, b in todo]) + rows[1]
        facing = {a: self.model(a).facing_vector for a in dict.fromkeys(a for a, _ in todo)} if arc == "front" else {}
        facings = [facing.get(a) for a, _ in todo] + list(rows[2])
        if not src:
            return []
        if any_of is not None:
            any_of = np.concatenate([np.full(len(todo), -1), any_of])
        return line_of_sight_batch(self.los_obstacles if obs is None else obs, src, dst, facings, tolerance=tolerance,
                                   any_of=any_of)

    def _remember(self, todo: Sequence[tuple[str, str]], raw: Sequence[LosAnswer],
                  memo: dict[tuple[str, str, str, float], LineOfSight], arc: LosArc, tolerance: float,
                  names: tuple[str, ...] | None = None) -> None:
        """Keep the answers ``raw`` to the pairs ``todo``, naming their blockers by
        ``names`` (default: :attr:`los_obstacles`' owners)."""
        if names is None:
            names = self.los_obstacles.names if todo else ()
        for (a, b), r in zip(todo, raw):
            reason: Literal["clear", "out_of_arc", "blocked"] = \
                "clear" if r.visible else ("out_of_arc" if r.out_of_arc else "blocked")
            memo[(a, b, arc, tolerance)] = LineOfSight(a, b, r.visible, reason, r.witness,
                                                       tuple(names[o] for o in r.blockers), tolerance, arc, r.stage)

    @cached_property
    def _los_memo(self) -> dict[tuple[str, str, str, float], LineOfSight]:
        return {}

    # -- E-COVER -----------------------------------------------------------------
    def cover(self, attacker: str, target: str, *, fraction: bool = True) -> Cover:
        """E-COVER for a ranged attack by ``attacker`` on ``target``.

        A size S, M or L target has Cover from a LoS-blocking scenery piece within 1"
        (E-DIST) that is taller than its base and partly hides it from the attacker
        (the target's visible fraction is smaller with the piece than without it, and
        not zero). Heavy (−4) when the piece rises above the target's hitbox and is
        wider than its base; Light (−2) otherwise, and always Light when the attacker
        stands at or above the piece's top (hidden by the perspective from higher ground,
        e.g. by the edge of the roof it shoots from). A Crouched target has at least Light.
        With ``fraction=False`` the visible fraction is only computed where a piece could
        give Cover (elsewhere it is None): the same level, for less work.
        """
        ma, mt = self.model(attacker), self.model(target)
        # the same solids, attacker's facing and target: the same answer (kept for the session)
        key = (id(self.scenery), attacker, ma.facing, target, mt.size, frozenset(mt.states),
               tuple((o.id, o.x, o.y, o.z, o.radius, o.hitbox_height) for o in self.models), fraction)
        return _COVERS.get(key, (self.scenery,), lambda: self._cover(ma, mt, fraction))

    def _cover(self, ma: Model, mt: Model, fraction: bool) -> Cover:
        attacker, target = ma.id, mt.id
        crouched = "Crouched" in mt.states
        if size_rank(mt.size) > size_rank("L"):
            return Cover("none", 0, None, f"size {mt.size} targets get no Cover")
        pieces, box = los_blockers(self.scenery)
        # (a piece whose footprint's box lies further off in plan is not within 1", E-DIST)
        gap = np.hypot(np.maximum(np.maximum(box[:, 0] - mt.x, mt.x - box[:, 2]), 0.0),
                       np.maximum(np.maximum(box[:, 1] - mt.y, mt.y - box[:, 3]), 0.0))
        reach = mt.radius + 1.0 + CONTACT_TOLERANCE + 1e-9
        near = [s for s, g in zip(pieces, gap.tolist()) if g <= reach and s.top > mt.z + BASE_THICKNESS
                and cylinder_prism_distance(mt.hitbox, s.solid) <= 1.0 + CONTACT_TOLERANCE]
        seen: float | None = None  # (not computed where no piece can give Cover and it is not asked for)
        meets: dict[str, np.ndarray] = {}  # per piece: the solved samples whose sight lines may meet it
        if near or fraction:
            pts, weights, want = self._wanted_samples(attacker, target)
            if not fraction:  # a piece no sight line to a solved sample can meet hides none of them
                meets = {s.id: self._lines_may_meet(s, attacker, pts, want) for s in near}
                near = [s for s in near if meets[s.id].any()]
        if near or fraction:
            answers = self._solve_samples(attacker, pts, want)
            mask = np.array([r is not None and r.visible for r in answers], float)
            seen = float(mask @ weights / weights.sum())
        best: Cover | None = None
        for s in near:
            if seen is None or not 0 < seen < 1:
                continue
            if not self._seen_without(s, attacker, target, answers, mask, weights, seen, pts, meets.get(s.id)):
                continue
            rect = s.solid.footprint.minimum_rotated_rectangle
            xy = np.asarray(rect.exterior.coords)
            width = float(max(np.hypot(*(xy[1] - xy[0])), np.hypot(*(xy[2] - xy[1]))))
            heavy = s.top - mt.z >= mt.hitbox_height and width >= mt.base_diameter
            if ma.z >= s.top - 1e-6:  # seen from above its top: hidden by the perspective from higher ground
                c = Cover("light", -2, s.id, f"partly hidden by {s.id} in the perspective from higher ground "
                          f"({attacker} stands above its top)", seen)
            elif heavy:
                c = Cover("heavy", -4, s.id, f"behind {s.id}, taller and wider than {target}", seen)
            else:
                c = Cover("light", -2, s.id, f"partly hidden by {s.id}", seen)
            if best is None or c.modifier < best.modifier:
                best = c
        if best is not None:
            return best
        if crouched:
            return Cover("light", -2, None, f"{target} is Crouched", seen)
        return Cover("none", 0, None, "not visible" if seen == 0 else "no scenery within 1\" hides it", seen)

    def _seen_without(self, piece: Scenery, attacker: str, target: str, answers: list[LosAnswer | None],
                      mask: np.ndarray, weights: np.ndarray, seen: float, pts: np.ndarray,
                      meets: np.ndarray | None = None) -> bool:
        """E-COVER: whether ``target`` is more visible without ``piece`` (``answers``: the
        samples ``pts`` as the table stands). A sample seen past every solid is seen past
        fewer, and a hidden one whose sight lines all keep clear of the piece stays hidden
        without it: in plan they run within the attacker's radius of the line from its
        centre to the sample. Only the others are asked again on the table without the
        piece (where models stand on it, those whose lines may meet them too: their solids
        may change; all of them where more may change, :meth:`_may_clear`),
        those the piece alone hides first (the likeliest to come into view: when one does,
        the rest are not needed). Each ask only needs whether some sample comes into view
        (``any_visible``): one that does outweighs the 1e-9 margin (a sample's area weight
        is over 1e-5 of the total), and where none does every answer is the sample's own.
        ``meets``: the solved samples whose sight lines may meet the piece, where known
        (:meth:`_may_clear`)."""
        near = self._may_clear(piece, attacker, answers, pts, meets)
        obs = self.los_obstacles_ending_on(attacker)  # (the owners and stacks of this board's)
        names = obs.names
        alone = np.array([bool(near[i]) and r is not None and {names[o] for o in r.blockers} == {piece.id}
                          for i, r in enumerate(answers)], bool)
        owner = self._alone_owner(piece, obs, attacker)
        without = None if owner >= 0 else replace(self, scenery=tuple(o for o in self.scenery if o.id != piece.id))
        more = np.zeros(len(answers), float)
        for ask in (alone, near & ~alone):
            if ask.any():
                if without is not None:
                    more += without._visible_samples(attacker, target, only=ask, any_visible=True)[0]
                else:  # (the table without the piece is this one with the piece left out of the search)
                    more += [r is not None and r.visible for r in self._solve_samples(attacker, pts, ask,
                                                                                      leave_out=owner,
                                                                                      any_visible=True)]
                if float((mask + more) @ weights / weights.sum()) > seen + 1e-9:
                    return True
        return False

    def _alone_owner(self, piece: Scenery, obs: Obstacles | None = None, attacker: str | None = None) -> int:
        """The owner of ``piece`` in ``obs`` (default: :attr:`los_obstacles`; or a board's of
        the same owners and scenery) where taking the piece away changes no other solid
        (nothing rests on it, it rests on nothing and forms no stack with another: E-LOS
        heights, ``build_obstacles``), so the table without it answers as this one
        searching without that owner; -1 elsewhere (a table is built without it). The
        model ``attacker`` may stand on it: the sight lines from it are searched without
        its own solid, whatever taking the piece away does to that."""
        if piece.solid.z0 > 1e-6:
            return -1
        on = self._standing_on(piece)
        if on is None or any(m.id != attacker for m in on):
            return -1
        if obs is None:
            obs = self.los_obstacles
        k = obs.names.index(piece.id)
        grown = obs.grown(DEFAULT_TOLERANCE)
        return -1 if any(k in m for m in grown.members[obs.n_owners:]) else k

    def _held(self, piece: Scenery) -> bool:
        """Whether something stands on ``piece`` or rests on it: a floating piece or a
        model above the table within touch of its footprint (its solid may change without
        the piece). Found once per piece and table (Cover asks it of a piece up to three
        times: which sight lines may meet it, which samples may clear, how to leave it out)."""
        got = self._held_pieces.get(piece.id)
        if got is None:
            foot = piece.solid.footprint
            got = self._held_pieces[piece.id] = (
                any(o.id != piece.id and o.solid.z0 > 1e-6 and shapely.dwithin(o.solid.footprint, foot, 1e-6)
                    for o in self.scenery),
                tuple(m.id for m in self.models
                      if m.z > 1e-6 and shapely.dwithin(foot, shapely.Point(m.x, m.y), m.radius + 1e-6)))
        return got[0] or bool(got[1])

    def _standing_on(self, piece: Scenery) -> tuple[Model, ...] | None:
        """The models standing on ``piece`` (:meth:`_held`) where taking it away changes no
        other solid than theirs: no floating piece rests on it, and no other floating solid
        comes within :data:`CONTACT_TOLERANCE` of them (a solid's grounding reads only the
        solids within touch of it: E-LOS heights, ``build_obstacles``); None elsewhere."""
        if not self._held(piece):
            return ()
        floats, ids = self._held_pieces[piece.id]
        if floats:
            return None
        on = tuple(self.model(i) for i in ids)
        for m in on:
            disc = shapely.Point(m.x, m.y)
            if any(o.solid.z0 > 1e-6 and shapely.dwithin(o.solid.footprint, disc, m.radius + CONTACT_TOLERANCE)
                   for o in self.scenery) or \
                    any(o.z > 1e-6 and o.id not in ids and
                        math.hypot(o.x - m.x, o.y - m.y) <= o.radius + m.radius + CONTACT_TOLERANCE for o in self.models):
                return None
        return on

    @cached_property
    def _held_pieces(self) -> dict[str, tuple[bool, tuple[str, ...]]]:
        """Per piece id, as asked on this table: whether a floating piece rests on it, and
        the models standing on it (:meth:`_held`)."""
        return {}

    def _may_clear(self, piece: Scenery, attacker: str, answers: list[LosAnswer | None], pts: np.ndarray,
                   meets: np.ndarray | None = None) -> np.ndarray:
        """The hidden samples (``answers`` to ``pts``) that may come into view without
        ``piece``: those whose sight lines may meet a solid that taking it away changes
        (:meth:`_lines_may_meet` with ``standing``; ``meets``: its answer for every solved
        sample where known and nothing stands on the piece, each sample's line on its own)."""
        hidden = np.array([r is not None and not r.visible and not r.out_of_arc for r in answers], bool)
        if meets is not None and not self._held(piece):
            return hidden & meets
        return self._lines_may_meet(piece, attacker, pts, hidden, standing=True)

    def _lines_may_meet(self, piece: Scenery, attacker: str, pts: np.ndarray, among: np.ndarray,
                        standing: bool = False) -> np.ndarray:
        """Of the samples ``pts`` in the mask ``among``, those whose sight lines from
        ``attacker`` may meet ``piece``: in plan they run within the attacker's radius of
        the line from its centre to the sample (the solids are grown by ε); every one of
        them where something stands on the piece (its solid may change without it). With
        ``standing``, those whose lines may meet the piece or a model standing on it (but
        the attacker: its own solid never blocks them) where only theirs change without
        it (:meth:`_standing_on`)."""
        ma = self.model(attacker)
        foot = piece.solid.footprint
        if not among.any():
            return among.copy()
        on: tuple[Model, ...] | None = ()
        if self._held(piece):
            on = self._standing_on(piece) if standing else None
        if on is None:
            return among.copy()
        at = np.flatnonzero(among)
        reach = ma.radius + 3 * DEFAULT_TOLERANCE
        caps = np.zeros((len(at), 5))  # (the sight lines' plan segments, as capsule rows)
        caps[:, 0], caps[:, 1], caps[:, 2:4] = ma.x, ma.y, pts[at, :2]
        meets = shapely.dwithin(foot, shapely.linestrings(caps[:, :4].reshape(-1, 2, 2)), reach)
        for m in on:
            if m.id != attacker:  # (a base is a disc: its distance to a line is the centre's less the radius)
                meets |= point_capsule_distance(np.array([[m.x, m.y]]), caps)[0] <= m.radius + reach
        near = among.copy()
        near[at] = meets
        return near

    # -- E-MODE ----------------------------------------------------------------
    def measure(self, a: str, b: str, *, declared: bool = False, mode: Mode | str | None = None) -> Measurement:
        """What ``a`` may measure of ``b`` under the measurement mode (E-MODE).

        Assisted (or ``declared=True``: the query resolves a declared action): exact.
        Standard: exact within max(Awareness, Movement) of ``a``, else only "beyond N".
        Realism: :class:`MeasurementRefused` unless declared.
        """
        ma, mb = self.model(a), self.model(b)
        d = cylinder_distance(ma.hitbox, mb.hitbox)
        exact, beyond, mode = self._premeasure(ma, d, declared, mode, f"distance to {b!r}")
        aw = ma.awareness
        in_aw = None if aw is None else (d <= aw + CONTACT_TOLERANCE if exact is not None else False)
        return Measurement(a, b, exact, beyond, d <= CONTACT_TOLERANCE, in_aw, self.arc(a, b), mode, declared,
                           nearest_points(ma.hitbox, mb.hitbox) if exact is not None else None)

    def measure_point(self, a: str, xy: tuple[float, float], *, declared: bool = False,
                      mode: Mode | str | None = None) -> PointMeasurement:
        """What ``a`` may measure of the point ``xy`` at its own height, under the
        measurement mode as :meth:`measure` (E-MODE: Standard gives only "beyond N" past
        max(Awareness, Movement); Realism refuses unless declared)."""
        ma = self.model(a)
        point = Cylinder(float(xy[0]), float(xy[1]), ma.z, 0.0, 0.0)
        d = cylinder_distance(ma.hitbox, point)
        exact, beyond, mode = self._premeasure(ma, d, declared, mode, "distance to that point")
        return PointMeasurement(a, (point.x, point.y), exact, beyond, mode, declared,
                                nearest_points(ma.hitbox, point) if exact is not None else None)

    def _premeasure(self, ma: Model, d: float, declared: bool, mode: Mode | str | None, what: str
                    ) -> tuple[float | None, float | None, Mode]:
        """E-MODE for ``ma`` measuring ``d`` inches: (the distance or None, "beyond N" or
        None, the mode), or :class:`MeasurementRefused`."""
        mode = self.mode if mode is None else parse_mode(mode)
        exact, beyond = apply_mode(mode, d, limit=premeasure_limit(ma.awareness, ma.movement), declared=declared,
                                   asker=ma.id, what=what)
        return exact, beyond, mode

    # -- helpers for the other layers -----------------------------------------
    def models_of_side(self, side: str) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.side == side)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.side for m in self.models))

    def all_models(self) -> tuple[Model, ...]:
        """The models on the table and those waiting to deploy (E-DEPLOY, ``catalogue.reserve``)."""
        return (*self.models, *self.catalogue.reserve)

    def all_sides(self) -> tuple[str, ...]:
        """The sides of every model, on the table or in the reserve, in the order first met."""
        return tuple(dict.fromkeys(m.side for m in self.all_models()))

    def bounds(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, self.width, self.depth)

    def ids(self) -> Sequence[str]:
        return [*self.model_ids, *(s.id for s in self.scenery)]


#: The most surface samples per angle :meth:`Table.visible_fraction` takes (samples × samples / 2 points).
MAX_SAMPLES = 256


def _check_sight_args(arc: object, tolerance: float) -> None:
    """E-ARC and E-LOS arguments: ``arc`` 'front' or 'all', and :func:`check_tolerance`."""
    if arc not in ("front", "all"):
        raise SkirmishError(f"arc must be 'front' or 'all', got {arc!r}")
    check_tolerance(tolerance)


def check_tolerance(tolerance: float) -> None:
    """E-LOS: refuse a clearance ε that is not a number above 0 and at most
    :data:`MAX_TOLERANCE` inches (every query that takes one: LoS, visible fraction, probes)."""
    if not is_number(tolerance) or not 0 < float(tolerance) <= MAX_TOLERANCE:
        raise SkirmishError(f"tolerance must be a length above 0 and at most {MAX_TOLERANCE:g} in, got {tolerance!r}",
                            kind="range")
