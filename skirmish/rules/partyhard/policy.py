"""Who chooses in a fight: the policies (P-TURN choices, P-SHIELD, retreat).

Party Hard deals exact damage; only choices vary. A policy answers four questions:
which 1–2 attackers open the fight, who starts retreating, what each fighter does,
and how much Energy a hit target puts in its shield. :class:`GreedyPolicy` is a
careful default; :class:`ScriptedPolicy` fixes some answers and asks another policy
for the rest. Ties are broken with the ``random.Random`` the fight passes in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from .damage import attack_breakdown, max_shield
from .effects import Effect
from .fighter import Fighter
from .log import Action
from .state import FightState, legal_actions


class Policy(Protocol):
    """The choices of one side (or both)."""

    def opening(self, state: FightState, side: str, able: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
        """The 1–2 attackers that act in the first turn (P-TURN), from ``able``."""
        ...

    def retreats(self, state: FightState, side: str, rng: random.Random) -> tuple[str, ...]:
        """Characters of ``side`` that start retreating now (at the start of its turn)."""
        ...

    def act(self, state: FightState, actor: str, rng: random.Random) -> Action:
        """The action of ``actor`` (one of :func:`legal_actions`)."""
        ...

    def shield(self, state: FightState, target: str, damage: int, burns: int, rng: random.Random) -> int:
        """Energy ``target`` puts in its shield against ``damage`` (P-SHIELD)."""
        ...


def _effect_value(f: Fighter, effect: Effect | None, hostile: bool) -> float:
    """Rough worth of putting ``effect`` on ``f`` (positive when it helps the chooser)."""
    if effect is None or effect.name in f.immune:
        return 0.0
    have = f.effects.get(effect.slot)
    if have == effect:
        return 0.0
    if hostile:
        return 0.6 if effect.negative else -0.6
    return 0.6 if not effect.negative else -0.6


@dataclass(frozen=True)
class GreedyPolicy:
    """A careful, short-sighted player.

    - acts with the action worth most now: 1 per point of Health an enemy loses
      and 0.5 per point of Energy it must shield with or has burned (assuming it
      shields all it can), 2 more for a defeat; Health healed; effects (0.6 each);
      Energy restored (0.5 each); minus a quarter per Energy spent;
      removing an effect is worth 0.7, rest 0.3 when Energy is not full;
    - opens with the two attackers whose best actions are worth most;
    - shields just enough to survive a lethal hit (nothing when it cannot); otherwise shields all of it if it has
      no ability to keep Energy for (creatures, characters without abilities), or
      what Energy it has beyond its cheapest ability's cost;
    - starts retreating a character whose Health is at most ``retreat_below`` (0:
      never), when a free adjacent room exists.
    """

    retreat_below: int = 0

    def value(self, state: FightState, actor: str, action: Action) -> float:
        """What :meth:`act` maximises."""
        f = state.fighter(actor)
        side = state.side_of(actor)
        if action.kind == "rest":
            return 0.3 if (f.energy < f.max_energy and f.regenerates) else 0.0
        if action.kind == "cleanse":
            return 0.7
        ab = f.ability(action.ability or "") if action.kind == "ability" else None
        score = -0.25 * (f.cost_of(ab) if ab else 0)
        element = (ab.element if ab else f.attack_element if f.is_creature else f.weapon_element)
        damaging = ab is None or ab.damaging
        position = state.streak(side).position(element) if damaging else 1
        for i, tid in enumerate(action.targets):
            t = state.fighter(tid)
            hostile = ab is None or ab.on == "enemies"
            if ab is None or ab.damaging:
                d = attack_breakdown(f, t, ab, streak=position).total
                burns = ab.burns if ab else 0
                burned = min(burns, t.energy)
                shieldable = max_shield(d, t.energy, burns=burns, shocked=t.effects.shocked)
                # the target shields what it can: Health lost counts 1, Energy spent or burned 0.5
                score += min(d - shieldable, t.health) + 0.5 * (shieldable + burned)
                if d - shieldable >= t.health:
                    score += 2.0
            elif ab.heal is not None:
                score += min(attack_breakdown(f, t, ab).total, t.max_health - t.health)
            elif ab.burns:
                score += 0.5 * min(ab.burns, t.energy)
            if ab is not None and ab.restore and t.regenerates:
                score += 0.5 * min(ab.restore, t.max_energy - t.energy) + (0.7 if t.effects.shocked else 0.0)
            effect = ab.effect if ab else f.attack_effect
            score += _effect_value(t, effect, hostile)
            if i == 0 and damaging and f.weapon is not None and not f.is_creature:
                score += _effect_value(t, f.weapon.effect, True)
        return score

    def _scored(self, state: FightState, actor: str) -> list[tuple[float, Action]]:
        return [(round(self.value(state, actor, a), 9), a) for a in legal_actions(state, actor)]

    def act(self, state: FightState, actor: str, rng: random.Random) -> Action:
        scored = self._scored(state, actor)
        top = max(s for s, _ in scored)
        return rng.choice([a for s, a in scored if s == top])

    def opening(self, state: FightState, side: str, able: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
        worth = {a: max(s for s, _ in self._scored(state, a)) for a in able}
        order = sorted(able, key=lambda a: (-worth[a], rng.random()))
        chosen = set(order[:2])
        return tuple(a for a in able if a in chosen)

    def shield(self, state: FightState, target: str, damage: int, burns: int, rng: random.Random) -> int:
        t = state.fighter(target)
        top = max_shield(damage, t.energy, burns=burns, shocked=t.effects.shocked)
        if damage >= t.health:
            need = damage - t.health + 1
            return need if need <= top else 0  # survive if it can; a lost cause keeps its Energy
        keep = min((t.cost_of(a) for a in t.abilities), default=0)
        if t.is_creature or not t.abilities:
            return top
        left = t.energy - min(burns, t.energy)
        return max(0, min(top, left - keep))

    def retreats(self, state: FightState, side: str, rng: random.Random) -> tuple[str, ...]:
        if self.retreat_below <= 0:
            return ()
        return tuple(fid for fid in state.row(side)
                     if state.fighter(fid).health <= self.retreat_below and state.can_retreat(fid))


@dataclass(frozen=True)
class ScriptedPolicy:
    """Fixed answers where given, ``base`` for the rest: ``retreat`` maps a character
    to the round it starts retreating; ``opening`` names the attackers of turn one;
    ``shields`` maps a character to a fixed shield rule: ``"max"``, ``"none"``."""

    base: Policy = field(default_factory=GreedyPolicy)
    retreat: Mapping[str, int] = field(default_factory=dict, hash=False)
    opening_ids: tuple[str, ...] = ()
    shields: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "retreat", MappingProxyType(dict(self.retreat)))
        object.__setattr__(self, "shields", MappingProxyType(dict(self.shields)))

    def opening(self, state: FightState, side: str, able: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
        if self.opening_ids:
            return self.opening_ids
        return self.base.opening(state, side, able, rng)

    def retreats(self, state: FightState, side: str, rng: random.Random) -> tuple[str, ...]:
        mine = tuple(fid for fid in state.row(side) if self.retreat.get(fid) == state.round)
        more = self.base.retreats(state, side, rng)
        return mine + tuple(f for f in more if f not in mine)

    def act(self, state: FightState, actor: str, rng: random.Random) -> Action:
        return self.base.act(state, actor, rng)

    def shield(self, state: FightState, target: str, damage: int, burns: int, rng: random.Random) -> int:
        rule = self.shields.get(target)
        if rule == "none":
            return 0
        if rule == "max":
            t = state.fighter(target)
            return max_shield(damage, t.energy, burns=burns, shocked=t.effects.shocked)
        return self.base.shield(state, target, damage, burns, rng)
