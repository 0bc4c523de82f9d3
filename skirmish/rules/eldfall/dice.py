"""Seeded d20 rolls with a structured log: attribute rolls and whole exchanges.

Randomness always comes in as an argument: a ``random.Random`` or a
``numpy.random.Generator``. The same generator state gives the same log.

Order of draws (so a seed replays exactly): the Active attack dice, then the
Reactive attack dice (or its Dodge die); then rerolls, the Reactive side's first
(E-CONF), then the Active side's (each side's chosen dice in index order, see
:mod:`.rerolls` for which); then the Active side's damage dice and their
rerolls, then the Reactive side's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Union

import numpy as np

from ...errors import RuleInputError
from .exchange import Exchange, Kind, Side, engagement
from .modifiers import D20, ModifiedAttribute, damage_target
from .rerolls import FAIL, MAX_LOOKAHEAD_ROLLS, code, die_codes, facing_of, is_hit, last_choice, shared_chooser
from .wounds import WoundResult, apply_wounds

Rng = Union[random.Random, np.random.Generator]
Role = Literal["active", "reactive"]


def roll_d20(rng: Rng) -> int:
    """One d20 from ``rng`` (``random.Random`` or ``numpy.random.Generator``).

    From a ``random.Random`` it takes 5 raw bits at a time until they make 0..19
    (exactly uniform, and it depends only on the core generator, so a seed replays
    the same across Python versions)."""
    if isinstance(rng, random.Random):
        while True:
            v = rng.getrandbits(5)
            if v < D20:
                return v + 1
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(1, D20 + 1))
    raise RuleInputError(f"pass a random.Random or numpy.random.Generator, got {type(rng).__name__}")


@dataclass(frozen=True)
class AttributeRoll:
    """E-ROLL-ATTR: one d20 against a modified attribute. ``face`` is None when the roll
    fails automatically (E-MOD-ZERO); ``rerolled_from`` is the replaced face."""

    attribute: ModifiedAttribute
    face: int | None
    success: bool
    rerolled_from: int | None = None


def attribute_roll(attribute: ModifiedAttribute, rng: Rng, *, reroll_failed: bool = False) -> AttributeRoll:
    """E-ROLL-ATTR: roll one d20, success when ≤ the modified attribute (E-ROLL-REROLL:
    with ``reroll_failed`` a failed die is rolled again and its result replaces it)."""
    if attribute.fails_automatically:
        return AttributeRoll(attribute, None, False)
    face = roll_d20(rng)
    if attribute.succeeds(face) or not reroll_failed:
        return AttributeRoll(attribute, face, attribute.succeeds(face))
    second = roll_d20(rng)
    return AttributeRoll(attribute, second, attribute.succeeds(second), rerolled_from=face)


@dataclass(frozen=True)
class AttackDie:
    """One attack die (E-ROLL-ATK) and what happened to it.

    ``cancelled_by`` names the opposing dice that cancel it (E-CONF: every opposing
    Critical, and every opposing non-critical success ≥ its face); ``dodged`` is set
    when a successful Dodge ignored it (E-DODGE)."""

    id: str
    face: int
    target: int
    success: bool
    critical: bool
    cancelled_by: tuple[str, ...] = ()
    dodged: bool = False
    rerolled_from: int | None = None

    @property
    def hit(self) -> bool:
        """Did it become a Hit?"""
        return self.success and not self.cancelled_by and not self.dodged


@dataclass(frozen=True)
class DamageDie:
    """One damage die (E-ROLL-DMG) for the Hit of attack die ``hit``: it wounds when
    ``face`` ≤ ``target`` (PW − ARM; PW alone for a Critical Hit, E-CRIT)."""

    id: str
    hit: str
    face: int
    target: int
    critical: bool
    wound: bool
    rerolled_from: int | None = None


@dataclass(frozen=True)
class SideLog:
    """One side of a resolved exchange.

    ``dice`` are its attack dice (empty when it does not attack or fails automatically);
    ``damage`` its damage dice (None when it has no PW); ``wounds_dealt`` the Wounds
    the opponent takes from it (capped, E-WOUND); ``result`` what the opponent's
    Wounds did to this model."""

    role: Role
    side: Side
    attribute: ModifiedAttribute | None
    fails_automatically: bool
    dice: tuple[AttackDie, ...]
    dodge: AttributeRoll | None
    damage: tuple[DamageDie, ...] | None
    wounds_dealt: int
    result: WoundResult

    @property
    def hits(self) -> int:
        """Hits it scored."""
        return sum(d.hit for d in self.dice)

    @property
    def critical_hits(self) -> int:
        """Of which Critical Hits."""
        return sum(d.hit and d.critical for d in self.dice)

    @property
    def wounds_rolled(self) -> int:
        """Successful damage dice, before the target's HP cap."""
        return sum(d.wound for d in self.damage or ())


@dataclass(frozen=True)
class ExchangeLog:
    """A resolved exchange: every die, the Hits, the damage and the states."""

    exchange: Exchange
    kind: Kind
    active: SideLog
    reactive: SideLog


def _prefix(role: Role) -> str:
    return "A" if role == "active" else "R"


