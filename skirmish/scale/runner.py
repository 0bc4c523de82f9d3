"""``run_jobs``: the one place that fans seeded work out to workers.

Backends:

- ``"local"`` with ``workers=1``: in this process;
- ``"local"`` with ``workers>1``: a process pool (fork where the platform has it);
- ``"dask"``: a ``dask.distributed`` cluster, started and stopped here unless a
  ``scheduler`` address names an existing one (see docs/analysis.md).

``work`` must be a module-level function (it is pickled) and every job a picklable
value. Results are returned in job order whatever finished first.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.pool
import pickle
import random
import signal
from collections.abc import Callable, Sequence
from typing import Generic, Literal, TypeVar

from ..errors import SkirmishError

J = TypeVar("J")
R = TypeVar("R")
Backend = Literal["local", "dask"]


_SETTLED = False

#: The collector's youngest-generation threshold during a long run (CPython's default is
#: 700): an Eldfall game makes and drops some 10^5 containers, so with the default the
#: collector walks the young objects every few milliseconds, about 6 % of a random game
#: (2 % at this threshold: tools/bench_play.py, measured with ``gc.callbacks``; now that a
#: game leaves no reference cycles, far fewer of its objects outlive a pass).
YOUNG_THRESHOLD = 20_000


def settle_heap() -> None:
    """Before a long run of jobs in this process: take every object made so far (the
    imported libraries, the loaded scenario) out of the garbage collector's full passes
    (``gc.freeze``), and let the youngest generation grow to :data:`YOUNG_THRESHOLD`
    objects between passes (never lower than it was), once per process. numpy, shapely
    and numba make some 10^5 objects that are never garbage; a full pass walks them all
    (about 70 ms, every few Eldfall games). Processes forked afterwards (``workers`` > 1)
    share the frozen heap and the thresholds."""
    global _SETTLED
    if not _SETTLED:
        _SETTLED = True
        gc.freeze()
        young, middle, oldest = gc.get_threshold()
        if young:  # (0: the collector was switched off by the caller; leave it so)
            gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, oldest)


def _ignore_interrupts() -> None:
    """In a pool worker: leave Ctrl-C to the parent, which stops the pool (a worker
    interrupted too printed its own traceback, one per worker). The worker was started
    with SIGINT blocked (:func:`_pool`); it is ignored before it is let through."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _pool(ctx: multiprocessing.context.BaseContext, workers: int) -> multiprocessing.pool.Pool:
    """A pool of ``workers`` processes that never see a Ctrl-C. SIGINT is blocked while
    they start, so none is interrupted before its initializer ignores it: one interrupted
    while it held the task queue's lock would leave the parent waiting for ever as it
    stops the pool. A Ctrl-C meanwhile waits, and reaches the parent once they stand."""
    if not hasattr(signal, "pthread_sigmask"):  # (no signal masks here: Windows)
        return ctx.Pool(workers, initializer=_ignore_interrupts)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return ctx.Pool(workers, initializer=_ignore_interrupts)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _Sent(Generic[J, R]):
    """``work`` in a pool worker, whose exception must cross back to the parent: one that
    pickling cannot rebuild there would stop the pool's result thread, and the run would
    wait for ever; it goes back as a :class:`SkirmishError` with its text instead."""

    def __init__(self, work: Callable[[J], R]):
        self.work = work

    def __call__(self, job: J) -> R:
        try:
            return self.work(job)
        except Exception as e:
            try:
                pickle.loads(pickle.dumps(e))
            except Exception:
                raise SkirmishError(f"{type(e).__name__}: {e}", kind=getattr(e, "kind", "error")) from None
            raise


def job_rng(seed: int, i: int) -> random.Random:
    """The generator of item ``i`` of a run seeded ``seed``: the same on every backend."""
    return random.Random(f"{seed}:{i}")


def run_jobs(work: Callable[[J], R], jobs: Sequence[J], *, workers: int = 1, backend: Backend = "local",
             scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> list[R]:
    """``[work(j) for j in jobs]``, spread over ``workers``; ``progress(k)`` is called
    with the number of jobs finished so far, in order."""
    if workers < 1:
        raise SkirmishError(f"workers must be 1 or more, got {workers}", kind="range")
    if backend == "dask" or scheduler is not None:
        from .dask_backend import run_on_dask

        return run_on_dask(work, jobs, workers=workers, scheduler=scheduler, progress=progress)
    if backend != "local":
        raise SkirmishError(f"unknown backend {backend!r}; use 'local' or 'dask'")
    results: list[R] = []
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            results.append(work(job))
            if progress:
                progress(len(results))
        return results
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with _pool(ctx, min(workers, len(jobs))) as pool:
        for r in pool.imap(_Sent(work), jobs):
            results.append(r)
            if progress:
                progress(len(results))
    return results
