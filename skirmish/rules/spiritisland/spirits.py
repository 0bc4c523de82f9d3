"""The spirits' side, simplified, and whole games (S-ROUND).

The seed describes spirits' powers only in general terms, so the engine plays them
as one simple power set (documented in docs/spiritisland.md): each round every
spirit gains the island's ``energy`` (unspent energy is kept), then spends it on

- *destroy* an explorer (1 energy), a town (2) or a city (3) in a land within
  ``range`` of its presence, or ``range + 1`` of one of its sacred sites; a town
  destroyed gives 1 fear, a city 2 (S-FEAR);
- *presence*: add 1 presence (2 energy) in a land within 1 of its presence,

one :class:`Power` at a time, each chosen by its policy from a
``Decision("power", spirit, options)`` whose last option is ``Power("pass")``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from ...game.policy import Decision, Policy, RandomPolicy, ask, policy_rng, register_policy
from .invaders import FEAR_FOR, Event, Outcome, Phase, add_fear, invader_phase, outcome
from .island import INVADERS, ROUNDS, Island

DESTROY_COST = dict(INVADERS)
PRESENCE_COST = 2
#: Guard against a policy that never passes.
MAX_POWERS = 1000


@dataclass(frozen=True)
class Power:
    """One use of a spirit's energy: destroy an invader (``piece``) in ``region``, add
    a presence there, or pass (end the spirit's turn)."""

    kind: Literal["destroy", "presence", "pass"]
    region: str | None = None
    piece: str | None = None
    cost: int = 0

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        what = {"explorers": "an explorer", "towns": "a town", "cities": "a city"}.get(self.piece or "", "presence")
        return f"{'destroy ' + what if self.kind == 'destroy' else 'add presence'} in {self.region} ({self.cost} energy)"


PASS = Power("pass")


def reach(isl: Island, spirit: str) -> tuple[str, ...]:
    """The lands ``spirit``'s powers reach: within ``range`` of its presence, or
    ``range + 1`` of its sacred sites (land order)."""
    out: set[str] = set()
    for land in isl.lands:
        n = land.presence_of(spirit)
        if n:
            out.update(isl.within(land.id, isl.range + (1 if land.sacred_site(spirit) else 0)))
    return tuple(i for i in isl.ids if i in out)


def powers(isl: Island, spirit: str) -> tuple[Power, ...]:
    """The powers ``spirit`` can afford now, then :data:`PASS`."""
    energy = isl.energy_of(spirit)
    out = []
    for r in reach(isl, spirit):
        land = isl.land(r)
        for kind, cost in DESTROY_COST.items():
            if getattr(land, kind) and cost <= energy:
                out.append(Power("destroy", r, kind, cost))
    if PRESENCE_COST <= energy:
        near: set[str] = set()
        for land in isl.lands:
            if land.presence_of(spirit):
                near.update(isl.within(land.id, 1))
        out += [Power("presence", r, None, PRESENCE_COST) for r in isl.ids if r in near]
    return (*out, PASS)


def use_power(isl: Island, spirit: str, power: Power) -> Phase:
    """Apply one power (it must be one of :func:`powers`)."""
    energy = dict(isl.spirit_energy)
    energy[spirit] = energy.get(spirit, 0) - power.cost
    isl = replace(isl, spirit_energy=tuple(energy.items()))
    if power.kind == "pass" or power.region is None:
        return Phase(isl, ())
    land = isl.land(power.region)
    if power.kind == "destroy" and power.piece is not None:
        isl = isl.with_lands([replace(land, **{power.piece: getattr(land, power.piece) - 1})])
        ev = Event("power", power.region, f"{spirit}: {power}", {"spirit": spirit, "power": power.kind,
                                                                  "piece": power.piece, "cost": power.cost})
        ph = add_fear(isl, FEAR_FOR[power.piece], power.region, f"{spirit} destroyed one")
        return Phase(ph.island, (ev, *ph.events))
    isl = isl.with_lands([land.with_presence(spirit, land.presence_of(spirit) + 1)])
    return Phase(isl, (Event("power", power.region, f"{spirit}: {power}", {"spirit": spirit, "power": "presence",
                                                                           "cost": power.cost}),))


def spirit_phase(isl: Island, policies: Policy | Mapping[str, Policy], rng: random.Random) -> Phase:
    """Each spirit (in order) gains its energy and uses powers until it passes."""
    events: list[Event] = []
    for spirit in isl.spirits:
        if not isl.presence(spirit):
            continue
        policy = policies if not isinstance(policies, Mapping) else policies[spirit]
        energy = dict(isl.spirit_energy)
        energy[spirit] = energy.get(spirit, 0) + isl.energy
        isl = replace(isl, spirit_energy=tuple(energy.items()))
        for _ in range(MAX_POWERS):
            options = powers(isl, spirit)
            choice = ask(policy, isl, Decision("power", spirit, options, context={"energy": isl.energy_of(spirit)}),
                         rng)
            if choice.kind == "pass":
                break
            ph = use_power(isl, spirit, choice)
            isl, events = ph.island, events + list(ph.events)
            if outcome(isl) is not None:
                return Phase(isl, tuple(events))
    return Phase(isl, tuple(events))


@dataclass(frozen=True)
class GreedyPolicy:
    """A careful, short-sighted spirit: it destroys the invaders about to ravage
    (then build) first, the strongest it can afford, and adds presence when it has
    little; a cascading blight goes to a random candidate."""

    name: str = "greedy"

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        if decision.kind != "power":
            return RandomPolicy().choose(game, decision, rng)
        isl: Island = game

        def score(p: Power) -> float:
            if p.kind == "pass":
                return 0.0
            land = isl.land(p.region or "")
            if p.kind == "destroy":
                urgency = 3.0 if land.ravage else 2.0 if land.build else 1.0
                # an invader whose loss keeps the ravage under 2 damage saves a blight
                saves = 2.0 if land.ravage and land.damage >= 2 > land.damage - DESTROY_COST[p.piece or ""] else 0.0
                return urgency * DESTROY_COST[p.piece or ""] + saves + FEAR_FOR[p.piece or ""]
            return 2.5 if isl.presence(decision.actor or "") <= 2 else 0.5

        best = max(score(p) for p in decision.options)
        top = [p for p in decision.options if score(p) == best]
        return top[rng.randrange(len(top))]


register_policy("spiritisland", "greedy", GreedyPolicy)


@dataclass(frozen=True)
class RoundLog:
    """One round of a game: what the spirits and the invaders did, and the counters after."""

    round: int
    explore: tuple[str, ...]
    events: tuple[Event, ...]
    blight: int
    fear: int
    terror: int

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "explore": list(self.explore), "blight": self.blight, "fear": self.fear,
                "terror": self.terror, "events": [e.to_json() for e in self.events]}


