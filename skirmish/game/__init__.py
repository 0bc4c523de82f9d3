"""Games played on the maps: game state, rounds and turns, and the choices of players.

Every game (Eldfall on the table, Party Hard on the grid, Chaos Party duels, ...)
asks its players through one :class:`~skirmish.game.policy.Policy` protocol: the game
offers a :class:`~skirmish.game.policy.Decision` with its legal options, a policy
picks one, and the game checks the pick before applying it.
"""

from .policy import Decision, Policy, RandomPolicy, load_policy, parse_policy_specs, register_policy

__all__ = ["Decision", "Policy", "RandomPolicy", "load_policy", "parse_policy_specs", "register_policy"]
