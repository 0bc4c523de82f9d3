"""A played game hands the compiled kernels only writable arrays (E-LOS, E-MOVE): numba
compiles a kernel once per argument type, and a read-only array is another type, so a
read-only argument (a broadcast view, say) would compile the largest kernels a second
time, some 10 s on a cold cache, in the middle of a game. (The wrappers in
``skirmish.geometry.kernels`` copy a read-only array, ``_own``.)"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import numpy as np

from skirmish.game.eldfall import parse_settings, play_game
from skirmish.game.eldfall.settings import with_builtin_power
from skirmish.game.policy import load_policy
from skirmish.geometry import kernels
from skirmish.scenario.generate import random_table


class _Spy:
    """The compiled module, each kernel called through a check of its array arguments."""

    def __init__(self, mod: ModuleType) -> None:
        self.mod, self.calls = mod, 0
        self.read_only: list[tuple[str, tuple[int, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        f = getattr(self.mod, name)
        if not hasattr(f, "signatures"):  # (not a kernel)
            return f

        def call(*args: Any) -> Any:
            self.calls += 1
            bad = [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and not a.flags.writeable]
            if bad:
                self.read_only.append((name, tuple(bad)))
            return f(*args)
        return call


def test_e_los_e_move_games_pass_the_kernels_writable_arrays_only(monkeypatch) -> None:
    spy = _Spy(kernels._c())
    monkeypatch.setattr(kernels, "_c", lambda: spy)
    for seed, policy in ((1, "random"), (2, "random"), (3, "greedy")):
        table = with_builtin_power(random_table(random.Random(seed), models=6, scenery=14))
        play_game(table, parse_settings(None, table), {s: load_policy(policy, "eldfall") for s in table.sides},
                  random.Random(seed), seed=seed)
    assert spy.calls > 100  # (the games ran the kernels)
    assert sorted(set(spy.read_only)) == []
