"""Many play-throughs of one script: end-state distributions and Wounds per action.

Trial ``i`` always uses the generator ``job_rng(seed, i)`` (``random.Random(f"{seed}:{i}")``), so a report
depends only on the seed and the number of trials — never on how many worker
processes shared the work.
"""

from __future__ import annotations

import hashlib
import math
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import SkirmishError
from ..maps.table import Table
from ..rules.eldfall.exchange import Exchange
from ..rules.eldfall.odds import exchange_odds
from ..rules.eldfall.wounds import ModelState
from ..scale import Backend, job_rng, run_jobs
from .engine import Simulator, TemplateKey
from .script import Script

STATES = (ModelState.UNHARMED, ModelState.WOUNDED, ModelState.INCAPACITATED, ModelState.DEAD)
CHUNK = 250
#: Most trials one run plays.
MAX_TRIALS = 100_000_000


@dataclass(frozen=True)
class ActionStats:
    """What one action did over the trials: how often it was resolved, the Wounds it
    dealt (and took back), and the exact expectations where the exchange was the same
    in every trial. ``wounds_sq``/``wounds_back_sq`` sum the squares of the per-trial
    Wounds, for the means' standard errors."""

    index: int
    text: str
    resolved: int
    wounds: int
    wounds_back: int
    exact_wounds: Fraction | None
    exact_wounds_back: Fraction | None
    wounds_sq: int = 0
    wounds_back_sq: int = 0

    def mean(self) -> tuple[float, float]:
        """The mean Wounds dealt (and taken back) each time the action was resolved: what
        the exact expectation is for (a trial where its actor was out takes no part)."""
        n = max(self.resolved, 1)
        return self.wounds / n, self.wounds_back / n

    def se(self) -> tuple[float | None, float | None]:
        """The standard errors of :meth:`mean`: the sample standard deviation (n - 1) of the
        per-trial Wounds over the ``resolved`` trials, divided by sqrt(resolved); None
        when the action was resolved in fewer than two trials."""
        return _se(self.wounds, self.wounds_sq, self.resolved), _se(self.wounds_back, self.wounds_back_sq, self.resolved)

    def to_json(self, trials: int) -> dict[str, Any]:
        w, b = self.mean()
        w_se, b_se = self.se()
        return {"action": self.index, "text": self.text, "resolved": self.resolved, "wounds_mean": w,
                "wounds_mean_se": w_se, "wounds_back_mean": b, "wounds_back_mean_se": b_se,
                "wounds_exact": None if self.exact_wounds is None else str(self.exact_wounds),
                "wounds_back_exact": None if self.exact_wounds_back is None else str(self.exact_wounds_back)}


def _se(total: int, squares: int, n: int) -> float | None:
    """The standard error of a mean of ``n`` integers from their sum and sum of squares
    (the sample variance computed exactly, in integers)."""
    if n < 2:
        return None
    return math.sqrt((n * squares - total * total) / (n * (n - 1)) / n)


@dataclass(frozen=True)
class TrialReport:
    """The outcome of ``trials`` play-throughs from ``seed``."""

    trials: int
    seed: int
    states: dict[str, dict[str, int]]  # model -> state -> count
    actions: tuple[ActionStats, ...]

    def to_json(self) -> dict[str, Any]:
        return {"trials": self.trials, "seed": self.seed,
                "states": {m: {s: c / self.trials for s, c in d.items()} for m, d in self.states.items()},
                "state_counts": self.states, "actions": [a.to_json(self.trials) for a in self.actions]}


@dataclass
class _Partial:
    states: dict[str, dict[str, int]]
    resolved: list[int]
    wounds: list[int]
    back: list[int]
    wounds_sq: list[int]
    back_sq: list[int]
    exchange: list[Exchange | TemplateKey | None]
    same: list[bool]
    trials: int = 0

    @classmethod
    def empty(cls, table: Table, n: int) -> _Partial:
        return cls({m: {s.value: 0 for s in STATES} for m in table.model_ids}, [0] * n, [0] * n, [0] * n, [0] * n,
                   [0] * n, [None] * n, [True] * n)

    def merge(self, other: _Partial) -> None:
        for m, d in other.states.items():
            for s, c in d.items():
                self.states[m][s] += c
        for k in range(len(self.resolved)):
            if other.resolved[k]:
                if self.exchange[k] is None and self.resolved[k] == 0:
                    self.exchange[k] = other.exchange[k]
                elif other.exchange[k] != self.exchange[k]:
                    self.same[k] = False
            self.same[k] = self.same[k] and other.same[k]
            self.resolved[k] += other.resolved[k]
            self.wounds[k] += other.wounds[k]
            self.back[k] += other.back[k]
            self.wounds_sq[k] += other.wounds_sq[k]
            self.back_sq[k] += other.back_sq[k]
        self.trials += other.trials


