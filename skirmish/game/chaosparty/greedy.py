"""The ``greedy`` Chaos Party policy: every choice from the exact odds of one attack.

It values tokens one for one: a boost is worth its Time token only if it adds more
than one token of expected damage (dealt, or kept off). In detail:

- ``attack``: the option with the highest E[min(damage, target's tokens)] minus the
  Time boosts it spends (first such option on a tie);
- ``defence`` (seeing the attack die): the fewest expected tokens lost — damage taken
  plus boosts spent, less the expected counter damage dealt — never boosts whose Time
  takes apart the player's last character;
- ``overload`` / ``absorb``: bought when the chance of the d20 times the extra damage
  (or the damage blocked) is above the one token it costs;
- ``flow``: the move that most raises a position score (every token held, each
  character's best expected attack times its Time up to 3 attacks, half the best
  attack per Time token in the store, less the same threat from the enemies; a
  discard is scored by the mean over the colour drawn from the bag; no character
  left — or one character of one Time token, which the compulsory attack after the
  Flow spends — is the worst score and no enemy left the best, C-BUILD); it stops
  when no move helps, never takes apart its last character, and never swaps between
  characters;
- ``bid``: raises by one while the bid stays below the expected damage of its best
  attack; ``pay``: the character with the most Time returns it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...rules.chaosparty.attack import Attack, d20_above
from ...rules.chaosparty.flow import FlowMove, apply_move
from ...rules.chaosparty.odds import attack_odds
from ...rules.chaosparty.tokens import COLOURS, Character, Player, Variants, colour_of
from ...rules.chaosparty.turn import has_advantage
from ..policy import Decision, register_policy
from .engine import GAME
from .state import AttackChoice, GameState

#: attacks ahead the Flow score counts a character's Time for
HORIZON = 3
#: the Flow score of a lost game (no character left) and of a won one (no enemy left), C-BUILD
LOST, WON = float("-inf"), float("inf")


@lru_cache(maxsize=None)
def _expected(attack_potential: int, defence_potential: int, advantage: bool, unlimited: bool) -> float:
    """E[damage] of a plain attack (no boosts)."""
    try:
        return float(attack_odds(Attack(attack_potential, defence_potential, advantage=advantage,
                                        unlimited=unlimited)).expected_damage)
    except ValueError:  # a potential beyond the cap (an odd loaded state): no threat counted
        return 0.0


@dataclass(frozen=True)
class GreedyPolicy:
    """Greedy choices from the exact odds (see the module docstring)."""

    name: str = "greedy"

    def choose(self, game: GameState, decision: Decision[Any], rng: random.Random) -> Any:
        handler: Callable[[GameState, Decision[Any]], Any] = getattr(self, "_" + decision.kind)
        return handler(game, decision)

    # -- helpers

    @staticmethod
    def _threat(game: GameState, a: Character, t: Character) -> float:
        v = game.duel.variants
        adv = v.superiority and has_advantage(a, t)
        return _expected(a.attack, t.defence, adv, v.unlimited)

    @staticmethod
    def _score(me: Player, enemies: list[Character], variants: Variants) -> float:
        """The Flow's position score of ``me`` against the enemy characters still standing."""
        sup, unl = variants.superiority, variants.unlimited

        def threat(a: Character, t: Character) -> float:
            return _expected(a.attack, t.defence, sup and has_advantage(a, t), unl)

        mine = [c for c in me.characters if not c.lost]
        if not mine or _spent_by_attack(mine):  # no character left after this turn: a loss (C-BUILD)
            return LOST
        if not enemies:
            return WON
        score = float(sum(c.total for c in mine) + me.store.total)
        best = 0.0
        for c in mine:
            off = max(threat(c, e) for e in enemies)
            best = max(best, off)
            score += min(c.time, HORIZON) * off
        score += min(me.store.time, HORIZON) * best / 2
        for e in enemies:
            if e.time:
                score -= min(e.time, HORIZON) * max(threat(e, c) for c in mine)
        return score

    def _after(self, game: GameState, me: Player, move: FlowMove, enemies: list[Character]) -> float:
        """The score after ``move``; a discard's is the mean over the colour drawn."""
        v = game.duel.variants
        if move.kind != "discard":
            after, _ = apply_move(me, game.bag, move, None, v)
            return self._score(after, enemies, v)
        gone = move.give if move.character is None else colour_of(move.give)  # type: ignore[arg-type]
        bag = game.bag.plus(gone)  # type: ignore[arg-type]
        total = 0.0
        for colour in COLOURS:
            n = bag.count(colour)
            if n:
                after, _ = apply_move(me, game.bag, move, None, v, drawn=colour)
                total += n * self._score(after, enemies, v)
        return total / bag.total

    # -- decisions

    def _bid(self, game: GameState, d: Decision[Any]) -> Any:
        me = game.player(d.actor or "")
        enemies = [c for p in game.players if p.id != me.id for c in p.alive]
        best = max((self._threat(game, c, e) for c in me.alive if c.time for e in enemies), default=0.0)
        for bid in d.options:
            if bid is not None and bid < best:
                return bid
        return None

    def _pay(self, game: GameState, d: Decision[Any]) -> Any:
        me = game.owner(d.options[0])
        return max(d.options, key=lambda cid: me.character(cid).time)

    def _flow(self, game: GameState, d: Decision[Any]) -> Any:
        me = game.player(d.actor or "")
        enemies = [c for p in game.enemies(me.id) for c in p.alive]
        best, best_score = None, self._score(me, enemies, game.duel.variants)
        for m in d.options:
            if not isinstance(m, FlowMove) or m.kind == "swap":
                continue
            s = self._after(game, me, m, enemies)
            if s > best_score + 1e-9:
                best, best_score = m, s
        return best

    def _attack(self, game: GameState, d: Decision[Any]) -> Any:
        def value(o: AttackChoice) -> Fraction:
            a, t = game.owner(o.attacker).character(o.attacker), game.owner(o.target).character(o.target)
            v = game.duel.variants
            odds = attack_odds(Attack(a.attack, t.defence, o.boosts, frozenset(), t.attack,
                                      advantage=v.superiority and has_advantage(a, t), unlimited=v.unlimited))
            return odds.expected_damage_capped(t.total) - len(o.boosts)
        return max(d.options, key=value)

    def _defence(self, game: GameState, d: Decision[Any]) -> Any:
        ctx = d.context or {}
        plan: Attack = ctx["attack"]
        me = game.owner(d.actor or "").character(d.actor or "")
        attacker = game.owner(ctx["attacker"]).character(ctx["attacker"])

        owner = game.owner(me.id)

        def cost(boosts: frozenset[str]) -> tuple[bool, Fraction]:
            setup = replace(plan, defence_boosts=boosts)
            odds = attack_odds(setup, ctx["attack_face"])
            return (_ends_side(owner, me, setup.defender_time),
                    odds.expected_damage_capped(me.total) - odds.expected_counter_capped(attacker.total)
                    + len(boosts))
        return min(d.options, key=cost)

    def _overload(self, game: GameState, d: Decision[Any]) -> bool:
        ctx = d.context or {}
        plan: Attack = ctx["attack"]
        target = game.owner(ctx["target"]).character(ctx["target"])
        gain = min(2 * ctx["damage"], target.total) - min(ctx["damage"], target.total)
        return bool(d20_above(plan.overload_threshold(ctx["defence_face"])) * gain > 1)

    def _absorb(self, game: GameState, d: Decision[Any]) -> bool:
        ctx = d.context or {}
        plan: Attack = ctx["attack"]
        block = min(plan.defence_class or ctx["defence_face"], ctx["damage"])
        value = plan.attack_value(ctx["attack_face"])
        return bool(d20_above(plan.absorb_threshold(value)) * block > 1)


def _ends_side(owner: Player, c: Character, time: int) -> bool:
    """Whether paying ``time`` of ``c``'s tokens takes apart ``owner``'s last character."""
    return time > 0 and time >= c.total and len(owner.alive) == 1


def _spent_by_attack(mine: list[Character]) -> bool:
    """One character of one Time token left: the compulsory attack (C-ATTACK, 1 Time)
    takes it apart."""
    return len(mine) == 1 and mine[0].time == mine[0].total == 1


register_policy(GAME, "greedy", GreedyPolicy)
