"""Tiny timing helpers shared by the benchmarks (medians, ratios, one line per case)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], *, repeat: int = 15, min_time: float = 0.0) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs (after one warm-up run)."""
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < repeat or time.perf_counter() - start < min_time:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds:8.2f} s "


def line(label: str, ours: float, baseline: float | None = None, base_label: str = "naive") -> str:
    text = f"{label:<44} median {fmt(ours)}"
    if baseline is not None:
        text += f"   {base_label} {fmt(baseline)}   ratio x{baseline / ours:,.1f}"
    return text
