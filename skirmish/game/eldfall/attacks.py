"""The geometry and the two Sides of an attack in a game (E-ACTION-ATTACK, E-REACTION).

Line of sight, reach bands and cover come from the table (E-LOS, E-REACH, E-COVER);
the exchange and its dice from :mod:`skirmish.rules.eldfall` (E-CONF, E-DODGE).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ...maps.pieces import Model
from ...maps.results import Cover, LineOfSight, Reach
from ...maps.table import CONTACT_TOLERANCE, Table, reach_band
from ...rules.eldfall.exchange import Exchange, Side
from ...rules.eldfall.weapons import Weapon
from .settings import usable_weapons
from .state import GameState, Unit, attributes_of


@dataclass(frozen=True)
class AttackGeometry:
    """One declared attack's facts on one table: LoS (with its witness), the reach
    band and its Accuracy, and Cover for a ranged weapon. ``unseen``: a spell with Aura
    reach cast without LoS (E-AURA-CAST: the attribute halved, no Cover)."""

    attacker: str
    target: str
    weapon: Weapon
    sight: LineOfSight
    reach: Reach
    cover: Cover | None
    unseen: bool = False

    @property
    def legal(self) -> bool:
        return (self.sight.visible or self.unseen) and self.reach.in_reach

    @property
    def modifiers(self) -> tuple[int, ...]:
        """The attacker's fixed modifiers: the band's Accuracy and the target's Cover."""
        mods = (self.reach.accuracy or 0, self.cover.modifier if self.cover else 0)
        return tuple(m for m in mods if m)

    def to_json(self) -> dict[str, object]:
        return {"weapon": self.weapon.name, "distance": round(self.reach.distance, 4), "band": self.reach.band,
                "accuracy": self.reach.accuracy, "cover": self.cover.to_json() if self.cover else None,
                "los": self.sight.visible, "aura": self.weapon.aura,
                "witness": [list(p) for p in self.sight.witness] if self.sight.witness else None}


def attack_geometry(table: Table, attacker: str, target: str, weapon: Weapon, *,
                    sight: LineOfSight | None = None, with_cover: bool = True, unseen_aura: bool = False,
                    blind: bool = False) -> AttackGeometry:
    """LoS from the attacker's front arc, reach band and (ranged) Cover, on ``table``.
    With ``unseen_aura`` (an Active caster, E-AURA-CAST) a spell with Aura reach may be
    cast at a target in its Awareness without LoS: no Cover. ``blind``: no LoS at all
    (Blinded, E-STATE-OTHER)."""
    if blind:
        sight = LineOfSight(attacker, target, False, "blocked", None, (), 0.0, stage="Blinded (E-STATE-OTHER)")
    elif sight is None:
        sight = table.line_of_sight(attacker, target)
    reach = table.reach(attacker, target, weapon)
    unseen = unseen_aura and weapon.aura and not sight.visible and reach.in_reach
    ranged_hit = weapon.ranged and with_cover and sight.visible and reach.in_reach
    cover = table.cover(attacker, target, fraction=False) if ranged_hit else None
    return AttackGeometry(attacker, target, weapon, sight, reach, cover, unseen)


def strike_of(model: Model, unit: Unit, weapon: Weapon) -> int:
    """Active Strike: the weapon's STK (a number or the wielder's attribute); 1 when
    Crouched (E-STATE-CROUCHED) or unknown."""
    if "Crouched" in unit.states:
        return 1
    s = weapon.strike(attributes_of(model, unit.states))  # E-STATE-OTHER: Weakened halves STA
    return max(1, s or 1)


