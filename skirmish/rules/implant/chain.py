"""Exact fight odds: an absorbing Markov chain over the fight's states, solved with Fractions.

A state is (Health, enemy Health, injuries, drama; initiative, next-roll die).
Every roll either changes nothing but the initiative and the next-roll die, or
moves the fight down: Health + enemy Health + drama - injuries strictly falls
whenever damage is dealt or taken. So the chain is solved level by level, from
the top: the probability mass entering a level spreads over its (at most six)
initiative/next-roll states, a small linear system ``v (I - Q) = m`` gives the
expected visits of each (exactly, by Gaussian elimination over Fractions, which
also settles the cycles of lost and taken initiative), and the visits times the
transitions that leave the level carry the mass down to lower levels or to the
end of the fight. The answer is exact, as the chain itself.

>>> from skirmish.rules.implant import BoldPolicy, fight_setup
>>> odds = fight_odds(fight_setup(2, 1), BoldPolicy())    # one die, the first blow wins
>>> odds.win + odds.die == 1, round(float(odds.win), 4)
(True, 0.82)
"""

from __future__ import annotations

import heapq
import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from collections.abc import Callable
from typing import Any

from ...errors import RuleInputError
from ...game.policy import Policy, PolicyError
from .damage import max_injuries
from .fight import apply_face, policy_name
from .pool import Pool, PoolOdds
from .state import FightSetup, FightState, Result

Level = tuple[int, int, int, int]


@dataclass(frozen=True)
class FightEnd:
    """How a fight ended: who won and what the character has left."""

    result: Result
    health: int
    injuries: int
    drama: int


@dataclass(frozen=True)
class FightOdds:
    """The exact outcome of a fight under a policy, with the full distribution of its ``ends``."""

    setup: FightSetup
    policy: str
    ends: tuple[tuple[FightEnd, Fraction], ...]
    expected_rolls: Fraction

    @property
    def win(self) -> Fraction:
        """The chance the enemy goes down."""
        return sum((p for e, p in self.ends if e.result == "win"), Fraction(0))

    @property
    def die(self) -> Fraction:
        """The chance the character's Health reaches 0."""
        return sum((p for e, p in self.ends if e.result == "die"), Fraction(0))

    @property
    def injured(self) -> Fraction:
        """The chance the character wins and ends the fight with at least one injury."""
        return sum((p for e, p in self.ends if e.result == "win" and e.injuries > 0), Fraction(0))

    @property
    def unhurt_win(self) -> Fraction:
        """The chance the character wins without an injury (win = unhurt_win + injured)."""
        return self.win - self.injured

    def distribution(self, field: str, result: Result | None = None) -> dict[int, Fraction]:
        """The chance of each value of ``field`` (``health``, ``injuries``, ``drama``) at the
        end, over the ends with ``result`` (all ends when None)."""
        out: dict[int, Fraction] = defaultdict(Fraction)
        for e, p in self.ends:
            if result is None or e.result == result:
                out[getattr(e, field)] += p
        return dict(sorted(out.items()))


class _NoRandom(random.Random):
    """The rng handed to a policy during exact solving: drawing from it is an error."""

    def __init__(self, name: str) -> None:
        self.policy = name
        super().__init__(0)

    def _refuse(self) -> Any:
        raise PolicyError(f"policy {self.policy}: it draws random numbers, but exact odds need a "
                          "deterministic policy; use it with --seed for single fights, or pick cautious or bold")

    def random(self) -> float:
        return float(self._refuse())

    def getrandbits(self, k: int) -> int:
        return int(self._refuse())


@lru_cache(maxsize=4096)
def _odds(p: Pool) -> PoolOdds:
    return p.odds()


def _level(s: FightState) -> Level:
    return (s.health, s.enemy_health, s.injuries, s.drama)


def _potential(level: Level) -> int:
    h, e, k, d = level
    return h + e + d - k


def transitions(state: FightState, policy: Policy, rng: random.Random) -> list[tuple[Fraction, FightState]]:
    """The states one roll leads to from ``state``, with their exact chances."""
    out: dict[FightState, Fraction] = {}
    for face, p in enumerate(_odds(state.pool()).outcomes, 1):
        if p:
            nxt = apply_face(state, face, policy, rng)[0]
            out[nxt] = out.get(nxt, Fraction(0)) + p
    return [(p, s) for s, p in out.items()]


