"""One roll of a fight, and whole seeded fights with their log (I-FIGHT, I-DAMAGE).

A roll on the side of the initiative gives a rung; where the rung offers two
options the policy chooses (``Decision`` kind ``"attack-6"``, ``"attack-5"``,
``"attack-4"``, ``"defence-4"``), then the character deals its damage, then takes
damage the way the policy chooses (kind ``"damage"``, options from
:func:`~.damage.damage_options`), then the initiative passes and the next-roll die
is set.

*Interpretation*: the character's blow lands first; an enemy it brings to 0 Health
deals no damage back ("take damage in return" needs an enemy still standing).
An auto answer (more than 5 dice) is rung 5 ("yes") or rung 2 ("no") of the table.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...errors import RuleInputError
from ...game.policy import Decision, Policy, ask, policy_rng
from .damage import DamageChoice, damage_options, take_damage
from .pool import Roll
from .state import FightSetup, FightState, Result
from .table import Effect, Side, options

ACTOR = "character"
MAX_ROLLS = 100_000
"""A seeded fight longer than this is refused (only a setup that can never end gets there)."""


def choose(policy: Policy, state: FightState, kind: str, opts: tuple[Any, ...], rng: random.Random,
           context: dict[str, Any]) -> Any:
    """Ask ``policy`` and check its answer is one of ``opts``."""
    return ask(policy, state, Decision(kind, ACTOR, opts, context=context), rng,
               who=f"the {ACTOR} ({policy_name(policy)})")


def policy_name(policy: Any) -> str:
    """A policy's ``name`` attribute, or its class name."""
    return str(getattr(policy, "name", type(policy).__name__))


def apply_face(state: FightState, face: int, policy: Policy,
               rng: random.Random) -> tuple[FightState, Effect, tuple[DamageChoice, ...]]:
    """``state`` after a roll whose kept rung is ``face``: the new state, the effect
    chosen and how each damage taken was absorbed."""
    side = state.side
    opts = options(side, face)
    context = {"face": face, "side": side}
    if len(opts) == 1:
        effect = opts[0]
    else:
        key = choose(policy, state, f"{side}-{face}", tuple(e.key for e in opts), rng, context)
        effect = next(e for e in opts if e.key == key)
    after = state.with_(enemy_health=max(0, state.enemy_health - effect.deal), next_die=0)
    taken: list[DamageChoice] = []
    for _ in range(effect.take):
        if after.result is not None:
            break
        how = choose(policy, after, "damage", damage_options(after), rng, context)
        after = take_damage(after, how)
        taken.append(how)
    if after.result is None:
        after = after.with_(initiative=effect.after, next_die=effect.next_die)
    return after, effect, tuple(taken)


@dataclass(frozen=True)
class RoundLog:
    """One roll of a fight: the ``side``, the ``roll``, the ``effect`` taken (and whether
    it was ``chosen`` among two), how each damage taken was absorbed, the states around it."""

    number: int
    side: Side
    roll: Roll
    effect: Effect
    chosen: bool
    damage: tuple[DamageChoice, ...]
    before: FightState
    after: FightState


@dataclass(frozen=True)
class FightLog:
    """A whole fight: ``rounds`` in order and the ``end`` state (its ``result``)."""

    setup: FightSetup
    policy: str
    rounds: tuple[RoundLog, ...]
    end: FightState

    @property
    def result(self) -> Result:
        r = self.end.result
        assert r is not None
        return r


def _check_length(n: int, setup: FightSetup) -> None:
    if n >= MAX_ROLLS:
        raise RuleInputError(f"I-FIGHT: {setup!r} did not end in {MAX_ROLLS} rolls; with these factors "
                             "neither side can make progress")


def play_fight(setup: FightSetup, policy: Policy, rng: random.Random) -> FightLog:
    """Play one fight to its end with ``rng``'s dice and ``policy``'s choices, logging every roll."""
    state = setup.start()
    rounds: list[RoundLog] = []
    choices = policy_rng(rng)  # (a policy that draws numbers never moves the dice)
    while state.result is None:
        _check_length(len(rounds), setup)
        roll = state.pool().roll(rng)
        after, effect, taken = apply_face(state, roll.rung.face, policy, choices)
        rounds.append(RoundLog(len(rounds) + 1, state.side, roll, effect,
                               len(options(state.side, roll.rung.face)) > 1, taken, state, after))
        state = after
    return FightLog(setup, policy_name(policy), tuple(rounds), state)


class _Watched(random.Random):
    """``rng``'s numbers, noting whether any was drawn (every method of a ``random.Random``
    draws through ``random`` or ``getrandbits``, so a policy meets the same numbers)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(0)
        self.rng, self.drawn = rng, False

    def random(self) -> float:
        self.drawn = True
        return self.rng.random()

    def getrandbits(self, k: int) -> int:
        self.drawn = True
        return self.rng.getrandbits(k)


def sample_fights(setup: FightSetup, policy: Policy, fights: int, rng: random.Random) -> Counter[tuple[Result, bool]]:
    """Monte Carlo: how many of ``fights`` ended ``(result, injured)`` (no logs kept).

    A roll's outcome is remembered where the policy drew no number to choose it (a
    deterministic choice, as the exact odds take it), so each is worked out once, not
    once per fight; a choice with a draw is asked again every time."""
    counts: Counter[tuple[Result, bool]] = Counter()
    pools: dict[tuple[Any, ...], Any] = {}
    after: dict[tuple[Any, ...], FightState] = {}  # (the fields but the setup, shared by all; the face)
    choices = _Watched(policy_rng(rng))  # (a policy that draws numbers never moves the dice)
    for _ in range(fights):
        state = setup.start()
        n = 0
        while state.result is None:
            n += 1
            _check_length(n, setup)
            key = (state.initiative, state.injuries, state.next_die)
            p = pools.get(key)
            if p is None:
                p = pools[key] = state.pool()
            face = p.roll(rng).rung.face
            move = (state.health, state.enemy_health, key, state.drama, face)
            nxt = after.get(move)
            if nxt is None:
                choices.drawn = False
                nxt = apply_face(state, face, policy, choices)[0]
                if not choices.drawn:
                    after[move] = nxt
            state = nxt
        result = state.result
        assert result is not None
        counts[(result, state.injuries > 0)] += 1
    return counts