def _roll_dice(attribute: ModifiedAttribute | None, n: int, role: Role, rng: Rng) -> list[int]:
    if attribute is None or attribute.fails_automatically:
        return []
    return [roll_d20(rng) for _ in range(n)]


def _reroll_at(faces: list[int], chosen: Sequence[int], rng: Rng) -> list[int | None]:
    """E-ROLL-REROLL: reroll the dice at ``chosen`` (in index order), replacing them
    completely; return the replaced faces."""
    replaced: list[int | None] = [None] * len(faces)
    for i in sorted(chosen):
        replaced[i] = faces[i]
        faces[i] = roll_d20(rng)
    return replaced


def _codes(attribute: ModifiedAttribute | None, faces: Sequence[int], n: int) -> list[int]:
    """The dice as :mod:`.rerolls` codes (all failures when the roll fails automatically)."""
    if attribute is None or attribute.fails_automatically:
        return [FAIL] * n
    return [code(attribute, f) for f in faces]


def _reactive_choice(exchange: Exchange, a_faces: list[int], r_faces: list[int]) -> list[int]:
    """Indices of the Reactive attack dice it rerolls under its rule."""
    reactive, r_attr = exchange.reactive, exchange.reactive.attribute
    rule = reactive.reroll_rule
    if r_attr is None or not r_faces or rule.mode == "none":
        return []
    r_codes = _codes(r_attr, r_faces, len(r_faces))
    if rule.mode == "all":
        return [i for i, c in enumerate(r_codes) if c == FAIL]
    a_attr = exchange.active.attribute
    assert a_attr is not None
    chooser = shared_chooser(die_codes(a_attr), exchange.active.reroll_rule, exchange.active_dice,
                             die_codes(r_attr), rule, len(r_faces))
    weighed = chooser.lookahead_rolls()
    if weighed > MAX_LOOKAHEAD_ROLLS:
        raise RuleInputError(
            f"REROLL={rule.limit}: the Reactive side chooses which of its {len(r_faces)} dice to reroll by "
            f"weighing every answer of the Active side's {exchange.active_dice} dice "
            f"(REROLL={exchange.active.reroll_rule.text()}), {weighed} rolls here (at most "
            f"{MAX_LOOKAHEAD_ROLLS}); use fewer dice, a smaller REROLL, or REROLL=all for one side")
    a_codes = tuple(sorted(_codes(a_attr, a_faces, exchange.active_dice)))
    sub, _ = chooser.reactive_choice(a_codes, tuple(sorted(r_codes)))
    chosen: list[int] = []
    for c in sub:
        chosen.append(next(i for i, x in enumerate(r_codes) if x == c and i not in chosen))
    return chosen


def _active_choice(exchange: Exchange, a_faces: list[int], r_faces: list[int], dodged: bool) -> tuple[int, ...]:
    """Indices of the Active attack dice it rerolls, knowing the final Reactive dice."""
    a_attr, rule = exchange.active.attribute, exchange.active.reroll_rule
    if a_attr is None or a_attr.fails_automatically or rule.mode == "none":
        return ()
    facing = facing_of(_codes(exchange.reactive.attribute, r_faces, len(r_faces)), dodged)
    can_hit = any(is_hit(c, facing) for c, _ in die_codes(a_attr))
    return last_choice(_codes(a_attr, a_faces, len(a_faces)), rule, facing, can_hit)


def _judge(
    role: Role,
    attribute: ModifiedAttribute | None,
    faces: list[int],
    replaced: list[int | None],
    opponent_attribute: ModifiedAttribute | None,
    opponent_faces: list[int],
    dodged: bool,
) -> tuple[AttackDie, ...]:
    """E-CONF (exact): a success is cancelled by every opposing Critical and every
    opposing non-critical success with an equal or higher face."""
    if attribute is None:
        return ()
    other = _prefix("reactive" if role == "active" else "active")
    opp: list[tuple[str, int, bool]] = []  # successful opposing dice: id, face, critical
    if opponent_attribute is not None:
        for j, f in enumerate(opponent_faces):
            if opponent_attribute.succeeds(f):
                opp.append((f"{other}{j + 1}", f, opponent_attribute.is_critical(f)))
    dice = []
    for i, face in enumerate(faces):
        success = attribute.succeeds(face)
        critical = attribute.is_critical(face)
        cancelled: tuple[str, ...] = ()
        if success and not critical:
            cancelled = tuple(oid for oid, f, c in opp if c or f >= face)
        dice.append(
            AttackDie(
                id=f"{_prefix(role)}{i + 1}",
                face=face,
                target=attribute.value,
                success=success,
                critical=critical,
                cancelled_by=cancelled,
                dodged=dodged and success and not critical and not cancelled,
                rerolled_from=replaced[i],
            )
        )
    return tuple(dice)


