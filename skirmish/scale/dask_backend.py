"""The Dask backend of :func:`skirmish.scale.run_jobs` (needs the ``scale`` extra).

Without ``scheduler`` a local cluster of ``workers`` single-threaded processes is
started on 127.0.0.1 and stopped when the jobs are done; with one, the jobs go to
that existing cluster (its workers must be able to import skirmish). Results come
back in job order whatever finished first, so a run is identical on every backend.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import SkirmishError

#: Seconds to wait for the scheduler to answer, and for a first worker to join it.
CONNECT_TIMEOUT = 10.0
#: Seconds more to wait for Dask's own connect timeout to report, before the peer is taken as silent.
CONNECT_GRACE = 2.0
WORKER_TIMEOUT = 30.0

INSTALL_HINT = ("install the `scale` extra: pip install \".[scale]\" in the checkout, or pip install "
                "'skirmish[scale]' (it brings dask.distributed)")


class DaskUnavailable(SkirmishError):
    """dask.distributed is not installed, or the cluster cannot be reached or used."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise DaskUnavailable(f"--backend dask and --scheduler need dask.distributed, which is not installed; "
                              f"{INSTALL_HINT}") from None
    return distributed


def run_on_dask(work: Callable[[Any], Any], jobs: Sequence[Any], *, workers: int = 1, scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> list[Any]:
    """``[work(j) for j in jobs]`` on a Dask cluster (see the module)."""
    distributed = _distributed()
    cluster = None
    if scheduler is None:
        with warnings.catch_warnings():  # "port 8787 in use": its metrics server moves; nothing to act on
            warnings.simplefilter("ignore", UserWarning)
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address=None, silence_logs=40)
        client = distributed.Client(cluster)
    else:
        client = _connect(distributed, scheduler)
    try:
        if scheduler is not None:
            try:
                client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
            except (TimeoutError, OSError):
                raise DaskUnavailable(f"--scheduler {scheduler}: no worker joined the cluster within "
                                      f"{WORKER_TIMEOUT:g} s; start some with `dask worker {scheduler}`") from None
        futures = client.map(work, list(jobs), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        done = 0
        for fut in distributed.as_completed(futures):
            results[index[fut.key]] = fut.result()
            done += 1
            if progress:
                progress(done)
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(distributed: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or DaskUnavailable within about
    CONNECT_TIMEOUT seconds whatever answers there: Dask's own timeout does not cover a
    peer that accepts the connection and never speaks (a silent port, a web server), and
    a peer that speaks another protocol can make its handshake fail in any way."""
    got: dict[str, Any] = {}

    def attempt() -> None:
        try:
            got["client"] = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT:g}s")
        except Exception as exc:  # noqa: BLE001 - whatever the peer made of the handshake
            got["error"] = exc

    hint = ("start one with `dask scheduler` and workers with `dask worker ADDR`, then pass the address it "
            "prints (tcp://host:port)")
    t = threading.Thread(target=attempt, name="skirmish-dask-connect", daemon=True)
    t.start()
    t.join(CONNECT_TIMEOUT + CONNECT_GRACE)
    if t.is_alive():
        raise DaskUnavailable(f"--scheduler {scheduler}: no Dask scheduler answered within {CONNECT_TIMEOUT:g} s "
                              f"(something listens there, but does not speak Dask); {hint}")
    if "error" in got:
        exc = got["error"]
        why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise DaskUnavailable(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({why}); {hint}")
    return got["client"]
