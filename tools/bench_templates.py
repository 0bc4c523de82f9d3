#!/usr/bin/env python3
"""Benchmark: AoE templates on the dense bundled table (scenarios/dense-ruins.toml).

* one template resolution: every model as a circle's main target (small and large), and
  a spray from every model at every enemy in its reach (small and large); the baseline
  resolves the same placements naively (shapely polygons for coverage, the LoS engine
  on every pair, no fast path);
* best placement for a circle (user, main target): ours against a brute-force grid of
  EQUAL resolution — every point of the search's own lattice (0.05"), each resolved
  one by one;
* best placement for a spray (user; main target: the best enemy): ours (exact angular
  events) against a brute-force sweep every 0.1° for every enemy in reach.

Both searches must find scores at least as good as their brute force (checked here too).

    python tools/bench_templates.py [--cases 6]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import shapely  # noqa: E402

from _bench import fmt, line, median_seconds  # noqa: E402
from skirmish import load  # noqa: E402
from skirmish.geometry.los import Viewer, line_of_sight_batch  # noqa: E402
from skirmish.geometry.templates import TOUCH_TOLERANCE, circle_lattice  # noqa: E402
from skirmish.rules.eldfall.templates import TEMPLATES  # noqa: E402

DENSE = ROOT / "scenarios" / "dense-ruins.toml"


def score(t, r, user):
    if not r.main_target_covered or not r.hits(r.main_target):
        return None
    friends = sum(t.side_of(m) == t.side_of(user) for m in r.affected_ids)
    return (len(r.affected_ids) - friends) - friends


def naive_resolution(t, name, kw) -> int:
    """The same question answered naively: shapely coverage of every base, the LoS engine
    for every touched model in the band (no candidate witnesses)."""
    r = t.template(name, **kw)  # only to get the placement's outline and reference height
    poly = shapely.Polygon(r.outline)
    obs = t.template_obstacles
    hit = 0
    for m in t.models:
        if m.id == r.by or not poly.buffer(TOUCH_TOLERANCE).intersects(shapely.Point(m.x, m.y).buffer(m.radius, 32)):
            continue
        if abs(m.z - r.surface_z) > r.band + 1e-9:
            continue
        tgt = Viewer(m.x, m.y, m.radius, m.z, m.hitbox_height, -1)
        if r.kind == "circle":
            src, facing = Viewer(r.center[0], r.center[1], 0.0, r.surface_z, 0.0, -1), None
        else:
            u = t.model(r.by)
            src, facing = Viewer(u.x, u.y, u.radius, u.z, u.hitbox_height, -1), u.facing_vector
        hit += line_of_sight_batch(obs, [src], [tgt], [facing])[0].visible
    return hit


def brute_circle(t, name, user, target):
    m, u = t.model(target), t.model(user)
    pts, _ = circle_lattice((m.x, m.y), (u.x, u.y), TEMPLATES[name].radius - m.radius + TOUCH_TOLERANCE, 0.05)
    best = None
    for x, y in pts:
        s = score(t, t.template(name, at=(x, y), on=target, by=user), user)
        if s is not None and (best is None or s > best):
            best = s
    return best, len(pts)


def brute_spray(t, name, user, step=0.1):
    best = None
    n = 0
    a = t.model(user)
    for e in t.model_ids:
        if t.side_of(e) == t.side_of(user) or t.distance(user, e) > TEMPLATES[name].length:
            continue
        b = t.model(e)
        bearing = math.degrees(math.atan2(b.y - a.y, b.x - a.x))
        for deg in np.arange(0, 360, step):
            if abs((deg - bearing + 180) % 360 - 180) > 75:
                continue  # cannot even touch its main target
            n += 1
            s = score(t, t.template(name, by=user, on=e, direction=float(deg)), user)
            if s is not None and (best is None or s > best):
                best = s
    return best, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=6, help="users (and their nearest enemies) per search benchmark")
    args = ap.parse_args()
    t = load(DENSE)
    ids = t.model_ids
    print(f"{t!r}")

    # -- one resolution ----------------------------------------------------------------
    cases = [(n, {"on": i}) for n in ("circle-small", "circle-large") for i in ids]
    for n in ("spray-small", "spray-large"):
        for a in ids:
            for b in ids:
                if t.side_of(a) != t.side_of(b) and t.distance(a, b) <= TEMPLATES[n].length:
                    cases.append((n, {"by": a, "toward": b}))
    ours = [median_seconds(lambda n=n, kw=kw: t.template(n, **kw), repeat=5) for n, kw in cases]
    sample = cases[:: max(1, len(cases) // 80)]
    naive = [median_seconds(lambda n=n, kw=kw: naive_resolution(t, n, kw), repeat=3) for n, kw in sample]
    print(f"one resolution: {len(cases)} placements (circles on every model, sprays at every enemy in reach); "
          f"p90 {fmt(sorted(ours)[int(0.9 * len(ours))])}, max {fmt(max(ours))}")
    print(line("one template resolution (median)", statistics.median(ours), statistics.median(naive),
               "naive (shapely + engine per pair)"))

    # -- best circle ---------------------------------------------------------------------
    users = list(ids[: args.cases])
    for name in ("circle-small", "circle-large"):
        ours_c, brute_c, worse = [], [], 0
        points = 0
        for u in users:
            enemies = sorted((e for e in ids if t.side_of(e) != t.side_of(u)), key=lambda e: t.distance(u, e))
            e = enemies[0]
            ours_c.append(median_seconds(lambda u=u, e=e: t.best_template(name, by=u, on=e), repeat=5))
            best = t.best_template(name, by=u, on=e)
            t0 = time.perf_counter()
            b, n = brute_circle(t, name, u, e)
            brute_c.append(time.perf_counter() - t0)
            points += n
            worse += b is not None and best.score < b
        print(line(f"best {name} (user, main target)", statistics.median(ours_c), statistics.median(brute_c),
                   "brute grid 0.05\" (equal)") + f"   [{points // len(users)} grid points/case; "
              f"ours worse than grid: {worse}]")
        auto = [median_seconds(lambda u=u: t.best_template(name, by=u), repeat=3) for u in users]
        print(line(f"best {name} (user, best main target)", statistics.median(auto)))

    # -- best spray ----------------------------------------------------------------------
    for name in ("spray-small", "spray-large"):
        ours_s, brute_s, worse, dirs = [], [], 0, 0
        for u in ids:
            try:
                best = t.best_template(name, by=u)
            except Exception:
                continue  # no enemy this user can cover
            ours_s.append(median_seconds(lambda u=u: t.best_template(name, by=u), repeat=5))
            t0 = time.perf_counter()
            b, n = brute_spray(t, name, u)
            brute_s.append(time.perf_counter() - t0)
            dirs += n
            worse += b is not None and best.score < b
            if len(ours_s) >= args.cases:
                break
        print(line(f"best {name} (user, best main target)", statistics.median(ours_s), statistics.median(brute_s),
                   "brute sweep 0.1°") + f"   [{dirs // max(1, len(ours_s))} directions/case; exact events; "
              f"ours worse than sweep: {worse}]")


if __name__ == "__main__":
    main()
