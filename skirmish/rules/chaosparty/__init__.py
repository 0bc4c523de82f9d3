"""Chaos Party rules (seed ``001``; C-* in RULES.md): token characters, classes and
dice, attack and defence with boosts, resolution, overload and absorb, the Flow, the
bidding and the variants; exact odds of one attack. Pure functions over frozen values.
"""

from .attack import ATTACK_BOOSTS, DEFENCE_BOOSTS, Attack, Faces, Resolution, resolve
from .classes import DICE, class_die, potential_class
from .odds import AttackOdds, attack_odds
from .tokens import Character, Player, Tokens, Variants

__all__ = ["ATTACK_BOOSTS", "DEFENCE_BOOSTS", "DICE", "Attack", "AttackOdds", "Character", "Faces", "Player",
           "Resolution", "Tokens", "Variants", "attack_odds", "class_die", "potential_class", "resolve"]
