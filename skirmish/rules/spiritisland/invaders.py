"""The invaders' phase (S-RAVAGE, S-BUILD, S-EXPLORE) with fear (S-FEAR) and the
blight thresholds (S-BLIGHT), and the end of the game.

Pure: each step takes an :class:`~.island.Island` and returns a new one with the
:class:`Event` list that explains it. The one choice the invaders' rules leave open —
which neighbour a cascading blight moves to — is asked of a
:class:`~skirmish.game.policy.Policy` as a ``Decision("cascade", "invaders", candidates)``;
the default picks among the candidates with the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ...errors import SkirmishError
from ...game.policy import Decision, Policy, RandomPolicy, ask
from .island import (
    DAHAN_HEALTH,
    FEAR_PER_EFFECT,
    FEAR_PER_TERROR,
    FEAR_VICTORY,
    INVADERS,
    TERRAINS,
    Island,
    Land,
)

#: S-FEAR: fear for each invader destroyed (explorers give none).
FEAR_FOR = {"explorers": 0, "towns": 1, "cities": 2}
#: Dahan strike back with this much damage each (S-RAVAGE interpretation).
DAHAN_DAMAGE = 2


@dataclass(frozen=True)
class Event:
    """One thing that happened: the step (``ravage``, ``blight``, ``cascade``,
    ``presence``, ``strike``, ``build``, ``explore``, ``fear``, ``terror``,
    ``blighted``, ``power``, ...), the region (if any), a sentence, and the numbers."""

    step: str
    region: str | None
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "region": self.region, "text": self.text, **dict(self.data)}


@dataclass(frozen=True)
class Phase:
    """The island after a step, and what happened."""

    island: Island
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``won`` or ``lost``, why in words, and why as a word
    (``blight``, ``presence``, ``fear``, ``terror`` or ``time``)."""

    result: Literal["won", "lost"]
    reason: str
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "reason": self.reason, "why": self.why}


def _unit(kind: str, n: int) -> str:
    singular = {"explorers": "explorer", "towns": "town", "cities": "city", "dahan": "dahan", "blight": "blight"}
    return f"{n} {kind if n != 1 else singular[kind]}"


# -- fear (S-FEAR) ---------------------------------------------------------------------------------

def add_fear(isl: Island, amount: int, region: str | None = None, why: str = "") -> Phase:
    """Add ``amount`` fear; note each terror level reached and an instant fear victory."""
    if amount <= 0:
        return Phase(isl, ())
    before = isl.terror
    new = replace(isl, fear=isl.fear + amount)
    events = [Event("fear", region, f"+{amount} fear{' (' + why + ')' if why else ''}: fear {new.fear}",
                    {"fear": amount, "total": new.fear})]
    if new.terror > before:
        events.append(Event("terror", None, f"fear {new.fear} reaches {new.terror * FEAR_PER_TERROR}: terror "
                            f"{new.terror} — {VICTORY_TEXT[new.terror]}", {"terror": new.terror}))
    return Phase(new, tuple(events))


VICTORY_TEXT = ("the spirits win by destroying every invader", "the spirits win by destroying every town and city",
                "the spirits win by destroying every city")


def fear_effects(isl: Island) -> Phase:
    """S-FEAR: each 16 fear earned triggers one fear effect at the next invader phase.

    The seed gives no fear card texts, so an effect is announced and changes nothing
    (docs/spiritisland.md)."""
    due = isl.fear // FEAR_PER_EFFECT - isl.fear_effects
    if due <= 0:
        return Phase(isl, ())
    events = tuple(Event("fear_effect", None, f"fear effect {isl.fear_effects + k + 1} (terror "
                         f"{isl.terror}): no card text in the seed, no effect applied",
                         {"number": isl.fear_effects + k + 1, "terror": isl.terror}) for k in range(due))
    return Phase(replace(isl, fear_effects=isl.fear_effects + due), events)


# -- blight (S-RAVAGE, S-BLIGHT) -------------------------------------------------------------------

