#!/usr/bin/env python3
"""Benchmark: line of sight with certificates, against 16x16 ray casting (trimesh + embreex).

Tables: ``skirmish.scenario.adversarial.dense_table`` — 36"x36", 14-20 models, 20-60
pieces (walls at random angles, low walls, bridges, buildings with models on their
roofs, barrels, rocks, ruins).

1. One pair at a time, in-process (the obstacle arrays built once per table): the
   percentiles of every ordered pair's time, and the median time of all ordered pairs
   of a table (obstacles included), with the ratio against the naive way (the same
   pairs asked one by one). Targets: p99 <= 10 ms, worst <= 50 ms, all pairs median
   <= 100 ms. Wall time and CPU time (process_time: on a shared machine the wall time
   also counts the other processes).
2. Side by side on the same tables: ``line_of_sight_all`` against what a user would
   reach for instead, ray casting with trimesh + embreex: 16 points on A's front half
   x 16 points on B, 256 rays per pair, against the same solids sealed to their
   surfaces (every solid extruded from the surface it stands on). Per table and in
   total: both times, their ratio, and how many pairs the rays miss among the pairs we
   prove visible.
3. ``--scale 100,500``: all pairs on a generated 48"x48" table with that many models
   (targets: 100 models <= 3 s, 500 <= 60 s on one core), with the rays beside it up to
   ``--rays-upto`` models (500 models is 64M rays). 500 models takes minutes: progress
   goes to stderr.

    pip install .[bench]       # trimesh, embreex
    python tools/bench_los.py [--tables 6] [--scale 100,500]
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from _bench import fmt  # noqa: E402
from skirmish.geometry import kernels  # noqa: E402
from skirmish.maps.table import Table  # noqa: E402
from skirmish.scenario.adversarial import dense_table  # noqa: E402


def endpoint_grid(m, front: bool) -> np.ndarray:
    """16 points of a hitbox: 8 on the rim (the front half only if ``front``) x 2 heights."""
    c = m.hitbox
    base = math.radians(m.facing)
    angles = base + (np.linspace(-math.pi / 2, math.pi / 2, 8) if front else np.linspace(0, 2 * math.pi, 8, endpoint=False))
    r = c.radius * 0.999
    xy = np.stack([c.x + r * np.cos(angles), c.y + r * np.sin(angles)], 1)
    zs = np.array([c.z + 0.25 * c.height, c.z + 0.95 * c.height])
    return np.array([(x, y, z) for x, y in xy for z in zs])


def prism_mesh(poly, z0: float, z1: float):
    """A closed triangle mesh of a polygon extruded over [z0, z1] (caps from shapely's
    constrained Delaunay triangles, walls from the outline)."""
    import shapely
    import trimesh

    verts, faces = [], []
    for tri in shapely.constrained_delaunay_triangles(poly).geoms:
        xy = np.asarray(tri.exterior.coords)[:3]
        if (xy[1, 0] - xy[0, 0]) * (xy[2, 1] - xy[0, 1]) - (xy[1, 1] - xy[0, 1]) * (xy[2, 0] - xy[0, 0]) < 0:
            xy = xy[::-1]
        for z, order in ((z1, (0, 1, 2)), (z0, (0, 2, 1))):
            base = len(verts)
            verts += [(x, y, z) for x, y in xy]
            faces.append(tuple(base + o for o in order))
    ring = np.asarray(shapely.geometry.polygon.orient(poly, 1.0).exterior.coords)[:-1]
    for i in range(len(ring)):
        (ax, ay), (bx, by) = ring[i], ring[(i + 1) % len(ring)]
        base = len(verts)
        verts += [(ax, ay, z0), (bx, by, z0), (bx, by, z1), (ax, ay, z1)]
        faces += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return trimesh.Trimesh(np.array(verts), np.array(faces), process=False)


def ray_scene(table: Table):
    """One mesh of every blocking solid, sealed to its surface (a solid that stands on
    others is extruded from the ground, like the engine's), and each face's owner index."""
    import trimesh

    obs = table.los_obstacles
    meshes, owners = [], []
    for i, m in enumerate(table.models):
        c = m.hitbox
        mesh = trimesh.creation.cylinder(radius=c.radius, height=c.top - obs.owner_z0[i], sections=32)
        mesh.apply_translation((c.x, c.y, (c.top + obs.owner_z0[i]) / 2))
        meshes.append(mesh)
        owners.append(np.full(len(mesh.faces), i))
    k = len(table.models)
    for s in (s for s in table.scenery if s.blocks_los):
        z0 = float(obs.owner_z0[k])
        mesh = prism_mesh(s.solid.footprint, z0, s.top)
        meshes.append(mesh)
        owners.append(np.full(len(mesh.faces), k))
        k += 1
    return trimesh.util.concatenate(meshes), np.concatenate(owners)


def rays_all_pairs(table: Table, pairs) -> list[bool]:
    """For each pair: does one of its 256 rays reach B without meeting another solid?"""
    from trimesh.ray.ray_pyembree import RayMeshIntersector

    mesh, owner = ray_scene(table)
    index = {m.id: i for i, m in enumerate(table.models)}
    P, Q, who = [], [], []
    for n, (a, b) in enumerate(pairs):
        ma = table.model(a)
        pa, pb = endpoint_grid(ma, True), endpoint_grid(table.model(b), False)
        fx, fy = ma.facing_vector
        pb = pb[(pb[:, 0] - ma.x) * fx + (pb[:, 1] - ma.y) * fy >= 0]  # E-ARC: the line runs forward
        if not len(pb):
            continue
        P.append(np.repeat(pa, len(pb), 0))
        Q.append(np.tile(pb, (len(pa), 1)))
        who.append(np.full(len(pa) * len(pb), n))
    seen = [False] * len(pairs)
    if not P:
        return seen
    p, q, ray_pair = np.concatenate(P), np.concatenate(Q), np.concatenate(who)
    d = q - p
    length = np.linalg.norm(d, axis=1)
    tri, ray, loc = RayMeshIntersector(mesh).intersects_id(p, d / length[:, None], multiple_hits=True,
                                                           return_locations=True)
    a_idx = np.array([index[pairs[n][0]] for n in ray_pair])
    b_idx = np.array([index[pairs[n][1]] for n in ray_pair])
    hit_owner = owner[tri]
    along = np.einsum("ij,ij->i", loc - p[ray], d[ray] / length[ray, None])
    blocks = (hit_owner != a_idx[ray]) & (hit_owner != b_idx[ray]) & (along < length[ray])
    blocked = np.zeros(len(p), bool)
    blocked[ray[blocks]] = True
    for n in np.unique(ray_pair[~blocked]):
        seen[int(n)] = True
    return seen


def pct(xs, q):
    return float(np.percentile(xs, q))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=6, help="generated dense tables")
    ap.add_argument("--scale", type=lambda v: [int(x) for x in v.split(",")], default=[], metavar="N,N",
                    help="also all pairs with N models on 48x48 (the targets: 100,500)")
    ap.add_argument("--rays-upto", type=int, default=200, metavar="N",
                    help="run the rays beside --scale tables of at most N models (default 200)")
    args = ap.parse_args()
    singles: list[float] = []
    singles_cpu: list[float] = []
    all_pairs: list[float] = []
    all_cpu: list[float] = []
    naive_cpu: list[float] = []
    stages: collections.Counter[str] = collections.Counter()
    ours_total = rays_total = ours_cpu_total = rays_cpu_total = 0.0
    missed_total = proven_total = extra_total = uncertified = 0
    t0 = time.perf_counter()
    kernels.load()  # (once per process: the compiled kernels, from numba's disk cache after the first run)
    print(f"compiled kernels loaded in {time.perf_counter() - t0:.2f} s (once per process, not in the times below)")
    print("table            models pieces  pairs  visible  ours all pairs (cpu)      rays 16x16 (cpu)    "
          "ratio  rays miss  rays see*")
    for seed in range(args.tables):
        table = dense_table(random.Random(seed))
        ids = table.model_ids
        pairs = [(x, y) for x in ids for y in ids if x != y]
        t0, c0 = time.perf_counter(), time.process_time()
        results = table.line_of_sight_all()
        ours = time.perf_counter() - t0  # includes building (and growing) the obstacle arrays
        ours_cpu = time.process_time() - c0
        all_pairs.append(ours)
        all_cpu.append(ours_cpu)
        stages.update(r.stage for r in results)
        uncertified += sum(not r.certified for r in results)
        one_by_one = 0.0
        for a, b in pairs:
            table._los_memo.clear()  # a table keeps the answers it gave; time the search, not the memo
            t0, c0 = time.perf_counter(), time.process_time()
            table.line_of_sight(a, b)
            singles.append(time.perf_counter() - t0)
            singles_cpu.append(time.process_time() - c0)
            one_by_one += singles_cpu[-1]
        naive_cpu.append(one_by_one)
        t0, c0 = time.perf_counter(), time.process_time()
        rays = rays_all_pairs(table, pairs)
        theirs = time.perf_counter() - t0
        theirs_cpu = time.process_time() - c0
        proven = sum(r.visible for r in results)
        missed = sum(r.visible and not s for r, s in zip(results, rays))
        extra = sum(s and not r.visible for r, s in zip(results, rays))
        ours_total += ours
        rays_total += theirs
        ours_cpu_total += ours_cpu
        rays_cpu_total += theirs_cpu
        missed_total += missed
        proven_total += proven
        extra_total += extra
        print(f"dense seed {seed:<5} {len(table.models):>6} {len(table.scenery):>6} {len(pairs):>6} {proven:>8}  "
              f"{fmt(ours)} ({fmt(ours_cpu).strip()})  {fmt(theirs)} ({fmt(theirs_cpu).strip()})  "
              f"x{theirs_cpu / ours_cpu:4.1f}  {missed:>9}  {extra:>9}")
    if not args.tables:  # only the --scale lines
        for n in args.scale:
            scale_line(n, args.rays_upto)
        return
    print(f"{'total':<16} {'':>6} {'':>6} {'':>6} {proven_total:>8}  {fmt(ours_total)} ({fmt(ours_cpu_total).strip()})  "
          f"{fmt(rays_total)} ({fmt(rays_cpu_total).strip()})  x{rays_cpu_total / ours_cpu_total:4.1f}  "
          f"{missed_total:>9}  {extra_total:>9}")
    print("  (ratio: rays cpu / ours cpu; rays miss: pairs we prove visible where no ray gets through; rays see*:")
    print("   a ray passes but every sight line comes within 0.1 mm of a solid, so E-LOS says blocked)")
    for label, xs in (("wall", singles), ("cpu", singles_cpu)):
        print(f"one pair in-process over {len(xs)} ordered pairs ({label}): p50 {fmt(pct(xs, 50))}, p90 "
              f"{fmt(pct(xs, 90))}, p99 {fmt(pct(xs, 99))}, p99.9 {fmt(pct(xs, 99.9))}, worst {fmt(max(xs))}")
    print(f"all ordered pairs of a table: median {fmt(statistics.median(all_pairs))} wall, "
          f"{fmt(statistics.median(all_cpu))} cpu (target <= 100 ms); worst {fmt(max(all_pairs))} wall; "
          f"one by one (naive) median {fmt(statistics.median(naive_cpu))} cpu, ratio "
          f"x{statistics.median(naive_cpu) / statistics.median(all_cpu):.1f}")
    total = sum(stages.values())
    print("settled by stage: " + ", ".join(f"{k} {v / total:.1%}" for k, v in stages.most_common())
          + f"; uncertified: {uncertified}")
    for n in args.scale:
        scale_line(n, args.rays_upto)


def scale_line(n: int, rays_upto: int) -> None:
    """All pairs on a generated 48x48 table with ``n`` models (item 3), with the rays beside it."""
    table = dense_table(random.Random(n), width=48, depth=48, models=n, pieces=40)
    pairs = [(x, y) for x in table.model_ids for y in table.model_ids if x != y]

    def progress(done: int) -> None:
        print(f"\r  {n} models: {done}/{len(pairs)} pairs", end="", file=sys.stderr, flush=True)

    t0, c0 = time.perf_counter(), time.process_time()
    res = table.line_of_sight_all(progress=progress)
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(file=sys.stderr)
    target = 3.0 if n <= 100 else 60.0 if n <= 500 else math.nan
    text = (f"all pairs, 48x48, {len(table.models)} models, {len(table.scenery)} pieces: {len(res)} pairs in "
            f"{fmt(dt).strip()} wall, {fmt(dc).strip()} cpu (target <= {target:g} s), "
            f"uncertified {sum(not r.certified for r in res)}")
    if n <= rays_upto:
        t0, c0 = time.perf_counter(), time.process_time()
        rays = rays_all_pairs(table, pairs)
        rc = time.process_time() - c0
        missed = sum(r.visible and not s for r, s in zip(res, rays))
        text += f"; rays 16x16 {fmt(rc).strip()} cpu, ratio x{rc / dc:.1f}, rays miss {missed}"
    print(text)

if __name__ == "__main__":
    main()
