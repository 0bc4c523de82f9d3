"""Spirit island rules (S-*): the island as lands and borders, the invaders' phase
(ravage with the blight cascade, build, explore), fear and blight, and simple spirits.

Pure values and functions: nothing here prints, reads files or uses global random
state. The map the island is measured on is :class:`skirmish.maps.regions.Regions`.

>>> import random
>>> from skirmish.rules.spiritisland import Land, island, invader_phase
>>> isl = island([Land("a", "jungle", coastal=True, neighbours=("b",), towns=1, dahan=1, ravage=True),
...               Land("b", "sands", explorers=1, build=True)])
>>> ph = invader_phase(isl, ["sands"], random.Random(1))
>>> [str(e) for e in ph.events][:2]
['a: invaders (1 town) ravage for 2 damage; 1 dahan destroyed', 'a takes a blight (blight here 1, on the island 1)']
>>> ph.island.land("b").towns, ph.island.land("b").ravage, ph.island.land("b").build
(1, True, True)
"""

from .invaders import (
    Event,
    Outcome,
    Phase,
    add_blight,
    add_fear,
    build,
    explore,
    explore_targets,
    fear_effects,
    invader_phase,
    outcome,
    ravage,
    strike_back,
)
from .island import INVADERS, PIECES, TERRAINS, Island, Land, island
from .spirits import PASS, Game, GreedyPolicy, Power, RoundLog, play_game, powers, reach, spirit_phase, use_power

__all__ = [
    "Event", "Game", "GreedyPolicy", "INVADERS", "Island", "Land", "Outcome", "PASS", "PIECES", "Phase", "Power",
    "RoundLog", "TERRAINS", "add_blight", "add_fear", "build", "explore", "explore_targets", "fear_effects",
    "invader_phase", "island", "outcome", "play_game", "powers", "ravage", "reach", "spirit_phase", "strike_back",
    "use_power",
]