def add_blight(isl: Island, region: str, rng: random.Random, policy: Policy | None = None) -> Phase:
    """S-RAVAGE: a blight for ``region``. A region that already has blight passes it on
    to one neighbour instead (chosen by ``policy`` among the neighbours not yet in the
    chain), which may pass it on again. Where the chain can go no further (every
    neighbour already in it) the blight stays in the last region. The region that
    takes the blight loses 1 presence of each spirit (S-BLIGHT); the island becomes
    blighted when its blight reaches ``blighted_at``."""
    policy = policy or RandomPolicy()
    chain = [region]
    events: list[Event] = []
    at = region
    while isl.land(at).blight > 0:
        candidates = tuple(n for n in isl.land(at).neighbours if n not in chain)
        if not candidates:
            events.append(Event("cascade", at, f"{at} has blight and every neighbour is already in the chain "
                                f"({' -> '.join(chain)}): the blight stays in {at}", {"chain": list(chain)}))
            break
        nxt = ask(policy, isl, Decision("cascade", "invaders", candidates,
                                      context={"from": at, "chain": tuple(chain)}), rng)
        events.append(Event("cascade", at, f"{at} already has blight: the blight cascades to {nxt}"
                            + (f" (of {', '.join(candidates)})" if len(candidates) > 1 else ""),
                            {"from": at, "to": nxt, "candidates": list(candidates)}))
        chain.append(nxt)
        at = nxt
    land = isl.land(at)
    lost = {s: 1 for s, n in land.presence if n > 0}
    new_land = replace(land, blight=land.blight + 1,
                       presence=tuple((s, n - lost.get(s, 0)) for s, n in land.presence))
    isl = isl.with_lands([new_land])
    events.append(Event("blight", at, f"{at} takes a blight (blight here {new_land.blight}, on the island "
                        f"{isl.blight})", {"chain": list(chain), "blight": new_land.blight, "island": isl.blight}))
    for s in lost:
        events.append(Event("presence", at, f"{s} loses 1 presence in {at} to the blight "
                            f"({new_land.presence_of(s)} left here, {isl.presence(s)} on the island)",
                            {"spirit": s, "left": new_land.presence_of(s), "total": isl.presence(s)}))
    if not isl.blighted and isl.blight >= isl.blighted_at:
        isl = replace(isl, blighted=True)
        events.append(Event("blighted", None, f"the island's blight reaches {isl.blight} (>= {isl.blighted_at}): "
                            f"the island is blighted; at {isl.defeat_at} the spirits lose", {"blight": isl.blight}))
    return Phase(isl, tuple(events))


# -- ravage (S-RAVAGE) -------------------------------------------------------------------------

def strike_back(damage: int, explorers: int, towns: int, cities: int) -> dict[str, int]:
    """The invaders ``damage`` destroys: as many as possible (each needs its full health:
    explorer 1, town 2, city 3), and among those ways the most health (towns and cities
    before explorers). Brute force over the towns and cities destroyed."""
    best: tuple[tuple[int, int], dict[str, int]] | None = None
    for c in range(cities + 1):
        for t in range(towns + 1):
            left = damage - 3 * c - 2 * t
            if left < 0:
                break
            e = min(explorers, left)
            key = (e + t + c, e + 2 * t + 3 * c)
            if best is None or key > best[0]:
                best = (key, {"explorers": e, "towns": t, "cities": c})
    assert best is not None
    return best[1]


