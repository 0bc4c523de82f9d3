"""Dask as the engine for big runs: `--backend dask` and `--scheduler` give reports
byte-identical to `--workers 1`, against a scheduler and workers this test starts on
127.0.0.1 (the `dask scheduler` / `dask worker` commands) and stops after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skirmish.cli import main
from skirmish.errors import SkirmishError
from skirmish.scale import dask_backend, run_jobs

from conftest import ROOT, SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]


def out_of(capsys, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A `dask scheduler` on 127.0.0.1 (a free port) with two single-threaded `dask worker`s."""
    pytest.importorskip("distributed")
    d: Path = tmp_path_factory.mktemp("dask")
    info = d / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
                              cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)]
    try:
        for _ in range(300):
            if info.exists() and info.stat().st_size:
                break
            time.sleep(0.1)
        addr = json.loads(info.read_text())["address"]
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--host",
                                       "127.0.0.1", "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                                      cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True))
        assert addr.startswith("tcp://127.0.0.1:")
        yield addr
    finally:
        # each process leads its own group (the worker's nanny and the workers it spawns):
        # the whole group is killed at once, rather than waiting for a graceful close,
        # which takes seconds on a loaded machine
        for p in reversed(procs):
            try:
                if hasattr(os, "killpg"):
                    os.killpg(p.pid, signal.SIGKILL)
                else:  # (no process groups: the process alone)
                    p.kill()
            except ProcessLookupError:
                pass
        for p in reversed(procs):
            p.wait(timeout=20)


@pytest.mark.slow
def test_scheduler_heatmap_is_byte_identical(capsys, scheduler):
    argv = ["heatmap", MILL, "--side", "red", "--size", "M", "--step", "3", "--json"]
    one = out_of(capsys, argv + ["--workers", "1"])
    assert json.loads(one)["exposure"]
    assert out_of(capsys, argv + ["--scheduler", scheduler]) == one


@pytest.mark.slow
def test_scheduler_trials_are_byte_identical(capsys, scheduler):
    argv = ["run", MILL, "--seed", "5", "--trials", "600", "--json"]
    one = out_of(capsys, argv + ["--workers", "1"])
    assert out_of(capsys, argv + ["--scheduler", scheduler]) == one
    assert out_of(capsys, argv + ["--workers", "2"]) == one


@pytest.mark.slow
def test_backend_dask_local_cluster_is_byte_identical(capsys):
    pytest.importorskip("distributed")
    argv = ["run", MILL, "--seed", "9", "--trials", "520", "--json"]
    one = out_of(capsys, argv)
    assert out_of(capsys, argv + ["--backend", "dask", "--workers", "2"]) == one
    # (one local cluster is enough: heatmap and run reach Dask through the same run_jobs, and
    # the heatmap's rows on Dask workers are checked against a scheduler above)


@pytest.mark.slow
def test_run_jobs_reports_progress_on_dask_in_job_order(scheduler):
    seen: list[int] = []
    jobs = [-i for i in range(9)]  # a builtin: the workers import nothing from this test
    assert run_jobs(abs, jobs, scheduler=scheduler, progress=seen.append) == list(range(9))
    assert seen == list(range(1, 10))


def test_without_dask_the_flags_name_the_scale_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(SkirmishError, match=r"skirmish\[scale\]"):
        run_jobs(abs, [1, 2], backend="dask")
    assert main(["run", MILL, "--seed", "1", "--trials", "10", "--backend", "dask"]) == 2
    assert "`scale` extra" in capsys.readouterr().err


def test_unreachable_scheduler_is_a_clean_error(monkeypatch, capsys):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = main(["heatmap", MILL, "--side", "red", "--size", "M", "--step", "10", "--scheduler",
                 f"tcp://127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot reach a Dask scheduler" in err and "dask scheduler" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("speaks", [b"", b"HTTP/1.0 200 OK\r\n\r\n" + bytes(range(256)) * 8], ids=["silent", "web"])
def test_a_scheduler_address_where_something_else_listens_is_a_clean_error_in_time(monkeypatch, capsys, speaks):
    # (a silent port or a web server hung the run for minutes; random bytes gave a MemoryError traceback)
    pytest.importorskip("distributed")
    import socket
    import threading

    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    if not speaks:  # (nothing will ever answer: no need to wait the grace for Dask's own report)
        monkeypatch.setattr(dask_backend, "CONNECT_GRACE", 0.2)
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    held = []

    def serve() -> None:
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            held.append(c)
            if speaks:
                c.sendall(speaks)

    threading.Thread(target=serve, daemon=True).start()
    t0 = time.monotonic()
    try:
        code = main(["play", MILL, "--games", "2", "--scheduler", f"tcp://127.0.0.1:{srv.getsockname()[1]}"])
    finally:
        srv.close()
        for c in held:
            c.close()
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and time.monotonic() - t0 < 20
    assert "Dask scheduler" in err and "dask worker ADDR" in err
