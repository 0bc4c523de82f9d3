"""The numba bodies of :mod:`.kernels` (imported by it on first use: numba compiles each
on its first call and caches it on disk)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: A vertex meets a row a·x <= c when a·x <= c + FEAS_TOL; two rows whose determinant is
#: within DET_TOL of 0 are parallel (they make no vertex).
FEAS_TOL = 1e-9
DET_TOL = 1e-14

_jit = njit(cache=True, nogil=True)


@_jit
def _vertices_into(A: np.ndarray, lo: int, hi: int, extra: np.ndarray, ne: int, out: np.ndarray,
                   first: bool) -> int:
    """The vertices of {a·x <= c} over rows ``A[lo:hi]`` and ``extra[:ne]``: written to
    ``out``; their count. With ``first``, stop at the first one."""
    m = hi - lo
    t = m + ne
    n = 0
    for i in range(t):
        ri = A[lo + i] if i < m else extra[i - m]
        for j in range(i + 1, t):
            rj = A[lo + j] if j < m else extra[j - m]
            det = ri[0] * rj[1] - ri[1] * rj[0]
            if not abs(det) > DET_TOL:  # (parallel, or NaN: no vertex)
                continue
            u = (ri[2] * rj[1] - ri[1] * rj[2]) / det
            v = (ri[0] * rj[2] - ri[2] * rj[0]) / det
            ok = True
            for k in range(t):
                rk = A[lo + k] if k < m else extra[k - m]
                if not u * rk[0] + v * rk[1] <= rk[2] + FEAS_TOL:  # (a NaN meets no row)
                    ok = False
                    break
            if ok:
                out[n, 0] = u
                out[n, 1] = v
                n += 1
                if first:
                    return n
    return n


@_jit
def _vertices(A: np.ndarray) -> np.ndarray:
    m = A.shape[0]
    out = np.empty((max(m * (m - 1) // 2, 1), 2))
    n = _vertices_into(A, 0, m, A[:0], 0, out, False)
    return out[:n]


@_jit
def _vertices_each(A: np.ndarray) -> np.ndarray:
    B, m, _ = A.shape
    out = np.full((B, max(m * (m - 1) // 2, 1), 2), np.nan)
    most = 1
    for b in range(B):
        most = max(most, _vertices_into(A[b], 0, m, A[b, :0], 0, out[b], False))
    return out[:, :most]


@_jit
def _feasible_blocks(S: np.ndarray, start: np.ndarray, blocks: np.ndarray, nrows: np.ndarray,
                            which: np.ndarray) -> np.ndarray:
    nb = blocks.shape[0]
    found = np.zeros(nb, np.bool_)
    out = np.empty((1, 2))
    for b in range(nb):
        s = which[b]
        found[b] = _vertices_into(S, start[s], start[s + 1], blocks[b], nrows[b], out, True) > 0
    return found


@_jit
def _clip(verts: np.ndarray, n: np.ndarray, c0: np.ndarray) -> np.ndarray:
    rows, V, _ = verts.shape
    out = np.full((rows, V + 1, 2), np.nan)
    for r in range(rows):
        nx, ny, c = n[r, 0], n[r, 1], c0[r]
        cnt = 0
        for i in range(V):
            j = i + 1 if i + 1 < V else 0
            ax, ay = verts[r, i, 0], verts[r, i, 1]
            bx, by = verts[r, j, 0], verts[r, j, 1]
            sa = ax * nx + ay * ny - c
            sb = bx * nx + by * ny - c
            if sa >= 0:  # (a NaN side is neither inside nor crossing)
                if cnt <= V:
                    out[r, cnt, 0] = ax
                    out[r, cnt, 1] = ay
                cnt += 1
            if (sa >= 0) != (sb >= 0):
                t = sa / (sa - sb)
                if cnt <= V:
                    out[r, cnt, 0] = ax + (bx - ax) * t
                    out[r, cnt, 1] = ay + (by - ay) * t
                cnt += 1
        if cnt > 0:
            for p in range(min(cnt, V + 1), V + 1):
                out[r, p, 0] = out[r, 0, 0]
                out[r, p, 1] = out[r, 0, 1]
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
