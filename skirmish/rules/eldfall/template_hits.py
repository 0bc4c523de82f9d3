"""One template Hit on one model (E-TMPL, E-DODGE, E-ROLL-DMG): placed, not rolled, it
may be avoided by a Dodge (an Agility roll, halved without LoS to the user); otherwise
one damage die against PW − ARM. Exact odds and a seeded roll, shared by the simulator's
scripted templates and the game's template weapons."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .dice import AttributeRoll, Rng, attribute_roll, roll_d20
from .modifiers import modify, wounds_on
from .odds import attribute_roll_odds


def template_wound_odds(agility: int | None, halved: bool, damage: int, *, reroll: bool = False) -> Fraction:
    """The exact chance that one template Hit wounds: not dodged (``agility`` None: no
    Dodge), then a damage die ≤ ``damage`` (PW − ARM)."""
    dodged = attribute_roll_odds(modify(agility, halve=halved), reroll) if agility is not None else Fraction(0)
    return (1 - dodged) * Fraction(min(max(damage, 0), 20), 20)


@dataclass(frozen=True)
class TemplateHitRoll:
    """One Hit rolled: the Dodge (None without one), the damage die's face (None when
    dodged) and whether it wounds."""

    dodge: AttributeRoll | None
    face: int | None
    wound: bool

    @property
    def dodged(self) -> bool:
        return self.dodge is not None and self.dodge.success


def roll_template_hit(agility: int | None, halved: bool, damage: int, rng: Rng, *,
                      reroll: bool = False) -> TemplateHitRoll:
    """One Hit: the Dodge first (when ``agility`` is given; ``reroll``: a failed die rolls
    again, E-ROLL-REROLL), then the damage die unless it was dodged."""
    dodge = attribute_roll(modify(agility, halve=halved), rng, reroll_failed=reroll) if agility is not None else None
    if dodge is not None and dodge.success:
        return TemplateHitRoll(dodge, None, False)
    face = roll_d20(rng)
    return TemplateHitRoll(dodge, face, wounds_on(face, damage))
