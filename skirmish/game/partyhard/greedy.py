"""``greedy``: a careful, short-sighted Party Hard player for every decision kind.

- **Fights** it picks from the fight simulator's odds: before entering a room with
  creatures (or a lair, whose creatures it samples from the cards not yet seen) or
  attacking a player, it plays the fight ``samples`` times with the fight-level
  :class:`~skirmish.rules.partyhard.GreedyPolicy` and goes only when its group wins
  at least ``threshold`` of them. Otherwise it heads for the nearest creature room
  (or, with none left, the nearest rival), resting to Full Health first.
- **Loot** that raises its damage or Health most (:func:`power`); else Anima.
- **Anima** restores its strongest defeated character first (discarding the weaker
  ones' cards to afford it), opens vaults it stands in, buys back a card that
  helps while keeping 3 Anima for a restore, and never gives Anima away.
- **Inside fights** it is the fight-level GreedyPolicy (retreating at Health 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...maps.grid import CREATURES, Room
from ...rules.partyhard.decks import BUY_ABILITY, BUY_ITEM, RESTORE
from ...rules.partyhard.fight import resolve_fight
from ...rules.partyhard.fighter import Fighter
from ...rules.partyhard.items import ATTACK, Ability, Item
from ...rules.partyhard.policy import GreedyPolicy
from ...rules.partyhard.state import ROW_CAP, FightSetup, SideSetup
from ..policy import Decision
from .state import GameState, equip


def _ability_worth(f: Fighter, a: Ability) -> float:
    if a.damage == ATTACK:
        base = float(f.attack)
    elif a.damaging:
        base = float(a.damage or 0)
    elif a.heal is not None:
        base = float(a.heal)
    else:
        base = 0.5
    return (base + f.weapon_bonus + 0.5) * (1 + 0.5 * (a.targets - 1)) - 0.25 * a.cost


def power(f: Fighter) -> float:
    """What greedy maximises with its cards: Health, Defense, the damage of its best
    attack (weapon hit or ability), a little Energy."""
    hit = f.attack + f.weapon_bonus + 1 if f.weapon is not None else 0.0
    best = max([hit, *(_ability_worth(f, a) for a in f.abilities)], default=0.0)
    return f.max_health + 1.5 * f.defense + 2.0 * best + 0.3 * f.max_energy + 0.3 * len(f.abilities)


@dataclass
class GreedyGamePolicy:
    """See the module docstring. ``samples`` fights per estimate, ``threshold`` the
    win share it needs to start a fight."""

    samples: int = 4
    threshold: float = 0.6
    retreat_below: int = 1
    _odds: dict[Any, float] = field(default_factory=dict, repr=False, compare=False)

    def choose(self, game: GameState, decision: Decision[Any], rng: random.Random) -> Any:
        kind = decision.kind
        if kind.startswith("fight-"):
            return self._fight(decision, rng)
        handler = getattr(self, "_" + kind.replace("-", "_"), None)
        pick = handler(game, decision, rng) if handler is not None else None
        return decision.options[0] if pick is None else pick

    # -- inside fights ------------------------------------------------------------------------------
    def _fight(self, d: Decision[Any], rng: random.Random) -> Any:
        ctx = d.context or {}
        st = ctx["fight"]
        g = GreedyPolicy(self.retreat_below)
        if d.kind == "fight-opening":
            return g.opening(st, str(d.actor), ctx["able"], rng)
        if d.kind == "fight-retreat":
            return g.retreats(st, str(d.actor), rng)
        if d.kind == "fight-action":
            return g.act(st, str(d.actor), rng)
        return g.shield(st, str(d.actor), ctx["damage"], ctx["burns"], rng)

    # -- odds -----------------------------------------------------------------------------------------
    def odds(self, game: GameState, mine: Sequence[Fighter], room: Room, enemy: str) -> float:
        """Share of ``samples`` simulated fights ``mine`` wins against ``enemy`` in ``room``
        (a face-down lair: creatures drawn from the cards not yet seen)."""
        mine = tuple(f for f in mine if f.alive)[:ROW_CAP]
        if not mine:
            return 0.0
        known = game.creatures_in(room) if enemy == CREATURES else tuple(
            game.grid.fighter(c) for c in game.grid.row(room, enemy))
        lair = game.lairs.get(room, 0) if enemy == CREATURES else 0
        key = (room, enemy, tuple(mine), known, lair, len(game.creature_deck) + len(game.creature_discard) if lair else 0)
        if key in self._odds:
            return self._odds[key]
        if len(self._odds) > 4096:
            self._odds.clear()
        wins = 0
        pool = list(game.creature_deck) + list(game.creature_discard)
        for i in range(self.samples):
            sim = random.Random(f"{key}:{i}")
            theirs = known[:ROW_CAP] if enemy != CREATURES else known
            if not theirs and lair and pool:
                cards = sim.sample(pool, min(len(pool), lair))
                theirs = tuple(c.lay_out(f"sim-{j}") for j, c in enumerate(cards))
            if not theirs:
                wins += 1
                continue
            setup = FightSetup(SideSetup(mine[0].side, mine), SideSetup(enemy, theirs), room, max_rounds=10)
            log = resolve_fight(setup, sim, GreedyPolicy(self.retreat_below))
            wins += log.winner == mine[0].side
        self._odds[key] = wins / self.samples
        return self._odds[key]

    # -- the field ------------------------------------------------------------------------------------
    def _field(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        cid = str(d.actor)
        grid = game.grid
        me = grid.fighter(cid)
        player, room = me.side, grid.room_of(cid)
        moves = [o for o in d.options if o[0] == "move"]
        here = [grid.fighter(c) for c in grid.row(room, player)]
        if grid.has_creatures(room):  # a fight that goes on: stay if it can be won, else leave
            if self.odds(game, here, room, CREATURES) >= 0.35 or not moves:
                return ("skip",)
            return moves[0]
        if any(f.health < f.max_health for f in here):
            return ("skip",)  # Full Health first, all together
        good: list[tuple[float, Any]] = []
        bad: set[Room] = set()
        for o in moves:
            nb = o[1]
            if game.has_creatures(nb):
                group = here + [grid.fighter(c) for c in grid.row(nb, player)]
                p = self.odds(game, group, nb, CREATURES)
                (good.append((p, o)) if p >= self.threshold else bad.add(nb))
        targets = [r.at for r in grid.rooms if game.has_creatures(r.at) and r.at not in bad and r.at != room]
        for o in d.options:  # with no creatures left to beat, a fair chance beats waiting for the turn limit
            if o[0] == "attack" and self.odds(game, here, room, o[1]) >= (self.threshold if targets else 0.25):
                return o
        if good:
            return max(good, key=lambda t: t[0])[1]
        if not targets:
            targets = [grid.room_of(c) for p in game.in_play() if p != player for c in game.characters(p)]
        step = self._step_towards(game, room, targets, {o[1] for o in moves}, bad)
        return ("move", step) if step is not None else ("skip",)

    @staticmethod
    def _step_towards(game: GameState, room: Room, targets: list[Room], legal: set[Room], bad: set[Room]) -> Room | None:
        grid = game.grid
        for t in sorted(set(targets), key=lambda t: (grid.steps(room, t), t)):
            path = grid.path(room, t)
            if len(path) > 1 and path[1] in legal and path[1] not in bad and \
                    (path[1] == t or not game.has_creatures(path[1])):
                return path[1]
        return None

    def _reinforce(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        """Its own side's fight at half Health or more; never another player's."""
        if True not in d.options:
            return False
        f = game.grid.fighter(str(d.actor))
        return 2 * f.health >= f.max_health

    # -- loot -----------------------------------------------------------------------------------------
    def _loot(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        card: Item | Ability = (d.context or {})["card"]
        best, pick = 0.0, ("anima",)
        for o in d.options:
            if o[0] != "attach":
                continue
            f = game.fighter(o[1])
            gain = power(equip(f, card, o[2])) - power(f)
            if gain > best + 1e-9:
                best, pick = gain, o
        return pick

    # -- Anima ----------------------------------------------------------------------------------------
    def _strongest_fallen(self, game: GameState, player: str) -> str | None:
        fallen = game.fallen_of(player)
        return max(fallen, key=lambda c: (power(game.fallen[c]), c)) if fallen else None

    def _anima(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        player = str(d.actor)
        opts = set(d.options)
        if "restore" in opts:
            return "restore"
        if "open" in opts:
            return "open"
        buys = (d.context or {}).get("choices", {}).get("buy", ())
        if buys and not game.fallen_of(player) and self._buy(game, Decision("buy", player, buys), rng) is not None:
            return "buy"
        if game.fallen_of(player) and game.anima[player] < RESTORE and "discard" in opts and \
                game.worth(player) >= RESTORE:
            return "discard"
        return "done"

    def _buy(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        """The purchase that raises :func:`power` most (by 1 or more), keeping 3 Anima for a restore."""
        player = str(d.actor)
        best, pick = 1.0, None
        for o in d.options:
            what, name, cid = o
            cost = BUY_ITEM if what == "item" else BUY_ABILITY
            if game.anima[player] - cost < RESTORE:
                continue
            pile: tuple[Item | Ability, ...] = game.item_discard if what == "item" else game.ability_discard
            card = next(c for c in pile if c.name == name)
            f = game.fighter(cid)
            gain = power(equip(f, card)) - power(f)
            if gain >= best:
                best, pick = gain, o
        return pick

    def _restore(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        player = str(d.actor)
        best = self._strongest_fallen(game, player)
        mine = [o for o in d.options if o[0] == best]
        return max(mine, key=lambda o: (game.grid.characters(o[1], player), tuple(-x for x in o[1])))

    def _discard(self, game: GameState, d: Decision[Any], rng: random.Random) -> Any:
        player = str(d.actor)
        keep = self._strongest_fallen(game, player)
        # cards of fallen characters other than the strongest first, abilities (2 Anima) before items
        fallen = [o for o in d.options if o[0] in game.fallen]
        pool = [o for o in fallen if o[0] != keep] or fallen or list(d.options)
        return min(pool, key=lambda o: (o[1] != "ability", o))
