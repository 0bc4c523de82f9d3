"""Cheap tests that settle most probe sight lines before the exact search (E-LOS).

:func:`skirmish.maps.probes.probe_visibility` asks thousands of (probe point, model)
pairs at once, and most of them are easy: an open line, or a building squarely in the
way. Two tests run over all the pairs together, as array operations; only the pairs
neither settles go to the exact search (:func:`skirmish.geometry.los.line_of_sight_batch`),
whose costly multi-solid steps are kept for the hard ones.

* **Sampled witnesses.** Plan segments between points across the two discs (the
  centres; then parallel and crossed lines: :data:`CENTRE`, :data:`ACROSS`), each at two
  height lines (the hitboxes' tops, then their bottoms), checked against every candidate
  solid the way the search checks its own witnesses: the ε-grown convex pieces and
  circles, touching allowed. A clear segment is a witness, so the pair is visible.
* **Cover.** Each candidate solid blocks every segment that enters it within a slab of
  the corridor (the convex hull of the two regions, drawn round them): all of it for a
  solid that stands on the table and rises above both hitboxes, the part near the lower
  model for a lower one, the part where every segment passes between its base and top for a floating
  one (:func:`_walls`). Cut these *walls* (the solids' cores,
  strictly inside the ε-grown solids) out of the corridor. When no connected part of
  what is left touches both regions, every segment from one region to the other enters a
  solid deeper than the search's contact margin: a certificate (stage "separator", the
  walls' solids as blockers). One wall that meets both sides of the corridor and neither
  region settles it without the polygon difference (:func:`_cuts_across`).

Both are sound with respect to the search: a witness here is one the search accepts,
and a pair certified here has no segment the search could accept. So an answer differs
from ``Table.line_of_sight`` only where the search gives up (stage "undecided") or
draws a certificate inside its ε band of doubt, and there the witness found here is a
proof.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from ..geometry.los import (ETA, Obstacles, Segment3, Viewer, _crossing, _project, _Rows, _touches_a_seam,
                            corridor_owners, segment_is_clear)

#: The least depth (inches) of a solid's core inside its ε-grown solid, and the margin a
#: wall's slab keeps: far above the search's contact margin ETA and GEOS rounding, far
#: below any tolerance ε.
SHRINK = 1e-6
_ACROSS = (0.5, -0.5, 0.95, -0.95)
#: Where the sampled segments end, as offsets across the source's and the target's discs
#: (fractions of the radius, perpendicular to the line between the centres), in rounds:
#: the centres, then parallel and crossed lines. (A denser grid of ends finds few more
#: witnesses than it costs on dense-ruins.)
CENTRE = ((0.0, 0.0),)
ACROSS = tuple((f, f) for f in _ACROSS) + tuple((f, -f) for f in _ACROSS)
#: Sides of the polygons drawn round the discs for the corridor.
CORRIDOR_SIDES = 16


@dataclass(frozen=True)
class Pairs:
    """Sight lines to settle: from a source disc ``S`` to a target disc ``T``, each
    (cx, cy, r), over heights ``zS``/``zT`` (z0, z1). For a front arc (E-ARC) both regions
    are cut to the half-plane ``H`` n·x ≥ c0 (the source's front, its line through the
    source's centre; (0, 0, -inf) for none), as in the search. ``own``: the obstacle owners
    the two regions are (-1 for none), which never block."""

    S: np.ndarray
    T: np.ndarray
    H: np.ndarray
    zS: np.ndarray
    zT: np.ndarray
    own: np.ndarray

    @classmethod
    def between(cls, sources: Sequence[Viewer], targets: Sequence[Viewer],
                facings: Sequence[tuple[float, float] | None]) -> Pairs:
        """The pairs ``line_of_sight_batch(obs, sources, targets, facings)`` asks about."""
        n = len(sources)
        S = np.array([(v.x, v.y, v.r) for v in sources], float).reshape(n, 3)
        H = np.array([(0.0, 0.0, -np.inf) if f is None else (f[0], f[1], f[0] * v.x + f[1] * v.y)
                      for v, f in zip(sources, facings)], float).reshape(n, 3)
        return cls(S, np.array([(v.x, v.y, v.r) for v in targets], float).reshape(n, 3), H,
                   np.array([(v.z, v.z + v.h) for v in sources], float).reshape(n, 2),
                   np.array([(v.z, v.z + v.h) for v in targets], float).reshape(n, 2),
                   np.array([(a.owner, b.owner) for a, b in zip(sources, targets)], int).reshape(n, 2))

    def __len__(self) -> int:
        return len(self.S)

    def take(self, idx: np.ndarray) -> Pairs:
        return Pairs(self.S[idx], self.T[idx], self.H[idx], self.zS[idx], self.zT[idx], self.own[idx])


def candidates(obs: Obstacles, pairs: Pairs) -> tuple[np.ndarray, np.ndarray]:
    """(pair, owner) index arrays: the owners whose footprint comes near the pair's
    corridor and whose heights meet the heights a segment can take (one STRtree query
    for all pairs). Sorted by pair."""
    pi, oi = corridor_owners(obs, pairs.S, pairs.T, pairs.zS, pairs.zT, pairs.own[:, 0], pairs.own[:, 1])
    order = np.argsort(pi, kind="stable")
    return pi[order], oi[order]


def restrict(pi: np.ndarray, oi: np.ndarray, idx: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The candidates of pairs ``idx`` (of ``n``), renumbered 0..len(idx)-1."""
    new = np.full(n, -1)
    new[idx] = np.arange(len(idx))
    k = new[pi]
    keep = k >= 0
    return k[keep], oi[keep]


# -- sampled witnesses ------------------------------------------------------------------------

def sampled_witnesses(obs: Obstacles, pairs: Pairs, pi: np.ndarray, oi: np.ndarray,
                      ends: Sequence[tuple[float, float]] = CENTRE + ACROSS) -> list[Segment3 | None]:
    """Per pair, a witness among the sampled segments (see the module), or None (always
    for a target wholly behind the source's front).

    ``obs`` is the ε-grown obstacle set; ``pi``/``oi`` the pairs' candidates."""
    n = len(pairs)
    if not n:
        return []
    S, T, H = pairs.S, pairs.T, pairs.H
    u = T[:, :2] - S[:, :2]
    L = np.hypot(u[:, 0], u[:, 1])
    u = np.where(L[:, None] > 1e-12, u / np.maximum(L, 1e-300)[:, None], [1.0, 0.0])
    nrm = np.stack([-u[:, 1], u[:, 0]], 1)
    combos = list(ends)
    ps, qs = [], []
    cut = np.where(np.isfinite(H[:, 2:3]), H, [0.0, 0.0, -1e18])
    for f, g in combos:  # the nearest points of the regions (a front arc cuts both)
        ps.append(_project(S[:, :2] + f * S[:, 2:3] * nrm, S, cut))
        qs.append(_project(T[:, :2] + g * T[:, 2:3] * nrm, T, cut))
    C = len(combos)
    reach = np.einsum("ij,ij->i", cut[:, :2], T[:, :2]) + T[:, 2] - cut[:, 2] >= -1e-12  # E-ARC: a target
    P, Q = np.concatenate(ps), np.concatenate(qs)  # segment c * n + k
    # rows: every segment against every candidate piece of its pair
    npc = obs.owner_npieces[oi]
    r_pair = np.repeat(pi, npc)
    r_piece = np.repeat(obs.owner_pieces_start[oi], npc) + (np.arange(npc.sum()) - np.repeat(np.cumsum(npc) - npc,
                                                                                             npc))
    rows = _Rows(np.concatenate([r_pair + c * n for c in range(C)]), np.tile(r_piece, C),
                 np.tile(obs.piece_owner[r_piece], C))
    t0, t1 = _crossing(P, Q, rows, obs, ETA)
    crossed = t1 - t0 > 1e-12
    b = rows.bundle[crossed]
    ta, tb = t0[crossed], t1[crossed]
    own = rows.owner[crossed]
    z0, z1, sealed = obs.owner_z0[own], obs.owner_z1[own], obs.owner_sealed[own]
    need = z0 - np.where(sealed, ETA, 0.0)
    out: list[Segment3 | None] = [None] * n
    zs, zt = np.tile(pairs.zS, (C, 1)), np.tile(pairs.zT, (C, 1))
    seams = _touches_a_seam(rows, C * n, P, Q, obs)
    for level in (1, 0):  # the tops, then the bottoms
        hu, hv = zs[b, level], zt[b, level]
        ha, hb = (1 - ta) * hu + ta * hv, (1 - tb) * hu + tb * hv
        over = (ha >= z1 - 1e-12) & (hb >= z1 - 1e-12)
        under = (ha <= need) & (hb <= need)
        blocked = np.bincount(b[~over & ~under], minlength=C * n) > 0
        clear = np.flatnonzero(~blocked)
        first = np.full(n, C * n)
        np.minimum.at(first, clear % n, clear)  # the first clear segment of each pair
        for k in np.flatnonzero((first < C * n) & reach):
            if out[k] is not None:
                continue
            j = int(first[k])
            seg: Segment3 = ((float(P[j, 0]), float(P[j, 1]), float(zs[j, level])),
                             (float(Q[j, 0]), float(Q[j, 1]), float(zt[j, level])))
            # convex pieces and circles are exact; a line along the seam between two pieces
            # of one footprint needs the whole footprint (as in the search)
            if not seams[j] or segment_is_clear(obs, seg, exclude=tuple(int(o) for o in pairs.own[k] if o >= 0)):
                out[k] = seg
    return out


# -- cover ------------------------------------------------------------------------------------

_CORES: weakref.WeakKeyDictionary[Obstacles, np.ndarray] = weakref.WeakKeyDictionary()


def solid_cores(grown: Obstacles, base: Obstacles | None = None) -> np.ndarray:
    """Per owner of the ε-grown set ``grown``, a polygon inside its footprint by more than
    the search's contact margin: the scene's own footprint (``base``, ε inside: few
    vertices) where ε is well above :data:`SHRINK`, else the grown footprint shrunk by
    :data:`SHRINK` (also for the stacks the growing adds). Cached per grown set."""
    g = _CORES.get(grown)
    if g is None:
        g = np.empty(grown.n_owners, object)
        g[:] = list(grown.owner_geom)
        k = 0
        if base is not None and grown.grown_by > 10 * SHRINK and base.n_owners <= grown.n_owners:
            k = base.n_owners  # (only the stacks the growing adds are shrunk)
            g[:k] = list(base.owner_geom)
        g[k:] = shapely.buffer(g[k:], -SHRINK)
        _CORES[grown] = g
    return g


def _round(D: np.ndarray) -> np.ndarray:
    """Polygons drawn round the discs (every disc inside its polygon)."""
    k = CORRIDOR_SIDES
    ang = np.arange(k) * (2 * math.pi / k)
    R = D[:, 2:3] / math.cos(math.pi / k) * (1 + 1e-9) + 1e-9
    ring = np.stack([D[:, 0:1] + R * np.cos(ang), D[:, 1:2] + R * np.sin(ang)], -1)
    return shapely.polygons(ring)


def _regions(pairs: Pairs) -> tuple[np.ndarray, np.ndarray]:
    """Polygons holding the source and the target region (cut to the front half-plane)."""
    src, dst = _round(pairs.S), _round(pairs.T)
    cut = np.flatnonzero(np.isfinite(pairs.H[:, 2]))
    if len(cut):
        S, H = pairs.S[cut], pairs.H[cut]
        n, c = H[:, :2], S[:, :2]
        T = pairs.T[cut]
        big = np.hypot(*(T[:, :2] - c).T)[:, None] + S[:, 2:3] + T[:, 2:3] + 1.0
        along = np.stack([-n[:, 1], n[:, 0]], 1)
        # the half-plane, as a square in front of the line through the centre
        quad = np.stack([c + big * along, c + big * along + 2 * big * n, c - big * along + 2 * big * n,
                         c - big * along], 1)
        front = shapely.polygons(quad)
        src[cut] = shapely.intersection(src[cut], front)
        dst[cut] = shapely.intersection(dst[cut], front)
    return src, dst


def covered(obs: Obstacles, pairs: Pairs, pi: np.ndarray, oi: np.ndarray, *,
            base: Obstacles | None = None) -> list[tuple[int, ...] | None]:
    """Per pair, the owners of a cover certificate (see the module), or None when the
    test proves nothing. ``obs`` is the ε-grown obstacle set, ``base`` the scene's own
    (when given, its footprints serve as the solids' cores: :func:`solid_cores`)."""
    n = len(pairs)
    out: list[tuple[int, ...] | None] = [None] * n
    walls = _walls(obs, pairs, pi, oi, base)
    keep = ~shapely.is_empty(walls)
    pi, oi, walls = pi[keep], oi[keep], walls[keep]
    live = np.unique(pi)
    if not len(live):
        return out
    new = np.full(n, -1)
    new[live] = np.arange(len(live))
    pk = new[pi]  # still sorted by pair
    sub = pairs.take(live)
    cuts = _cuts_across(sub, pk, walls)
    blocked = np.bincount(pk[cuts], minlength=len(live)) > 0
    used = cuts.copy()
    rest = np.flatnonzero(~blocked)
    if len(rest):  # the general test: the corridor minus every wall
        at = np.full(len(live), -1)
        at[rest] = np.arange(len(rest))
        rows = np.flatnonzero(at[pk] >= 0)
        src, dst = _regions(sub.take(rest))
        b, u = _corridor_blocked(src, dst, at[pk[rows]], walls[rows])
        blocked[rest] = b
        used[rows] = u
    count = np.bincount(pk, minlength=len(live))
    start = np.cumsum(count) - count
    for w in np.flatnonzero(blocked).tolist():
        mine = slice(start[w], start[w] + count[w])
        out[int(live[w])] = tuple(sorted(set(oi[mine][used[mine]].tolist())))
    return out


def _cuts_across(pairs: Pairs, pk: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """Per wall row: one connected wall cuts the corridor alone. It meets both outer
    tangents of the two discs (grown to hold the polygons the regions are drawn in) and
    neither disc: a path inside it joins the two sides of the convex corridor and parts
    the end holding one disc from the end holding the other."""
    k = CORRIDOR_SIDES
    grow = 1 / math.cos(math.pi / k) * (1 + 1e-9)
    S, T = pairs.S[pk], pairs.T[pk]
    rS, rT = S[:, 2] * grow + 2e-9, T[:, 2] * grow + 2e-9
    d = T[:, :2] - S[:, :2]
    L = np.hypot(d[:, 0], d[:, 1])
    ok = L > np.abs(rS - rT) + 1e-9
    u = d / np.maximum(L, 1e-300)[:, None]
    perp = np.stack([-u[:, 1], u[:, 0]], 1)
    s = np.where(ok, (rS - rT) / np.maximum(L, 1e-300), 0.0)
    c = np.sqrt(np.maximum(1 - s * s, 0.0))
    sides = []
    for sign in (1.0, -1.0):
        n = s[:, None] * u + sign * c[:, None] * perp  # outward normal of the tangent
        sides.append(shapely.linestrings(np.stack([S[:, :2] + rS[:, None] * n, T[:, :2] + rT[:, None] * n], 1)))
    whole = shapely.get_type_id(walls) == 3  # one Polygon: connected
    meets_disc = (shapely.dwithin(walls, shapely.points(S[:, :2]), rS)
                  | shapely.dwithin(walls, shapely.points(T[:, :2]), rT))
    return ok & whole & ~meets_disc & shapely.intersects(walls, sides[0]) & shapely.intersects(walls, sides[1])


def _walls(obs: Obstacles, pairs: Pairs, pi: np.ndarray, oi: np.ndarray, base: Obstacles | None) -> np.ndarray:
    """Per candidate (pair ``pi``, owner ``oi``): the part of the owner's core
    (:func:`solid_cores`) where every segment of the pair that passes is within
    its blocking heights; empty where there is none.

    Along the axis from the source's centre to the target's, a segment through a point at
    abscissa s has its parameter t between bounds that grow with s (its ends lie on the
    discs), so its height there lies between the bottoms' and the tops' lines taken at
    those bounds. A solid that rises above both tops and reaches below both bottoms blocks
    every segment that enters it; a lower one blocks those that enter it where the tops'
    line has sunk below its top (near the lower model), a floating one where the bottoms'
    line has risen over its base: a slab of abscissae."""
    S, T = pairs.S[pi], pairs.T[pi]
    u = T[:, :2] - S[:, :2]
    L = np.hypot(u[:, 0], u[:, 1])
    u = u / np.maximum(L, 1e-300)[:, None]
    rS, rT = S[:, 2], T[:, 2]
    near_w, far_w = L + rT - rS, L - rT + rS  # t ≥ (s - rS) / near_w,  t ≤ (s + rS) / far_w
    apart = (rS < L - rT - 1e-9)  # the discs do not overlap along the axis
    z1 = obs.owner_z1[oi] - 1e-9
    need = obs.owner_z0[oi] - np.where(obs.owner_sealed[oi], ETA, 0.0) + 1e-12
    (bS, tS), (bT, tT) = pairs.zS[pi].T, pairs.zT[pi].T
    inf = np.inf

    def below(h0: np.ndarray, h1: np.ndarray, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The abscissae where the line h0 → h1, at every t a segment may take, stays < level."""
        d = h1 - h0
        with np.errstate(divide="ignore", invalid="ignore"):
            up = (level - h0) / d * far_w - rS  # rising: below for s < up
            down = (level - h0) / d * near_w + rS  # sinking: below for s > down
        lo = np.where(d > 0, -inf, np.where(d < 0, down, -inf))
        hi = np.where(d > 0, up, inf)
        everywhere = np.maximum(h0, h1) < level
        nowhere = np.minimum(h0, h1) >= level
        partial = ~everywhere & ~nowhere & apart
        return np.where(everywhere, -inf, np.where(partial, lo, inf)), np.where(everywhere, inf,
                                                                                 np.where(partial, hi, -inf))

    lo1, hi1 = below(tS, tT, z1)
    lo2, hi2 = below(-bS, -bT, -need)  # the bottoms' line stays above the base
    lo, hi = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
    lo, hi = lo + SHRINK, hi - SHRINK
    shrunk = solid_cores(obs, base)[oi]
    walls = np.full(len(oi), shapely.Polygon(), object)
    whole = (hi > lo) & ~np.isfinite(lo) & ~np.isfinite(hi)
    walls[whole] = shrunk[whole]
    cut = np.flatnonzero((hi > lo) & (np.isfinite(lo) | np.isfinite(hi)))
    if len(cut):
        c, d = S[cut, :2], u[cut]
        side = np.stack([-d[:, 1], d[:, 0]], 1) * (L[cut] + rS[cut] + rT[cut] + 1.0)[:, None]
        a = np.maximum(lo[cut], -rS[cut] - 1.0)[:, None]
        b = np.minimum(hi[cut], L[cut] + rT[cut] + 1.0)[:, None]
        slab = shapely.polygons(np.stack([c + a * d - side, c + b * d - side, c + b * d + side, c + a * d + side], 1))
        walls[cut] = shapely.intersection(shrunk[cut], slab)
    return walls


def _corridor_blocked(src: np.ndarray, dst: np.ndarray, pk: np.ndarray,
                      walls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair of regions ``src`` → ``dst`` (rows ``pk``, sorted, its blocking ``walls``):
    whether no part of its corridor outside the walls touches both regions; and per row,
    whether the wall meets the corridor."""
    n = len(src)
    hull = shapely.convex_hull(shapely.union(src, dst))
    meets = shapely.intersects(hull[pk], walls)
    pk, walls = pk[meets], walls[meets]
    count = np.bincount(pk, minlength=n)
    blocked = np.zeros(n, bool)
    width = int(count.max(initial=0))
    if not width:
        return blocked, meets
    grid = np.full((n, width), None, object)
    slot = np.arange(len(pk)) - np.repeat(np.cumsum(count) - count, count)
    grid[pk, slot] = walls
    idx = np.flatnonzero(count > 0)
    cover = shapely.union_all(grid[idx], axis=1)
    free = shapely.difference(hull[idx], cover)
    parts, which = shapely.get_parts(free, return_index=True)
    at_src = shapely.intersects(parts, src[idx][which])
    at_dst = shapely.intersects(parts, dst[idx][which])
    joined = np.zeros(len(idx), bool)
    joined[which[at_src & at_dst]] = True
    # parts may touch at a point: a sight line could pass there, so join touching parts
    many = np.flatnonzero((np.bincount(which, minlength=len(idx)) > 1) & ~joined)
    if len(many):
        first = np.searchsorted(which, many)
        size = np.bincount(which, minlength=len(idx))[many]
        a_ = np.concatenate([f + _triu(m)[0] for f, m in zip(first.tolist(), size.tolist())])
        b_ = np.concatenate([f + _triu(m)[1] for f, m in zip(first.tolist(), size.tolist())])
        touch = shapely.intersects(parts[a_], parts[b_])
        for w in np.unique(which[a_[touch]]):
            mine = np.flatnonzero(which == w)
            joined[w] = _touching_parts_join(parts[mine], at_src[mine], at_dst[mine])
    blocked[idx[~joined]] = True
    return blocked, meets


@functools.cache
def _triu(m: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.triu_indices(m, 1)
    return a, b


def _touching_parts_join(parts: np.ndarray, at_src: np.ndarray, at_dst: np.ndarray) -> bool:
    """Whether the parts, joined where they touch, give one group touching both regions."""
    group = list(range(len(parts)))

    def find(a: int) -> int:
        while group[a] != a:
            group[a] = group[group[a]]
            a = group[a]
        return a

    ii, jj = np.triu_indices(len(parts), 1)
    touch = shapely.intersects(parts[ii], parts[jj])
    for a, b in zip(ii[touch].tolist(), jj[touch].tolist()):
        group[find(a)] = find(b)
    roots_src = {find(a) for a in np.flatnonzero(at_src).tolist()}
    return any(find(b) in roots_src for b in np.flatnonzero(at_dst).tolist())
