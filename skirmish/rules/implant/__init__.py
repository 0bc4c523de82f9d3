"""Implant solo (seed ``002_...``): the d6 oracle, its exact odds, and fights.

Pure values and functions: the ladder (I-LADDER), the pool (I-POOL), drama
(I-DRAMA), the fight tables (I-FIGHT), damage choices (I-DAMAGE), seeded fights
with a log and their exact odds (an absorbing Markov chain over Fractions).

>>> from skirmish.rules.implant import pool, fight_setup, fight_odds, CautiousPolicy
>>> pool(2, 1).odds().yes
Fraction(3, 4)
>>> odds = fight_odds(fight_setup(3, 2, helps=1), CautiousPolicy())
>>> odds.win + odds.die
Fraction(1, 1)
"""

from .chain import FightEnd, FightOdds, fight_odds, level_bound, transitions
from .damage import DAMAGE_CHOICES, damage_options, injury_allowed, max_injuries, take_damage
from .drama import DramaUse, reroll, spend_drama
from .fight import FightLog, RoundLog, apply_face, play_fight, sample_fights
from .ladder import AUTO_NO, AUTO_YES, LADDER, Rung, rung
from .policy import BoldPolicy, CautiousPolicy
from .pool import MAX_ROLLED, Pool, PoolOdds, Roll, pool
from .state import Factors, FightSetup, FightState, fight_setup
from .table import ATTACK, DEFENCE, Effect, options, side_of

__all__ = [
    "ATTACK", "AUTO_NO", "AUTO_YES", "BoldPolicy", "CautiousPolicy", "DAMAGE_CHOICES", "DEFENCE", "DramaUse",
    "Effect", "Factors", "FightEnd", "FightLog", "FightOdds", "FightSetup", "FightState", "LADDER", "MAX_ROLLED",
    "Pool", "PoolOdds", "Roll", "RoundLog", "Rung", "apply_face", "damage_options", "fight_odds", "fight_setup",
    "injury_allowed", "level_bound", "max_injuries", "options", "play_fight", "pool", "reroll", "rung", "sample_fights", "side_of", "spend_drama",
    "take_damage", "transitions",
]