@dataclass(frozen=True)
class Game:
    """A played game: its rounds, the island at the end and the outcome (``lost``
    with "the invaders were not beaten in N rounds" when time ran out, S-ROUND)."""

    rounds: tuple[RoundLog, ...]
    island: Island
    outcome: Outcome

    def to_json(self, events: bool = True) -> dict[str, Any]:
        return {"result": self.outcome.result, "reason": self.outcome.reason, "why": self.outcome.why,
                "rounds_played": len(self.rounds),
                "blight": self.island.blight, "fear": self.island.fear, "terror": self.island.terror,
                "rounds": [r.to_json() if events else {k: v for k, v in r.to_json().items() if k != "events"}
                           for r in self.rounds]}


def play_game(isl: Island, rng: random.Random, policies: Policy | Mapping[str, Policy] | None = None, *,
              rounds: int = ROUNDS, invaders: Policy | None = None) -> Game:
    """S-ROUND, ``rounds`` times: the spirit phase, the invaders' phase with this
    round's explore entry, time passes. Stops as soon as the game is won or lost."""
    policies = policies or GreedyPolicy()
    isl.explore_for(isl.round + rounds - 1)  # refuse an explore order too short before playing
    logs: list[RoundLog] = []
    result = outcome(isl)
    choices = policy_rng(rng)  # (the spirits' own: a spirit policy that draws numbers moves no invader choice)
    for _ in range(rounds):
        if result is not None:
            break
        r = isl.round
        ph = spirit_phase(isl, policies, choices)
        isl, events = ph.island, list(ph.events)
        result = outcome(isl)
        terrains = isl.explore_for(r)
        if result is None:
            ph = invader_phase(isl, terrains, rng, invaders)
            isl, events = ph.island, events + list(ph.events)
            result = outcome(isl)
        logs.append(RoundLog(r, terrains, tuple(events), isl.blight, isl.fear, isl.terror))
        isl = replace(isl, round=r + 1)
    if result is None:
        result = Outcome("lost", f"the invaders were not beaten in {rounds} rounds", "time")
    return Game(tuple(logs), isl, result)


__all__ = ["GreedyPolicy", "Game", "PASS", "Power", "RoundLog", "play_game", "powers", "reach", "spirit_phase",
           "use_power"]
