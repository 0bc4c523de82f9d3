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


def _wait_for_workers(group: int, workers: int, timeout: float = 30.0) -> None:
    """Until the process group ``group`` holds ``workers`` processes besides its leader
    (Linux's /proc; elsewhere, 3 s as a run's start takes)."""
    import os
    import time

    if not os.path.exists("/proc/self/stat"):
        time.sleep(3)
        return
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        members = 0
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    stat = f.read()
            except (OSError, ValueError):
                continue
            fields = stat[stat.rindex(")") + 2:].split()  # (state, ppid, pgrp, ... after the name)
            members += pid.isdigit() and int(pid) != group and int(fields[2]) == group
        if members >= workers:
            return
        time.sleep(0.05)
    raise AssertionError(f"no {workers} workers started in {timeout:g} s")


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
    _wait_for_workers(p.pid, 2)
    time.sleep(0.5)  # (the workers into their games)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == b"" and err.strip() == b""  # (not "Process ForkPoolWorker-1: ...")
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(p.pid, 0)


def _sigint_state(job: int) -> tuple[bool, bool]:
    """In a worker: (SIGINT ignored, SIGINT blocked)."""
    import signal

    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.SIGINT in signal.pthread_sigmask(
        signal.SIG_BLOCK, set())


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="no signal masks here")
def test_a_worker_cannot_be_interrupted_before_it_ignores_ctrl_c(monkeypatch, tmp_path):
    # (a Ctrl-C as the pool started could stop a worker holding the task queue's lock, and the
    # parent then waited for ever as it stopped the pool: 5 runs in 30 hung at the workers' start)
    import os
    import signal

    from skirmish.scale import runner

    first = runner._ignore_interrupts

    def noting() -> None:  # (what the worker's signal mask is as its first code runs)
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        (tmp_path / str(os.getpid())).write_text(str(blocked))
        first()

    monkeypatch.setattr(runner, "_ignore_interrupts", noting)
    assert run_jobs(_sigint_state, list(range(4)), workers=2) == [(True, False)] * 4
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["True", "True"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # (the parent's mask is back)


class _Unpicklable(Exception):
    """An exception pickling cannot rebuild (its constructor wants two arguments)."""

    def __init__(self, a: str, b: str):
        super().__init__(f"{a} and {b}")


def _raise_unpicklable(job: int) -> int:
    if job == 3:
        raise _Unpicklable("worker", "refused")
    return job


def _raise_skirmish(job: int) -> int:
    raise SkirmishError(f"job {job} refused", kind="range")


def test_a_worker_error_that_cannot_be_rebuilt_stops_the_run_with_its_text():
    """(such an error stopped the pool's result thread, and the run waited for ever)"""
    import subprocess
    import sys

    code = ("from tests.scale.test_runner import _raise_unpicklable; from skirmish.scale import run_jobs\n"
            "try:\n    run_jobs(_raise_unpicklable, list(range(6)), workers=2)\n"
            "except Exception as e:\n    print(type(e).__name__, '|', e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert out.stdout.strip() == "SkirmishError | _Unpicklable: worker and refused"


def test_a_worker_error_that_pickles_arrives_as_itself():
    with pytest.raises(SkirmishError, match="job . refused") as got:
        run_jobs(_raise_skirmish, [1, 2], workers=2)
    assert got.value.kind == "range"


def test_every_skirmish_error_survives_the_trip_to_another_process():
    """Each error class of the hierarchy, made as the engine makes it, pickles back to an
    equal error (a worker's refusal reaches the parent whole)."""
    import importlib
    import pickle
    import pkgutil

    import skirmish
    from skirmish.game.eldfall.choices import IllegalChoice, Move

    for mod in pkgutil.walk_packages(skirmish.__path__, "skirmish."):
        if ".viewer" not in mod.name and not mod.name.endswith("__main__"):
            importlib.import_module(mod.name)

    def classes(c: type) -> list[type]:
        return [c, *(d for s in c.__subclasses__() for d in classes(s))]

    made = {IllegalChoice: IllegalChoice("kenji", "no LoS", Move("walk", (1.0, 2.0, 0.0)))}
    found = set(classes(SkirmishError))
    assert IllegalChoice in found and len(found) > 10
    for cls in found:
        e = made.get(cls) or cls("the message")
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is cls and str(back) == str(e) and back.kind == e.kind, cls
