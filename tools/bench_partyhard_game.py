#!/usr/bin/env python3
"""Benchmark: one whole Party Hard game on the bundled maze (skirmish play), by policy.

The greedy policy estimates its odds by simulating fights; the naive baseline is the
same policy without its odds cache (every estimate simulated afresh).

    python tools/bench_partyhard_game.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import line, median_seconds  # noqa: E402

from skirmish.game import RandomPolicy  # noqa: E402
from skirmish.game.partyhard import GreedyGamePolicy, play_game  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402


class Uncached(GreedyGamePolicy):
    """Greedy without its odds cache: the naive baseline."""

    def odds(self, game, mine, room, enemy):  # type: ignore[no-untyped-def]
        self._odds.clear()
        return super().odds(game, mine, room, enemy)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    maze = load(ROOT / "scenarios" / "party-hard-maze.toml")

    def game(make):  # type: ignore[no-untyped-def]
        return lambda: play_game(maze, {p: make() for p in maze.players}, random.Random(2))

    print(line("maze game, random policy", median_seconds(game(RandomPolicy), repeat=args.repeat)))
    print(line("maze game, greedy policy (seed 2, 19 turns)", median_seconds(game(GreedyGamePolicy), repeat=args.repeat),
               median_seconds(game(Uncached), repeat=args.repeat), "uncached"))


if __name__ == "__main__":
    main()
