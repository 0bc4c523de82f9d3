"""The Party Hard game loop: field turns, fights, loot, Anima, restoring, teleporting
and the end of the game (P-SETUP, P-FIELD, P-REINF, P-LOOT, P-ANIMA, P-FIGHT-END,
P-RETREAT, P-WIN).

:func:`play_game` takes a grid scenario (its ``[game]`` section: decks, lairs,
vaults, Anima), one :class:`~skirmish.game.policy.Policy` per player and a
``random.Random``; every choice is a :class:`~skirmish.game.policy.Decision` (kinds
in docs/partyhard.md); fights run through :func:`~skirmish.rules.partyhard.resolve_fight`
with each player's policy behind a :class:`~.fighting.FightChooser`. The same seed
gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...errors import RuleInputError
from ...maps.grid import CREATURES, Grid, Piece, Reinforce, Room
from ...rules.partyhard.decks import (BUY_ABILITY, BUY_ITEM, DISCARD_ABILITY, DISCARD_ITEM, RESTORE, TELEPORT,
                                      CreatureCard, GameSetup, creature_rewards)
from ...rules.partyhard.effects import Effects
from ...rules.partyhard.fight import resolve_fight
from ...rules.partyhard.fighter import MAX_ABILITIES, Fighter
from ...rules.partyhard.items import Ability, Item
from ...rules.partyhard.log import FightLog
from ...rules.partyhard.policy import GreedyPolicy
from ...rules.partyhard.state import SideSetup
from ..policy import Decision, Policy, ask, policy_rng
from .events import GameEvent, GameResult
from .fighting import FightChooser
from .state import GameState, equip, unequip

#: The kinds of the first Anima decision (then one decision for the details).
ANIMA_KINDS = ("done", "restore", "teleport", "buy", "discard", "give", "open")


def _key(room: Room) -> str:
    return f"{room[0]},{room[1]}"


class _Game:
    """The mutable bookkeeping of one :func:`play_game` call (never escapes it)."""

    def __init__(self, grid: Grid, setup: GameSetup, policies: Mapping[str, Policy], rng: random.Random):
        self.rng, self.policies, self.setup = rng, dict(policies), setup  # (rng: the dice and decks)
        self.policy_rng = policy_rng(rng)
        players = grid.players
        missing = [p for p in players if p not in self.policies]
        if missing:
            raise RuleInputError(f"no policy for player {missing[0]!r} (players: {', '.join(players)})")
        self.players = players
        self.grid = replace(grid, game=None)
        self.turn = 0
        self.anima = {p: setup.anima for p in players}
        self.fallen: dict[str, Fighter] = {}
        self.owner = {p.id: p.side for p in grid.pieces if p.kind == "character"}
        self.lairs = {lair.room: lair.creatures for lair in setup.lairs}
        self.vaults = {v.room: v for v in setup.vaults}
        self.creature_deck = self._shuffled(setup.creatures)
        self.item_deck = self._shuffled(setup.items)
        self.ability_deck = self._shuffled(setup.abilities)
        self.creature_discard: list[CreatureCard] = []
        self.item_discard: list[Item] = []
        self.ability_discard: list[Ability] = []
        #: creatures beaten per room, across fights, for P-LOOT once the room is cleared
        self.beaten: dict[Room, list[Fighter]] = {}
        self.cards: dict[str, CreatureCard] = {}
        self.skipped: set[str] = set()
        self.out: set[str] = set()
        self.restored = {c: 0 for c in self.owner}
        self.events: list[GameEvent] = []
        self.serial = 0

    def _shuffled(self, cards: tuple[Any, ...]) -> list[Any]:
        out = list(cards)
        self.rng.shuffle(out)
        return out

    # -- views --------------------------------------------------------------------------------
    def state(self) -> GameState:
        return GameState(self.grid, self.turn, self.players, self.anima, self.fallen, self.owner, self.lairs,
                         self.vaults, tuple(self.creature_deck), tuple(self.item_deck), tuple(self.ability_deck),
                         tuple(self.creature_discard), tuple(self.item_discard), tuple(self.ability_discard),
                         frozenset(self.skipped), frozenset(self.out))

    def emit(self, kind: str, player: str | None, rooms: bool = False, log: FightLog | None = None,
             **data: Any) -> None:
        st = None if not rooms else self.state()
        self.events.append(GameEvent(kind, self.turn, player, data, self.anima,
                                     None if st is None else st.room_counts(), log))

    def ask(self, player: str, kind: str, actor: str | None, options: tuple[Any, ...], **context: Any) -> Any:
        if len(options) == 1:
            return options[0]
        return ask(self.policies[player], self.state(), Decision(kind, actor, options, context=context or None),
                   self.policy_rng, who=actor or player)

    # -- pieces ---------------------------------------------------------------------------------
    def set_pieces(self, pieces: list[Piece]) -> None:
        self.grid = replace(self.grid, pieces=tuple(pieces))

    def place(self, fighter: Fighter, room: Room, pieces: list[Piece] | None = None) -> Piece:
        ps = self.grid.pieces if pieces is None else pieces
        n = 1 + max((p.place for p in ps if p.room == room and p.side == fighter.side), default=0)
        return Piece(fighter, room, n)

    def add(self, fighter: Fighter, room: Room) -> None:
        self.set_pieces([*self.grid.pieces, self.place(fighter, room)])

    def update(self, fighter: Fighter) -> None:
        self.set_pieces([replace(p, fighter=fighter) if p.id == fighter.id else p for p in self.grid.pieces])

    def relocate(self, cid: str, room: Room) -> None:
        others = [p for p in self.grid.pieces if p.id != cid]
        others.append(self.place(self.grid.fighter(cid), room, others))
        self.set_pieces(others)

    def draw_creature(self) -> CreatureCard | None:
        if not self.creature_deck and self.creature_discard:
            self.creature_deck = self._shuffled(tuple(self.creature_discard))
            self.creature_discard = []
        return self.creature_deck.pop(0) if self.creature_deck else None

    def lay_out(self, room: Room, player: str) -> None:
        """P-FIELD: the first character in a lair lays out its creatures from the deck."""
        count = self.lairs.pop(room, 0)
        ids = []
        taken = {p.id for p in self.grid.pieces} | set(self.fallen)
        for _ in range(count):
            card = self.draw_creature()
            if card is None:
                break
            self.serial += 1
            pid = f"{card.key}-{self.serial}"
            while pid in taken:
                self.serial += 1
                pid = f"{card.key}-{self.serial}"
            taken.add(pid)
            self.cards[pid] = card
            self.add(card.lay_out(pid), room)
            ids.append(pid)
        self.emit("lay-out", player, room=list(room), creatures=ids,
                  cards=[self.cards[i].key for i in ids])

    # -- the game ---------------------------------------------------------------------------------
    def start(self) -> None:
        """P-SETUP: lairs where characters start are laid out; a fight starts at once."""
        self.emit("start", None, rooms=True, players=list(self.players),
                  lairs={_key(r): n for r, n in self.lairs.items()},
                  vaults={_key(r): {"price": v.price, "items": v.items, "abilities": v.abilities}
                          for r, v in self.vaults.items()})
        for room in sorted({p.room for p in self.grid.pieces if p.kind == "character"}):
            if room in self.lairs:
                self.lay_out(room, self.grid.piece(self.grid.occupants(room)[0]).side)
        for player in self.players:
            for room in self.creature_fights(player):
                self.fight(room, player, CREATURES, "start")
        self.check_out()

    def creature_fights(self, player: str) -> list[Room]:
        return sorted({p.room for p in self.grid.pieces if p.side == player and self.grid.has_creatures(p.room)})

    def over(self) -> bool:
        return len([p for p in self.players if p not in self.out]) <= 1

    def check_out(self) -> None:
        st = self.state()
        for p in self.players:
            if p not in self.out and st.beaten(p):
                self.out.add(p)
                self.emit("out", p, reason="no character on the field and not the Anima to restore one (P-WIN)")

    def field_turn(self, player: str) -> None:
        self.skipped -= {c for c, o in self.owner.items() if o == player}
        self.anima_phase(player)
        attacks: dict[Room, str] = {}
        entered: list[Room] = []
        for cid in self.state().characters(player):
            if cid not in self.grid.model_ids:
                continue
            self.field_move(player, cid, attacks, entered)
        for room in sorted(set(self.creature_fights(player)), key=lambda r: (r not in entered, r)):
            if self.grid.characters(room, player):
                self.fight(room, player, CREATURES, "entered" if room in entered else "continues")
        for room, other in attacks.items():
            if self.grid.characters(room, player) and self.grid.characters(room, other):
                self.fight(room, player, other, "attack")
        self.check_out()
        self.emit("turn", player, rooms=True)

    def field_options(self, player: str, cid: str, attacks: Mapping[Room, str] | None = None
                      ) -> tuple[tuple[Any, ...], ...]:
        """P-FIELD: skip, a move to a neighbouring room, or an attack on another player in
        the room; once a character of the player attacks one there this turn (``attacks``),
        the others join that attack: a room holds one fight a turn."""
        room = self.grid.room_of(cid)
        opts: list[tuple[Any, ...]] = [("skip",)]
        leaving = self.grid.has_creatures(room)  # leaving a fight is a retreat: it starts no fight (P-RETREAT)
        for nb in self.grid.neighbours(room):
            if self.grid.check_move(cid, [nb]).legal and not (leaving and nb in self.lairs):
                opts.append(("move", nb))
        if not self.grid.has_creatures(room):
            for other in self.players:
                if other != player and other not in self.out and self.grid.characters(room, other) and \
                        (attacks or {}).get(room, other) == other:
                    opts.append(("attack", other))
        return tuple(opts)

    def field_move(self, player: str, cid: str, attacks: dict[Room, str], entered: list[Room]) -> None:
        """P-FIELD: one room, or a skip (Full Health out of a fight; may reinforce), or an attack."""
        room = self.grid.room_of(cid)
        pick = self.ask(player, "field", cid, self.field_options(player, cid, attacks), room=room)
        if pick[0] == "move":
            to = pick[1]
            self.grid = self.grid.moved(cid, to)
            self.emit("move", player, actor=cid, frm=list(room), to=list(to))
            if to in self.lairs:
                self.lay_out(to, player)
            if self.grid.has_creatures(to) and to not in entered:
                entered.append(to)
        elif pick[0] == "attack":
            attacks.setdefault(room, pick[1])
            self.emit("attack", player, actor=cid, room=list(room), defender=pick[1])
        else:
            f = self.grid.fighter(cid)
            healed = 0
            if not self.grid.has_creatures(room) and f.health < f.max_health:
                healed = f.max_health - f.health
                self.update(f.with_health(f.max_health))
            self.skipped.add(cid)
            self.emit("skip", player, actor=cid, room=list(room), healed=healed)

    # -- fights -----------------------------------------------------------------------------------
    def reinforcements(self, room: Room, player: str, sides: tuple[str, ...]) -> list[Reinforce]:
        """P-REINF: ``player``'s characters next door that skipped their field turn, if
        they want: its own side's (``True``/``False``), or — a third player — one of the
        fighting ``sides`` (``False`` or the side's name; all of them the same side)."""
        out = []
        chosen: str | None = None
        for cid in self.grid.reinforcements(room, player):
            if cid not in self.skipped or self.grid.has_creatures(self.grid.room_of(cid)):
                continue
            if player in sides:
                if self.ask(player, "reinforce", cid, (True, False), room=room):
                    out.append(Reinforce(cid))
                continue
            pick = self.ask(player, "reinforce", cid, (False, *((chosen,) if chosen else sides)), room=room)
            if pick:
                chosen = pick
                out.append(Reinforce(cid, side=pick))
        return out

    def fight(self, room: Room, attacker: str, defender: str, why: str) -> None:
        sides = (attacker,) if defender == CREATURES else (attacker, defender)
        joins = [j for p in self.players if p not in self.out for j in self.reinforcements(room, p, sides)]
        setup = self.grid.fight_setup(room, attacker=attacker, defender=defender, reinforcements=joins)
        # a retreat goes to a free room: never into a lair still face down (it would start a fight)
        setup = replace(setup, attackers=self._no_lairs(setup.attackers), defenders=self._no_lairs(setup.defenders))
        st = self.state()
        policies: dict[str, Any] = {s.name: FightChooser(self.policies[s.name], st, self.policies, self.policy_rng)
                                    if s.name != CREATURES else GreedyPolicy() for s in setup.sides}
        log = resolve_fight(setup, self.rng, policies)
        for j in joins:
            self.skipped.discard(j.id)
        earlier = len(self.beaten.get(room, ()))
        self.apply(room, log)
        rewards = log.rewards
        if log.winner not in (None, CREATURES) and rewards is not None and defender == CREATURES:
            # P-LOOT, interpretation 24: the room's whole group once it is cleared, earlier lost fights too;
            # the fight's log reports what is paid, so fight-end and rewards agree
            rewards = None if self.grid.has_creatures(room) else creature_rewards(self.beaten.pop(room, []))
            if rewards is not None and earlier:
                rewards = replace(rewards, reason=f"{rewards.reason}; {earlier} of them beaten in an earlier "
                                  "fight here")
            log = replace(log, rewards=rewards)
        self.emit("fight", attacker, log=log, why=why)
        if log.winner not in (None, CREATURES) and rewards is not None:
            self.loot(log.winner, room, rewards.items, rewards.abilities, rewards.reason)

    def _no_lairs(self, side: SideSetup) -> SideSetup:
        return replace(side, exits=tuple(e for e in side.exits if e.room not in self.lairs))

    def apply(self, room: Room, log: FightLog) -> None:
        """Put the fight's outcome on the field: defeated characters fall, defeated
        creatures go to the discard pile, retreating ones stand in their new room."""
        gone: set[str] = set()
        for fid in log.defeated:
            f = log.final[fid]
            gone.add(fid)
            if f.is_creature:
                self.beaten.setdefault(room, []).append(f)
                card = self.cards.pop(fid, None)
                if card is not None:
                    self.creature_discard.append(card)
            else:
                self.fallen[fid] = replace(f, effects=Effects())
        pieces = [p for p in self.grid.pieces if p.id not in gone and p.id not in log.final]
        for fid, f in log.final.items():
            if fid in gone:
                continue
            to = log.retreated.get(fid, room)
            pieces.append(self.place(f, to, pieces))
        self.set_pieces(pieces)

    # -- loot (P-LOOT) ----------------------------------------------------------------------------
    def draw(self, deck: list[Any], discard: list[Any]) -> Any | None:
        if not deck and discard:
            deck.extend(self._shuffled(tuple(discard)))
            discard.clear()
        return deck.pop(0) if deck else None

    def loot(self, player: str, room: Room, items: int, abilities: int, reason: str) -> None:
        cards: list[Item | Ability] = []
        for _ in range(items):
            it = self.draw(self.item_deck, self.item_discard)
            if it is not None:
                cards.append(it)
        for _ in range(abilities):
            ab = self.draw(self.ability_deck, self.ability_discard)
            if ab is not None:
                cards.append(ab)
        self.emit("rewards", player, room=list(room), items=items, abilities=abilities, reason=reason,
                  cards=[c.name for c in cards])
        for card in cards:
            opts: list[tuple[Any, ...]] = [("anima",)]
            for cid in self.grid.row(room, player):
                opts += self.attach_options(cid, card)
            pick = self.ask(player, "loot", player, tuple(opts), card=card, room=room)
            if pick[0] == "anima":
                self.discard_card(player, card)
                self.emit("loot", player, card=card.name, to=None, anima_gained=self.refund(card))
            else:
                self.attach(player, pick[1], card, pick[2])
                self.emit("loot", player, card=card.name, to=pick[1], replaced=pick[2])

    def attach_options(self, cid: str, card: Item | Ability) -> list[tuple[Any, ...]]:
        f = self.state().fighter(cid)
        if isinstance(card, Item):
            old = getattr(f, card.kind.value)
            return [("attach", cid, None if old is None else old.name)]
        if len(f.abilities) < MAX_ABILITIES:
            return [("attach", cid, None)]
        return [("attach", cid, a.name) for a in f.abilities]

    @staticmethod
    def refund(card: Item | Ability) -> int:
        return DISCARD_ITEM if isinstance(card, Item) else DISCARD_ABILITY

    def discard_card(self, player: str, card: Item | Ability) -> None:
        """P-ANIMA: the card goes to its shared discard pile and pays its refund."""
        (self.item_discard if isinstance(card, Item) else self.ability_discard).append(card)  # type: ignore[arg-type]
        self.anima[player] += self.refund(card)

    def set_fighter(self, cid: str, f: Fighter) -> None:
        if cid in self.fallen:
            self.fallen[cid] = f
        else:
            self.update(f)

    def attach(self, player: str, cid: str, card: Item | Ability, replaced: str | None) -> None:
        f = self.state().fighter(cid)
        old = getattr(f, card.kind.value) if isinstance(card, Item) else (
            next(a for a in f.abilities if a.name == replaced) if replaced else None)
        if old is not None:
            self.discard_card(player, old)
        self.set_fighter(cid, equip(f, card, replaced))

    # -- Anima (P-ANIMA) ---------------------------------------------------------------------------
    def anima_options(self, player: str) -> dict[str, tuple[tuple[Any, ...], ...]]:
        st = self.state()
        have = self.anima[player]
        mine = st.characters(player)
        fallen = st.fallen_of(player)
        out: dict[str, tuple[tuple[Any, ...], ...]] = {}
        if have >= RESTORE and fallen:
            rooms = st.free_rooms(player)
            out["restore"] = tuple((c, r) for c in fallen for r in rooms)
        if have >= TELEPORT and mine:
            out["teleport"] = tuple((c, r) for c in mine for r in st.free_rooms(player, exclude=self.grid.room_of(c)))
        buys: list[tuple[Any, ...]] = []
        if have >= BUY_ITEM:
            for name in dict.fromkeys(i.name for i in self.item_discard):
                it = next(i for i in self.item_discard if i.name == name)
                buys += [("item", name, c) for c in mine if getattr(self.grid.fighter(c), it.kind.value) is None]
        if have >= BUY_ABILITY:
            for name in dict.fromkeys(a.name for a in self.ability_discard):
                buys += [("ability", name, c) for c in mine if len(self.grid.fighter(c).abilities) < MAX_ABILITIES]
        if buys:
            out["buy"] = tuple(buys)
        discards = tuple((c, "item", i.name) for c in (*mine, *fallen) for i in st.fighter(c).items) + \
            tuple((c, "ability", a.name) for c in (*mine, *fallen) for a in st.fighter(c).abilities)
        if discards:
            out["discard"] = discards
        if have >= 1:  # Anima passes between players whose characters share a room
            shared = {self.grid.room_of(c) for c in mine}
            out["give"] = tuple((other, 1) for other in self.players if other != player and other not in self.out
                                and any(self.grid.characters(r, other) for r in shared))
        vaults = tuple(r for r, v in self.vaults.items() if v.price <= have and self.grid.characters(r, player))
        if vaults:
            out["open"] = tuple((r,) for r in vaults)
        return {k: v for k, v in out.items() if v}

    def anima_phase(self, player: str) -> None:
        while True:
            options = self.anima_options(player)
            kind = self.ask(player, "anima", player, ("done", *options), anima=self.anima[player], choices=options)
            if kind == "done":
                return
            pick = self.ask(player, kind, player, options[kind])
            if kind == "restore":
                cid, room = pick
                self.anima[player] -= RESTORE
                f = self.fallen.pop(cid).restored()
                self.add(f, room)
                self.restored[cid] += 1
                self.emit("restore", player, actor=cid, room=list(room), spent=RESTORE)
            elif kind == "teleport":
                cid, room = pick
                self.anima[player] -= TELEPORT
                frm = self.grid.room_of(cid)
                self.relocate(cid, room)
                self.emit("teleport", player, actor=cid, frm=list(frm), to=list(room), spent=TELEPORT)
            elif kind == "buy":
                what, name, cid = pick
                pile: list[Any] = self.item_discard if what == "item" else self.ability_discard
                card = next(c for c in pile if c.name == name)
                pile.remove(card)
                cost = BUY_ITEM if what == "item" else BUY_ABILITY
                self.anima[player] -= cost
                self.attach(player, cid, card, None)
                self.emit("buy", player, actor=cid, card=name, spent=cost)
            elif kind == "discard":
                cid, what, name = pick
                g, card = unequip(self.state().fighter(cid), what, name)
                self.set_fighter(cid, g)
                self.discard_card(player, card)
                self.emit("discard", player, actor=cid, card=name, gained=self.refund(card))
            elif kind == "give":
                other, amount = pick
                self.anima[player] -= amount
                self.anima[other] += amount
                self.emit("give", player, to=other, amount=amount)
            elif kind == "open":
                (room,) = pick
                v = self.vaults.pop(room)
                self.anima[player] -= v.price
                self.emit("open", player, room=list(room), spent=v.price)
                self.loot(player, room, v.items, v.abilities, f"the vault of {_key(room)}")


def play_game(grid: Grid, policies: Mapping[str, Policy], rng: random.Random, *, setup: GameSetup | None = None,
              turns: int | None = None, seed: int | None = None) -> GameResult:
    """Play one game to its end: one player left (P-WIN), or a draw after ``turns``
    (default: the scenario's, else 50). ``setup`` defaults to ``grid.game``."""
    if not isinstance(rng, random.Random):
        raise RuleInputError(f"pass a random.Random, got {type(rng).__name__}")
    game_setup = setup or grid.game or GameSetup()
    limit = turns if turns is not None else game_setup.turns
    if limit < 1:
        raise RuleInputError(f"the turn limit is 1 or more, got {limit}")
    if len(grid.players) < 2:
        raise RuleInputError(f"a game needs two players or more; the scenario has {', '.join(grid.players) or 'none'}")
    game = _Game(grid, game_setup, policies, rng)
    game.start()
    while not game.over() and game.turn < limit:
        game.turn += 1
        for player in game.players:
            if player in game.out:
                continue
            game.field_turn(player)
            if game.over():
                break
    left = [p for p in game.players if p not in game.out]
    winner = left[0] if len(left) == 1 else None
    game.emit("end", winner, winner=winner, reason="the last player standing (P-WIN)" if winner else
              (f"the turn limit ({limit}) is reached: a draw" if left else "nobody is left: a draw"))
    return GameResult(winner, game.turn, tuple(game.events), game.state(), game.restored, seed)
