"""Party Hard rules: elements, stats, damage, shield, effects, healing and the fight loop.

Pure values and functions: nothing here prints, reads files or uses global random
state. The grid of rooms they are played on is :class:`skirmish.maps.grid.Grid`.

>>> from skirmish.rules.partyhard import Element, damage
>>> damage(1, Element.VOID, weapon_bonus=1, weapon_element=Element.VOID,
...        defense=1, target_element=Element.MATTER).total     # the P-DMG worked example
3
"""

from .damage import Absorption, Breakdown, absorb, attack_breakdown, damage, max_shield
from .effects import NONRESISTANCE, POWERLESS, SHOCK, Effect, Effects, Slot, parse_effect
from .elements import Element, parse_element, relation
from .fight import put_effect, resolve_fight
from .fighter import Fighter
from .items import BUILTIN_ABILITIES, BUILTIN_ITEMS, Ability, Item, ItemKind, lookup
from .log import Action, ActionLog, EffectLog, FightLog, Note, Rewards, TargetLog
from .policy import GreedyPolicy, Policy, ScriptedPolicy
from .state import ROW_CAP, Exit, FightSetup, FightState, Reinforcement, SideSetup, legal_actions, windows
from .stats import STAT_MAX, STAT_MIN, STATS, Stats, clamp_stat
from .streak import Streak

__all__ = [
    "Ability", "Absorption", "Action", "ActionLog", "BUILTIN_ABILITIES", "BUILTIN_ITEMS", "Breakdown", "EffectLog",
    "Effect", "Effects", "Element", "Exit", "FightLog", "FightSetup", "FightState", "Fighter", "GreedyPolicy", "Item",
    "ItemKind", "NONRESISTANCE", "Note", "POWERLESS", "Policy", "ROW_CAP", "Reinforcement", "Rewards", "SHOCK",
    "STATS", "STAT_MAX", "STAT_MIN", "ScriptedPolicy", "SideSetup", "Slot", "Stats", "Streak", "TargetLog", "absorb",
    "attack_breakdown", "clamp_stat", "damage", "legal_actions", "lookup", "max_shield", "parse_effect",
    "parse_element", "put_effect", "relation", "resolve_fight", "windows",
]
