"""run_jobs: the same results, in job order, for any worker count."""

from __future__ import annotations

import pytest

from skirmish.errors import SkirmishError
from skirmish.scale import job_rng, run_jobs


def _draw(job: tuple[int, int]) -> int:
    seed, i = job
    return job_rng(seed, i).randrange(10**9)


def test_results_identical_for_any_worker_count():
    jobs = [(7, i) for i in range(12)]
    one = run_jobs(_draw, jobs)
    assert run_jobs(_draw, jobs, workers=2) == one
    seen: list[int] = []
    run_jobs(_draw, jobs, workers=1, progress=seen.append)
    assert seen == list(range(1, 13))


def test_bad_worker_count():
    with pytest.raises(SkirmishError, match="workers must be 1 or more"):
        run_jobs(_draw, [(1, 1)], workers=0)


def test_settle_heap_freezes_the_start_up_objects_once_per_process():
    """In a fresh process: the objects alive at the call leave the collector's passes
    (frozen), the objects made after stay collectable, the youngest generation's threshold
    is raised (the older ones kept), and a second call changes nothing."""
    import subprocess
    import sys

    code = ("import gc; from skirmish.scale import settle_heap; from skirmish.scale.runner import YOUNG_THRESHOLD; "
            "before = gc.get_freeze_count(); th = gc.get_threshold(); settle_heap(); "
            "frozen = gc.get_freeze_count(); junk = [[] for _ in range(1000)]; settle_heap(); "
            "print(before, frozen > 1000, gc.get_freeze_count() == frozen, "
            "gc.get_threshold() == (max(th[0], YOUNG_THRESHOLD), th[1], th[2]), th[0] < YOUNG_THRESHOLD)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "True", "True", "True", "True"]


def test_settle_heap_leaves_a_switched_off_collector_off():
    import subprocess
    import sys

    code = ("import gc; gc.set_threshold(0); from skirmish.scale import settle_heap; settle_heap(); "
            "print(gc.get_threshold()[0])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0"]


def test_ctrl_c_stops_a_run_on_workers_at_once_without_their_tracebacks():
    # (each interrupted worker printed its own traceback under the parent's exit)
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import SCENARIOS

    p = subprocess.Popen([sys.executable, "-m", "skirmish", "play", str(SCENARIOS / "mill-ambush.toml"), "--games",
                          "400", "--seed", "1", "--policy", "random", "--workers", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(3)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == b"" and err.strip() == b""  # (not "Process ForkPoolWorker-1: ...")
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(p.pid, 0)
