#!/usr/bin/env python3
"""Benchmark by instruction count: whole Eldfall games (``skirmish play``) on the
``tools/bench_play.py`` table, counted by valgrind's callgrind instead of timed.

A shared machine's speed drifts by up to half between runs, so two versions whose times
differ by a few percent cannot be told apart by a clock. The number of instructions a
game runs does not drift: this counts them for this checkout and, with ``--against
DIR``, for another checkout playing the same games, both under callgrind at the same
time (one per core), and prints the ratio.

Each side warms up first (kernels loaded, its process set up as ``skirmish play --games``
sets up its own with that side's ``settle_heap``, one game played); only the measured games are
counted (callgrind's instrumentation is switched on around them with
``callgrind_control``). Games are played as ``--games`` plays them, without writing their
event logs (``log=False``; a side from before it writes them). Under callgrind a game runs some 50 times slower: three random
games take about five minutes, greedy ones longer.

    python tools/count_play_instructions.py [--case random] [--games 3] [--seed 1] [--against /tmp/main]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What each side runs under callgrind: warm up, wait for the go, play, say done, wait.
PLAYER = """
import gc, inspect, os, random, sys, time
root, case, games, seed, flags = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
sys.path.insert(0, root)
sys.path.insert(0, os.path.join(root, "tools"))
from bench_play import bench_table
from skirmish.game.eldfall import parse_settings, play_game
from skirmish.game.policy import load_policy
try:
    from skirmish.geometry import kernels
    kernels.load()
except ImportError:
    pass
try:  # (as `skirmish play --games` sets up its process; a side from before settle_heap: gc.freeze)
    from skirmish.scale import settle_heap
except ImportError:
    settle_heap = gc.freeze
settle_heap()
table = bench_table(seed)
unlogged = {"log": False} if "log" in inspect.signature(play_game).parameters else {}  # (as --games plays)
def play(s):
    play_game(table, parse_settings(None, table), {side: load_policy(case, "eldfall") for side in table.sides},
              random.Random(s), seed=s, **unlogged)
play(seed + 1000)  # (a warm-up game, not counted)
def wait_for(name):
    while not os.path.exists(os.path.join(flags, name)):
        time.sleep(0.2)
open(os.path.join(flags, "ready"), "w").close()
wait_for("go")
for i in range(games):
    play(seed + i)
open(os.path.join(flags, "done"), "w").close()
wait_for("end")
"""


class Side:
    """One checkout's games running under callgrind."""

    def __init__(self, root: str, case: str, games: int, seed: int, work: Path, name: str):
        self.flags = work / name
        self.flags.mkdir()
        self.out = work / f"{name}.callgrind"
        script = work / "player.py"
        script.write_text(PLAYER)
        self.proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.out}",
             os.path.realpath(sys.executable), str(script), root, case, str(games), str(seed), str(self.flags)],
            cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def flag(self, name: str) -> bool:
        return (self.flags / name).exists()

    def wait_for(self, name: str) -> None:
        while not self.flag(name):
            if self.proc.poll() is not None:
                raise SystemExit(f"the player under callgrind stopped early:\n{self.proc.stderr.read() if self.proc.stderr else ''}")
            time.sleep(0.5)

    def instrument(self, on: bool) -> None:
        subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(self.proc.pid)],
                       check=True, capture_output=True)

    def instructions(self) -> int:
        self.proc.wait()
        text = self.out.read_text(errors="replace")
        found = re.search(r"^totals: (\d+)", text, re.M)
        if found is None:
            raise SystemExit(f"no instruction count in {self.out}")
        return int(found.group(1))


def count(roots: list[str], case: str, games: int, seed: int) -> list[int]:
    """The instructions of ``games`` games of ``case`` for each checkout, run side by side."""
    with tempfile.TemporaryDirectory() as tmp:
        sides = [Side(r, case, games, seed, Path(tmp), f"side{i}") for i, r in enumerate(roots)]
        for s in sides:  # (each starts counting as soon as it is warm: the counts do not depend on timing)
            s.wait_for("ready")
            s.instrument(True)
            (s.flags / "go").touch()
        for s in sides:
            s.wait_for("done")
            s.instrument(False)
            (s.flags / "end").touch()
        return [s.instructions() for s in sides]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=["random", "greedy"], default="random")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", metavar="DIR", help="another checkout to count in the same run (e.g. main)")
    args = ap.parse_args()
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install valgrind); it counts the instructions")
    roots = [str(ROOT)] + ([str(Path(args.against).resolve())] if args.against else [])
    got = count(roots, args.case, args.games, args.seed)
    line = (f"{args.case} vs {args.case}, {args.games} games: {got[0] / 1e6:,.1f} M instructions "
            f"({got[0] / args.games / 1e6:,.1f} M a game)")
    if args.against:
        line += f"; baseline {got[1] / 1e6:,.1f} M; ratio x{got[1] / got[0]:.3f}"
    print(line)


if __name__ == "__main__":
    main()
