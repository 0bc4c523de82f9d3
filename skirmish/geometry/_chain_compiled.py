"""The numba bodies of the chain test's search (:mod:`.los_chain`, through :mod:`.kernels`):
the search over escape choices of a region and the tightening of its strips (imported
on first use, as :mod:`._compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._compiled import (DET_TOL, FEAS_TOL, _binding_vertices, _clear_of, _clip_one, _inside_run, _nmax, _nmin,
                        _vertices_into)

_jit = njit(cache=True, nogil=True)

#: A height escape is taken by every segment when it holds within this at every vertex
#: of the region's (γ, δ) polygon (each a·v summed from its two products, unfused).
HELD_TOL = 1e-12


@_jit
def _point(S: np.ndarray, n: int, buf: np.ndarray, out: np.ndarray) -> bool:
    """``los_chain.feasible_point`` of the rows ``S[:n]`` into ``out``: the mean of the
    vertices (summed in order, as numpy's reduce); False when there are none."""
    return _mean(buf, _vertices_into(S, 0, n, buf), out)


@_jit
def _mean(V: np.ndarray, k: int, out: np.ndarray) -> bool:
    """The mean of the points ``V[:k]`` into ``out`` (summed in order, as numpy's reduce);
    False when there are none."""
    if k == 0:
        return False
    sx, sy = V[0, 0], V[0, 1]
    for i in range(1, k):
        sx += V[i, 0]
        sy += V[i, 1]
    out[0] = sx / k
    out[1] = sy / k
    return True


@_jit
def _feasible_with(S: np.ndarray, n: int, V: np.ndarray, nv: int, rows: np.ndarray, lo: int, hi: int) -> bool:
    """Whether the rows ``S[:n]`` and ``rows[lo:hi]`` have a vertex (as ``_vertices_into``
    of them all would find), given the vertices ``V[:nv]`` of ``S[:n]``: one of those meeting the
    new rows, or a crossing of a new row with another row meeting every row (the same
    crossings, computed alike, checked alike)."""
    for a in range(nv):
        u, v = V[a, 0], V[a, 1]
        ok = True
        for k in range(lo, hi):
            if not u * rows[k, 0] + v * rows[k, 1] <= rows[k, 2] + FEAS_TOL:
                ok = False
                break
        if ok:
            return True
    for j in range(lo, hi):
        rj = rows[j]
        for i in range(n + j - lo):
            ri = S[i] if i < n else rows[lo + i - n]
            det = ri[0] * rj[1] - ri[1] * rj[0]
            if not abs(det) > DET_TOL:
                continue
            u = (ri[2] * rj[1] - ri[1] * rj[2]) / det
            v = (ri[0] * rj[2] - ri[2] * rj[0]) / det
            ok = True
            for k in range(n + hi - lo):
                rk = S[k] if k < n else rows[lo + k - n]
                if not u * rk[0] + v * rk[1] <= rk[2] + FEAS_TOL:
                    ok = False
                    break
            if ok:
                return True
    return False


@_jit
def _push(S: np.ndarray, n: int, rows: np.ndarray, lo: int, hi: int) -> int:
    """Append ``rows[lo:hi]`` to the system ``S[:n]``: its new length."""
    for r in range(lo, hi):
        S[n, 0], S[n, 1], S[n, 2] = rows[r, 0], rows[r, 1], rows[r, 2]
        n += 1
    return n


@_jit
def _options(plan: np.ndarray, free: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray,
             kb: np.ndarray, zt: np.ndarray, zb: np.ndarray, d_lo: float, d_hi: float, zlo: float, zhi: float,
             wd: float, slack: float):  # type: ignore[no-untyped-def]
    """The ways to escape each solid keeping ``wd`` (see ``los_chain._solve_bundle``): option
    e's rows are ``rows[first[e]:first[e + 1]]`` in space ``space[e]`` (0 plan, 1 heights);
    solid i's options are ``of[i, :nof[i]]`` (none for a free solid). Plan options 2i,
    2i + 1: wholly above or below solid i; then the height ones, over its top or under
    its base where every line is inside it, else at one end of its x-range."""
    m = free.shape[0]
    rows = np.empty((10 * m, 3))
    first = np.empty(6 * m + 1, np.int64)
    space = np.zeros(6 * m, np.int64)
    of = np.empty((m, 6), np.int64)
    nof = np.zeros(m, np.int64)
    for i in range(m):
        for s in range(2):
            e = 2 * i + s
            first[e] = 3 * e
            for r in range(3):
                rows[3 * e + r, 0] = plan[i, s, r, 0]
                rows[3 * e + r, 1] = plan[i, s, r, 1]
                c = plan[i, s, r, 2]
                if wd != 0.0:
                    c -= wd
                rows[3 * e + r, 2] = c + slack
    e, nr = 2 * m, 6 * m
    for i in range(m):
        if free[i]:
            continue
        of[i, 0], of[i, 1], nof[i] = 2 * i, 2 * i + 1, 2
        top, bot = -(zt[i] + wd) + slack, zb[i] - wd + slack
        over, under = zt[i] + wd < zhi + 1e-9, zb[i] - wd > zlo - 1e-9
        xa, xb = ins_lo[i], ins_hi[i]
        for k in range(4):  # (the blocks in the order of the numpy search)
            if xa <= xb:  # every line is inside the solid at xa and xb: over or under there
                if k >= 2 or not (over if k == 0 else under):
                    continue
                sg, c = (-1.0, top) if k == 0 else (1.0, bot)
                rows[nr, 0], rows[nr, 1], rows[nr, 2] = sg, sg * xa, c
                rows[nr + 1, 0], rows[nr + 1, 1], rows[nr + 1, 2] = sg, sg * xb, c
                n = 2
            else:  # at one end of the crossing range, by the way the segments slope
                far, up = k >= 2, k % 2 == 0
                x = kb[i] + wd if far else ka[i] - wd
                if up:
                    if not over or (far and d_hi < 0) or (not far and d_lo > 0):
                        continue
                    rows[nr, 0], rows[nr, 1], rows[nr, 2] = -1.0, -x, top
                else:
                    if not under or (far and d_lo > 0) or (not far and d_hi < 0):
                        continue
                    rows[nr, 0], rows[nr, 1], rows[nr, 2] = 1.0, x, bot
                n = 1
            first[e], space[e] = nr, 1
            of[i, nof[i]] = e
            nof[i] += 1
            e += 1
            nr += n
    first[e] = nr
    return rows, first, space, of, nof


@_jit
def _held(rows: np.ndarray, lo: int, hi: int, Vz: np.ndarray) -> bool:
    """Whether the rows ``rows[lo:hi]`` hold (within ``HELD_TOL``) at every vertex ``Vz``."""
    for r in range(lo, hi):
        for v in range(Vz.shape[0]):
            if not Vz[v, 0] * rows[r, 0] + Vz[v, 1] * rows[r, 1] <= rows[r, 2] + HELD_TOL:
                return False
    return True


@_jit
def _chain_solve(base: np.ndarray, zbase: np.ndarray, Vz: np.ndarray, plan: np.ndarray, free: np.ndarray,
                 ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray, kb: np.ndarray, zt: np.ndarray,
                 zb: np.ndarray, d_lo: float, d_hi: float, zlo: float, zhi: float, wd: float, slack: float,
                 max_nodes: int):  # type: ignore[no-untyped-def]
    """``los_chain._solve_bundle``'s ``solve`` on one region: (found, (α, β), (γ, δ) (NaN
    when unknown), the relevant solids). The forced choices are propagated first (every
    option of a round checked against the systems as the round began), then the choices
    left are searched depth first, each node's plan point the mean of its vertices."""
    m = free.shape[0]
    rows, first, space, of, nof = _options(plan, free, ins_lo, ins_hi, ka, kb, zt, zb, d_lo, d_hi, zlo, zhi, wd,
                                           slack)
    pt, gd = np.empty(2), np.full(2, np.nan)
    # a solid that every segment of the region escapes one way (a height escape holding
    # at every vertex of the (γ, δ) polygon) is irrelevant
    rel = np.zeros(m, np.bool_)
    opn = np.empty(m, np.int64)
    L = 0
    for i in range(m):
        if free[i]:
            continue
        held = False
        for q in range(2, nof[i]):
            e = of[i, q]
            if _held(rows, first[e], first[e + 1], Vz):
                held = True
                break
        if not held:
            rel[i] = True
            opn[L] = i
            L += 1
    n0, n1 = base.shape[0], zbase.shape[0]
    S0, S1 = np.empty((n0 + 3 * m, 3)), np.empty((n1 + 2 * m, 3))
    S0[:n0] = base
    S1[:n1] = zbase
    most = max(S0.shape[0], S1.shape[0])
    buf = np.empty((max(most * (most - 1) // 2, 1), 2))
    V0, V1 = np.empty_like(buf), np.empty_like(buf)
    feas = np.zeros(6 * m, np.bool_)
    fixes = np.empty(m, np.int64)
    changed = True
    nv0 = nv1 = -1  # the vertices V0[:nv0] of S0[:n0] and V1[:nv1] of S1[:n1] (-1: not known)
    while changed and L > 0:  # propagate the forced choices
        changed = False
        nv0 = _vertices_into(S0, 0, n0, V0)
        nv1 = _vertices_into(S1, 0, n1, V1)
        for q in range(L):
            i = opn[q]
            for c in range(nof[i]):
                e = of[i, c]
                if space[e] == 0:
                    feas[e] = _feasible_with(S0, n0, V0, nv0, rows, first[e], first[e + 1])
                else:
                    feas[e] = _feasible_with(S1, n1, V1, nv1, rows, first[e], first[e + 1])
        keep = nfix = 0
        for q in range(L):
            i = opn[q]
            k = 0
            for c in range(nof[i]):
                if feas[of[i, c]]:
                    of[i, k] = of[i, c]
                    k += 1
            if k == 0:
                return False, pt, gd, rel
            if k == 1:
                fixes[nfix] = of[i, 0]
                nfix += 1
            else:
                nof[i] = k
                opn[keep] = i
                keep += 1
        for f in range(nfix):
            e = fixes[f]
            if space[e] == 0:
                n0, nv0 = _push(S0, n0, rows, first[e], first[e + 1]), -1
            else:
                n1, nv1 = _push(S1, n1, rows, first[e], first[e + 1]), -1
            changed = True
        L = keep
    # depth first over the choices left: only the space a choice changed is checked again
    choice, save0, save1 = np.zeros(L + 1, np.int64), np.zeros(L + 1, np.int64), np.zeros(L + 1, np.int64)
    px, py = np.empty(L + 1), np.empty(L + 1)
    nodes = 0
    d = 0
    sp = -1  # the space the last choice changed (-1 at the root)
    while True:
        if sp == -1 and nv0 >= 0:  # (the root: the systems the propagation enumerated last)
            ok = _mean(V0, nv0, pt)
        elif sp != 1:
            ok = _point(S0, n0, buf, pt)
        else:
            ok = True
            pt[0], pt[1] = px[d - 1], py[d - 1]
        if ok and sp == -1 and nv1 >= 0:
            ok = _mean(V1, nv1, gd)
        elif ok and sp != 0:
            ok = _point(S1, n1, buf, gd)
        if ok:
            if d == L:
                if sp == 0:  # (the heights' system is the parent's, checked before: its point again)
                    _point(S1, n1, buf, gd)
                return True, pt, gd, rel
            nodes += 1
            if nodes > max_nodes:  # gave up: no proof, heights unknown
                gd[:] = np.nan
                return True, pt, gd, rel
            px[d], py[d] = pt[0], pt[1]
            choice[d], save0[d], save1[d] = 0, n0, n1
        else:
            d -= 1
        while d >= 0 and choice[d] == nof[opn[d]]:  # back to the first node with choices left
            d -= 1
        if d < 0:
            gd[:] = np.nan
            return False, pt, gd, rel
        n0, n1 = save0[d], save1[d]
        e = of[opn[d], choice[d]]
        choice[d] += 1
        sp = space[e]
        if sp == 0:
            n0 = _push(S0, n0, rows, first[e], first[e + 1])
        else:
            n1 = _push(S1, n1, rows, first[e], first[e + 1])
        d += 1


@_jit
def _chain_solve_each(ok: np.ndarray, base: np.ndarray, zfull: np.ndarray, sel: np.ndarray, rising: np.ndarray,
                      falling: np.ndarray, Vz: np.ndarray, nVz: np.ndarray, at: np.ndarray, plan: np.ndarray,
                      free: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray, kb: np.ndarray,
                      zt: np.ndarray, zb: np.ndarray, d_lo: np.ndarray, d_hi: np.ndarray, zlo: np.ndarray,
                      zhi: np.ndarray, slack: float, max_nodes: int):  # type: ignore[no-untyped-def]
    """:func:`_chain_solve`'s exact search (wd = 0) on each bundle ``b`` with ``ok[b]``,
    over its base region (rows ``base[b]``, the heights' rows of ``zfull[b]`` that hold,
    ``sel[rising[b], falling[b]]``, vertices ``Vz[b, :nVz[b]]``) and its live
    rows ``at[b]:at[b + 1]``: per bundle whether it found an escape, its (α, β) and
    (γ, δ) (NaN where none), per live row whether it was relevant."""
    found = np.zeros(ok.shape[0], np.bool_)
    pts, gds = np.full((ok.shape[0], 2), np.nan), np.full((ok.shape[0], 2), np.nan)
    rel = np.zeros(free.shape[0], np.bool_)
    zs = np.empty((14, 3))
    for b in range(ok.shape[0]):
        if not ok[b]:
            continue
        n = 0
        rows = sel[int(rising[b]), int(falling[b])]
        for j in range(14):
            if rows[j]:
                zs[n] = zfull[b, j]
                n += 1
        lo, hi = at[b], at[b + 1]
        f, pt, gd, r = _chain_solve(base[b], zs[:n], Vz[b, :nVz[b]], plan[lo:hi], free[lo:hi], ins_lo[lo:hi],
                                  ins_hi[lo:hi], ka[lo:hi], kb[lo:hi], zt[lo:hi], zb[lo:hi], d_lo[b], d_hi[b],
                                  zlo[b], zhi[b], 0.0, slack, max_nodes)
        found[b] = f
        if f:
            pts[b], gds[b] = pt, gd
        rel[lo:hi] = r
    return found, pts, gds, rel


@_jit
def _band_xrange(poly: np.ndarray, V: np.ndarray, xa: float, xb: float, grow: float, a: np.ndarray,
                 b: np.ndarray) -> tuple[float, float]:
    """:func:`.kernels.band_xrange` of one polygon ``poly`` (W, 2) and the region of
    vertices ``V`` over [xa, xb] with ``grow`` (the operations of its numpy oracle, in
    order; ``a``, ``b``: buffers of W + 1 and W + 2 vertices): (lo, hi)."""
    W = poly.shape[0]
    ya0 = yb0 = ya1 = yb1 = 0.0
    for v in range(V.shape[0]):
        ya, yb = V[v, 0] + V[v, 1] * xa, V[v, 0] + V[v, 1] * xb
        if v == 0:
            ya0, yb0, ya1, yb1 = ya, yb, ya, yb
        else:
            ya0, yb0, ya1, yb1 = _nmin(ya0, ya), _nmin(yb0, yb), _nmax(ya1, ya), _nmax(yb1, yb)
    span = _nmax(xb - xa, 1e-12)
    for side in range(2):
        y1, y2, sgn = (ya0, yb0, 1.0) if side == 0 else (ya1, yb1, -1.0)
        slope = (y2 - y1) / span
        c = sgn * (y1 - slope * xa) - grow * np.hypot(slope, 1.0)
        if side == 0:
            _clip_one(poly, W, -sgn * slope, sgn, c, a)
        else:
            _clip_one(a, W + 1, -sgn * slope, sgn, c, b)
    if np.isnan(b[0, 0]):
        return np.inf, -np.inf
    lo, hi = np.inf, -np.inf
    for w in range(W + 2):  # (np.fmin and np.fmax: NaN left out)
        x = b[w, 0]
        if not np.isnan(x):
            lo, hi = min(lo, x), max(hi, x)
    return lo, hi


@_jit
def _band_xranges(k: np.ndarray, V: np.ndarray, spans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_band_xrange` of each polygon ``k[i]`` with ``V[i]`` and ``spans[i]``."""
    n, W = k.shape[0], k.shape[1]
    lo, hi = np.empty(n), np.empty(n)
    a, b = np.empty((W + 1, 2)), np.empty((W + 2, 2))
    for i in range(n):
        lo[i], hi[i] = _band_xrange(k[i], V[i], spans[i, 0], spans[i, 1], spans[i, 2], a, b)
    return lo, hi


@_jit
def _regions(k: np.ndarray, V: np.ndarray, free0: np.ndarray, freew: np.ndarray, can_pass: np.ndarray,
             ka: np.ndarray, kb: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ends: np.ndarray,
             end_spans: np.ndarray, x1: float, x2: float, widen: float, slack: float
             ):  # type: ignore[no-untyped-def]
    """``los_chain._regions``'s arrays for G regions of vertices ``V`` (G, nV, 2; padded by
    repetition) inside a parent (its per-solid ``free0``, ``freew``, ``ka``, ``kb``,
    ``ins_lo``, ``ins_hi``; the same operations as its numpy oracle, in order): per region
    and solid the binding vertices (G·m, 3, 2 each), free (exactly and widened), the
    crossing range and the inside stretch (G, m each); per region the least abscissa of
    the ends (``ends``: P, then Q) its lines can meet on P and the greatest on Q."""
    G, nV = V.shape[0], V.shape[1]
    m = k.shape[0]
    blo, bhi = np.empty(G * m), np.empty(G * m)
    kidx, vidx = np.empty(G * m, np.int64), np.empty(G * m, np.int64)
    for g in range(G):
        lo, hi = V[g, 0, 1], V[g, 0, 1]
        for v in range(1, nV):
            lo, hi = _nmin(lo, V[g, v, 1]), _nmax(hi, V[g, v, 1])
        for i in range(m):
            blo[g * m + i], bhi[g * m + i], kidx[g * m + i], vidx[g * m + i] = lo, hi, i, g
    lo_v, hi_v = _binding_vertices(k, kidx, blo, bhi)
    f0 = _clear_of(k, V, kidx, vidx, 0.0, slack).reshape(G, m)
    fw = f0.copy() if widen == 0.0 else _clear_of(k, V, kidx, vidx, widen, slack).reshape(G, m)
    need = np.empty(m, np.int64)
    n = 0
    for i in range(m):
        for g in range(G):
            f0[g, i] = f0[g, i] or free0[i]
            fw[g, i] = fw[g, i] or freew[i]
        every = True
        for g in range(G):
            every = every and f0[g, i] and fw[g, i]
        if can_pass[i] and not every:
            need[n] = i
            n += 1
    # where the regions' lines can meet each solid that matters (within ``widen``), and
    # the two patches: the polygons padded alike, as the oracle pads them
    W = max(k.shape[1], ends.shape[1])
    poly = np.empty((W, 2))
    a, b = np.empty((W + 1, 2)), np.empty((W + 2, 2))
    K0, K1 = np.empty((G, m)), np.empty((G, m))
    L0, L1 = np.empty((G, m)), np.empty((G, m))
    p_lo, q_hi = np.empty(G), np.empty(G)
    kn = np.empty((G * n, k.shape[1], 2))
    Vn = np.empty((G * n, nV, 2))
    hit = np.zeros((G, n), np.bool_)
    for g in range(G):
        K0[g], K1[g], L0[g], L1[g] = ka, kb, ins_lo, ins_hi
        for j in range(n + 2):
            src = k[need[j]] if j < n else ends[j - n]
            w0 = src.shape[0]
            poly[:w0] = src
            for w in range(w0, W):
                poly[w] = src[0]
            if j < n:
                lo, hi = _band_xrange(poly, V[g], x1, x2, widen + slack, a, b)
                i = need[j]
                hit[g, j] = lo <= hi
                if hit[g, j]:
                    K0[g, i], K1[g, i] = _nmax(K0[g, i], lo), _nmin(K1[g, i], hi)
                else:
                    f0[g, i] = fw[g, i] = True  # (the lines miss it by more than ``widen``)
                kn[g * n + j] = k[i]
                Vn[g * n + j] = V[g]
            else:
                sp = end_spans[j - n]
                lo, hi = _band_xrange(poly, V[g], sp[0], sp[1], sp[2], a, b)
                if j == n:
                    p_lo[g] = lo
                else:
                    q_hi[g] = hi
    if n:  # (the parent's abscissae still hold)
        xa, xb = _inside_run(kn, Vn)
        for g in range(G):
            for j in range(n):
                e, i = g * n + j, need[j]
                if hit[g, j] and xa[e] <= xb[e]:
                    L0[g, i], L1[g, i] = _nmin(L0[g, i], xa[e]), _nmax(L1[g, i], xb[e])
    return lo_v, hi_v, f0, fw, K0, K1, L0, L1, p_lo, q_hi
