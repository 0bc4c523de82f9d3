"""The numba bodies of :mod:`.kernels` (imported by it on first use: numba compiles each
on its first call and caches it on disk)."""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

#: A vertex meets a row a·x <= c when a·x <= c + FEAS_TOL; two rows whose determinant is
#: within DET_TOL of 0 are parallel (they make no vertex).
FEAS_TOL = 1e-9
DET_TOL = 1e-14
#: paths.RELAX_TOL (a relaxed end may come this much closer than it already is).
RELAX_TOL = 1e-9

_jit = njit(cache=True, nogil=True)
#: Small helpers of the hot loops, inlined where they are called.
_inline = njit(cache=True, nogil=True, inline="always")


@_jit
def _vertices_into(A: np.ndarray, lo: int, hi: int, out: np.ndarray) -> int:
    """The vertices of {a·x <= c} over rows ``A[lo:hi]``: written to ``out``; their count."""
    n = 0
    for i in range(lo, hi):
        ri = A[i]
        for j in range(i + 1, hi):
            rj = A[j]
            det = ri[0] * rj[1] - ri[1] * rj[0]
            if not abs(det) > DET_TOL:  # (parallel, or NaN: no vertex)
                continue
            u = (ri[2] * rj[1] - ri[1] * rj[2]) / det
            v = (ri[0] * rj[2] - ri[2] * rj[0]) / det
            ok = True
            for k in range(lo, hi):
                rk = A[k]
                if not u * rk[0] + v * rk[1] <= rk[2] + FEAS_TOL:  # (a NaN meets no row)
                    ok = False
                    break
            if ok:
                out[n, 0] = u
                out[n, 1] = v
                n += 1
    return n


