"""Eldfall Chronicles as a whole game: state, rounds and turns, reactions, policies.

>>> import random
>>> from skirmish.scenario.load import load
>>> from skirmish.game.policy import load_policy
>>> from skirmish.game.eldfall import play_game, parse_settings
>>> table = load("scenarios/mill-ambush.toml")
>>> record = play_game(table, parse_settings(None, table), {"red": load_policy("random", "eldfall"),
...                    "blue": load_policy("random", "eldfall")}, random.Random(1), seed=1)
>>> sorted(record.summary)
['rounds', 'seed', 'states', 'vp', 'winner']
"""

from . import policies as _policies  # noqa: F401  (registers random, greedy, script)
from .choices import Action, IllegalChoice, Move, Reaction
from .loop import EldfallGame, GameRecord, play_game
from .settings import BUILTIN_POWER, GameSettings, check_playable, parse_settings, with_builtin_power
from .state import GameState, Unit

__all__ = ["BUILTIN_POWER", "Action", "EldfallGame", "GameRecord", "GameSettings", "GameState", "IllegalChoice", "Move", "Reaction",
           "Unit", "check_playable", "parse_settings", "play_game",
           "with_builtin_power"]
