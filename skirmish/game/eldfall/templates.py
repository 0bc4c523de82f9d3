"""Template weapons in a game (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY, E-TMPL-STK).

A weapon with a ``template`` places it instead of rolling to hit: a circle centred on
the main target, a spray from the user's base pointing at it. Every model the template
affects (friends too, never the user) takes one Hit per template; a model that declared
a Dodge as its Reaction in this Activation Sequence may avoid each Hit with an Agility
roll (halved without LoS to the user, E-DODGE), the others take it. Each Hit that lands
rolls one damage die against PW − ARM (E-ROLL-DMG). With Strike k the user places k
templates, on its main target or spread among several (E-TMPL-STK: the Action's split).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from ...errors import SkirmishError
from ...maps.table import Table, within_awareness
from ...maps.template_results import TemplateResult, TemplateSpared
from ...memo import IdentityMemo
from ...rules.eldfall.modifiers import damage_target
from ...rules.eldfall.template_hits import roll_template_hit, template_wound_odds
from ...rules.eldfall.templates import template_spec
from ...rules.eldfall.weapons import Weapon
from .attacks import armour_of, defending_side
from .state import GameState


#: Placements already resolved: the Action's options, a policy's scores and the
#: Resolution ask for the same template on the same (immutable) table.
_PLACED: IdentityMemo[TemplateResult | None] = IdentityMemo(256)


def place(table: Table, user: str, target: str, weapon: Weapon) -> TemplateResult | None:
    """``weapon``'s template placed by ``user`` on ``target`` (circle: centred on it;
    spray: from the user's base toward it), or None when it cannot be placed so that
    the main target is covered and affected (E-TMPL)."""
    return _PLACED.get(("place", id(table), user, target, weapon), (table,),
                       lambda: _place(table, user, target, weapon))


def _place(table: Table, user: str, target: str, weapon: Weapon) -> TemplateResult | None:
    assert weapon.template is not None
    spec = template_spec(weapon.template)
    try:
        if spec.kind == "circle":
            res = table.template(spec, on=target, by=user, declared=True, dodge=True)
        else:
            res = table.template(spec, by=user, toward=target, on=target, declared=True, dodge=True)
    except SkirmishError:
        return None
    if not res.main_target_covered or target not in res.affected_ids:
        return None
    return _in_aura(table, user, res) if weapon.aura else res


def _in_aura(table: Table, user: str, res: TemplateResult) -> TemplateResult | None:
    """E-AURA-CAST: an Aura spell affects only the models inside the caster's Awareness
    (E-DIST ≤ AGI); the others under its template are spared (``"aura"``)."""
    caster = table.model(user)
    inside = [h for h in res.affected if within_awareness(caster, table.distance(user, h.id))]
    if len(inside) == len(res.affected):
        return res
    if res.main_target not in {h.id for h in inside}:
        return None
    out = [TemplateSpared(h.id, "aura", h.coverage, h.dz, h.band, los_from=h.los_from)
           for h in res.affected if h not in inside]
    return dataclasses.replace(res, affected=tuple(inside), spared=(*res.spared, *out))


@dataclass(frozen=True)
class TemplateTarget:
    """What one affected model's Hit depends on: its Dodge Agility (None: it does not
    Dodge, having declared no Dodge Reaction), halved or not, and PW − ARM."""

    id: str
    agility: int | None
    halved: bool
    damage: int

    def p_wound(self, reroll: bool = False) -> Fraction:
        """Exact chance that this Hit wounds: not dodged, then the damage die."""
        return template_wound_odds(self.agility, self.halved, self.damage, reroll=reroll)


def targets(result: TemplateResult, state: GameState, weapon: Weapon,
            dodges: Mapping[str, bool]) -> tuple[TemplateTarget, ...]:
    """The affected models still on the table (not Dead) as :class:`TemplateTarget`.
    ``dodges``: model → whether its declared Dodge had LoS to the user."""
    out = []
    for h in result.affected:
        u = state.unit(h.id)
        if "Dead" in u.states:
            continue
        m = state.model(h.id)
        agi = None
        halved = False
        if h.id in dodges:
            los = dodges[h.id] and not h.agility_halved
            agi = defending_side(m, u, dodge=True, los=los).dodge
            halved = not los
        out.append(TemplateTarget(h.id, agi, halved, damage_target(weapon.pw or 0, armour_of(m, u))))
    return tuple(out)


def roll_hits(tgts: tuple[TemplateTarget, ...], rng: random.Random, *, reroll: bool = False
              ) -> list[dict[str, Any]]:
    """One Hit on each target: its Dodge (when declared), then one damage die. Per
    target a log entry with ``wounds`` (0 or 1, before HP caps)."""
    out = []
    for t in tgts:
        hit = roll_template_hit(t.agility, t.halved, t.damage, rng, reroll=reroll)
        entry: dict[str, Any] = {"target": t.id, "dice": []}
        if hit.dodge is not None:
            d = hit.dodge
            entry["dodge"] = {"face": d.face, "success": d.success, "agility": d.attribute.value,
                              "halved": t.halved, "rerolled_from": d.rerolled_from}
        if hit.dodged:
            entry.update(hits=0, wounds=0, damage=[])
        else:
            entry.update(hits=1, wounds=int(hit.wound),
                         damage=[{"face": hit.face, "target": t.damage, "wound": hit.wound}])
        out.append(entry)
    return out


def expected_wounds(tgts: tuple[TemplateTarget, ...], state: GameState, side: str, strike: int,
                    *, reroll: bool = False) -> tuple[Fraction, Fraction]:
    """Exact expected Wounds of ``strike`` templates: (on ``side``'s enemies, on its
    friends), each model's capped at the Wounds it can take (E-WOUND: its HP; one more
    kills an Incapacitated model)."""
    enemies, friends = Fraction(0), Fraction(0)
    for t in tgts:
        p, cap = t.p_wound(reroll), max(1, state.unit(t.id).hp)
        # E[min(cap, X)], X ~ Binomial(strike, p): the Wounds it takes of one Hit per template
        w = sum((Fraction(comb(strike, k)) * p ** k * (1 - p) ** (strike - k) * min(cap, k)
                 for k in range(1, strike + 1)), Fraction(0))
        if state.unit(t.id).side == side:
            friends += w
        else:
            enemies += w
    return enemies, friends