def solve_left(a: list[list[Fraction]], m: list[Fraction]) -> list[Fraction] | None:
    """``v`` with ``v a = m`` (exact Gaussian elimination), or None when ``a`` is singular."""
    n = len(m)
    rows = [[a[j][i] for j in range(n)] + [m[i]] for i in range(n)]   # the transpose, augmented
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        top = rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col] / top[col]
                rows[r] = [x - f * y for x, y in zip(rows[r], top)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def level_bound(setup: FightSetup) -> int:
    """An upper bound on the levels :func:`fight_odds` solves (for a progress bar)."""
    return setup.health * setup.enemy_health * (max_injuries(setup) + 1) * (setup.drama + 1)


#: The most levels (:func:`level_bound`) :func:`fight_odds` solves: about 10 s (Health 3
#: against enemy Health 300); the time grows with the square of the levels.
MAX_LEVELS = 5_000


def fight_odds(setup: FightSetup, policy: Policy, progress: Callable[[int], None] | None = None) -> FightOdds:
    """The exact chance of every end of the fight ``setup`` when ``policy`` makes every choice.

    ``progress``, if given, is called with the number of levels solved so far
    (at most :func:`level_bound`). A fight of more than :data:`MAX_LEVELS` levels is
    refused (:class:`RuleInputError`).
    """
    levels = level_bound(setup)
    if levels > MAX_LEVELS:
        raise RuleInputError(f"a fight of Health {setup.health} against enemy Health {setup.enemy_health} (drama "
                             f"{setup.drama}) has up to {levels:,} levels to solve exactly, more than the "
                             f"{MAX_LEVELS:,} solved at most (the seed's Healths run 1 to 5 or so); lower them, or "
                             "play one fight with --seed")
    rng = _NoRandom(policy_name(policy))
    ends: dict[FightEnd, Fraction] = defaultdict(Fraction)
    start = setup.start()
    pending: dict[Level, dict[FightState, Fraction]] = {_level(start): {start: Fraction(1)}}
    heap = [(-_potential(_level(start)), _level(start))]
    rolls = Fraction(0)
    solved = 0
    while heap:
        _, level = heapq.heappop(heap)
        solved += 1
        if progress is not None:
            progress(solved)
        incoming = pending.pop(level)
        states = list(incoming)
        index = {s: i for i, s in enumerate(states)}
        moves: list[list[tuple[Fraction, FightState]]] = []
        i = 0
        while i < len(states):   # the level's states reachable without damage
            t = transitions(states[i], policy, rng)
            moves.append(t)
            for _, nxt in t:
                if nxt.result is None and _level(nxt) == level and nxt not in index:
                    index[nxt] = len(states)
                    states.append(nxt)
            i += 1
        n = len(states)
        a = [[Fraction(int(r == c)) for c in range(n)] for r in range(n)]
        for r, t in enumerate(moves):
            for p, nxt in t:
                if nxt.result is None and _level(nxt) == level:
                    a[r][index[nxt]] -= p
        visits = solve_left(a, [incoming.get(s, Fraction(0)) for s in states])
        if visits is None:
            raise RuleInputError(f"I-FIGHT: from {states[0]!r} the fight can go on forever without damage "
                                 "on either side; change the attacking or defending factors")
        rolls += sum(visits, Fraction(0))
        for r, t in enumerate(moves):
            for p, nxt in t:
                mass = visits[r] * p
                if not mass:
                    continue
                result = nxt.result
                if result is not None:
                    ends[FightEnd(result, nxt.health, nxt.injuries, nxt.drama)] += mass
                elif _level(nxt) != level:
                    lv = _level(nxt)
                    if lv not in pending:
                        pending[lv] = {}
                        heapq.heappush(heap, (-_potential(lv), lv))
                    bucket = pending[lv]
                    bucket[nxt] = bucket.get(nxt, Fraction(0)) + mass
    order = sorted(ends.items(), key=lambda kv: (kv[0].result != "win", -kv[0].health, kv[0].injuries, -kv[0].drama))
    return FightOdds(setup, policy_name(policy), tuple(order), rolls)
