"""Hand-driven policies for the Eldfall game tests."""

from __future__ import annotations

from typing import Any


class Driven:
    """Activates the models in ``order`` (one Activation each, then stops), answers
    ``move`` with ``moves[model]`` and ``action`` with ``actions[model]`` (a function of
    the options, or an option), every other decision with its first option."""

    def __init__(self, order=(), moves=None, actions=None, reactions=None, dodge_moves=None):
        self.order = list(order)
        self.moves = dict(moves or {})
        self.actions = dict(actions or {})
        self.reactions = dict(reactions or {})
        self.dodge_moves = dict(dodge_moves or {})
        self.seen: list[Any] = []

    def choose(self, game, decision, rng):
        self.seen.append(decision)
        k, actor = decision.kind, decision.actor
        if k == "activate":
            while self.order:
                nxt = self.order.pop(0)
                if nxt in decision.options:
                    return nxt
            return None
        table = {"move": self.moves, "action": self.actions, "reaction": self.reactions,
                 "dodge-move": self.dodge_moves}.get(k, {})
        if actor in table:
            got = table[actor]
            return got(decision.options) if callable(got) else got
        return decision.options[0]
