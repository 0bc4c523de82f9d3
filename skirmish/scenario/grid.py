"""Grid scenarios (``map = "grid"``, Party Hard) in, a validated :class:`Grid` out.

The format is documented in ``docs/grid-format.md``. Every refusal is a
:class:`ScenarioError` naming the file, the entry and the field, as for the table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from ..errors import RuleInputError
from ..maps.grid import CREATURES, Grid, Piece, Room, RoomCard
from ..rules.partyhard.effects import CONDITIONS, EFFECT_SYNTAX, Effect, Effects, parse_effect
from ..rules.partyhard.elements import ELEMENTS, Element
from ..rules.partyhard.fighter import MAX_ABILITIES, Fighter
from ..rules.partyhard.items import ATTACK, BUILTIN_ABILITIES, BUILTIN_ITEMS, Ability, Item, ItemKind, default_target, key_of
from ..rules.partyhard.state import ROW_CAP
from ..rules.partyhard.stats import STAT_MAX, STAT_MIN, STATS, Stats
from . import fields as F
from .fields import Entry, show
from .decks import game_from_entry, game_to_toml
from .toml_text import catalogue_keys, toml_value

NO_ROOM = "#"
ROOM = "."
#: What an item may be immune to: the named conditions, and "lower" (any stat lowered).
IMMUNITIES = (*CONDITIONS, "lower")

T = TypeVar("T")


def grid_from_dict(data: dict[str, Any], source: str = "<dict>") -> Grid:
    """Validate a parsed ``map = "grid"`` scenario and build its :class:`Grid`."""
    top = Entry(source, "", data)
    top.take("format", F.integer)
    top.take("map", F.one_of("grid"))
    if top.has("mode"):
        raise top.error("mode", "measurement modes (E-MODE) belong to the table; a grid is always measured exactly")
    if top.has("table"):
        raise top.error("table", 'a grid scenario has [grid] rooms = [...], not [table] (or drop map = "grid")')
    name = top.take("name", F.string, "")
    if not top.has("grid"):
        raise top.error("grid", 'required section [grid] is missing (it needs rooms = ["...", ...])')
    rooms = _rooms(top.child("grid"))
    items = dict(BUILTIN_ITEMS)
    items.update(_catalogue(top, "items", _item))
    abilities = dict(BUILTIN_ABILITIES)
    abilities.update(_catalogue(top, "abilities", _ability))
    at = {r.at for r in rooms}
    pieces: list[Piece] = []
    places: dict[tuple[Room, str], dict[int, str]] = {}
    for kind in ("characters", "creatures"):
        for i, raw in enumerate(_array(top, kind)):
            e = Entry(source, f"{kind}[{i}]", raw)
            pieces.append(_piece(e, kind, at, items, abilities, places, pieces))
    game = game_from_entry(top, rooms, pieces, items, abilities)
    top.done()
    return Grid(tuple(rooms), tuple(pieces), name, source, game)


def _array(top: Entry, key: str) -> list[Any]:
    raw = top.take(key, lambda v: v, [])
    if not isinstance(raw, list):
        raise top.error(key, f"expected an array of tables ([[{key}]]), got {show(raw)}")
    return raw


def _whole(low: int | None = None, high: int | None = None) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        v = F.integer(value)
        if (low is not None and v < low) or (high is not None and v > high):
            span = f"{low}..{high}" if high is not None else f"{low} or more"
            raise ValueError(f"expected a whole number {span}, got {v}")
        return v
    return parse


def _element(value: Any) -> Element:
    if isinstance(value, str) and value.strip().lower() in ELEMENTS:
        return Element(value.strip().lower())
    raise ValueError(f"expected one of {', '.join(ELEMENTS)}, got {show(value)}")


def _damage(value: Any) -> int | str:
    if isinstance(value, str) and value.strip().lower() == ATTACK:
        return ATTACK
    if isinstance(value, str):
        raise ValueError(f'expected a whole number 0 or more, or "{ATTACK}" (the user\'s Attack), got {show(value)}')
    return _whole(0)(value)


def _effect(value: Any) -> Effect:
    try:
        return parse_effect(F.string(value))
    except RuleInputError:
        raise ValueError(f"expected an effect: {EFFECT_SYNTAX}; got {show(value)}") from None


def _room_at(value: Any) -> Room:
    c, r = F.list_of(_whole(0), n=2, what="[column, row] (two whole numbers, 0 or more)")(value)
    return (c, r)


# -- [grid] --------------------------------------------------------------------------------------

def _rooms(g: Entry) -> list[RoomCard]:
    drawing = g.take("rooms", F.list_of(F.string, min_n=1, what='a list of text rows, like ["..#", ".##"]'))
    legend: dict[str, dict[str, Any]] = {}
    if g.has("legend"):
        lg = g.child("legend")
        for key in lg.data:
            lg.used.add(key)
            if len(key) != 1 or key in (ROOM, NO_ROOM, " ") or key.isspace():
                raise lg.error(key, f"a legend key is one character other than '{ROOM}', '{NO_ROOM}' and a space")
            e = Entry(g.source, f"grid.legend.{key}", lg.data[key])
            legend[key] = {"name": e.take("name", F.string, ""), "treasure": e.take("treasure", _whole(0), None)}
            e.done()
    g.done()
    cards: list[RoomCard] = []
    used: set[str] = set()
    for r, line in enumerate(drawing):
        for c, ch in enumerate(line):
            if ch in (NO_ROOM, " "):
                continue
            if ch == ROOM:
                cards.append(RoomCard((c, r)))
            elif ch in legend:
                used.add(ch)
                cards.append(RoomCard((c, r), ch, legend[ch]["name"], legend[ch]["treasure"]))
            else:
                raise g.error("rooms", f"row {r} (\"{line}\"), column {c}: {show(ch)} is not a room mark; draw a room "
                                       f"with '{ROOM}', no room with '{NO_ROOM}' or a space, or declare "
                                       f"[grid.legend.{ch}] to name it")
    if not cards:
        raise g.error("rooms", f"no rooms drawn; draw each room with '{ROOM}'")
    unused = [k for k in legend if k not in used]
    if unused:
        raise g.error(f"legend.{unused[0]}", f"declared but not drawn in rooms; draw {show(unused[0])} where the room is")
    _check_connected(g, cards)
    return cards


def _check_connected(g: Entry, cards: list[RoomCard]) -> None:
    at = {c.at for c in cards}
    start = cards[0].at
    seen = {start}
    queue = deque([start])
    while queue:
        c, r = queue.popleft()
        for nb in ((c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)):
            if nb in at and nb not in seen:
                seen.add(nb)
                queue.append(nb)
    lost = next((c.at for c in cards if c.at not in seen), None)
    if lost is not None:
        raise g.error("rooms", f"room ({lost[0]}, {lost[1]}) cannot be reached from room ({start[0]}, {start[1]}): "
                               "the rooms must form one field (P-GRID: two rooms are adjacent when they share a side)")


# -- [items.KEY] and [abilities.KEY] ------------------------------------------------------------------

def _catalogue(top: Entry, key: str, read: Callable[[Entry, str], T]) -> dict[str, T]:
    if not top.has(key):
        return {}
    cat = top.child(key)
    out = {}
    for k in cat.data:
        cat.used.add(k)
        out[k] = read(Entry(top.source, f"{key}.{k}", cat.data[k]), k)
    return out


def _rule(e: Entry, make: Callable[[], T]) -> T:
    try:
        return make()
    except RuleInputError as exc:
        raise e.error(None, str(exc)) from None


def _stat_changes(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table like {{ attack = 1, energy = -1 }}, got {show(value)}")
    out = {}
    for k, v in value.items():
        if k not in STATS:
            raise ValueError(f"unknown stat {show(k)}; the stats are {', '.join(STATS)}")
        out[k] = _whole(-STAT_MAX, STAT_MAX)(v)
    return out


def _item(e: Entry, key: str) -> Item:
    name = e.take("name", F.ident, key)
    kind = ItemKind(e.take("kind", F.one_of(*(k.value for k in ItemKind))))
    element = e.take("element", _element, None)
    if element is None and kind is not ItemKind.ACCESSORY:
        raise e.error("element", f"required for a {kind.value}: one of {', '.join(ELEMENTS)}")
    if kind is ItemKind.ACCESSORY and e.has("bonus"):
        raise e.error("bonus", "an accessory has no bonus; give stats = { attack = 1, ... }")
    bonus = e.take("bonus", _whole(-STAT_MAX, STAT_MAX), 0)
    stats = e.take("stats", _stat_changes, {})
    if kind is not ItemKind.WEAPON and e.has("effect"):
        raise e.error("effect", "only weapons put effects on their targets")
    effect = e.take("effect", _effect, None)
    immune = e.take("immune", F.list_of(F.one_of(*IMMUNITIES), what=f"a list of {', '.join(IMMUNITIES)}"), [])
    no_regen = e.take("no_energy_regen", F.boolean, False)
    e.done()
    return _rule(e, lambda: Item(name, kind, element, bonus, stats, effect, frozenset(immune), no_regen))


def _ability(e: Entry, key: str) -> Ability:
    name = e.take("name", F.ident, key)
    cost = e.take("cost", _whole(0, STAT_MAX), 1)
    element = e.take("element", _element, None)
    dmg = e.take("damage", _damage, None)
    heal = e.take("heal", _whole(0), None)
    if dmg is not None and heal is not None:
        raise e.error("heal", "give damage or heal, not both")
    if (dmg is not None or heal is not None) and element is None:
        raise e.error("element", f"required with {'damage' if dmg is not None else 'heal'}: one of {', '.join(ELEMENTS)}")
    targets = e.take("targets", _whole(1, ROW_CAP), 1)
    effect = e.take("effect", _effect, None)
    burns = e.take("burns", _whole(0, STAT_MAX), 0)
    restore = e.take("restore", _whole(0, STAT_MAX), 0)
    if dmg is None and heal is None and element is not None and not restore and e.data.get("on", "enemies") == "enemies":
        dmg = ATTACK  # P-DMG: an attacking ability with no other formula deals its user's Attack
    on = e.take("on", F.one_of("enemies", "allies", "self"), default_target(dmg, heal, effect, restore))
    e.done()
    return _rule(e, lambda: Ability(name, cost, element, dmg, heal, targets, on, effect, burns, restore))  # type: ignore[arg-type]


# -- [[characters]] and [[creatures]] ------------------------------------------------------------------

def _stats(e: Entry) -> Stats:
    if not e.has("stats"):
        raise e.error("stats", "required field is missing (stats = { attack = 2, defense = 1, health = 4, energy = 3 })")
    s = e.child("stats")
    values = {k: s.take(k, _whole(STAT_MIN, STAT_MAX)) for k in STATS}
    s.done()
    return Stats(**values)


def _named(e: Entry, field: str, catalogue: dict[str, T], what: str) -> list[T]:
    keys = e.take(field, F.list_of(F.ident, what=f"a list of {what} names"), [])
    out = []
    for k in keys:
        if k not in catalogue:
            raise e.error(field, f"unknown {what} {show(k)}; declare it under [{field}.{k}] "
                                 f"(known: {', '.join(sorted(catalogue))})")
        out.append(catalogue[k])
    return out


def _piece(e: Entry, kind: str, rooms: set[Room], items: dict[str, Item], abilities: dict[str, Ability],
           places: dict[tuple[Room, str], dict[int, str]], before: list[Piece]) -> Piece:
    pid = e.take("id", F.ident)
    e.label = f'{e.label} (id "{pid}")'
    clash = next((p for p in before if p.id == pid), None)
    if clash is not None:
        raise e.error("id", f"duplicate id, already used by another {clash.kind}; ids must be unique among "
                            "characters and creatures")
    name = e.take("name", F.string, "")
    if kind == "characters":
        side = e.take("player", F.ident)
        if side == CREATURES:
            raise e.error("player", f'"{CREATURES}" is the creatures\' side; name the player otherwise')
    else:
        side = CREATURES
    room = e.take("room", _room_at)
    if room not in rooms:
        raise e.error("room", f"no room at [{room[0]}, {room[1]}] in the drawing (column {room[0]}, row {room[1]}, "
                              "counted from 0 at the top left)")
    taken = places.setdefault((room, side), {})
    if kind == "characters" and len(taken) >= ROW_CAP:
        raise e.error("room", f"room [{room[0]}, {room[1]}] already holds {ROW_CAP} characters of {side} "
                              f"({', '.join(taken.values())}); at most {ROW_CAP} of one player share a room (P-CAP)")
    top = ROW_CAP if kind == "characters" else None
    place = e.take("place", _whole(1, top), None)
    if place is None:
        place = next(n for n in range(1, len(taken) + 2) if n not in taken)
    elif place in taken:
        raise e.error("place", f"place {place} of {side}'s row in room [{room[0]}, {room[1]}] is taken by "
                               f"{taken[place]}")
    taken[place] = pid
    stats = _stats(e)
    effects = Effects.of(e.take("effects", F.list_of(_effect, what="a list of effects"), []))
    abil = _named(e, "abilities", abilities, "ability")
    if kind == "characters":
        its = _named(e, "items", items, "item")
        kinds = [i.kind for i in its]
        dup = next((k for k in kinds if kinds.count(k) > 1), None)
        if dup is not None:
            raise e.error("items", f"one item of each kind; two {dup.value}s given")
        if len(abil) > MAX_ABILITIES:
            raise e.error("abilities", f"a character has at most {MAX_ABILITIES} abilities, got {len(abil)}")
        e.done()
        fighter = _rule(e, lambda: Fighter.new(pid, side, stats, items=tuple(its), abilities=tuple(abil),
                                               effects=effects, name=name))
    else:
        fighter = read_creature(e, pid, name, stats, abil, effects)
    return Piece(fighter, room, place)


def read_creature(e: Entry, pid: str, name: str, stats: Stats, abilities: list[Ability], effects: Effects) -> Fighter:
    """The rest of a creature's entry (``[[creatures]]`` or a creature card): its
    built-in elements, targets, effect and ``unique``."""
    attack_element = e.take("attack_element", _element)
    defense_element = e.take("defense_element", _element, None)
    targets = e.take("targets", _whole(1, ROW_CAP), 1)
    effect = e.take("effect", _effect, None)
    unique = e.take("unique", F.boolean, False)
    e.done()
    return _rule(e, lambda: Fighter.new(pid, CREATURES, stats, kind="creature", abilities=tuple(abilities),
                                        effects=effects, attack_element=attack_element,
                                        defense_element=defense_element, targets=targets,
                                        attack_effect=effect, unique=unique, name=name))



# -- back to TOML -------------------------------------------------------------------------------------

def _keys(cards: list[T], builtin: dict[str, T]) -> dict[T, str]:
    """A catalogue key per card: the built-in key of an identical card, else one made from its name."""
    return catalogue_keys(cards, builtin, lambda c: key_of(c.name) or "card")  # type: ignore[attr-defined]


def grid_to_toml(grid: Grid) -> str:
    """The scenario text of ``grid``: ``grid_from_dict(tomllib.loads(grid_to_toml(g))) == g``
    for grids whose fighters are at full Health and Energy (a scenario starts so)."""
    out = ["format = 1", 'map = "grid"']
    if grid.name:
        out.append(f"name = {toml_value(grid.name)}")
    out += ["", "[grid]", "rooms = [", *[f"  {toml_value(line)}," for line in grid.drawing()], "]"]
    for room in grid.rooms:
        if room.key != ROOM:
            out += ["", f"[grid.legend.{toml_value(room.key)}]", f"name = {toml_value(room.name)}"]
            if room.treasure is not None:
                out.append(f"treasure = {room.treasure}")
    game = grid.game
    fighters = [p.fighter for p in grid.pieces] + ([c.fighter for c in game.creatures] if game else [])
    items = _keys([i for f in fighters for i in f.items] + list(game.items if game else ()), dict(BUILTIN_ITEMS))
    abilities = _keys([a for f in fighters for a in f.abilities] + list(game.abilities if game else ()),
                      dict(BUILTIN_ABILITIES))
    for it, key in items.items():
        if BUILTIN_ITEMS.get(key) == it:
            continue
        out += ["", f"[items.{key}]", f"name = {toml_value(it.name)}", f"kind = {toml_value(it.kind.value)}"]
        if it.element is not None:
            out.append(f"element = {toml_value(it.element.value)}")
        if it.kind is not ItemKind.ACCESSORY:
            out.append(f"bonus = {it.bonus}")
        if it.stats:
            out.append(f"stats = {toml_value(dict(it.stats))}")
        if it.effect is not None:
            out.append(f"effect = {toml_value(str(it.effect))}")
        if it.immune:
            out.append(f"immune = {toml_value(sorted(it.immune))}")
        if it.no_energy_regen:
            out.append("no_energy_regen = true")
    for ab, key in abilities.items():
        if BUILTIN_ABILITIES.get(key) == ab:
            continue
        out += ["", f"[abilities.{key}]", f"name = {toml_value(ab.name)}", f"cost = {ab.cost}"]
        for field in ("element", "damage", "heal", "effect"):
            v = getattr(ab, field)
            if v is not None:
                out.append(f"{field} = {toml_value(str(v)) if isinstance(v, (str, Enum)) or field == 'effect' else v}")
        out += [f"targets = {ab.targets}", f"on = {toml_value(ab.on)}"]
        out += [f"{k} = {getattr(ab, k)}" for k in ("burns", "restore") if getattr(ab, k)]
    for p in grid.pieces:
        f = p.fighter
        out += ["", "[[creatures]]" if f.is_creature else "[[characters]]", f"id = {toml_value(p.id)}"]
        if f.name:
            out.append(f"name = {toml_value(f.name)}")
        if not f.is_creature:
            out.append(f"player = {toml_value(p.side)}")
        out += [f"room = {toml_value(list(p.room))}", f"place = {p.place}", *card_lines(f, items, abilities)]
    if game is not None:
        out += game_to_toml(game, items, abilities)
    return "\n".join(out) + "\n"


def card_lines(f: Fighter, items: dict[Item, str], abilities: dict[Ability, str]) -> list[str]:
    """A fighter's printed card as TOML lines: stats, cards, effects, a creature's built-ins."""
    out = [f"stats = {toml_value(f.base.to_json())}"]
    if f.items:
        out.append(f"items = {toml_value([items[i] for i in f.items])}")
    if f.abilities:
        out.append(f"abilities = {toml_value([abilities[a] for a in f.abilities])}")
    if len(f.effects):
        out.append(f"effects = {toml_value(f.effects.to_json())}")
    if f.is_creature:
        out.append(f"attack_element = {toml_value(str(f.attack_element))}")
        if f.defense_element is not None:
            out.append(f"defense_element = {toml_value(str(f.defense_element))}")
        out.append(f"targets = {f.targets}")
        if f.attack_effect is not None:
            out.append(f"effect = {toml_value(str(f.attack_effect))}")
        if f.unique:
            out.append("unique = true")
    return out