def _roll_damage(role: Role, side: Side, target: Side, dice: Sequence[AttackDie], rng: Rng) -> tuple[DamageDie, ...] | None:
    """E-ROLL-DMG: one die per Hit, all rolled, then failed ones rerolled (if allowed)."""
    if side.pw is None:
        return None
    hits = [d for d in dice if d.hit]
    faces = [roll_d20(rng) for _ in hits]
    targets = [damage_target(side.pw, target.arm, d.critical) for d in hits]
    replaced: list[int | None] = [None] * len(hits)
    if side.reroll_damage:
        for i, face in enumerate(faces):
            if face > targets[i]:
                replaced[i] = face
                faces[i] = roll_d20(rng)
    return tuple(
        DamageDie(
            id=f"{_prefix(role)}D{i + 1}",
            hit=d.id,
            face=faces[i],
            target=targets[i],
            critical=d.critical,
            wound=faces[i] <= targets[i],
            rerolled_from=replaced[i],
        )
        for i, d in enumerate(hits)
    )


def resolve_exchange(exchange: Exchange, rng: Rng) -> ExchangeLog:
    """Roll one exchange (E-ROLL-ATK, E-CONF, E-CRIT, E-DODGE, E-ROLL-DMG, E-WOUND)
    and return its full log. The order of draws is documented in the module.

    >>> from skirmish.rules.eldfall.exchange import parse_side
    >>> ex = Exchange(parse_side("ATT=13,STK=3,PW=10,ARM=1,HP=3"), parse_side("ATT=11,PW=9,ARM=2,HP=2"))
    >>> log = resolve_exchange(ex, random.Random(7))
    >>> [(d.id, d.face, d.hit, d.cancelled_by) for d in log.reactive.dice]
    [('R1', 2, False, ('A1', 'A2', 'A3'))]
    >>> log.active.hits, log.active.wounds_dealt, log.reactive.result.state
    (3, 2, <ModelState.INCAPACITATED: 'Incapacitated'>)
    >>> log == resolve_exchange(ex, random.Random(7))
    True
    """
    active, reactive = exchange.active, exchange.reactive
    a_attr = active.attribute
    r_attr = reactive.attribute
    a_faces = _roll_dice(a_attr, exchange.active_dice, "active", rng)
    r_faces = _roll_dice(r_attr, exchange.reactive_dice, "reactive", rng)
    dodge: AttributeRoll | None = None
    dodge_attr = reactive.dodge_attribute
    dodge_first: int | None = None
    if dodge_attr is not None and not dodge_attr.fails_automatically:
        dodge_first = roll_d20(rng)
    # Rerolls: the Reactive player first, then the Active player (E-CONF, E-ROLL-REROLL).
    r_replaced = _reroll_at(r_faces, _reactive_choice(exchange, a_faces, r_faces), rng)
    if dodge_attr is not None:
        if dodge_first is None:
            dodge = AttributeRoll(dodge_attr, None, False)
        elif reactive.reroll_rule.mode != "none" and not dodge_attr.succeeds(dodge_first):
            second = roll_d20(rng)
            dodge = AttributeRoll(dodge_attr, second, dodge_attr.succeeds(second), rerolled_from=dodge_first)
        else:
            dodge = AttributeRoll(dodge_attr, dodge_first, dodge_attr.succeeds(dodge_first))
    dodged = dodge is not None and dodge.success
    a_replaced = _reroll_at(a_faces, _active_choice(exchange, a_faces, r_faces, dodged), rng)

    a_dice = _judge("active", a_attr, a_faces, a_replaced, r_attr, r_faces, dodged)
    r_dice = _judge("reactive", r_attr, r_faces, r_replaced, a_attr, a_faces, False)
    a_damage = _roll_damage("active", active, reactive, a_dice, rng)
    r_damage = _roll_damage("reactive", reactive, active, r_dice, rng)
    a_rolled = sum(d.wound for d in a_damage or ())
    r_rolled = sum(d.wound for d in r_damage or ())
    reactive_result = apply_wounds(a_rolled, reactive.hp, reactive.incapacitated)
    active_result = apply_wounds(r_rolled, active.hp, active.incapacitated)
    return ExchangeLog(
        exchange=exchange,
        kind=exchange.kind,
        active=SideLog(
            "active", active, a_attr, a_attr is not None and a_attr.fails_automatically,
            a_dice, None, a_damage, reactive_result.taken, active_result,
        ),
        reactive=SideLog(
            "reactive", reactive, r_attr, r_attr is not None and r_attr.fails_automatically,
            r_dice, dodge, r_damage, active_result.taken, reactive_result,
        ),
    )


@dataclass(frozen=True)
class EngagementLog:
    """E-STK-SPLIT: the exchanges of one Attack split among targets, and what their
    Wounds together did to the Active model (each exchange log's ``active.result``
    counts that exchange alone)."""

    exchanges: tuple[ExchangeLog, ...]
    active_result: WoundResult


def resolve_engagement(active: Side, reactives: Sequence[Side], rng: Rng) -> EngagementLog:
    """Resolve an Attack against one or more targets (E-STK-SPLIT), target by target."""
    logs = tuple(resolve_exchange(ex, rng) for ex in engagement(active, reactives))
    rolled = sum(log.reactive.wounds_rolled for log in logs)
    return EngagementLog(logs, apply_wounds(rolled, active.hp, active.incapacitated))