def armour_of(model: Model, unit: Unit) -> int:
    """ARM, halved (rounded up) when Crouched (E-STATE-CROUCHED)."""
    arm = int(model.attributes.get("ARM", 0))
    return -(-arm // 2) if "Crouched" in unit.states else arm


def attacking_side(model: Model, unit: Unit, geo: AttackGeometry, *, reactive: bool) -> Side:
    """The attacker's Side: its weapon's attribute and Power, the band and Cover
    modifiers, its Strike (1 when Reactive, E-STK-REACT), its ARM and HP."""
    w = geo.weapon
    return Side(att=int(model.attributes[w.attribute]), modifiers=geo.modifiers, pw=w.pw, halve=geo.unseen,
                stk=None if reactive else strike_of(model, unit, w), arm=armour_of(model, unit), hp=unit.hp)


def defending_side(model: Model, unit: Unit, *, dodge: bool = False, los: bool = True) -> Side:
    """A Side that does not attack: its ARM and HP, and its Agility when it Dodges
    (halved without LoS to the attacker, E-DODGE, or when Crippled, E-STATE-OTHER; the
    two halvings do not stack)."""
    agi = int(model.attributes.get("AGI", 0) or 0) if dodge else None
    if agi is not None and los and "Crippled" in unit.states:
        agi = -(-agi // 2)
    return Side(arm=armour_of(model, unit), hp=unit.hp, dodge=agi, los=los if dodge else True)


#: States in which a model engages no one (E-STATE-ENGAGED).
_NOT_ENGAGING = frozenset({"Crouched", "Blinded"})


def engagers(state: GameState, model_id: str) -> tuple[str, ...]:
    """E-STATE-ENGAGED: the enemies that engage ``model_id``: in play, not Crouched,
    with a melee weapon that reaches it and LoS to it from their front arc (and not
    Blinded). A Flying model is never Engaged; an out-of-play model is not either."""
    u = state.unit(model_id)
    if not u.in_play or "Flying" in u.states:
        return ()
    t = state.table
    model, hypot = t.model, math.hypot
    m = model(model_id)
    x, y, r = m.x, m.y, m.radius
    out = []
    for e in state.in_play(state.enemy_of(u.side)):
        if e.states & _NOT_ENGAGING:
            continue
        em = model(e.id)
        melee, far = _melee(em)
        # (E-DIST is never shorter than the gap between the bases: far enemies are not measured)
        if not melee or hypot(em.x - x, em.y - y) - r > far:
            continue
        d = t.distance(e.id, model_id)
        if any(reach_band(em, w, d) is not None for w in melee) and t.line_of_sight(e.id, model_id).visible:
            out.append(e.id)
    return tuple(sorted(out))


#: Per model id, the last answer of :func:`_melee`, after the weapons, attributes, size and
#: base diameter it was found for (one answer per id: games ask again and again of one model).
_MELEE: dict[str, tuple[tuple[Weapon, ...], Mapping[str, int], str, float | None,
                        tuple[tuple[Weapon, ...], float]]] = {}


def _melee(model: Model) -> tuple[tuple[Weapon, ...], float]:
    """``model``'s usable melee weapons, and the greatest distance from its centre, less
    the target's radius, at which one may reach (infinite with an Aura weapon)."""
    # (the same weapons and attributes, by identity, on the same base: a moved model's are its own)
    got = _MELEE.get(model.id)
    if got is None or got[0] is not model.weapons or got[1] is not model.attributes or \
            got[2] != model.size or got[3] != model.diameter:
        melee = tuple(w for w in usable_weapons(model) if not w.ranged)
        far = math.inf if not melee or any(w.aura for w in melee) else \
            model.radius + max(w.reach for w in melee) + CONTACT_TOLERANCE + 1e-9
        got = _MELEE[model.id] = (model.weapons, model.attributes, model.size, model.diameter, (melee, far))
    return got[4]


#: Per (model id, engaged, reaction), the last answer of :func:`weapons_in_hand`, after the
#: weapons and attributes (identity) it was found for (asked again and again of one model).
_HAND: dict[tuple[str, bool, bool], tuple[tuple[Weapon, ...], Mapping[str, int], tuple[Weapon, ...]]] = {}


def weapons_in_hand(model: Model, engaged: bool, *, reaction: bool = False) -> tuple[Weapon, ...]:
    """The weapons ``model`` may use: its usable weapons, only melee ones while Engaged
    (E-STATE-ENGAGED: only melee Attacks; a spell is used like a ranged weapon). A
    ``reaction`` (an Attack of Opportunity) rolls to hit: no template weapons."""
    key = (model.id, engaged, reaction)
    got = _HAND.get(key)
    if got is None or got[0] is not model.weapons or got[1] is not model.attributes:
        hand = tuple(w for w in usable_weapons(model) if not (engaged and w.ranged) and not (reaction and w.template))
        got = _HAND[key] = (model.weapons, model.attributes, hand)
    return got[2]


def with_rerolls(ex: Exchange, k: int) -> Exchange:
    """The exchange with every side that rolls (an Attack or a Dodge) allowed to reroll up
    to ``k`` dice (E-ROLL-REROLL, ``[game] reroll``); ``k`` = 0: unchanged."""
    if not k:
        return ex
    a, r = (dataclasses.replace(sd, reroll_dice=k) if sd.att is not None or sd.dodge is not None else sd
            for sd in (ex.active, ex.reactive))
    return Exchange(a, r, ex.dice)


def action_kind(weapon: Weapon) -> Literal["attack", "cast"]:
    """``"cast"`` for a spell (E-AURA-CAST), else ``"attack"``."""
    return "cast" if weapon.spell else "attack"