@_jit
def _vertices(A: np.ndarray) -> np.ndarray:
    m = A.shape[0]
    out = np.empty((max(m * (m - 1) // 2, 1), 2))
    n = _vertices_into(A, 0, m, out)
    return out[:n]


@_jit
def _vertices_each(A: np.ndarray) -> np.ndarray:
    B, m, _ = A.shape
    out = np.full((B, max(m * (m - 1) // 2, 1), 2), np.nan)
    most = 1
    for b in range(B):
        most = max(most, _vertices_into(A[b], 0, m, out[b]))
    return out[:, :most]


@_jit
def _clip_one(verts: np.ndarray, V: int, nx: float, ny: float, c: float, out: np.ndarray) -> None:
    """Polygon ``verts[:V]`` clipped to n·x >= c, into ``out[:V + 1]`` (all-NaN if empty)."""
    cnt = 0
    for i in range(V):
        j = i + 1 if i + 1 < V else 0
        ax, ay = verts[i, 0], verts[i, 1]
        bx, by = verts[j, 0], verts[j, 1]
        sa = ax * nx + ay * ny - c
        sb = bx * nx + by * ny - c
        if sa >= 0:  # (a NaN side is neither inside nor crossing)
            if cnt <= V:
                out[cnt, 0] = ax
                out[cnt, 1] = ay
            cnt += 1
        if (sa >= 0) != (sb >= 0):
            t = sa / (sa - sb)
            if cnt <= V:
                out[cnt, 0] = ax + (bx - ax) * t
                out[cnt, 1] = ay + (by - ay) * t
            cnt += 1
    if cnt > 0:
        for p in range(min(cnt, V + 1), V + 1):
            out[p, 0] = out[0, 0]
            out[p, 1] = out[0, 1]
    else:
        out[:V + 1] = np.nan


@_jit
def _clip(verts: np.ndarray, n: np.ndarray, c0: np.ndarray) -> np.ndarray:
    rows, V, _ = verts.shape
    out = np.empty((rows, V + 1, 2))
    for r in range(rows):
        _clip_one(verts[r], V, n[r, 0], n[r, 1], c0[r], out[r])
    return out


@_jit
def _within_disc(P: np.ndarray, D: np.ndarray, far_c: float) -> np.ndarray:
    """``los_chain._within_disc``: each polygon ``P[i]`` (V, 2) cut, vertex by vertex, by
    its disc's tangent facing that vertex where it lies outside the disc (the same clips
    in the same order): (rows, 2V, 2)."""
    rows, V, _ = P.shape
    out = np.empty((rows, 2 * V, 2))
    a = np.empty((2 * V, 2))
    b = np.empty((2 * V, 2))
    for r in range(rows):
        a[:V] = P[r]
        for j in range(V):
            wx, wy = P[r, j, 0] - D[r, 0], P[r, j, 1] - D[r, 1]
            dist = np.hypot(wx, wy)
            far = dist > D[r, 2] * (1 + 1e-9) + 1e-12
            den = dist if far else 1.0
            ux, uy = wx / den, wy / den
            c0 = -(ux * D[r, 0] + uy * D[r, 1] + D[r, 2]) if far else -far_c
            _clip_one(a, V + j, -ux, -uy, c0, b)
            a, b = b, a
        out[r] = a
    return out


@_jit
def _patches(box: np.ndarray, D: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``los._patches``: each box cut by its region's half-plane, then by the tangent of
    its disc facing the box (the same operations as the numpy twin)."""
    n = box.shape[0]
    out = np.empty((n, 6, 2))
    ok = np.empty(n, np.bool_)
    corners = np.empty((4, 2))
    once = np.empty((5, 2))
    for r in range(n):
        x0, y0, x1, y1 = box[r, 0], box[r, 1], box[r, 2], box[r, 3]
        corners[0, 0], corners[0, 1] = x0, y0
        corners[1, 0], corners[1, 1] = x1, y0
        corners[2, 0], corners[2, 1] = x1, y1
        corners[3, 0], corners[3, 1] = x0, y1
        cut = False
        for v in range(4):
            cx, cy = corners[v, 0], corners[v, 1]
            if cx * H[r, 0] + cy * H[r, 1] < H[r, 2] or np.hypot(cx - D[r, 0], cy - D[r, 1]) > D[r, 2]:
                cut = True
        if not cut:
            for v in range(6):
                out[r, v, 0] = corners[v % 4, 0]
                out[r, v, 1] = corners[v % 4, 1]
        else:
            _clip_one(corners, 4, H[r, 0], H[r, 1], H[r, 2], once)
            mx = (x0 + x1) / 2 - D[r, 0]
            my = (y0 + y1) / 2 - D[r, 1]
            d = np.hypot(mx, my)
            if d > 1e-12:
                ux, uy = -mx / d, -my / d
                c = ux * D[r, 0] + uy * D[r, 1] - D[r, 2]
            else:
                ux, uy, c = 0.0, 0.0, -1e18
            _clip_one(once, 5, ux, uy, c, out[r])
        ok[r] = not np.isnan(out[r, 0, 0])
    return out, ok


@_jit
def _project(pt: np.ndarray, D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """``los._project``: the point of each disc ∩ half-plane nearest to ``pt`` (the same
    operations as the numpy twin)."""
    n = pt.shape[0]
    out = np.empty((n, 2))
    for i in range(n):
        out[i, 0], out[i, 1] = _project_one(pt[i, 0], pt[i, 1], D, H, i)
    return out


@_inline
def _project_one(x: float, y: float, D: np.ndarray, H: np.ndarray, i: int) -> tuple[float, float]:
    """:func:`_project` of the point (x, y) onto region ``i``."""
    cx, cy, r = D[i, 0], D[i, 1], D[i, 2]
    vx, vy = x - cx, y - cy
    d = np.hypot(vx, vy)
    scale = r / max(d, 1e-300) if d > r else 1.0
    qx, qy = cx + vx * scale, cy + vy * scale
    nx, ny, c0 = H[i, 0], H[i, 1], H[i, 2]
    if nx * qx + ny * qy < c0 - 1e-15:  # behind the half-plane: onto its chord of the disc
        off = c0 - (nx * cx + ny * cy)
        mx, my = cx + nx * off, cy + ny * off
        half = np.sqrt(max(r * r - off * off, 0.0))
        tx, ty = -ny, nx
        s = (x - mx) * tx + (y - my) * ty
        if s < -half:
            s = -half
        elif s > half:
            s = half
        qx, qy = mx + tx * s, my + ty * s
    return qx, qy


@_jit
def _segment_distance(px: float, py: float, cap: np.ndarray) -> float:
    """The distance from a point to one capsule's segment (``paths._pair_distance`` for
    one row, ``paths.point_capsule_distance`` for one entry)."""
    ax, ay = cap[0], cap[1]
    sx, sy = cap[2] - ax, cap[3] - ay
    ss = sx * sx + sy * sy
    t = ((px - ax) * sx + (py - ay) * sy) / (ss if ss > 0 else 1.0)
    if not np.isnan(t):
        t = t if t > 0.0 else 0.0
        t = t if t < 1.0 else 1.0
    return np.hypot(px - (ax + t * sx), py - (ay + t * sy))


@_jit
def _point_capsule_distance(pts: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """``paths.point_capsule_distance``: (n, m) distances from the points to the capsules'
    segments (the same operations as the numpy twin; NaN passed on as np.clip does)."""
    n, m = pts.shape[0], caps.shape[0]
    out = np.empty((n, m))
    for j in range(m):
        for i in range(n):
            out[i, j] = _segment_distance(pts[i, 0], pts[i, 1], caps[j])
    return out


@_inline
def _inside_edges(x: float, y: float, edges: np.ndarray, lo: int, hi: int) -> bool:
    """Whether (x, y) lies inside the footprint whose ring edges (ax ay bx by) are
    ``edges[lo:hi]``, by the parity of the edges crossed to its right."""
    odd = False
    for k in range(lo, hi):
        ay, by = edges[k, 1], edges[k, 3]
        if (ay > y) != (by > y) and x < edges[k, 0] + (y - ay) * (edges[k, 2] - edges[k, 0]) / (by - ay):
            odd = not odd
    return odd


@_jit
def _points_free(pts: np.ndarray, caps: np.ndarray, tol: float, box: np.ndarray, on: np.ndarray,
                 edges: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``paths.FreeSpace.point_free`` where every footprint keeps a clearance above ``tol``:
    on the support (``box`` x0, y0, x1, y1; NaN: ``on``, found by the caller), every
    capsule's clearance kept (less ``tol``; NaN keeps none, as the numpy min does), and
    then, the point being further than that from every footprint edge, outside each
    footprint by the parity of the edges (``edges`` ax ay bx by; footprint ``f`` from
    ``starts[f]``) crossed to its right."""
    n, m, ne, nf = pts.shape[0], caps.shape[0], edges.shape[0], starts.shape[0]
    out = np.zeros(n, np.bool_)
    # (a point off a capsule's box grown by a little more than its clearance keeps it)
    near = _capsule_box(caps, -1e-9)
    for i in range(n):
        x, y = pts[i, 0], pts[i, 1]
        if np.isnan(box[0]):
            if not on[i]:
                continue
        elif not (x >= box[0] and x <= box[2] and y >= box[1] and y <= box[3]):
            continue
        ok = True
        for j in range(m):
            if x < near[j, 0] or x > near[j, 1] or y < near[j, 2] or y > near[j, 3]:
                continue
            if not _segment_distance(x, y, caps[j]) - caps[j, 4] >= -tol:
                ok = False
                break
        if not ok:
            continue
        for f in range(nf):
            if _inside_edges(x, y, edges, starts[f], starts[f + 1] if f + 1 < nf else ne):
                ok = False
                break
        out[i] = ok
    return out


@_inline
def _geos_point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """GEOS's ``Distance::pointToSegment`` (the same operations: the bits of
    ``shapely.distance`` from a point to a polygon it lies outside)."""
    if ax == bx and ay == by:
        return np.sqrt((px - ax) * (px - ax) + (py - ay) * (py - ay))
    len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
    r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2
    if r <= 0.0:
        return np.sqrt((px - ax) * (px - ax) + (py - ay) * (py - ay))
    if r >= 1.0:
        return np.sqrt((px - bx) * (px - bx) + (py - by) * (py - by))
    s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2
    return abs(s) * np.sqrt(len2)


@_jit
def _footprint_within(px: float, py: float, edges: np.ndarray, lo: int, hi: int, box: np.ndarray, d: float) -> bool:
    """Whether ``shapely.distance`` from the footprint (ring edges ``edges[lo:hi]``, bounds
    ``box``) to the point is below ``d`` > 0: some edge nearer than ``d`` (GEOS's arithmetic),
    else the point inside (distance 0), by the parity of the edges crossed (it lies at
    least ``d`` from each)."""
    for k in range(lo, hi):
        if _geos_point_segment(px, py, edges[k, 0], edges[k, 1], edges[k, 2], edges[k, 3]) < d:
            return True
    if px < box[0] or px > box[2] or py < box[1] or py > box[3]:
        return False
    return _inside_edges(px, py, edges, lo, hi)


@_jit
def _base_runs_into(a: np.ndarray, d: np.ndarray, t: float, edges: np.ndarray, lo: int, hi: int, box: np.ndarray,
                    z0: float, z1: float, h: float, reach: float, ztol: float) -> bool:
    """``table_jump.Jump._blocked`` at ``a + t·d``: the hitbox's heights overlap the
    piece's (``z0``–``z1``) and its base centre comes nearer than ``reach`` to the footprint."""
    z = a[2] + t * d[2]
    if not (z1 > z + ztol and z0 < z + h - ztol):
        return False
    return _footprint_within(a[0] + t * d[0], a[1] + t * d[1], edges, lo, hi, box, reach)


@_jit
def _halve_to_contact(a: np.ndarray, d: np.ndarray, lo: float, hi: float, edges: np.ndarray, e0: int, e1: int,
                      box: np.ndarray, z0: float, z1: float, h: float, reach: float, ztol: float) -> float:
    """``table_jump.Jump._bisect``: the last free parameter of 40 halvings of ``[lo, hi]``."""
    for _ in range(40):
        mid = (lo + hi) / 2
        if _base_runs_into(a, d, mid, edges, e0, e1, box, z0, z1, h, reach, ztol):
            hi = mid
        else:
            lo = mid
    return lo


@_jit
def _jump_first_hit(a: np.ndarray, b: np.ndarray, n: int, pieces: np.ndarray, edges: np.ndarray,
                    starts: np.ndarray, boxes: np.ndarray, heights: np.ndarray, r: float, h: float, contact: float,
                    ztol: float) -> tuple[float, int]:
    """``table_jump.Jump._first_hit`` over the candidate ``pieces`` (in order; footprint
    ``p``'s edges ``edges[starts[p]:starts[p + 1]]``, bounds ``boxes[p]``, heights
    ``heights[p]``): the parameter where the hitbox first touches a piece and that piece
    (1.0, -1: none). The same samples (``np.linspace(0, 1, n)``), halvings and bits."""
    d = b - a
    step = 1.0 / (n - 1)
    best, who = 1.0, -1
    reach = r - contact
    for p in pieces:
        e0, e1, box, z0, z1 = starts[p], starts[p + 1], boxes[p], heights[p, 0], heights[p, 1]
        prev = 0.0
        for i in range(n):
            t = 1.0 if i == n - 1 else i * step
            if not t < best:
                break
            x, y = a[0] + t * d[0], a[1] + t * d[1]
            gx = max(max(box[0] - x, x - box[2]), 0.0)
            gy = max(max(box[1] - y, y - box[3]), 0.0)
            if np.hypot(gx, gy) < reach + 1e-9 and \
                    _base_runs_into(a, d, t, edges, e0, e1, box, z0, z1, h, reach, ztol):
                best = _halve_to_contact(a, d, prev if i else 0.0, t, edges, e0, e1, box, z0, z1, h, reach, ztol)
                who = p
                break
            prev = t
    if who >= 0:  # where it first touches (no gap), from the start when that is free of it
        e0, e1, box, z0, z1 = starts[who], starts[who + 1], boxes[who], heights[who, 0], heights[who, 1]
        if not _base_runs_into(a, d, 0.0, edges, e0, e1, box, z0, z1, h, r, ztol):
            best = _halve_to_contact(a, d, 0.0, best, edges, e0, e1, box, z0, z1, h, r, ztol)
    return best, who


@_inline
def _tangent_at(eox: np.float32, eoy: np.float32, eix: np.float32, eiy: np.float32, dx: np.float32, dy: np.float32,
                lim: np.float32) -> bool:
    """Whether direction (dx, dy) is tangent at a corner with edge directions ``eo``,
    ``ei`` (the numpy filter's float32 operations, in order)."""
    a = eox * dy
    a -= eoy * dx
    b = eiy * dx
    b -= eix * dy
    return bool(a * b >= lim)


@_jit
def _tangent_pairs(x: np.ndarray, y: np.ndarray, eox: np.ndarray, eoy: np.ndarray, eix: np.ndarray, eiy: np.ndarray,
                   free: np.ndarray, group: np.ndarray, near2: np.float32, mtol: np.float32
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``paths.tangent_pairs``' pairs (i < j, in order) from its float32 arrays, with its
    float32 operations one pair at a time (the same bits: no operation is fused)."""
    n = x.shape[0]
    out_i = np.empty(n * (n - 1) // 2, np.int64)
    out_j = np.empty(n * (n - 1) // 2, np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            if group[i] >= 0 and group[i] == group[j]:
                continue
            dx = x[j] - x[i]
            dy = y[j] - y[i]
            lim = dx * dx
            lim += dy * dy
            if not lim < near2:
                lim *= mtol
                if not (free[i] or _tangent_at(eox[i], eoy[i], eix[i], eiy[i], dx, dy, lim)):
                    continue
                if not (free[j] or _tangent_at(eox[j], eoy[j], eix[j], eiy[j], dx, dy, lim)):
                    continue
            out_i[k] = i
            out_j[k] = j
            k += 1
    return out_i[:k], out_j[:k]


@_jit
def _dijkstra(n: int, start: np.ndarray, v: np.ndarray, w: np.ndarray, eid: np.ndarray, src: np.ndarray,
              cost: np.ndarray, limit: float) -> tuple[np.ndarray, np.ndarray]:
    """``paths.dijkstra`` over its adjacency arrays (node ``x``'s out-edges are
    ``start[x]:start[x + 1]`` of ``v``, ``w``, ``eid``): the same heap of (cost, node),
    the same order, the same sums."""
    dist = np.full(n, np.inf)
    pred = np.full(n, -1, np.int64)
    heap = [(0.0, 0)]
    heap.pop()
    for i in range(src.shape[0]):
        s, c = src[i], cost[i]
        if c < dist[s]:
            dist[s] = c
            heap.append((c, s))
    heapq.heapify(heap)
    done = np.zeros(n, np.bool_)
    while len(heap) > 0:
        c, x = heapq.heappop(heap)
        if done[x]:
            continue
        done[x] = True
        for k in range(start[x], start[x + 1]):
            y = v[k]
            nc = c + w[k]
            if nc < dist[y] and nc <= limit:
                dist[y] = nc
                pred[y] = eid[k]
                heapq.heappush(heap, (nc, y))
    return dist, pred


@_jit
def _nmin(a: float, b: float) -> float:
    """np.minimum of two floats (NaN passed on, ties to ``b``)."""
    return a if (a < b or np.isnan(a)) else b


@_jit
def _nmax(a: float, b: float) -> float:
    """np.maximum of two floats (NaN passed on, ties to ``b``)."""
    return a if (a > b or np.isnan(a)) else b


@_jit
def _slab(off: float, rate: float, lo_b: float, hi_b: float) -> tuple[float, float]:
    """``paths._slab`` for one row: the t with lo_b < off + t·rate < hi_b."""
    if abs(rate) < 1e-15:
        inside = off > lo_b and off < hi_b
        return (-np.inf, np.inf) if inside else (np.inf, -np.inf)
    t0, t1 = (lo_b - off) / rate, (hi_b - off) / rate
    return _nmin(t0, t1), _nmax(t0, t1)


@_jit
def _capsule_box(caps: np.ndarray, shrink: float) -> np.ndarray:
    """Each capsule's box grown by its clearance (and by ``-shrink`` where that is
    positive): x0, x1, y0, y1 (``paths._bbox_pairs``)."""
    m = caps.shape[0]
    box = np.empty((m, 4))
    grow = max(0.0, -shrink)
    for j in range(m):
        c0 = caps[j, 4] + grow
        box[j, 0] = min(caps[j, 0], caps[j, 2]) - c0
        box[j, 1] = max(caps[j, 0], caps[j, 2]) + c0
        box[j, 2] = min(caps[j, 1], caps[j, 3]) - c0
        box[j, 3] = max(caps[j, 1], caps[j, 3]) + c0
    return box


@_jit
def _obstacles_in(caps: np.ndarray, owner: np.ndarray, n: int, pad: float, x0: float, y0: float, x1: float,
                  y1: float) -> np.ndarray:
    """``paths.FreeSpace.obstacles_in``: the obstacles (of ``n``, in order) whose box meets
    the box x0, y0, x1, y1; an obstacle's box holds its capsules' (rows with that
    ``owner``; -1: none) each grown by its clearance and ``pad``."""
    lo = np.full((n, 2), np.inf)
    hi = np.full((n, 2), -np.inf)
    for k in range(caps.shape[0]):
        o = owner[k]
        if o < 0:
            continue
        c = caps[k, 4] + pad
        lo[o, 0] = min(lo[o, 0], min(caps[k, 0], caps[k, 2]) - c)
        lo[o, 1] = min(lo[o, 1], min(caps[k, 1], caps[k, 3]) - c)
        hi[o, 0] = max(hi[o, 0], max(caps[k, 0], caps[k, 2]) + c)
        hi[o, 1] = max(hi[o, 1], max(caps[k, 1], caps[k, 3]) + c)
    out = np.empty(n, np.int64)
    m = 0
    for o in range(n):
        if lo[o, 0] <= x1 and hi[o, 0] >= x0 and lo[o, 1] <= y1 and hi[o, 1] >= y0:
            out[m] = o
            m += 1
    return out[:m]


@_inline
def _pair_line(px: float, py: float, dx: float, dy: float, cap: np.ndarray, clear: float, shrink: float
               ) -> tuple[float, float]:
    """``paths.capsule_intervals`` for one (segment, capsule) pair, on the whole line
    (``clip=False``): the parameters where the point p + t·d is closer than
    ``clear - shrink`` to the capsule's segment (lo >= hi: never)."""
    inf = np.inf
    dd = dx * dx + dy * dy
    moving = dd > 1e-24
    safe_dd = dd if moving else 1.0
    c = clear - shrink
    cc = c * c
    lo, hi = inf, -inf
    still_in = False
    for e in (0, 2):
        wx, wy = px - cap[e], py - cap[e + 1]
        bb = dx * wx + dy * wy
        kk = wx * wx + wy * wy - cc
        disc = bb * bb - safe_dd * kk
        if disc > 0 and moving:
            root = np.sqrt(disc)
            lo = _nmin(lo, (-bb - root) / safe_dd)
            hi = _nmax(hi, (-bb + root) / safe_dd)
        still_in = still_in or (not moving and kk < 0)
    ax, ay = cap[0], cap[1]
    sx, sy = cap[2] - ax, cap[3] - ay
    ln = np.hypot(sx, sy)
    if ln > 1e-15:
        inv = 1.0 / ln
        ux, uy = sx * inv, sy * inv
        wx, wy = px - ax, py - ay
        lo_s, hi_s = _slab(ux * wy - uy * wx, ux * dy - uy * dx, -c, c)
        lo_t, hi_t = _slab(ux * wx + uy * wy, ux * dx + uy * dy, 0.0, ln)
        slo, shi = _nmax(lo_s, lo_t), _nmin(hi_s, hi_t)
        if slo < shi:
            lo = _nmin(lo, slo)
            hi = _nmax(hi, shi)
    if still_in:
        return -inf, inf
    return lo, hi


@_inline
def _pair_interval(px: float, py: float, dx: float, dy: float, cap: np.ndarray, clear: float, shrink: float
                   ) -> tuple[float, float]:
    """:func:`_pair_line` clipped to [0, 1]."""
    lo, hi = _pair_line(px, py, dx, dy, cap, clear, shrink)
    return _nmax(lo, 0.0), _nmin(hi, 1.0)


@_inline
def _relaxed(i: int, cap: np.ndarray, shrink: float, relax0: np.ndarray, relax1: np.ndarray) -> float:
    """``paths._relaxed_clearance`` for one pair: the capsule's clearance lowered to the
    distance each relax point of segment ``i`` (non-NaN) already has, less ``RELAX_TOL``,
    plus ``shrink``."""
    clear = cap[4]
    for rel in (relax0, relax1):
        if not np.isnan(rel[i, 0]):
            clear = _nmin(clear, _nmax(_segment_distance(rel[i, 0], rel[i, 1], cap) - RELAX_TOL, 0.0) + shrink)
    return clear


@_inline
def _boxes_meet(box: np.ndarray, j: int, sx0: float, sx1: float, sy0: float, sy1: float) -> bool:
    return sx0 < box[j, 1] and sx1 > box[j, 0] and sy0 < box[j, 3] and sy1 > box[j, 2]


@_inline
def _next_hit(i: int, j0: int, p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, box: np.ndarray, shrink: float,
              relax0: np.ndarray, relax1: np.ndarray) -> tuple[int, float, float]:
    """The first capsule ``j >= j0`` that segment ``i`` comes closer to than its clearance
    (the pairs whose boxes meet, in order), with the interval: (j, lo, hi), or -1."""
    px, py = p0[i, 0], p0[i, 1]
    qx, qy = p1[i, 0], p1[i, 1]
    sx0, sx1 = min(px, qx), max(px, qx)
    sy0, sy1 = min(py, qy), max(py, qy)
    for j in range(j0, caps.shape[0]):
        if not _boxes_meet(box, j, sx0, sx1, sy0, sy1):
            continue
        lo, hi = _pair_interval(px, py, qx - px, qy - py, caps[j], _relaxed(i, caps[j], shrink, relax0, relax1),
                                shrink)
        if lo < hi:
            return j, lo, hi
    return -1, 0.0, 0.0


@_jit
def _violated(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float, relax0: np.ndarray,
              relax1: np.ndarray) -> np.ndarray:
    """``paths.violated``: per segment p0 → p1, whether it comes closer than a capsule's
    clearance less ``shrink`` (each clearance lowered to the distance a relax point,
    non-NaN, already has); the pairs whose boxes meet, row by row, as the numpy twin
    computes them (``_relaxed_clearance``, ``capsule_intervals``)."""
    out = np.zeros(p0.shape[0], np.bool_)
    box = _capsule_box(caps, shrink)
    for i in range(p0.shape[0]):
        out[i] = _next_hit(i, 0, p0, p1, caps, box, shrink, relax0, relax1)[0] >= 0
    return out


@_jit
def _violations(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float, relax0: np.ndarray,
                relax1: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``paths.violations`` before its sort: every (segment, capsule) pair, in row order,
    where the segment comes closer than the clearance, with its interval (lo, hi)."""
    box = _capsule_box(caps, shrink)
    cap_n = 16
    oi = np.empty(cap_n, np.int64)
    oj = np.empty(cap_n, np.int64)
    olo = np.empty(cap_n)
    ohi = np.empty(cap_n)
    k = 0
    for i in range(p0.shape[0]):
        j, lo, hi = _next_hit(i, 0, p0, p1, caps, box, shrink, relax0, relax1)
        while j >= 0:
            if k == cap_n:
                cap_n *= 2
                oi, oj, olo, ohi = _grow_i(oi, cap_n), _grow_i(oj, cap_n), _grow_f(olo, cap_n), _grow_f(ohi, cap_n)
            oi[k], oj[k], olo[k], ohi[k] = i, j, lo, hi
            k += 1
            j, lo, hi = _next_hit(i, j + 1, p0, p1, caps, box, shrink, relax0, relax1)
    return oi[:k], oj[:k], olo[:k], ohi[:k]


@_jit
def _exit_pieces(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, tol: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``paths.exit_param`` up to its inside test: per segment ``i`` and capsule ``j`` the
    interval (lo, hi) on the segment's line within ``c + tol`` of it (unchecked), and the
    pieces of the segment between its crossings of the capsules' segments that have some
    length: segment ``i``'s are ``first[i]:first[i + 1]`` of (``a``, ``b``), each with the
    point (``x``, ``y``) to test inside."""
    n, m = p0.shape[0], caps.shape[0]
    lo = np.empty((n, m))
    hi = np.empty((n, m))
    first = np.zeros(n + 1, np.int64)
    pa, pb, x, y = np.empty((4, n * (m + 1)))
    cross = np.empty(m + 2)
    k = 0
    for i in range(n):
        px, py = p0[i, 0], p0[i, 1]
        dx, dy = p1[i, 0] - px, p1[i, 1] - py
        nc = 1
        cross[0] = 0.0
        for j in range(m):
            lo[i, j], hi[i, j] = _pair_line(px, py, dx, dy, caps[j], caps[j, 4], -tol)
            ex, ey = caps[j, 2] - caps[j, 0], caps[j, 3] - caps[j, 1]
            den = dx * ey - dy * ex
            if not abs(den) > 1e-15:
                continue
            wx, wy = caps[j, 0] - px, caps[j, 1] - py
            t = (wx * ey - wy * ex) / den
            u = (wx * dy - wy * dx) / den
            if t >= 0 and u >= 0 and u <= 1:
                q = nc  # (insertion sort: a handful of crossings)
                while q > 1 and cross[q - 1] > t:
                    cross[q] = cross[q - 1]
                    q -= 1
                cross[q] = t
                nc += 1
        cross[nc] = np.inf
        for q in range(nc):
            a, b = cross[q], cross[q + 1]
            if b > a:
                mid = (a + b) / 2 if np.isfinite(b) else a + 1.0
                pa[k], pb[k], x[k], y[k] = a, b, px + mid * dx, py + mid * dy
                k += 1
        first[i + 1] = k
    return lo, hi, first, pa[:k], pb[:k], x[:k], y[:k]


@_jit
def _exit_reach(lo: np.ndarray, hi: np.ndarray, first: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                inside: np.ndarray) -> np.ndarray:
    """``paths.exit_param`` after its inside test: per segment, from 0 (NaN unless some
    interval, of a capsule or an inside piece, holds it) as far as the intervals reach,
    each starting within 1e-12 of the reach so far."""
    n, m = lo.shape
    tau = np.full(n, np.nan)
    for i in range(n):
        for j in range(m):
            if lo[i, j] < hi[i, j] and lo[i, j] <= 0 and hi[i, j] >= 0:
                tau[i] = 0.0
        for q in range(first[i], first[i + 1]):
            if inside[q] and pa[q] <= 0:
                tau[i] = 0.0
        if np.isnan(tau[i]):
            continue
        t = 0.0
        grown = True
        while grown:  # (to the fixed point: the same whatever the order)
            grown = False
            for j in range(m):
                if lo[i, j] < hi[i, j] and lo[i, j] <= t + 1e-12 and hi[i, j] > t:
                    t, grown = hi[i, j], True
            for q in range(first[i], first[i + 1]):
                if inside[q] and pa[q] <= t + 1e-12 and pb[q] > t:
                    t, grown = pb[q], True
        tau[i] = t
    return tau


@_jit
def _grow_i(a: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(n, np.int64)
    out[:len(a)] = a
    return out


@_jit
def _grow_f(a: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(n)
    out[:len(a)] = a
    return out


@_inline
def _over_under(ta: float, tb: float, zP0: float, zP1: float, zQ0: float, zQ1: float, z0: float, z1: float,
                sealed: bool, eta: float) -> tuple[bool, bool]:
    """Whether every segment of heights ``zP`` → ``zQ`` passes over the piece ``z0``-``z1``
    crossed on (ta, tb), and whether every one passes under it."""
    over = ((1 - ta) * zP1 + ta * zQ1 >= z1 - 1e-12) and ((1 - tb) * zP1 + tb * zQ1 >= z1 - 1e-12)
    need = z0 - (eta if sealed else 0.0)
    under = ((1 - ta) * zP0 + ta * zQ0 <= need) and ((1 - tb) * zP0 + tb * zQ0 <= need)
    return over, under


@_inline
def _raised(lam: float, m0: float, m1: float, top0: float, top1: float) -> tuple[float, float]:
    """The heights from the middle ``m0``-``m1`` raised past ``lam`` of the way to the tops
    (half of what is left above it; none when ``lam`` <= 0)."""
    x = lam
    if not np.isnan(x):
        x = x if x > 0.0 else 0.0
        x = x if x < 1.0 else 1.0
    x = x + (1 - x) / 2 if x > 0 else 0.0
    return m0 + x * (top0 - m0), m1 + x * (top1 - m1)


@_inline
def _lift(t: float, top0: float, top1: float, m0: float, m1: float, z1: float) -> float:
    """How far (0: the middle heights ``m0``-``m1``, 1: the tops ``top0``-``top1``) the
    heights at ``t`` must rise to clear ``z1`` (``los._heights_over``'s ``lam`` at ``t``)."""
    top = (1 - t) * top0 + t * top1
    mid = (1 - t) * m0 + t * m1
    denom = top - mid
    if denom > 0:
        return (z1 - mid) / denom
    return -np.inf if mid >= z1 else np.inf


@_jit
def _witness_heights(bundle: np.ndarray, t0: np.ndarray, t1: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                     sealed: np.ndarray, zP: np.ndarray, zQ: np.ndarray, eta: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``los._heights_over`` (the same operations, the rows in the same order)."""
    n, R = zP.shape[0], bundle.shape[0]
    heights = np.empty((n, 2))
    for k in range(n):
        heights[k, 0] = (zP[k, 0] + zP[k, 1]) / 2
        heights[k, 1] = (zQ[k, 0] + zQ[k, 1]) / 2
    hard = np.zeros(R, np.bool_)
    bad = np.zeros(n, np.bool_)
    amb = np.zeros(n, np.bool_)
    crossed = np.zeros(R, np.bool_)
    for i in range(R):
        if not t1[i] - t0[i] > 1e-12:
            continue
        crossed[i] = True
        k = bundle[i]
        over, under = _over_under(t0[i], t1[i], zP[k, 0], zP[k, 1], zQ[k, 0], zQ[k, 1], z0[i], z1[i], sealed[i], eta)
        if not over and not under:
            hard[i] = True
            bad[k] = True
        elif not over:
            amb[k] = True
    lam = np.zeros(n)
    for i in range(R):  # (in row order, as np.maximum.at)
        if not crossed[i]:
            continue
        k = bundle[i]
        m0, m1 = heights[k, 0], heights[k, 1]
        lam[k] = _nmax(lam[k], _nmax(_lift(t0[i], zP[k, 1], zQ[k, 1], m0, m1, z1[i]),
                                     _lift(t1[i], zP[k, 1], zQ[k, 1], m0, m1, z1[i])))
    for k in range(n):
        if not (bad[k] or amb[k]):
            heights[k, 0], heights[k, 1] = _raised(lam[k], heights[k, 0], heights[k, 1], zP[k, 1], zQ[k, 1])
    return hard, bad, amb, heights


@_inline
def _side_rows(A: np.ndarray, m: int, ta: float, tb: float, over: bool, z1: float, need: float) -> int:
    """Append to ``A`` (``m`` rows so far) the two rows that keep heights over the piece
    crossed on (ta, tb) (>= ``z1`` at both ends) or under it (<= ``need``); the new count."""
    for t in (ta, tb):
        if over:
            A[m, 0], A[m, 1], A[m, 2] = -(1 - t), -t, -z1
        else:
            A[m, 0], A[m, 1], A[m, 2] = 1 - t, t, need
        m += 1
    return m


@_jit
def _heights_lp(under: np.ndarray, starts: np.ndarray, idx: np.ndarray, t0: np.ndarray, t1: np.ndarray,
                z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, zP: np.ndarray, zQ: np.ndarray, eta: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """``los._heights_lp`` of each segment ``k`` in ``under`` over its rows
    ``idx[starts[k]:starts[k + 1]]`` (the same rows in the same order, the same vertices,
    their mean summed in order): whether heights were found, and the heights."""
    found = np.zeros(under.shape[0], np.bool_)
    hts = np.zeros((under.shape[0], 2))
    for u in range(under.shape[0]):
        k = under[u]
        lo, hi = starts[k], starts[k + 1]
        m = hi - lo
        over = np.empty(m, np.bool_)
        under_ok = np.empty(m, np.bool_)
        nboth = 0
        stuck = False
        for j in range(m):
            i = idx[lo + j]
            over[j], under_ok[j] = _over_under(t0[i], t1[i], zP[k, 0], zP[k, 1], zQ[k, 0], zQ[k, 1], z0[i], z1[i],
                                               sealed[i], eta)
            if not over[j] and not under_ok[j]:
                stuck = True
            if over[j] and under_ok[j]:
                nboth += 1
        if stuck or nboth > 10:
            continue
        A = np.empty((4 + 2 * m, 3))
        A[0, 0], A[0, 1], A[0, 2] = -1.0, 0.0, -zP[k, 0]
        A[1, 0], A[1, 1], A[1, 2] = 1.0, 0.0, zP[k, 1]
        A[2, 0], A[2, 1], A[2, 2] = 0.0, -1.0, -zQ[k, 0]
        A[3, 0], A[3, 1], A[3, 2] = 0.0, 1.0, zQ[k, 1]
        nf = 4
        for side in (True, False):  # (the pieces only passed over, then those only passed under)
            for j in range(m):
                if over[j] != under_ok[j] and over[j] == side:
                    i = idx[lo + j]
                    nf = _side_rows(A, nf, t0[i], t1[i], side, z1[i], z0[i] - (eta if sealed[i] else 0.0))
        verts = np.empty(((nf + 2 * nboth) * (nf + 2 * nboth - 1) // 2 + 1, 2))
        for mask in range(1 << nboth):
            nr, b = nf, 0
            for j in range(m):
                if over[j] and under_ok[j]:
                    i = idx[lo + j]
                    nr = _side_rows(A, nr, t0[i], t1[i], not (mask >> b) & 1, z1[i],
                                    z0[i] - (eta if sealed[i] else 0.0))
                    b += 1
            nv = _vertices_into(A, 0, nr, verts)
            if nv:
                sx, sy = verts[0, 0], verts[0, 1]
                for v in range(1, nv):
                    sx += verts[v, 0]
                    sy += verts[v, 1]
                found[u] = True
                hts[u, 0], hts[u, 1] = sx / nv, sy / nv
                break
    return found, hts


@_jit
def _region_bbox(D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """``los._region_bbox``: the box of each disc ∩ half-plane (its four extreme points
    and the chord's two ends that lie in the region)."""
    n = D.shape[0]
    out = np.empty((n, 4))
    px = np.empty(6)
    py = np.empty(6)
    ok = np.empty(6, np.bool_)
    for r in range(n):
        cx, cy, rad = D[r, 0], D[r, 1], D[r, 2]
        nx, ny, c0 = H[r, 0], H[r, 1], H[r, 2]
        px[0], py[0] = cx - rad, cy
        px[1], py[1] = cx + rad, cy
        px[2], py[2] = cx, cy - rad
        px[3], py[3] = cx, cy + rad
        for k in range(4):
            ok[k] = nx * px[k] + ny * py[k] >= c0 - 1e-12
        off = c0 - (nx * cx + ny * cy)
        half = np.sqrt(max(rad * rad - off * off, 0.0))
        mx, my = cx + off * nx, cy + off * ny
        chord = abs(off) <= rad and (nx != 0 or ny != 0)
        for k, sgn in ((4, -1.0), (5, 1.0)):
            px[k] = mx - sgn * ny * half
            py[k] = my + sgn * nx * half
            ok[k] = chord
        x0 = y0 = np.inf
        x1 = y1 = -np.inf
        for k in range(6):
            if ok[k]:  # (+ 0.0 as the twin adds it: -0.0 becomes 0.0)
                x0 = min(x0, px[k] + 0.0)
                y0 = min(y0, py[k] + 0.0)
                x1 = max(x1, px[k] - 0.0)
                y1 = max(y1, py[k] - 0.0)
        out[r, 0], out[r, 1], out[r, 2], out[r, 3] = x0, y0, x1, y1
    return out


@_jit
def _support_one(v: np.ndarray, D: np.ndarray, g: int, a0: float, a1: float, norm: float) -> float:
    """``los._support`` of patch ``v[g]`` (W, 2) in its disc ``D[g]`` in direction (a0,
    a1) of length ``norm`` (np.hypot(a0, a1)): NaN where a vertex is (np.max and
    np.minimum pass NaN on)."""
    hv = -np.inf
    for w in range(v.shape[1]):
        x = a0 * v[g, w, 0] + a1 * v[g, w, 1]
        if np.isnan(x):
            return np.nan
        if x > hv:
            hv = x
    hd = a0 * D[g, 0] + a1 * D[g, 1] + D[g, 2] * norm
    if np.isnan(hd):
        return np.nan
    return hv if hv < hd else hd


@_jit
def _bound(lo: float, hi: float, never: bool, num: float, den: float) -> tuple[float, float, bool]:
    """The interval (lo, hi) of t cut by t·den < num (``los._clip``'s column): an upper
    bound where den > 0, a lower one where den < 0, and no t at all where den = 0 and num <= 0."""
    if den > 0:
        hi = min(hi, num / den)
    elif den < 0:
        lo = max(lo, num / den)
    elif den == 0 and num <= 0:
        never = True
    return lo, hi, never


@_jit
def _containment(vP: np.ndarray, vQ: np.ndarray, DP: np.ndarray, DQ: np.ndarray, b: np.ndarray, piece: np.ndarray,
                 round_: np.ndarray, want: np.ndarray, hp: np.ndarray, t0r: np.ndarray, t1r: np.ndarray, zP: np.ndarray,
                 zQ: np.ndarray, z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, eta: float, big: float
                 ) -> np.ndarray:
    """``los._blocked_rows``' containment test, row by row: the t-interval where the
    combination (1-t)P + tQ of the bundle's patches lies inside the piece (support
    functions against its half-planes; a round piece's interval is given, ``t0r``/``t1r``),
    then whether every segment there is below its top and not under its bottom; only the
    rows ``want`` (False elsewhere)."""
    R = b.shape[0]
    out = np.zeros(R, np.bool_)
    for r in range(R):
        if not want[r]:
            continue
        g = b[r]
        if round_[r]:
            t0, t1 = t0r[r], t1r[r]
        else:
            lo, hi = -np.inf, np.inf
            never = False
            for k in range(hp.shape[1]):
                a0, a1, off = hp[piece[r], k, 0], hp[piece[r], k, 1], hp[piece[r], k, 2]
                if off >= big / 2:  # (padding: no bound)
                    continue
                norm = np.hypot(a0, a1)
                hP = _support_one(vP, DP, g, a0, a1, norm)
                hQ = _support_one(vQ, DQ, g, a0, a1, norm)
                lo, hi, never = _bound(lo, hi, never, off - hP, hQ - hP)
                if never or (hi if hi < 1.0 else 1.0) - (lo if lo > 0.0 else 0.0) <= 1e-12:
                    break  # (the interval only shrinks: empty for good)
            t0 = lo if lo > 0.0 else 0.0
            t1 = -np.inf if never else (hi if hi < 1.0 else 1.0)
        if not t1 - t0 > 1e-12:  # (NaN too)
            continue
        # every segment below the top and not under the bottom for some t in (t0, t1)
        need = z0[r] + (0.0 if sealed[r] else eta)
        dtop = zQ[g, 1] - zP[g, 1]
        dbot = zQ[g, 0] - zP[g, 0]
        lo, hi, never = t0, t1, False
        lo, hi, never = _bound(lo, hi, never, z1[r] - zP[g, 1], dtop)
        lo, hi, never = _bound(lo, hi, never, zP[g, 0] - need + 1e-15, -dbot)
        out[r] = not never and hi - lo > 1e-12
    return out


@_jit
def _xrange(k: np.ndarray, hp: np.ndarray, count: np.ndarray, tol: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    R, V, _ = k.shape
    lo = np.zeros(R)
    hi = np.zeros(R)
    hit = np.zeros(R, np.bool_)
    E = hp.shape[1]
    cap = 2 * (V + E) + 4  # (a convex polygon gains one vertex per clip; rounding may add more)
    a = np.empty((cap, 2))
    b = np.empty((cap, 2))
    for r in range(R):
        if np.isnan(k[r, 0, 0]):
            continue
        n = 0
        for i in range(V):  # (padded by repetition: repeats add nothing)
            if n == 0 or k[r, i, 0] != a[n - 1, 0] or k[r, i, 1] != a[n - 1, 1]:
                a[n, 0] = k[r, i, 0]
                a[n, 1] = k[r, i, 1]
                n += 1
        while n > 1 and a[n - 1, 0] == a[0, 0] and a[n - 1, 1] == a[0, 1]:
            n -= 1
        full = False
        for e in range(count[r]):
            nx, ny, c = hp[r, e, 0], hp[r, e, 1], hp[r, e, 2] - tol
            m = 0
            if 2 * n + 2 > cap:
                full = True
                break
            for i in range(n):
                j = i + 1 if i + 1 < n else 0
                sa = a[i, 0] * nx + a[i, 1] * ny - c
                sb = a[j, 0] * nx + a[j, 1] * ny - c
                if sa >= 0:
                    b[m, 0] = a[i, 0]
                    b[m, 1] = a[i, 1]
                    m += 1
                if (sa >= 0) != (sb >= 0):
                    t = sa / (sa - sb)
                    b[m, 0] = a[i, 0] + (a[j, 0] - a[i, 0]) * t
                    b[m, 1] = a[i, 1] + (a[j, 1] - a[i, 1]) * t
                    m += 1
            n = m
            a, b = b, a
            if n == 0:
                break
        if full:  # (never met on convex input: the whole polygon's range, a superset)
            lo[r], hi[r], hit[r] = np.nanmin(k[r, :, 0]), np.nanmax(k[r, :, 0]), True
        elif n > 0:
            x0 = a[0, 0]
            x1 = a[0, 0]
            for i in range(1, n):
                x0 = min(x0, a[i, 0])
                x1 = max(x1, a[i, 0])
            lo[r], hi[r], hit[r] = x0, x1, True
    return lo, hi, hit


@_jit
def _near(c: np.ndarray, j: int, ox: float, oy: float, dx: float, dy: float, lo: float, hi: float, pad: float
          ) -> bool:
    """Whether the circle ``c[j]`` (x, y, r) comes within ``pad`` of o + t·d, t in [lo, hi]
    (the twin of ``los._near_segment``: its verdicts)."""
    wx, wy = c[j, 0] - ox, c[j, 1] - oy
    t = min(max((wx * dx + wy * dy) / max(dx * dx + dy * dy, 1e-300), lo), hi)
    ex, ey, lim = wx - t * dx, wy - t * dy, c[j, 2] + pad
    if lim >= 1e-100:  # (the squared distance, off by a few ulps, decides unless it is this near)
        q, l2 = ex * ex + ey * ey, lim * lim
        if q < l2 * (1.0 - 1e-9):
            return True
        if q > l2 * (1.0 + 1e-9):
            return False
    return np.hypot(ex, ey) <= lim


@_jit
def _near_rows(c: np.ndarray, a: np.ndarray, d: np.ndarray, pad: np.ndarray) -> np.ndarray:
    """:func:`_near` row by row over t in [0, 1] (``los._near_segment``'s default range)."""
    n = c.shape[0]
    out = np.empty(n, np.bool_)
    for i in range(n):
        out[i] = _near(c, i, a[i, 0], a[i, 1], d[i, 0], d[i, 1], 0.0, 1.0, pad[i])
    return out


@_jit
def _halfplane_span(hp: np.ndarray, p: int, ox: float, oy: float, dx: float, dy: float, margin: float, lo: float,
                    hi: float) -> tuple[float, float]:
    """The open interval of t within [lo, hi] where o + t·d keeps a·x < b - margin for
    every row of ``hp[p]`` (padding rows never bind); hi = -inf where a row parallel to d
    is never kept (the twin of ``los._clip``)."""
    for e in range(hp.shape[1]):
        num = hp[p, e, 2] - margin - (hp[p, e, 0] * ox + hp[p, e, 1] * oy)
        den = hp[p, e, 0] * dx + hp[p, e, 1] * dy
        if den > 0:
            hi = min(hi, num / den)
        elif den < 0:
            lo = max(lo, num / den)
        elif num <= 0:
            hi = -np.inf
    return lo, hi


@_jit
def _line_chord(hp: np.ndarray, circ: np.ndarray, p: int, is_round: bool, ox: float, oy: float, dx: float,
                dy: float) -> tuple[float, float]:
    """The open interval of s where o + s·d is inside piece ``p``: its half-planes
    ``hp[p]`` a·x < b (padding rows never bind), or its circle's ``circ[p]`` chord when
    round; (inf, -inf) when none."""
    if is_round:
        wx, wy = circ[p, 0] - ox, circ[p, 1] - oy
        sc = wx * dx + wy * dy
        h2 = circ[p, 2] * circ[p, 2] - (wx * wx + wy * wy - sc * sc)
        if h2 > 0:
            half = np.sqrt(h2)
            return sc - half, sc + half
        return np.inf, -np.inf
    return _halfplane_span(hp, p, ox, oy, dx, dy, 0.0, -np.inf, np.inf)


@_jit
def _separators(o: np.ndarray, d: np.ndarray, bund: np.ndarray, CP: np.ndarray, CQ: np.ndarray, zP: np.ndarray,
                zQ: np.ndarray, order: np.ndarray, first: np.ndarray, last: np.ndarray, piece: np.ndarray,
                z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, round_: np.ndarray, halfplanes: np.ndarray,
                piece_circle: np.ndarray, eta: float) -> tuple[np.ndarray, np.ndarray]:
    R, V = o.shape[0], CP.shape[1]
    covered = np.zeros(R, np.bool_)
    named = np.zeros(R, np.bool_)
    most = 1
    for b in range(first.shape[0]):
        most = max(most, last[b] - first[b])
    lo_buf = np.empty(most)
    hi_buf = np.empty(most)
    r_buf = np.empty(most, np.int64)
    dP = np.empty(V)
    dQ = np.empty(V)
    sP = np.empty(V)
    sQ = np.empty(V)
    for k in range(R):
        b = bund[k]
        ox, oy, dx, dy = o[k, 0], o[k, 1], d[k, 0], d[k, 1]
        nx, ny = -dy, dx
        flip = -1.0 if (CP[b, 0, 0] - ox) * nx + (CP[b, 0, 1] - oy) * ny < 0 else 1.0
        apart = True
        for v in range(V):  # the line must separate the patches
            dP[v] = ((CP[b, v, 0] - ox) * nx + (CP[b, v, 1] - oy) * ny) * flip
            dQ[v] = -((CQ[b, v, 0] - ox) * nx + (CQ[b, v, 1] - oy) * ny) * flip
            if not (dP[v] > 0 and dQ[v] > 0):
                apart = False
                break
            sP[v] = (CP[b, v, 0] - ox) * dx + (CP[b, v, 1] - oy) * dy
            sQ[v] = (CQ[b, v, 0] - ox) * dx + (CQ[b, v, 1] - oy) * dy
        if not apart:
            continue
        # the stretch [smin, smax] of the line the segments cross, at t in [tlo, thi]
        smin, smax = np.inf, -np.inf
        pmin, pmax, qmin, qmax = np.inf, -np.inf, np.inf, -np.inf
        for v in range(V):
            pmin, pmax = min(pmin, dP[v]), max(pmax, dP[v])
            qmin, qmax = min(qmin, dQ[v]), max(qmax, dQ[v])
            for w in range(V):
                s = (dQ[w] * sP[v] + dP[v] * sQ[w]) / (dP[v] + dQ[w])
                smin, smax = min(smin, s), max(smax, s)
        tlo, thi = pmin / (pmin + qmax), pmax / (pmax + qmin)
        top = max((1 - tlo) * zP[b, 1] + tlo * zQ[b, 1], (1 - thi) * zP[b, 1] + thi * zQ[b, 1])
        bot = min((1 - tlo) * zP[b, 0] + tlo * zQ[b, 0], (1 - thi) * zP[b, 0] + thi * zQ[b, 0])
        # the bundle's solids that rise above every segment over the crossings may cover
        # the line together (abutting walls, the pieces of one ruin)
        n = 0
        for c in range(first[b], last[b]):
            r = order[c]
            p = piece[r]
            need = z0[r] + (0.0 if sealed[r] else eta)
            if not (top < z1[r] and bot >= need):
                continue
            if not _near(piece_circle, p, ox, oy, dx, dy, smin, smax, 1e-9):
                continue  # (a piece whose bounding circle misses the line's stretch covers none of it)
            a, e = _line_chord(halfplanes, piece_circle, p, round_[r], ox, oy, dx, dy)
            if max(a, smin) < min(e, smax):
                lo_buf[n] = a
                hi_buf[n] = e
                r_buf[n] = r
                n += 1
        if n == 0:
            continue
        # sweep the intervals in order: covered when they start before smin, leave no gap
        # and reach past smax (touching is a gap: a sight line may pass keeping exactly ε)
        srt = np.argsort(lo_buf[:n], kind="mergesort")  # (stable: ties in the numpy twin's order)
        if not lo_buf[srt[0]] < smin - 1e-12:
            continue
        reach = hi_buf[srt[0]]
        gap = False
        for i in range(1, n):
            j = srt[i]
            if lo_buf[j] >= reach - 1e-12:
                gap = True
                break
            reach = max(reach, hi_buf[j])
        covered[k] = not gap and reach > smax + 1e-12
        if covered[k]:
            for i in range(n):
                if r_buf[i] != k:
                    named[r_buf[i]] = True
    return covered, named


@_jit
def _hull_halfplanes(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    B, N, _ = pts.shape
    P = max(N * (N - 1), 1)
    rows = np.zeros((B, P, 3))
    count = np.zeros(B, np.int64)
    ang = np.empty(P)
    cand = np.empty((P, 3))
    uniq = np.empty(N, np.int64)
    for b in range(B):
        scale = 0.0
        for i in range(N):
            scale = max(scale, abs(pts[b, i, 0]), abs(pts[b, i, 1]))
            if np.isnan(pts[b, i, 0]) or np.isnan(pts[b, i, 1]):
                scale = np.nan
        scale = 1e-12 * (1.0 + scale)
        # (a repeated point adds only the edges of its first occurrence, found before)
        nu = 0
        for i in range(N):
            seen = False
            for e in range(nu):
                if pts[b, i, 0] == pts[b, uniq[e], 0] and pts[b, i, 1] == pts[b, uniq[e], 1]:
                    seen = True
                    break
            if not seen:
                uniq[nu] = i
                nu += 1
        n = 0
        for ei in range(nu):  # an edge joins two points with every point on its left
            i = uniq[ei]
            for ej in range(nu):
                j = uniq[ej]
                if i == j:
                    continue
                ex, ey = pts[b, j, 0] - pts[b, i, 0], pts[b, j, 1] - pts[b, i, 1]
                ln = np.hypot(ex, ey)
                if not ln > 1e-15:
                    continue
                nx, ny = -ey / ln, ex / ln
                c = nx * pts[b, i, 0] + ny * pts[b, i, 1]
                edge = True
                for ek in range(nu):
                    k = uniq[ek]
                    if not nx * pts[b, k, 0] + ny * pts[b, k, 1] - c >= -scale:
                        edge = False
                        break
                if edge:
                    ang[n] = np.arctan2(ey, ex)
                    cand[n, 0], cand[n, 1], cand[n, 2] = nx, ny, c
                    n += 1
        srt = np.argsort(ang[:n], kind="mergesort")
        m = 0
        for s in range(n):  # (edges of one direction lie on one line: keep the first)
            if s > 0 and ang[srt[s]] - ang[srt[s - 1]] <= 1e-12:
                continue
            rows[b, m] = cand[srt[s]]
            m += 1
        count[b] = m
        for s in range(m, P):
            rows[b, s] = rows[b, max(m - 1, 0)]
    E = 1
    for b in range(B):
        E = max(E, count[b])
    return rows[:, :E].copy(), count


@_jit
def _crossings(pp: np.ndarray, dd: np.ndarray, piece: np.ndarray, circ: np.ndarray, halfplanes: np.ndarray,
               piece_circle: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    R = pp.shape[0]
    t0 = np.empty(R)
    t1 = np.empty(R)
    for r in range(R):
        t0[r], t1[r] = _crossing(pp[r, 0], pp[r, 1], dd[r, 0], dd[r, 1], piece[r], circ, r, halfplanes, piece_circle,
                                 margin)
    return t0, t1


@_inline
def _crossing(px: float, py: float, dx: float, dy: float, p: int, circ: np.ndarray, r: int, halfplanes: np.ndarray,
              piece_circle: np.ndarray, margin: float) -> tuple[float, float]:
    """:func:`_crossings` of one row: piece ``p``, its owner's circle ``circ[r]``."""
    if not _near(piece_circle, p, px, py, dx, dy, 0.0, 1.0, max(0.0, -margin) + 1e-9):
        return 1.0, 0.0  # (only a piece whose bounding circle comes near the segment is solved)
    if np.isnan(circ[r, 0]):  # a convex piece: its half-planes a·x < b - margin
        return _halfplane_span(halfplanes, p, px, py, dx, dy, margin, 0.0, 1.0)
    A = dx * dx + dy * dy
    cx, cy, rad = circ[r, 0], circ[r, 1], circ[r, 2] - margin  # a round owner: its true circle
    ex, ey = px - cx, py - cy
    B = 2 * (dx * ex + dy * ey)
    C = ex * ex + ey * ey - rad * rad
    if A < 1e-24:  # (a point)
        return (0.0, 1.0) if C < 0 else (1.0, 0.0)
    disc = B * B - 4 * A * C
    if disc > 0:
        sq = np.sqrt(disc)
        return max((-B - sq) / (2 * A), 0.0), min((-B + sq) / (2 * A), 1.0)
    return 1.0, 0.0


@_jit
def _chord_of(k: np.ndarray, al: float, be: float) -> tuple[float, float]:
    """Where the line y = al + be·x enters and leaves the interior of the convex polygon
    ``k`` (W, 2; padded by repetition): (inf, -inf) when it does not cross it."""
    W = k.shape[0]
    xe, xf = np.inf, -np.inf
    smin, smax = np.inf, -np.inf
    for w in range(W):
        nx = w + 1 if w + 1 < W else 0
        s = k[w, 1] - al - be * k[w, 0]
        sn = k[nx, 1] - al - be * k[nx, 0]
        if np.isnan(s):
            return np.inf, -np.inf
        smin, smax = min(smin, s), max(smax, s)
        if (s < 0 and sn > 0) or (s > 0 and sn < 0):
            xc = k[w, 0] + (k[nx, 0] - k[w, 0]) * (s / (s - sn))
            xe, xf = min(xe, xc), max(xf, xc)
    if smin < 0 and smax > 0:
        return xe, xf
    return np.inf, -np.inf


@_jit
def _chords(k: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = k.shape[0], lines.shape[1]
    xe = np.empty((m, n))
    xf = np.empty((m, n))
    for i in range(m):
        ln = lines[i if lines.shape[0] > 1 else 0]
        for j in range(n):
            xe[i, j], xf[i, j] = _chord_of(k[i], ln[j, 0], ln[j, 1])
    return xe, xf


@_jit
def _inside_everywhere(k: np.ndarray, x: float, V: np.ndarray) -> bool:
    """Whether every line y = α + βx, (α, β) a row of ``V`` (NaN rows ignored), lies
    strictly inside the vertical chord of the polygon ``k`` at ``x``."""
    W = k.shape[0]
    ylo, yhi = np.inf, -np.inf
    for w in range(W):
        nx = w + 1 if w + 1 < W else 0
        ax, ay, bx, by = k[w, 0], k[w, 1], k[nx, 0], k[nx, 1]
        dx = bx - ax
        if min(ax, bx) <= x <= max(ax, bx) and abs(dx) > 1e-15:
            y = ay + (x - ax) / dx * (by - ay)
            ylo, yhi = min(ylo, y), max(yhi, y)
    for v in range(V.shape[0]):
        y = V[v, 0] + V[v, 1] * x
        if not np.isnan(y) and not (ylo < y < yhi):
            return False
    return True


@_jit
def _inside_run(k: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m = k.shape[0]
    xa = np.ones(m)
    xb = np.zeros(m)
    for i in range(m):
        Vi = V[i if V.shape[0] > 1 else 0]
        lo, hi = -np.inf, np.inf
        for v in range(Vi.shape[0]):
            if np.isnan(Vi[v, 0]):
                continue
            e, f = _chord_of(k[i], Vi[v, 0], Vi[v, 1])
            lo, hi = max(lo, e), min(hi, f)
        if not (np.isfinite(lo) and np.isfinite(hi)):
            continue
        pad = 1e-9 * (1.0 + abs(lo) + abs(hi)) + 1e-6 * max(hi - lo, 0.0)
        a, b = lo + pad, hi - pad
        if a <= b and _inside_everywhere(k[i], a, Vi) and _inside_everywhere(k[i], b, Vi):
            xa[i], xb[i] = a, b
    return xa, xb


@_jit
def _clear_of(k: np.ndarray, V: np.ndarray, kidx: np.ndarray, vidx: np.ndarray, wd: float, slack: float
              ) -> np.ndarray:
    n = kidx.shape[0]
    out = np.zeros(n, np.bool_)
    for e in range(n):
        a, b = kidx[e], vidx[e]
        lo, hi = np.inf, -np.inf
        for w in range(k.shape[1]):
            if w and k[a, w, 0] == k[a, 0, 0] and k[a, w, 1] == k[a, 0, 1]:
                continue  # (a repeat of the first vertex, the padding: the same gaps)
            for v in range(V.shape[1]):
                gap = V[b, v, 0] + V[b, v, 1] * k[a, w, 0] - k[a, w, 1]
                if not np.isnan(gap):
                    lo, hi = min(lo, gap), max(hi, gap)
            if lo < wd + slack and hi > -wd - slack:
                break  # (neither can hold any more: the range only grows)
        out[e] = lo <= hi and (hi <= -wd - slack or lo >= wd + slack)
    return out


@_jit
def _disc_containment(P: np.ndarray, Q: np.ndarray, circ: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    R, V = P.shape[0], P.shape[1]
    W = Q.shape[1]
    t0 = np.empty(R)
    t1 = np.empty(R)
    for r in range(R):
        cx, cy, rad = circ[r, 0], circ[r, 1], circ[r, 2]
        lo_all, hi_all = -np.inf, np.inf
        nan_lo, nan_hi = False, False
        for v in range(V):
            ax, ay = P[r, v, 0] - cx, P[r, v, 1] - cy
            for w in range(W):
                ex, ey = Q[r, w, 0] - P[r, v, 0], Q[r, w, 1] - P[r, v, 1]
                A = ex * ex + ey * ey
                B = 2 * (ax * ex + ay * ey)
                C = ax * ax + ay * ay - rad * rad
                if A > 1e-24:
                    disc = B * B - 4 * A * C
                    if disc <= 0:
                        lo, hi = np.inf, (-B + 0.0) / (2 * A)
                    elif disc > 0:
                        sq = np.sqrt(disc)
                        lo, hi = (-B - sq) / (2 * A), (-B + sq) / (2 * A)
                    else:
                        lo, hi = np.nan, np.nan
                else:  # (a point, or NaN: inside for all t or for none)
                    lo, hi = (-np.inf, np.inf) if C < 0 else (np.inf, -np.inf)
                nan_lo |= np.isnan(lo)
                nan_hi |= np.isnan(hi)
                lo_all, hi_all = max(lo_all, lo), min(hi_all, hi)
        t0[r] = np.nan if nan_lo else max(lo_all, 0.0)
        t1[r] = np.nan if nan_hi else min(hi_all, 1.0)
    return t0, t1


@_jit
def _binding_vertices(k: np.ndarray, kidx: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    R, W = kidx.shape[0], k.shape[1]
    lo_v = np.empty((R, 3, 2))
    hi_v = np.empty((R, 3, 2))
    for r in range(R):
        kk = k[kidx[r]]
        for s in range(3):
            beta = b_lo[r] if s == 0 else ((b_lo[r] + b_hi[r]) / 2 if s == 1 else b_hi[r])
            best_lo, best_hi = np.inf, -np.inf
            ilo, ihi = 0, 0
            for w in range(W):
                val = kk[w, 1] - beta * kk[w, 0]
                if val < best_lo:  # (NaN: never chosen; the first of equals)
                    best_lo, ilo = val, w
                if val > best_hi:
                    best_hi, ihi = val, w
            lo_v[r, s, 0], lo_v[r, s, 1] = kk[ilo, 0], kk[ilo, 1]
            hi_v[r, s, 0], hi_v[r, s, 1] = kk[ihi, 0], kk[ihi, 1]
    return lo_v, hi_v


@_jit
def _candidate(ax: float, ay: float, bx: float, by: float, m: int, tt: np.ndarray, pcs: np.ndarray, circ: np.ndarray,
               z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, multi: np.ndarray, halfplanes: np.ndarray,
               piece_circle: np.ndarray, zP: np.ndarray, zQ: np.ndarray, i: int, eta: float) -> tuple[int, float, float]:
    """One witness candidate, the plan segment (ax, ay) → (bx, by), against pair ``i``'s
    first ``m`` pieces ``pcs`` (``los._try_witnesses`` for one segment, as :func:`_crossings` and
    :func:`_witness_heights` find it; ``tt``: room for its crossings): 0 when no heights
    clear every piece, 1 with the heights when they do, 2 when the exact 2-D problem must
    decide (a piece it may pass under) or it runs along a seam of one footprint."""
    dx, dy = bx - ax, by - ay
    zP0, zP1, zQ0, zQ1 = zP[i, 0], zP[i, 1], zQ[i, 0], zQ[i, 1]
    bad, amb = False, False
    for k in range(m):
        t0, t1 = _crossing(ax, ay, dx, dy, pcs[k], circ, k, halfplanes, piece_circle, eta)
        tt[k, 0], tt[k, 1] = t0, t1
        if t1 - t0 > 1e-12:
            over, under = _over_under(t0, t1, zP0, zP1, zQ0, zQ1, z0[k], z1[k], sealed[k], eta)
            bad = bad or not (over or under)
            amb = amb or (under and not over)
    if bad:
        return 0, 0.0, 0.0
    if amb:
        return 2, 0.0, 0.0
    for k in range(m):
        if multi[k] and not tt[k, 1] - tt[k, 0] > 1e-12:
            b0, b1 = _crossing(ax, ay, dx, dy, pcs[k], circ, k, halfplanes, piece_circle, -eta)
            if b1 - b0 >= 0:
                return 2, 0.0, 0.0
    m0, m1 = (zP0 + zP1) / 2, (zQ0 + zQ1) / 2
    lam = 0.0
    for k in range(m):  # (in row order, as _witness_heights)
        if tt[k, 1] - tt[k, 0] > 1e-12:
            lam = _nmax(lam, _nmax(_lift(tt[k, 0], zP1, zQ1, m0, m1, z1[k]), _lift(tt[k, 1], zP1, zQ1, m0, m1, z1[k])))
    u, w = _raised(lam, m0, m1, zP1, zQ1)
    return 1, u, w


@_jit
def _seen_segment(tried: np.ndarray, nt: int, ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether the segment (ax, ay) → (bx, by) is one of the first ``nt`` rows of ``tried``."""
    for k in range(nt):
        if tried[k, 0] == ax and tried[k, 1] == ay and tried[k, 2] == bx and tried[k, 3] == by:
            return True
    return False


@_jit
def _round_one(src: np.ndarray, dst: np.ndarray, H: np.ndarray, thin: float, owner_box: np.ndarray, owner_bound: np.ndarray,
               owner_z0: np.ndarray, owner_z1: np.ndarray, owner_sealed: np.ndarray, owner_circle: np.ndarray,
               owner_start: np.ndarray, owner_npieces: np.ndarray, piece_circle: np.ndarray, piece_round: np.ndarray,
               piece_axis: np.ndarray, halfplanes: np.ndarray, eta: float, big: float, ncorner: int
               ) -> tuple[np.ndarray, ...]:
    """The first round of ``los.line_of_sight_batch`` for every pair in arc (E-ARC: the
    target ``dst[i]`` reaches into the front half-plane ``H[i]`` of the source ``src[i]``;
    both viewer rows x, y, r, z, h, owner), in one compiled pass over the kernels it
    calls (the same operations, the same bits): the whole regions as the bundle, the
    corridor's pieces, the single-solid proofs (containment, separators) on the tall
    ones, the centre and corner witness candidates, then the grid of every patch corner
    and the centre. Per pair: whether it is out of arc, status (0 left to the search or
    out of arc, 1 a witness, 2 blocked, 3 for the chain test), the witness (x0, y0, z0,
    x1, y1, z1), the proof's kinds (1 separator, 2 containment) and, for a pair blocked,
    its solids (``owners[at[i]:at[i + 1]]``, in order); the rows (pair's ``first`` and
    ``count``, piece, owner) and the patches. A pair whose first round needs more (an
    empty or thin patch, a candidate that may pass under a piece, one along a seam) is
    left to the search."""
    n, no = src.shape[0], owner_z0.shape[0]
    # the pairs' discs (x, y, r), heights (z0, z1) and own owners, as ``los._pair_values``
    P, Q = np.empty((n, 3)), np.empty((n, 3))
    zP, zQ = np.empty((n, 2)), np.empty((n, 2))
    own_p, own_q = np.empty(n, np.int64), np.empty(n, np.int64)
    arc = np.empty(n, np.bool_)
    for i in range(n):
        for k in range(3):
            P[i, k], Q[i, k] = src[i, k], dst[i, k]
        zP[i, 0], zP[i, 1] = src[i, 3], src[i, 4] + src[i, 3]
        zQ[i, 0], zQ[i, 1] = dst[i, 3], dst[i, 4] + dst[i, 3]
        own_p[i], own_q[i] = int(src[i, 5]), int(dst[i, 5])
        arc[i] = H[i, 0] * Q[i, 0] + H[i, 1] * Q[i, 1] + Q[i, 2] - H[i, 2] < -1e-12
    live = ~arc
    status = np.zeros(n, np.int64)
    wit = np.full((n, 6), np.nan)
    kinds = np.zeros(n, np.int64)
    named = np.zeros((n, no), np.bool_)
    bP = _region_bbox(P, H)
    bQ = _region_bbox(Q, H)
    vP, okP = _patches(bP, P, H)
    vQ, okQ = _patches(bQ, Q, H)
    V = vP.shape[1]
    cP = np.full((n, 2), np.nan)
    cQ = np.full((n, 2), np.nan)
    go = np.zeros(n, np.bool_)
    p = np.empty((n, 2))  # (the centres' projections: only where the pair goes on)
    q = np.empty((n, 2))
    for i in range(n):
        small = max(np.hypot(bP[i, 2] - bP[i, 0], bP[i, 3] - bP[i, 1]),
                    np.hypot(bQ[i, 2] - bQ[i, 0], bQ[i, 3] - bQ[i, 1])) < thin
        go[i] = live[i] and okP[i] and okQ[i] and not small
        if go[i]:
            for k in range(2):
                sp, sq = vP[i, 0, k], vQ[i, 0, k]
                for v in range(1, V):
                    sp += vP[i, v, k]
                    sq += vQ[i, v, k]
                cP[i, k], cQ[i, k] = sp / V, sq / V
            p[i, 0], p[i, 1] = _project_one(cP[i, 0], cP[i, 1], P, H, i)
            q[i, 0], q[i, 1] = _project_one(cQ[i, 0], cQ[i, 1], Q, H, i)
    # the corridor's pieces near the bundle, pair by pair (rows sorted by pair)
    count = np.zeros(n, np.int64)
    cap = int(go.sum()) * int(owner_npieces.sum())
    rb = np.empty(cap, np.int64)
    rp = np.empty(cap, np.int64)
    ro = np.empty(cap, np.int64)
    R = 0
    for i in range(n):
        if not go[i]:
            continue
        rad = max(P[i, 2], Q[i, 2]) + 1e-6
        bx0, bx1 = min(P[i, 0], Q[i, 0]) - rad, max(P[i, 0], Q[i, 0]) + rad
        by0, by1 = min(P[i, 1], Q[i, 1]) - rad, max(P[i, 1], Q[i, 1]) + rad
        zlo, zhi = min(zP[i, 0], zQ[i, 0]), max(zP[i, 1], zQ[i, 1])
        rPi, rQi = np.hypot(p[i, 0] - cP[i, 0], p[i, 1] - cP[i, 1]), np.hypot(q[i, 0] - cQ[i, 0], q[i, 1] - cQ[i, 1])
        for v in range(V):
            rPi = max(rPi, np.hypot(vP[i, v, 0] - cP[i, 0], vP[i, v, 1] - cP[i, 1]))
            rQi = max(rQi, np.hypot(vQ[i, v, 0] - cQ[i, 0], vQ[i, v, 1] - cQ[i, 1]))
        pad = max(rPi, rQi) + 1e-9
        for o in range(no):
            if o == own_p[i] or o == own_q[i] or not (owner_z1[o] > zlo and owner_z0[o] < zhi):
                continue
            if owner_box[o, 0] > bx1 or owner_box[o, 2] < bx0 or owner_box[o, 1] > by1 or owner_box[o, 3] < by0:
                continue
            if not _near(owner_bound, o, P[i, 0], P[i, 1], Q[i, 0] - P[i, 0], Q[i, 1] - P[i, 1], 0.0, 1.0, rad):
                continue
            for pc in range(owner_start[o], owner_start[o] + owner_npieces[o]):
                if _near(piece_circle, pc, cP[i, 0], cP[i, 1], cQ[i, 0] - cP[i, 0], cQ[i, 1] - cP[i, 1], 0.0, 1.0,
                         pad):
                    rb[R], rp[R], ro[R] = i, pc, o
                    R += 1
                    count[i] += 1
    first = np.zeros(n, np.int64)
    for i in range(1, n):
        first[i] = first[i - 1] + count[i - 1]
    # the single-solid proofs on the pieces that rise above the lower top
    tall = np.zeros(R, np.bool_)
    for r in range(R):
        tall[r] = owner_z1[ro[r]] > min(zP[rb[r], 1], zQ[rb[r], 1])
    ti = np.flatnonzero(tall)
    T = ti.shape[0]
    tb, tp, to = rb[ti], rp[ti], ro[ti]
    z0t, z1t, st, rt = owner_z0[to], owner_z1[to], owner_sealed[to], piece_round[tp]
    tcount = np.zeros(n, np.int64)
    for k in range(T):
        tcount[tb[k]] += 1
    tfirst = np.zeros(n, np.int64)
    for i in range(1, n):
        tfirst[i] = tfirst[i - 1] + tcount[i - 1]
    tlast = tfirst + tcount
    order = np.arange(T)
    axis = piece_axis[tp]
    o2 = np.ascontiguousarray(axis[:, :2])
    across = np.empty((T, 2))
    for k in range(T):
        vx, vy = cQ[tb[k], 0] - cP[tb[k], 0], cQ[tb[k], 1] - cP[tb[k], 1]
        vn = max(np.hypot(vx, vy), 1e-300)
        across[k, 0], across[k, 1] = -vy / vn, vx / vn
    sep = np.zeros(T, np.bool_)
    also = np.zeros(T, np.bool_)
    for d in (across, np.ascontiguousarray(axis[:, 2:])):
        hit, nm = _separators(o2, d, tb, vP, vQ, zP, zQ, order, tfirst, tlast, tp, z0t, z1t, st, rt, halfplanes,
                              piece_circle, eta)
        sep |= hit
        also |= nm
    # containment, where no separator is found
    t0r = np.zeros(T)
    t1r = np.zeros(T)
    rnd = np.flatnonzero(rt & ~sep)
    if rnd.shape[0]:
        circ = np.empty((rnd.shape[0], 3))
        for k in range(rnd.shape[0]):
            circ[k] = owner_circle[to[rnd[k]]]
        a0, a1 = _disc_containment(vP[tb[rnd]], vQ[tb[rnd]], circ)
        for k in range(rnd.shape[0]):
            t0r[rnd[k]], t1r[rnd[k]] = a0[k], a1[k]
    contain = _containment(vP, vQ, P, Q, tb, tp, rt, ~sep, halfplanes, t0r, t1r, zP, zQ, z0t, z1t, st, eta, big)
    for k in range(T):
        i = tb[k]
        if sep[k]:
            kinds[i] |= 1
            named[i, to[k]] = True
        elif contain[k]:
            kinds[i] |= 2
            named[i, to[k]] = True
        if also[k]:
            named[i, to[k]] = True
    # witness candidates where no proof was found: the centre, then the corners (in order);
    # then (before the chain test) the grid of every patch corner and the centre on each side
    tried = np.empty((ncorner + 1 + (V + 1) * (V + 1), 4))  # each pair's witness segments tried so far
    ends = np.empty((2, V + 1, 2))  # a pair's patch corners projected into its regions, then p, q
    most = count.max() if n else 0  # (room for the rows of any pair)
    tt = np.empty((most, 2))
    pcs, circ2 = np.empty(most, np.int64), np.empty((most, 3))
    z0r, z1r, sr = np.empty(most), np.empty(most), np.empty(most, np.bool_)
    multi = np.empty(most, np.bool_)
    for i in range(n):
        if not go[i]:
            continue
        if kinds[i]:
            status[i] = 2
            continue
        for c in range(V):
            ends[0, c, 0], ends[0, c, 1] = _project_one(vP[i, c, 0], vP[i, c, 1], P, H, i)
            ends[1, c, 0], ends[1, c, 1] = _project_one(vQ[i, c, 0], vQ[i, c, 1], Q, H, i)
        ends[0, V, 0], ends[0, V, 1], ends[1, V, 0], ends[1, V, 1] = p[i, 0], p[i, 1], q[i, 0], q[i, 1]
        lo, m = first[i], count[i]
        for k in range(m):
            o = ro[lo + k]
            pcs[k] = rp[lo + k]
            circ2[k, 0], circ2[k, 1], circ2[k, 2] = owner_circle[o, 0], owner_circle[o, 1], owner_circle[o, 2]
            z0r[k], z1r[k], sr[k] = owner_z0[o], owner_z1[o], owner_sealed[o]
            multi[k] = owner_npieces[o] > 1
        code = 0
        nt = 0  # (rows of ``tried``: a candidate tried again fails again)
        for c in range(ncorner + 1):
            e = V if c == 0 else c - 1
            ax, ay, bx, by = ends[0, e, 0], ends[0, e, 1], ends[1, e, 0], ends[1, e, 1]
            if _seen_segment(tried, nt, ax, ay, bx, by):
                continue
            tried[nt, 0], tried[nt, 1], tried[nt, 2], tried[nt, 3] = ax, ay, bx, by
            nt += 1
            code, u, w = _candidate(ax, ay, bx, by, m, tt, pcs, circ2, z0r, z1r, sr, multi, halfplanes, piece_circle,
                                    zP, zQ, i, eta)
            if code:
                break
        if code == 0:
            for a in range(V + 1):
                ax, ay = ends[0, a, 0], ends[0, a, 1]
                for c in range(V + 1):
                    bx, by = ends[1, c, 0], ends[1, c, 1]
                    if _seen_segment(tried, nt, ax, ay, bx, by):
                        continue  # (a point target's patch corners are one point: its grid is one column)
                    tried[nt, 0], tried[nt, 1], tried[nt, 2], tried[nt, 3] = ax, ay, bx, by
                    nt += 1
                    code, u, w = _candidate(ax, ay, bx, by, m, tt, pcs, circ2, z0r, z1r, sr, multi, halfplanes,
                                            piece_circle, zP, zQ, i, eta)
                    if code:
                        break
                if code:
                    break
            if code == 0:
                status[i] = 3  # no proof, no witness: the chain test's
        if code == 1:
            status[i] = 1
            wit[i, 0], wit[i, 1], wit[i, 2] = ax, ay, u
            wit[i, 3], wit[i, 4], wit[i, 5] = bx, by, w
    # the solids of each pair proved blocked, in owner order: its run of ``owners``
    at = np.zeros(n + 1, np.int64)
    for i in range(n):
        at[i + 1] = at[i]
        if status[i] == 2:
            for o in range(no):
                at[i + 1] += named[i, o]
    owners = np.empty(at[n], np.int64)
    for i in range(n):
        if status[i] == 2:
            k = at[i]
            for o in range(no):
                if named[i, o]:
                    owners[k] = o
                    k += 1
    return arc, status, wit, kinds, at, owners, first, count, rp, ro, vP, vQ


@_jit
def _convex_corners(xy: np.ndarray, sizes: np.ndarray, inside: np.ndarray, min_turn: float, tol: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``paths.convex_corners`` up to the corners two pieces share (the same operations):
    per corner whether it is a convex corner of its piece, inside the support (``inside``)
    and not covered by another piece, its in and out directions, its neighbours (each
    piece counter-clockwise), and the (corner, other piece's corner) pairs where it meets
    another piece's corner, in order."""
    N, B = xy.shape[0], sizes.shape[0]
    start = np.zeros(B, np.int64)
    for b in range(1, B):
        start[b] = start[b - 1] + sizes[b - 1]
    pid = np.empty(N, np.int64)
    for b in range(B):
        for k in range(sizes[b]):
            pid[start[b] + k] = b
    nxt = np.empty(N, np.int64)
    prv = np.empty(N, np.int64)
    for v in range(N):
        b = pid[v]
        k = v - start[b]
        nxt[v] = start[b] + (k + 1) % sizes[b]
        prv[v] = start[b] + (k - 1) % sizes[b]
    area = np.zeros(B)
    for v in range(N):
        area[pid[v]] += xy[v, 0] * xy[nxt[v], 1] - xy[nxt[v], 0] * xy[v, 1]
    for v in range(N):
        if not area[pid[v]] > 0:  # each piece counter-clockwise
            nxt[v], prv[v] = prv[v], nxt[v]
    e_in = np.empty((N, 2))
    e_out = np.empty((N, 2))
    ok = np.empty(N, np.bool_)
    for v in range(N):
        ix, iy = xy[v, 0] - xy[nxt[v], 0], xy[v, 1] - xy[nxt[v], 1]
        ox, oy = xy[prv[v], 0] - xy[v, 0], xy[prv[v], 1] - xy[v, 1]
        li, lo_ = np.hypot(ix, iy), np.hypot(ox, oy)
        if not (li > 1e-12 and lo_ > 1e-12):  # (a repeated corner: no directions)
            e_in[v, 0] = e_in[v, 1] = e_out[v, 0] = e_out[v, 1] = np.nan
            ok[v] = False
            continue
        e_in[v, 0], e_in[v, 1] = ix / li, iy / li
        e_out[v, 0], e_out[v, 1] = ox / lo_, oy / lo_
        ok[v] = e_in[v, 0] * e_out[v, 1] - e_in[v, 1] * e_out[v, 0] < -min_turn and inside[v]
    lo = np.empty((B, 2))
    hi = np.empty((B, 2))
    for b in range(B):
        lo[b, 0] = lo[b, 1] = np.inf
        hi[b, 0] = hi[b, 1] = -np.inf
        for v in range(start[b], start[b] + sizes[b]):
            lo[b, 0], lo[b, 1] = min(lo[b, 0], xy[v, 0]), min(lo[b, 1], xy[v, 1])
            hi[b, 0], hi[b, 1] = max(hi[b, 0], xy[v, 0]), max(hi[b, 1], xy[v, 1])
        lo[b, 0], lo[b, 1], hi[b, 0], hi[b, 1] = lo[b, 0] - tol, lo[b, 1] - tol, hi[b, 0] + tol, hi[b, 1] + tol
    out = ok.copy()
    sv = np.empty(0, np.int64)
    sa = np.empty(0, np.int64)
    nsh = 0
    for v in range(N):
        if not ok[v]:
            continue
        x, y = xy[v, 0], xy[v, 1]
        for b in range(B):
            if b == pid[v] or not (x >= lo[b, 0] and x <= hi[b, 0] and y >= lo[b, 1] and y <= hi[b, 1]):
                continue
            within = True
            at = -1
            for a in range(start[b], start[b] + sizes[b]):
                ex, ey = xy[nxt[a], 0] - xy[a, 0], xy[nxt[a], 1] - xy[a, 1]
                side = (ex * (y - xy[a, 1]) - ey * (x - xy[a, 0])) / max(np.hypot(ex, ey), 1e-300)
                if not side > -tol:
                    within = False
                if at < 0 and np.hypot(xy[a, 0] - x, xy[a, 1] - y) <= tol:
                    at = a
            if not within:
                continue
            if at < 0:
                out[v] = False
            else:
                if nsh == sv.shape[0]:
                    sv2 = np.empty(2 * nsh + 4, np.int64)
                    sa2 = np.empty(2 * nsh + 4, np.int64)
                    sv2[:nsh], sa2[:nsh] = sv[:nsh], sa[:nsh]
                    sv, sa = sv2, sa2
                sv[nsh], sa[nsh] = v, at
                nsh += 1
    shared = np.empty((nsh, 2), np.int64)
    shared[:, 0], shared[:, 1] = sv[:nsh], sa[:nsh]
    return out, e_in, e_out, nxt, prv, shared


@_jit
def _extreme(a: np.ndarray, least: bool) -> float:
    """np.min (``least``) or np.max of a 1-D array (NaN passed on)."""
    acc = a[0]
    for i in range(1, a.shape[0]):
        acc = _nmin(acc, a[i]) if least else _nmax(acc, a[i])
    return acc


@_jit
def _frame_into(pts: np.ndarray, cx: float, cy: float, dx: float, dy: float, out: np.ndarray) -> None:
    """Points (k, 2) in the frame at (cx, cy) with x along (dx, dy) and y along (-dy, dx)."""
    for i in range(pts.shape[0]):
        vx, vy = pts[i, 0] - cx, pts[i, 1] - cy
        out[i, 0] = vx * dx + vy * dy
        out[i, 1] = vx * -dy + vy * dx


@_jit
def _support_pair(fK: np.ndarray, beta: float) -> tuple[float, float]:
    """For one polygon ``fK`` (V, 2; NaN rows ignored): the least and the greatest
    v_y - β v_x over its vertices (a line y = α + βx meets it exactly when α lies between
    them)."""
    lo, hi = np.inf, -np.inf
    first = True
    for i in range(fK.shape[0]):
        val = fK[i, 1] - beta * fK[i, 0]
        if np.isnan(val):
            lo_v, hi_v = np.inf, -np.inf
        else:
            lo_v, hi_v = val, val
        if first:
            lo, hi, first = lo_v, hi_v, False
        else:
            lo, hi = _nmin(lo, lo_v), _nmax(hi, hi_v)
    return lo, hi


@_jit
def _chain_prepare(P: np.ndarray, Q: np.ndarray, cP: np.ndarray, cQ: np.ndarray, DP: np.ndarray, DQ: np.ndarray,
                   zP: np.ndarray, zQ: np.ndarray, rb: np.ndarray, verts: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                   sealed: np.ndarray, eta: float, widen: float, slack: float):  # type: ignore[no-untyped-def]
    """``los_chain._prepare``'s arrays (its numpy oracle's operations, in order): per
    bundle (the patches ``P``, ``Q`` cut to their discs, ``cP``, ``cQ`` their means) its
    frame, slab, base region and height rows; per row (solid) its polygon clipped to the
    slab, the x-range where a segment may cross it, its binding vertices, whether every
    line of the base region passes it (exactly and widened), whether a line may pass over
    or under it, and the abscissae ``xa <= xb`` between which every line is inside it
    (xa > xb: none, or not needed)."""
    B, VP, _ = P.shape
    VQ = Q.shape[1]
    ok = np.ones(B, np.bool_)
    d = np.empty((B, 2))
    nrm = np.empty((B, 2))
    fP = np.empty((B, VP, 2))
    fQ = np.empty((B, VQ, 2))
    x1 = np.empty(B)
    x2 = np.empty(B)
    b_lo = np.empty(B)
    b_hi = np.empty(B)
    base = np.empty((B, 12, 3))
    d_lo = np.empty(B)
    d_hi = np.empty(B)
    zlo = np.empty(B)
    zhi = np.empty(B)
    zfull = np.empty((B, 14, 3))
    c = np.empty((1, 2))
    for b in range(B):
        dx, dy = cQ[b, 0] - cP[b, 0], cQ[b, 1] - cP[b, 1]
        length = np.hypot(dx, dy)
        ok[b] = length >= 1e-12
        den = length if ok[b] else 1.0
        dx, dy = dx / den, dy / den
        d[b, 0], d[b, 1] = dx, dy
        nrm[b, 0], nrm[b, 1] = -dy, dx
        _frame_into(P[b], cP[b, 0], cP[b, 1], dx, dy, fP[b])
        _frame_into(Q[b], cP[b, 0], cP[b, 1], dx, dy, fQ[b])
        x1b, x2b = _extreme(fP[b, :, 0], False), _extreme(fQ[b, :, 0], True)
        ok[b] = ok[b] and x2b - x1b > 1e-9 * length
        if not ok[b]:
            x2b = x1b + 1.0
        x1[b], x2[b] = x1b, x2b
        y1lo, y1hi, y2lo, y2hi = np.inf, -np.inf, np.inf, -np.inf
        first = True
        for i in range(VP):
            px, py = fP[b, i, 0], fP[b, i, 1]
            for j in range(VQ):
                qx, qy = fQ[b, j, 0], fQ[b, j, 1]
                y1 = py + (x1b - px) / (qx - px) * (qy - py)
                y2 = py + (x2b - px) / (qx - px) * (qy - py)
                if first:
                    y1lo, y1hi, y2lo, y2hi, first = y1, y1, y2, y2, False
                else:
                    y1lo, y1hi = _nmin(y1lo, y1), _nmax(y1hi, y1)
                    y2lo, y2hi = _nmin(y2lo, y2), _nmax(y2hi, y2)
        span = x2b - x1b
        bl, bh = (y2lo - y1hi) / span, (y2hi - y1lo) / span
        b_lo[b], b_hi[b] = bl, bh
        f = np.sqrt(1.0 + _nmax(bl * bl, bh * bh))
        rows = base[b]
        rows[0, 0], rows[0, 1], rows[0, 2] = 1.0, x1b, y1hi + slack
        rows[1, 0], rows[1, 1], rows[1, 2] = -1.0, -x1b, -y1lo + slack
        rows[2, 0], rows[2, 1], rows[2, 2] = 1.0, x2b, y2hi + slack
        rows[3, 0], rows[3, 1], rows[3, 2] = -1.0, -x2b, -y2lo + slack
        for e in range(2):
            D = DP[b] if e == 0 else DQ[b]
            _frame_into(D[None, :2], cP[b, 0], cP[b, 1], dx, dy, c)
            rf = D[2] * f + slack
            rows[4 + 2 * e, 0], rows[4 + 2 * e, 1], rows[4 + 2 * e, 2] = 1.0, c[0, 0], c[0, 1] + rf
            rows[5 + 2 * e, 0], rows[5 + 2 * e, 1], rows[5 + 2 * e, 2] = -1.0, -c[0, 0], -c[0, 1] + rf
        for e in range(2):
            fK = fP[b] if e == 0 else fQ[b]
            lo_lo, hi_lo = _support_pair(fK, bl)
            lo_hi, hi_hi = _support_pair(fK, bh)
            wide = bh - bl > 1e-12
            if wide:
                s_lo = (lo_hi - lo_lo) / (bh - bl)
                s_hi = (hi_hi - hi_lo) / (bh - bl)
                c_lo = lo_lo - s_lo * bl
                c_hi = hi_lo - s_hi * bl
            else:
                s_lo, s_hi = 0.0, 0.0
                c_lo, c_hi = _nmin(lo_lo, lo_hi), _nmax(hi_lo, hi_hi)
            rows[8 + 2 * e, 0], rows[8 + 2 * e, 1], rows[8 + 2 * e, 2] = -1.0, s_lo, -c_lo + slack
            rows[9 + 2 * e, 0], rows[9 + 2 * e, 1], rows[9 + 2 * e, 2] = 1.0, -s_hi, c_hi + slack
        # heights
        p0, q1 = _extreme(fP[b, :, 0], True), _extreme(fQ[b, :, 0], False)
        num_lo, num_hi = zQ[b, 0] - zP[b, 1], zQ[b, 1] - zP[b, 0]
        den_lo, den_hi = x2b - x1b, q1 - p0
        dh = num_hi / den_lo if num_hi > 0 else num_hi / den_hi
        dl = num_lo / den_lo if num_lo < 0 else num_lo / den_hi
        d_lo[b], d_hi[b] = dl, dh
        zl, zh = _nmin(zP[b, 0], zQ[b, 0]), _nmax(zP[b, 1], zQ[b, 1])
        zlo[b], zhi[b] = zl, zh
        up, down = _nmax(0.0, dh), _nmin(0.0, dl)
        wP, wQ = x1b - p0, q1 - x2b
        zr = zfull[b]
        vals = ((0.0, 1.0, dh), (0.0, -1.0, -dl),
                (1.0, x1b, zP[b, 1] + up * wP), (-1.0, -x1b, -(zP[b, 0] + down * wP)),
                (1.0, x2b, zQ[b, 1] - down * wQ), (-1.0, -x2b, -(zQ[b, 0] - up * wQ)),
                (1.0, p0, zP[b, 1]), (-1.0, -q1, -zQ[b, 0]),
                (-1.0, -p0, -zP[b, 0]), (1.0, q1, zQ[b, 1]),
                (1.0, x1b, zh), (-1.0, -x1b, -zl), (1.0, x2b, zh), (-1.0, -x2b, -zl))
        for j in range(14):
            zr[j, 0] = vals[j][0] + 0.0
            zr[j, 1] = vals[j][1] + 0.0
            zr[j, 2] = vals[j][2] + slack
    Vp_all = _vertices_each(base)
    rising = d_lo >= 0
    falling = d_hi <= 0
    zpad = zfull.copy()
    for b in range(B):
        for j in range(6, 10):
            if (j < 8 and not rising[b]) or (j >= 8 and not falling[b]):
                zpad[b, j, :] = zfull[b, 0, :]
    Vz_all = _vertices_each(zpad)
    for b in range(B):
        allnan_p, allnan_z = True, True
        for i in range(Vp_all.shape[1]):
            allnan_p = allnan_p and np.isnan(Vp_all[b, i, 0])
        for i in range(Vz_all.shape[1]):
            allnan_z = allnan_z and np.isnan(Vz_all[b, i, 0])
        ok[b] = ok[b] and not allnan_p and not allnan_z
    # the solids, clipped to the slab
    R, W, _ = verts.shape
    fv = np.empty((R, W, 2))
    ex = np.empty((R, 2))
    mex = np.empty((R, 2))
    c1 = np.empty(R)
    c2 = np.empty(R)
    for r in range(R):
        b = rb[r]
        _frame_into(verts[r], cP[b, 0], cP[b, 1], d[b, 0], d[b, 1], fv[r])
        ex[r, 0], ex[r, 1] = 1.0, 0.0
        mex[r, 0], mex[r, 1] = -1.0, -0.0
        c1[r], c2[r] = x1[b], -x2[b]
    k = _clip(_clip(fv, ex, c1), mex, c2)
    live = np.empty(R, np.bool_)
    for r in range(R):
        live[r] = not np.isnan(k[r, 0, 0])
    both = np.empty((B, VP + VQ, 2))
    both[:, :VP] = fP
    both[:, VP:] = fQ
    hull, nhull = _hull_halfplanes(both)
    cut = widen + slack
    hull[:, :, 2] -= cut
    hr = np.empty((R, hull.shape[1], 3))
    nr = np.empty(R, np.int64)
    blo = np.empty(R)
    bhi = np.empty(R)
    kidx = np.arange(R)
    for r in range(R):
        hr[r] = hull[rb[r]]
        nr[r] = nhull[rb[r]]
        blo[r], bhi[r] = b_lo[rb[r]], b_hi[rb[r]]
    kx0, kx1, hit = _xrange(k, hr, nr, 1e-12)
    for r in range(R):
        live[r] = live[r] and hit[r]
    lo_v, hi_v = _binding_vertices(k, kidx, blo, bhi)
    zbot = np.empty(R)
    for r in range(R):
        zbot[r] = z0[r] - (eta if sealed[r] else 0.0)
    Vr = np.empty((R, Vp_all.shape[1], 2))
    for r in range(R):
        Vr[r] = Vp_all[rb[r]]
    free0 = _clear_of(k, Vr, kidx, kidx, 0.0, slack)
    freew = free0 if widen == 0.0 else _clear_of(k, Vr, kidx, kidx, widen, slack)
    can_pass = np.empty(R, np.bool_)
    need = np.zeros(R, np.bool_)
    for r in range(R):
        b = rb[r]
        can_pass[r] = (z1[r] < zhi[b] + 1e-9) or (zbot[r] > zlo[b] - 1e-9)
        need[r] = live[r] and ok[b] and not (freew[r] and free0[r]) and can_pass[r]
    xa = np.ones(R)
    xb = np.zeros(R)
    idx = np.flatnonzero(need)
    if idx.shape[0]:
        ka, kb = _inside_run(k[idx], Vr[idx])
        for e in range(idx.shape[0]):
            xa[idx[e]], xb[idx[e]] = ka[e], kb[e]
    return (ok, d, nrm, fP, fQ, x1, x2, base, Vp_all, d_lo, d_hi, zlo, zhi, zfull, Vz_all, rising, falling,
            k, live, kx0, kx1, lo_v, hi_v, zbot, free0, freew, can_pass, xa, xb)
