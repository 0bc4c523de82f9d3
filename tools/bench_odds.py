#!/usr/bin/env python3
"""Benchmark: exact d20 odds against brute-force enumeration and Monte Carlo (10^6 rolls).

    python tools/bench_odds.py [--quick]

Targets (issue 5): a 10 vs 10 dice Confrontation with damage in ≤ 5 ms (median);
the sweep of every attribute pair 1..24 × 1..24 at 3 vs 1 dice in ≤ 1 s.
Brute force enumerates 20 faces per die, so it is measured where it finishes in
seconds and extrapolated (per face combination) where it cannot.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from _bench import fmt, median_seconds  # noqa: E402
from skirmish.rules.eldfall.baselines import brute_force_odds, max_abs_error, monte_carlo_odds  # noqa: E402
from skirmish.rules.eldfall.exchange import Exchange, Side  # noqa: E402
from skirmish.rules.eldfall.odds import exchange_odds  # noqa: E402

ROLLS = 10**6


def confrontation(att_a: int, n_a: int, att_b: int, n_b: int) -> Exchange:
    return Exchange(Side(att=att_a, stk=n_a, pw=10, arm=1, hp=3), Side(att=att_b, stk=n_b, pw=9, arm=2, hp=3))


def row(label: str, seconds: float, target: float | None = None) -> str:
    text = f"{label:<62} {fmt(seconds)}"
    if target is not None:
        text += f"   target ≤ {fmt(target).strip():<8} {'OK' if seconds <= target else 'MISSED'}"
    return text


def ratio(label: str, ours: float, theirs: float, note: str = "") -> str:
    return f"{'  vs ' + label:<62} {fmt(theirs)}   ratio x{theirs / ours:,.0f}{note}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    quick = ap.parse_args().quick
    rng = np.random.default_rng(1)

    # --- 1. small pools: exact vs brute force (measured) vs Monte Carlo -------------
    print("Small pools (Confrontation with damage, ATT 13 vs 11): brute force is measured")
    rate = None
    for na, nb in ((2, 1), (3, 1), (2, 2)):
        ex = confrontation(13, na, 11, nb)
        ours = median_seconds(lambda: exchange_odds(ex), repeat=31)
        t0 = time.perf_counter()
        brute = brute_force_odds(ex)
        t_brute = time.perf_counter() - t0
        assert brute == exchange_odds(ex), "brute force and exact odds differ"
        rate = t_brute / 20 ** (na + nb)
        t0 = time.perf_counter()
        mc = monte_carlo_odds(ex, ROLLS, rng)
        t_mc = time.perf_counter() - t0
        err = max_abs_error(mc.active_hits, exchange_odds(ex).active.hits)
        print(row(f"exact odds {na} vs {nb}", ours))
        print(ratio(f"brute force ({20 ** (na + nb):,} face combinations, equal)", ours, t_brute))
        print(ratio("Monte Carlo 10^6 rolls", ours, t_mc, f"   (max |error| {err:.4f})"))

    # --- 2. 10 vs 10 ------------------------------------------------------------------
    print("\n10 vs 10 dice Confrontation with damage (ATT 13 vs 12, PW 10/9, ARM 1/2, HP 3/3)")
    ex = confrontation(13, 10, 12, 10)
    ours = median_seconds(lambda: exchange_odds(ex), repeat=21 if quick else 201)
    print(row("exact odds, median", ours, 5e-3))
    exact = exchange_odds(ex)
    t_mc = median_seconds(lambda: monte_carlo_odds(ex, ROLLS, rng), repeat=1 if quick else 3)
    mc = monte_carlo_odds(ex, ROLLS, rng)
    assert mc.reactive_wounds is not None and exact.reactive.wounds is not None
    err = max(max_abs_error(mc.active_hits, exact.active.hits), max_abs_error(mc.reactive_wounds, exact.reactive.wounds))
    print(ratio("Monte Carlo 10^6 rolls (numpy)", ours, t_mc, f"   (max |error| {err:.4f}, not exact)"))
    assert rate is not None
    est = rate * 20.0**20
    print(f"{'  vs brute force: 20^20 = 1.0e26 face combinations':<62} est. {est / 3.15e7:.1e} years "
          f"(x{est / ours:.1e}, from the 2 vs 2 rate)")

    # --- 3. the sweep ------------------------------------------------------------------
    print("\nSweep: every attribute pair 1..24 x 1..24 at 3 vs 1 dice (Confrontation with damage)")
    pairs = [(a, b) for a in range(1, 25) for b in range(1, 25)]
    exchanges = [confrontation(a, 3, b, 1) for a, b in pairs]

    def sweep() -> None:
        for e in exchanges:
            exchange_odds(e)

    ours = median_seconds(sweep, repeat=3 if quick else 7)
    print(row(f"exact odds, {len(pairs)} exchanges, median of the whole sweep", ours, 1.0))
    sample = exchanges[:: len(exchanges) // (2 if quick else 6)]
    t0 = time.perf_counter()
    for e in sample:
        brute_force_odds(e)
    t_brute = (time.perf_counter() - t0) / len(sample) * len(pairs)
    print(ratio(f"brute force (measured on {len(sample)} pairs, scaled to {len(pairs)})", ours, t_brute))
    t0 = time.perf_counter()
    for e in sample[:2]:
        monte_carlo_odds(e, ROLLS, rng)
    t_mc = (time.perf_counter() - t0) / 2 * len(pairs)
    print(ratio(f"Monte Carlo 10^6 rolls each (measured on 2, scaled to {len(pairs)})", ours, t_mc))


if __name__ == "__main__":
    main()
