"""Chaos Party games: the game loop, the greedy policy and many seeded games.

>>> import random
>>> from skirmish.scenario.chaos import load_duel
>>> from skirmish.game.policy import load_policy
>>> duel = load_duel("scenarios/chaosparty/first-duel.toml")
>>> record = play_game(duel, {p.id: load_policy("greedy", "chaosparty") for p in duel.players}, random.Random(1))
>>> record.winner in ("red", "blue", None)
True
"""

from . import greedy  # noqa: F401  (registers the greedy policy)
from .engine import GAME, Game, play_game
from .runs import GamesReport, play_games
from .state import AttackChoice, Event, GameRecord, GameState

__all__ = ["GAME", "AttackChoice", "Event", "Game", "GameRecord", "GameState", "GamesReport", "play_game",
           "play_games"]
