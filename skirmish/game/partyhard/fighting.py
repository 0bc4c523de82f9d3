"""A game :class:`~skirmish.game.policy.Policy` seen by the fight loop: every fight
choice (opening, retreat, action, shield) becomes a :class:`Decision`, so one
policy plays the field and the fights (the fight loop itself is reused as is)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ...rules.partyhard.damage import max_shield
from ...rules.partyhard.log import Action
from ...rules.partyhard.state import FightState, legal_actions
from ..policy import Decision, Policy, ask


@dataclass(frozen=True)
class FightChooser:
    """The fight-level policy (:class:`skirmish.rules.partyhard.policy.Policy`) of a
    side whose player's game policy is ``policy``; ``game`` is the game state the
    fight started in (passed on to every decision). In a side of several players
    (a third player's reinforcements), each character's action and shield are asked
    of its own player's policy in ``players``."""

    policy: Policy
    game: Any
    players: Mapping[str, Policy] = field(default_factory=dict, hash=False)
    #: the policies' own generator (the game's :func:`~skirmish.game.policy.policy_rng`); None: the fight's dice
    rng: random.Random | None = field(default=None, hash=False, compare=False)

    def _ask(self, kind: str, actor: str, options: tuple[Any, ...], state: FightState, rng: random.Random,
             **context: Any) -> Any:
        if len(options) == 1:
            return options[0]
        d = Decision(kind, actor, options, context={"fight": state, **context})
        owner = state.fighters[actor].side if actor in state.fighters else ""
        return ask(self.players.get(owner, self.policy), self.game, d, rng if self.rng is None else self.rng)

    def opening(self, state: FightState, side: str, able: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
        options = tuple(c for n in (1, 2) for c in combinations(able, n))
        return tuple(self._ask("fight-opening", side, options, state, rng, able=able))

    def retreats(self, state: FightState, side: str, rng: random.Random) -> tuple[str, ...]:
        can = tuple(f for f in state.row(side) if state.can_retreat(f))
        if not can:
            return ()
        options = tuple(c for n in range(len(can) + 1) for c in combinations(can, n))
        return tuple(self._ask("fight-retreat", side, options, state, rng))

    def act(self, state: FightState, actor: str, rng: random.Random) -> Action:
        return self._ask("fight-action", actor, tuple(legal_actions(state, actor)), state, rng)  # type: ignore[no-any-return]

    def shield(self, state: FightState, target: str, damage: int, burns: int, rng: random.Random) -> int:
        t = state.fighter(target)
        top = max_shield(damage, t.energy, burns=burns, shocked=t.effects.shocked)
        if top == 0:
            return 0
        return int(self._ask("fight-shield", target, tuple(range(top + 1)), state, rng, damage=damage, burns=burns))