def _run_range(sim: Simulator, seed: int, start: int, stop: int) -> _Partial:
    n = len(sim.script)
    part = _Partial.empty(sim.table, n)
    for i in range(start, stop):
        result = sim.run(job_rng(seed, i), log=False)
        for m, st in result.states.items():
            part.states[m][st.value] += 1
        for k in range(n):
            ex, w = result.exchanges[k], result.wounds[k]
            if w is None:
                if sim.script.actions[k].do in ("attack", "template"):
                    part.same[k] = False  # skipped in some trial: the exact figure would not apply
                continue
            if ex is not None:
                if part.resolved[k] == 0:
                    part.exchange[k] = ex
                elif part.exchange[k] != ex:
                    part.same[k] = False
            part.resolved[k] += 1
            part.wounds[k] += w[0]
            part.back[k] += w[1]
            part.wounds_sq[k] += w[0] * w[0]
            part.back_sq[k] += w[1] * w[1]
        part.trials += 1
    return part


@dataclass(frozen=True)
class _Chunk:
    """Trials ``start``..``stop`` of a run: all a worker needs (any backend pickles it).
    ``run`` names the table and script by content, so a worker that unpickles a fresh
    copy per chunk still finds the simulator (and the table's warm caches) it built."""

    table: Table
    script: Script
    seed: int
    start: int
    stop: int
    run: str


#: The last simulator built, per process, by run: consecutive chunks of one run share it.
_SIM: tuple[str, Simulator] | None = None


def _work(job: _Chunk) -> _Partial:
    global _SIM
    if _SIM is None or _SIM[0] != job.run:
        _SIM = (job.run, Simulator(job.table, job.script))
    return _run_range(_SIM[1], job.seed, job.start, job.stop)


def run_trials(table: Table, script: Script, trials: int, *, seed: int = 0, workers: int = 1,
               backend: Backend = "local", scheduler: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> TrialReport:
    """Play the script ``trials`` times (trial ``i`` seeded by ``(seed, i)``) in chunks of
    :data:`CHUNK` through :func:`skirmish.scale.run_jobs` (``workers`` local processes, or
    Dask); the report is the same for any number of workers and any backend."""
    if trials < 1:
        raise SkirmishError(f"trials must be 1 or more, got {trials}", kind="range")
    if trials > MAX_TRIALS:
        raise SkirmishError(f"trials must be at most {MAX_TRIALS:,} (one job per {CHUNK} trials is listed), got "
                            f"{trials:,}; run a bigger study as several runs with different seeds")
    if workers < 1:
        raise SkirmishError(f"workers must be 1 or more, got {workers}", kind="range")
    Simulator(table, script).validate()
    run = hashlib.blake2b(pickle.dumps((table, script)), digest_size=16).hexdigest()
    jobs = [_Chunk(table, script, seed, s, min(trials, s + CHUNK), run) for s in range(0, trials, CHUNK)]

    def chunks_done(k: int) -> None:
        if progress:
            progress(min(trials, k * CHUNK), trials)

    total = _Partial.empty(table, len(script))
    for part in run_jobs(_work, jobs, workers=workers, backend=backend, scheduler=scheduler, progress=chunks_done):
        total.merge(part)  # in job order: merging is deterministic
    actions = []
    for k, a in enumerate(script.actions):
        exact_w = exact_b = None
        ex = total.exchange[k]
        if ex is not None and total.same[k] and total.resolved[k] == trials:
            if isinstance(ex, Exchange):
                o = exchange_odds(ex)
                exact_w, exact_b = o.active.expected_wounds, o.reactive.expected_wounds
            else:
                exact_w, exact_b = ex.expected_wounds(), Fraction(0)
        actions.append(ActionStats(k, a.describe(), total.resolved[k], total.wounds[k], total.back[k], exact_w, exact_b,
                                   total.wounds_sq[k], total.back_sq[k]))
    return TrialReport(trials, seed, total.states, tuple(actions))
