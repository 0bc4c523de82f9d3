"""Eldfall Chronicles as a whole game: state, rounds and turns, reactions, policies.

A scenario file as a game (its table, ``[game]`` settings and ``[[script]]``), played:

>>> import random
>>> from skirmish.game.policy import load_policy
>>> from skirmish.game.eldfall import load_game, play_game
>>> table, settings, script = load_game("scenarios/eldfall/tower-deploy.toml")
>>> settings.rounds  # the file's [game] rounds = 3
3
>>> record = play_game(table, settings, {"red": load_policy("random", "eldfall"),
...                    "blue": load_policy("random", "eldfall")}, random.Random(1), seed=1, script=script)
>>> sorted(record.summary), record.summary["rounds"] <= 3
(['rounds', 'seed', 'states', 'vp', 'winner'], True)

A table built otherwise takes ``parse_settings(table.catalogue.game, table)`` (the
``[game]`` it was loaded with; ``None``: the defaults).
"""

from . import policies as _policies  # noqa: F401  (registers random, greedy, script)
from .choices import Action, IllegalChoice, Move, Reaction
from .loop import EldfallGame, GameRecord, play_game
from .settings import BUILTIN_POWER, GameSettings, check_playable, load_game, parse_settings, with_builtin_power
from .state import GameState, Unit

__all__ = ["BUILTIN_POWER", "Action", "EldfallGame", "GameRecord", "GameSettings", "GameState", "IllegalChoice", "Move", "Reaction",
           "Unit", "check_playable", "load_game", "parse_settings", "play_game",
           "with_builtin_power"]