def ravage(isl: Island, region: str, rng: random.Random, policy: Policy | None = None) -> Phase:
    """S-RAVAGE in one region: the region and its dahan take the invaders' damage at
    once; dahan die two damage each, as many as possible; 2+ damage adds a blight
    (:func:`add_blight`); surviving dahan strike back, 2 damage each, destroying as
    many invaders as possible; a town destroyed gives 1 fear, a city 2."""
    land = isl.land(region)
    dmg = land.damage
    if dmg == 0:
        return Phase(isl, (Event("ravage", region, f"{region}: no invaders left to ravage",
                                 {"damage": 0, "dahan_destroyed": 0, "dahan_left": land.dahan}),))
    killed = min(land.dahan, dmg // DAHAN_HEALTH)
    land = replace(land, dahan=land.dahan - killed)
    isl = isl.with_lands([land])
    events = [Event("ravage", region, f"{region}: invaders ({_invaders(land)}) ravage for {dmg} damage"
                    + (f"; {_unit('dahan', killed)} destroyed" if killed else "")
                    + (f"; {land.dahan} dahan survive" if land.dahan else ""),
                    {"damage": dmg, "dahan_destroyed": killed, "dahan_left": land.dahan})]
    if dmg >= 2:
        ph = add_blight(isl, region, rng, policy)
        isl, events = ph.island, events + list(ph.events)
    land = isl.land(region)
    if land.dahan and land.invaders:
        hit = DAHAN_DAMAGE * land.dahan
        dead = strike_back(hit, land.explorers, land.towns, land.cities)
        land = replace(land, **{k: getattr(land, k) - v for k, v in dead.items()})
        isl = isl.with_lands([land])
        gone = ", ".join(_unit(k, v) for k, v in dead.items() if v) or "nothing"
        events.append(Event("strike", region, f"{region}: {land.dahan} dahan strike back for {hit} damage: "
                            f"{gone} destroyed", {"damage": hit, "destroyed": dead}))
        ph = add_fear(isl, sum(FEAR_FOR[k] * v for k, v in dead.items()), region, "invaders destroyed")
        isl, events = ph.island, events + list(ph.events)
    return Phase(isl, tuple(events))


def _invaders(land: Land) -> str:
    return ", ".join(_unit(k, getattr(land, k)) for k in INVADERS if getattr(land, k)) or "none"


# -- build and explore (S-BUILD, S-EXPLORE) --------------------------------------------------------

def build(isl: Island, region: str) -> tuple[Phase, bool]:
    """S-BUILD in one region: only where an invader stands; a town if towns <= cities,
    otherwise a city. Returns the phase and whether anything was built."""
    land = isl.land(region)
    if not land.invaders:
        return Phase(isl, (Event("build", region, f"{region}: no invaders, nothing built", {"built": None}),)), False
    kind = "towns" if land.towns <= land.cities else "cities"
    land = replace(land, **{kind: getattr(land, kind) + 1})
    what = "a town" if kind == "towns" else "a city"
    return Phase(isl.with_lands([land]), (Event("build", region, f"{region}: the invaders build {what} "
                                                f"({_unit('towns', land.towns)}, {_unit('cities', land.cities)} here)", {"built": kind}),)), True


def explore_targets(isl: Island, terrains: Iterable[str]) -> tuple[str, ...]:
    """S-EXPLORE: the lands of ``terrains`` that are coastal or next to a town or city
    (a land with a town or city of its own counts: the settlers are already there)."""
    terrains = set(_terrains(terrains))
    sources = {land.id for land in isl.lands if land.towns or land.cities}
    return tuple(land.id for land in isl.lands if land.terrain in terrains and
                 (land.coastal or land.id in sources or any(n in sources for n in land.neighbours)))


def _terrains(terrains: Iterable[str]) -> tuple[str, ...]:
    out = tuple(terrains)
    for t in out:
        if t not in TERRAINS:
            raise SkirmishError(f"explore: unknown terrain {t!r} (one of {', '.join(TERRAINS)})")
    if not out:
        raise SkirmishError(f"explore: name at least one terrain ({', '.join(TERRAINS)})")
    return out


def explore(isl: Island, terrains: Iterable[str]) -> tuple[Phase, tuple[str, ...]]:
    """S-EXPLORE: one explorer in each target land; returns the lands explored."""
    terrains = _terrains(terrains)
    targets = explore_targets(isl, terrains)
    events = []
    for r in targets:
        land = isl.land(r)
        why = "coastal" if land.coastal else "next to a town or city"
        isl = isl.with_lands([replace(land, explorers=land.explorers + 1)])
        events.append(Event("explore", r, f"{r}: an explorer arrives ({land.terrain}, {why})", {"why": why}))
    if not targets:
        events.append(Event("explore", None, f"no {' or '.join(terrains)} land is coastal or next to a town or "
                            "city: nothing explored", {}))
    return Phase(isl, tuple(events)), targets


# -- the whole phase ---------------------------------------------------------------------------------

def invader_phase(isl: Island, terrains: Sequence[str] | None = None, rng: random.Random | None = None,
                  policy: Policy | None = None) -> Phase:
    """One invaders' phase (S-RAVAGE order): the blighted-island effect, fear effects,
    ravage where marked, build where marked, explore ``terrains`` (default: this
    round's entry of the island's explore order). Afterwards the lands built in are
    marked to ravage next round and the lands explored are marked to build."""
    rng = rng or random.Random(0)
    terrains = tuple(terrains) if terrains is not None else isl.explore_for(isl.round)
    events: list[Event] = []
    if isl.blighted:
        events.append(Event("blighted_effect", None, "the island is blighted: the seed gives no effect text, "
                            "none applied", {}))
    ph = fear_effects(isl)
    isl, events = ph.island, events + list(ph.events)
    for land in isl.lands:
        if land.ravage:
            ph = ravage(isl, land.id, rng, policy)
            isl, events = ph.island, events + list(ph.events)
    built = []
    for land in isl.lands:
        if land.build:
            ph, did = build(isl, land.id)
            isl, events = ph.island, events + list(ph.events)
            if did:
                built.append(land.id)
    ph, explored = explore(isl, terrains)
    isl, events = ph.island, events + list(ph.events)
    isl = replace(isl, lands=tuple(replace(land, ravage=land.id in built, build=land.id in explored)
                                   for land in isl.lands))
    return Phase(isl, tuple(events))


def outcome(isl: Island) -> Outcome | None:
    """The end of the game, if it has come (losses first: S-BLIGHT, then S-FEAR)."""
    if isl.blight >= isl.defeat_at:
        return Outcome("lost", f"the blight on the island reached {isl.blight} (>= {isl.defeat_at})", "blight")
    for s in isl.spirits:
        if isl.presence(s) == 0:
            return Outcome("lost", f"{s} has no presence left on the island", "presence")
    if isl.fear >= FEAR_VICTORY:
        return Outcome("won", f"fear {isl.fear} (>= {FEAR_VICTORY}): the invaders flee", "fear")
    lands = isl.lands
    left = {k: sum(getattr(land, k) for land in lands) for k in INVADERS}
    need = (("explorers", "towns", "cities"), ("towns", "cities"), ("cities",))[isl.terror]
    if not any(left[k] for k in need):
        return Outcome("won", f"terror {isl.terror}: no {', '.join(need)} left", "terror")
    return None


__all__ = ["Event", "Outcome", "Phase", "add_blight", "add_fear", "build", "explore", "explore_targets",
           "fear_effects", "invader_phase", "outcome", "ravage", "strike_back", "FEAR_FOR", "FEAR_PER_TERROR"]
