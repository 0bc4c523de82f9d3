"""Party Hard as a whole game on the grid of rooms: field turns, fights, loot, Anima
and the last player standing (docs/partyhard.md, "The game").

>>> import random, skirmish
>>> from skirmish.game import load_policy
>>> maze = skirmish.load("scenarios/party-hard-maze.toml")
>>> result = play_game(maze, {p: load_policy("greedy", "partyhard") for p in maze.players}, random.Random(1))
>>> result.winner in (*maze.players, None), result.turns <= 50
(True, True)
"""

from ..policy import register_policy
from .events import GameEvent, GameResult
from .fighting import FightChooser
from .game import ANIMA_KINDS, play_game
from .greedy import GreedyGamePolicy, power
from .state import GameState, equip, unequip

register_policy("partyhard", "greedy", GreedyGamePolicy)

__all__ = ["ANIMA_KINDS", "FightChooser", "GameEvent", "GameResult", "GameState", "GreedyGamePolicy", "equip",
           "play_game", "power", "unequip"]
