"""The ``[game]`` section of a grid scenario: decks, lairs, vaults, starting Anima and
the turn limit (P-SETUP, P-LOOT, P-ANIMA) in, a :class:`GameSetup` out.

Documented in ``docs/grid-format.md``. Every refusal is a :class:`ScenarioError`
naming the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..maps.grid import CREATURES, Piece, Room, RoomCard
from ..rules.partyhard.decks import TURN_LIMIT, CreatureCard, GameSetup, Lair, Vault
from ..rules.partyhard.effects import Effects
from ..rules.partyhard.items import Ability, Item
from . import fields as F
from .fields import Entry

def game_from_entry(top: Entry, rooms: list[RoomCard], pieces: list[Piece], items: Mapping[str, Item],
                    abilities: Mapping[str, Ability]) -> GameSetup | None:
    """Read ``[game]`` (``None`` when the scenario has none)."""
    from .grid import _array, _effect, _named, _room_at, _rule, _stats, _whole, read_creature

    if not top.has("game"):
        return None
    g = top.child("game")
    anima = g.take("anima", _whole(0), 0)
    turns = g.take("turns", _whole(1), TURN_LIMIT)
    item_deck = tuple(_named(g, "items", dict(items), "item"))   # repeat a key for copies
    ability_deck = tuple(_named(g, "abilities", dict(abilities), "ability"))
    cards: list[CreatureCard] = []
    for key, e in g.entries("creatures"):
        name = e.take("name", F.string, "")
        copies = e.take("copies", _whole(1), 1)
        stats = _stats(e)
        abil = _named(e, "abilities", dict(abilities), "ability")
        effects = Effects.of(e.take("effects", F.list_of(_effect, what="a list of effects"), []))
        cards += [CreatureCard(key, read_creature(e, key, name, stats, abil, effects))] * copies
    at = {r.at: r for r in rooms}
    placed = {p.room for p in pieces if p.side == CREATURES}

    def room_of(e: Entry) -> Room:
        room = e.take("room", _room_at)
        if room not in at:
            raise e.error("room", f"no room at [{room[0]}, {room[1]}] in the drawing")
        return room

    lairs: list[Lair] = []
    for i, raw in enumerate(_array(g, "lairs")):
        e = Entry(top.source, f"game.lairs[{i}]", raw)
        room = room_of(e)
        count = e.take("creatures", _whole(1))
        e.done()
        if any(lair.room == room for lair in lairs):
            raise e.error("room", f"room [{room[0]}, {room[1]}] is already a lair")
        if room in placed:
            raise e.error("room", f"room [{room[0]}, {room[1]}] already holds [[creatures]]; a lair's creatures come "
                                  "from the deck: drop one or the other")
        lairs.append(Lair(room, count))
    need = sum(lair.creatures for lair in lairs)
    if need > len(cards):
        raise g.error("creatures", f"the creature deck has {len(cards)} card{'s' * (len(cards) != 1)}, too few for "
                                   f"the lairs, which lay out {need} (" + ", ".join(
                                       f"[{lair.room[0]}, {lair.room[1]}]: {lair.creatures}" for lair in lairs)
                      + "); add cards or copies = N")
    vaults: dict[Room, Vault] = {}
    for i, raw in enumerate(_array(g, "vaults")):
        e = Entry(top.source, f"game.vaults[{i}]", raw)
        room = room_of(e)
        price = at[room].treasure
        if price is None:
            raise e.error("room", f"the vault in room [{room[0]}, {room[1]}] has no price: give its room a legend "
                                  "mark with treasure = N (the Anima it opens for)")
        n_items = e.take("items", _whole(0), 0)
        n_abilities = e.take("abilities", _whole(0), 0)
        e.done()
        if room in vaults:
            raise e.error("room", f"room [{room[0]}, {room[1]}] already has a vault entry")
        if n_items + n_abilities == 0:
            raise e.error("items", "a vault gives at least one card: items = N or abilities = N")
        vaults[room] = Vault(room, price, n_items, n_abilities)
    for r in rooms:  # a priced room without an entry: one item
        if r.treasure is not None and r.at not in vaults:
            vaults[r.at] = Vault(r.at, r.treasure)
    g.done()
    return _rule(g, lambda: GameSetup(tuple(cards), item_deck, ability_deck, tuple(lairs),
                                      tuple(sorted(vaults.values(), key=lambda v: v.room)), anima, turns))


def game_to_toml(game: GameSetup, items: Mapping[Item, str], abilities: Mapping[Ability, str]) -> list[str]:
    """``[game]`` as TOML lines (``items``/``abilities``: the catalogue key of each card)."""
    from .toml_text import toml_value
    from .grid import card_lines

    out = ["", "[game]", f"anima = {game.anima}", f"turns = {game.turns}"]
    if game.items:
        out.append(f"items = {toml_value([items[i] for i in game.items])}")
    if game.abilities:
        out.append(f"abilities = {toml_value([abilities[a] for a in game.abilities])}")
    if game.lairs:
        out.append("lairs = [" + ", ".join(f"{{ room = {toml_value(list(lair.room))}, creatures = {lair.creatures} }}"
                                           for lair in game.lairs) + "]")
    if game.vaults:
        out.append("vaults = [" + ", ".join(f"{{ room = {toml_value(list(v.room))}, items = {v.items}, "
                                            f"abilities = {v.abilities} }}" for v in game.vaults) + "]")
    copies: dict[str, int] = {}
    for c in game.creatures:
        copies[c.key] = copies.get(c.key, 0) + 1
    for key, n in copies.items():
        f = next(c.fighter for c in game.creatures if c.key == key)
        out += ["", f"[game.creatures.{toml_value(key)}]"]
        if f.name:
            out.append(f"name = {toml_value(f.name)}")
        out += [f"copies = {n}", *card_lines(f, dict(items), dict(abilities))]
    return out
