#!/usr/bin/env python3
"""Benchmark: how long the ``skirmish`` command line takes to start and answer.

Each case runs ``python -m skirmish ...`` in a fresh process (the kernels' disk cache warm)
and takes the median wall time. The baseline runs the same command line in a process that
first imports every command's module and the whole library, as the command line did
before it imported only what the command it runs needs.

    python tools/bench_startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import line, median_seconds  # noqa: E402

CASES = {
    "skirmish --help": ["--help"],
    "skirmish odds --active ATT=12 --json": ["odds", "--active", "ATT=12", "--json"],
    "skirmish roll (one exchange, seeded)": ["roll", "--active", "ATT=13,STK=2,PW=9", "--reactive", "DODGE=8,HP=2",
                                             "--seed", "1"],
    "skirmish los first-steps akane brute": ["los", "scenarios/first-steps.toml", "akane", "brute"],
    "skirmish check mill-ambush": ["check", "scenarios/mill-ambush.toml"],
}

#: the baseline: every command's module and the library imported before the command runs
EAGER = ("import importlib, pkgutil, sys, skirmish._api, skirmish.cli as cli\n"
         "for m in pkgutil.iter_modules(cli.__path__):\n"
         "    importlib.import_module('skirmish.cli.' + m.name)\n"
         "sys.exit(cli.main(sys.argv[1:]))")


def timed(cmd: list[str], repeat: int) -> float:
    """Median wall seconds of ``cmd`` (after one warm-up run)."""
    return median_seconds(lambda: subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL, check=False), repeat=repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    for label, argv in CASES.items():
        ours = timed([sys.executable, "-m", "skirmish", *argv], args.repeat)
        eager = timed([sys.executable, "-c", EAGER, *argv], args.repeat)
        print(line(label, ours, eager, "all imported"), flush=True)


if __name__ == "__main__":
    main()
