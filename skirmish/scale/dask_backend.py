"""The Dask backend of :func:`skirmish.scale.run_jobs` (needs the ``scale`` extra)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import SkirmishError


def run_on_dask(work: Callable[[Any], Any], jobs: Sequence[Any], *, workers: int = 1, scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> list[Any]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SkirmishError("--backend dask and --scheduler need dask.distributed: "
                            "pip install 'skirmish[scale]'") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise SkirmishError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc}); "
                                "start one with `dask scheduler` and workers with `dask worker ADDR`") from None
    try:
        futures = client.map(work, list(jobs), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        done = 0
        for fut in as_completed(futures):
            results[index[fut.key]] = fut.result()
            done += 1
            if progress:
                progress(done)
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
