"""Many seeded games: game ``i`` plays with ``job_rng(seed, i)``, so the report is the
same for any number of workers or backend (skirmish.scale)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ...rules.chaosparty.build import Duel
from ...scale import Backend, job_rng, run_jobs
from ..policy import parse_policy_specs
from .engine import GAME, play_game
from .state import GameRecord

DEFAULT_POLICY = "greedy"


def play_seeded(duel: Duel, policy: str | None, seed: int, i: int = 0) -> GameRecord:
    """Game ``i`` of a run seeded ``seed`` (policies from a spec such as ``red=greedy,blue=random``)."""
    policies = parse_policy_specs(policy, [p.id for p in duel.players], GAME, default=DEFAULT_POLICY)
    return play_game(duel, policies, job_rng(seed, i))


@dataclass(frozen=True)
class _Job:
    duel: Duel
    policy: str | None
    seed: int
    i: int


def _work(job: _Job) -> tuple[str | None, int, str]:
    r = play_seeded(job.duel, job.policy, job.seed, job.i)
    return r.winner, r.turns, r.first


@dataclass(frozen=True)
class GamesReport:
    """Win shares over many games: ``wins[player]`` and ``draws`` counted, ``first_wins``
    the games won by the player that moved first, ``mean_turns`` exact."""

    games: int
    seed: int
    wins: tuple[tuple[str, int], ...]
    draws: int
    first_wins: int
    mean_turns: Fraction

    def share(self, player: str) -> Fraction:
        return Fraction(dict(self.wins)[player], self.games)


def play_games(duel: Duel, policy: str | None, seed: int, games: int, *, workers: int = 1,
               backend: Backend = "local", scheduler: str | None = None,
               progress: Callable[[int], None] | None = None) -> GamesReport:
    """Play ``games`` games and count the wins."""
    jobs = [_Job(duel, policy, seed, i) for i in range(games)]
    parse_policy_specs(policy, [p.id for p in duel.players], GAME, default=DEFAULT_POLICY)  # fail early
    results = run_jobs(_work, jobs, workers=workers, backend=backend, scheduler=scheduler, progress=progress)
    wins = {p.id: 0 for p in duel.players}
    draws = first_wins = 0
    for winner, _, first in results:
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
            first_wins += winner == first
    turns = sum(t for _, t, _ in results)
    return GamesReport(games, seed, tuple(wins.items()), draws, first_wins, Fraction(turns, max(games, 1)))
