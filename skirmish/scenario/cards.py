"""Field readers shared by the Party Hard grid reader (:mod:`.grid`) and its deck reader
(:mod:`.decks`): whole numbers, elements, effects, rooms, stats, named cards, a creature's
body, and a fighter's printed card as TOML lines. Errors name the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import RuleInputError
from ..maps.grid import CREATURES, Room
from ..rules.partyhard.effects import EFFECT_SYNTAX, Effect, Effects, parse_effect
from ..rules.partyhard.elements import ELEMENTS, Element
from ..rules.partyhard.fighter import Fighter
from ..rules.partyhard.items import Ability, Item
from ..rules.partyhard.state import ROW_CAP
from ..rules.partyhard.stats import STAT_MAX, STAT_MIN, STATS, Stats
from . import fields as F
from .fields import Entry, show
from .toml_text import toml_value

T = TypeVar("T")


def table_array(top: Entry, key: str) -> list[Any]:
    """``top[key]`` as a list (an array of tables ``[[key]]``), empty when absent."""
    raw = top.take(key, lambda v: v, [])
    if not isinstance(raw, list):
        raise top.error(key, f"expected an array of tables ([[{key}]]), got {show(raw)}")
    return raw


def whole(low: int | None = None, high: int | None = None) -> Callable[[Any], int]:
    """A field parser: a whole number in ``low..high`` (either end open when ``None``)."""
    def parse(value: Any) -> int:
        v = F.integer(value)
        if (low is not None and v < low) or (high is not None and v > high):
            span = f"{low}..{high}" if high is not None else f"{low} or more"
            raise ValueError(f"expected a whole number {span}, got {v}")
        return v
    return parse


def element_value(value: Any) -> Element:
    """A field parser: one of the elements."""
    if isinstance(value, str) and value.strip().lower() in ELEMENTS:
        return Element(value.strip().lower())
    raise ValueError(f"expected one of {', '.join(ELEMENTS)}, got {show(value)}")


def effect_value(value: Any) -> Effect:
    """A field parser: an effect such as ``"burn 2"``."""
    try:
        return parse_effect(F.string(value))
    except RuleInputError:
        raise ValueError(f"expected an effect: {EFFECT_SYNTAX}; got {show(value)}") from None


def room_at(value: Any) -> Room:
    """A field parser: a room's ``[column, row]``."""
    c, r = F.list_of(whole(0), n=2, what="[column, row] (two whole numbers, 0 or more)")(value)
    return (c, r)


def by_rule(e: Entry, make: Callable[[], T]) -> T:
    """``make()``, with a rule's refusal (:class:`RuleInputError`) reported against entry ``e``."""
    try:
        return make()
    except RuleInputError as exc:
        raise e.error(None, str(exc)) from None


def read_stats(e: Entry) -> Stats:
    """The entry's required ``stats = { attack, defense, health, energy }``."""
    if not e.has("stats"):
        raise e.error("stats", "required field is missing (stats = { attack = 2, defense = 1, health = 4, energy = 3 })")
    s = e.child("stats")
    values = {k: s.take(k, whole(STAT_MIN, STAT_MAX)) for k in STATS}
    s.done()
    return Stats(**values)


def named_cards(e: Entry, field: str, catalogue: dict[str, T], what: str) -> list[T]:
    """The cards a list of catalogue keys in ``field`` names (a repeated key: a copy)."""
    keys = e.take(field, F.list_of(F.ident, what=f"a list of {what} names"), [])
    out = []
    for k in keys:
        if k not in catalogue:
            raise e.error(field, f"unknown {what} {show(k)}; declare it under [{field}.{k}] "
                                 f"(known: {', '.join(sorted(catalogue))})")
        out.append(catalogue[k])
    return out


def read_creature(e: Entry, pid: str, name: str, stats: Stats, abilities: list[Ability], effects: Effects) -> Fighter:
    """The rest of a creature's entry (``[[creatures]]`` or a creature card): its
    built-in elements, targets, effect and ``unique``."""
    attack_element = e.take("attack_element", element_value)
    defense_element = e.take("defense_element", element_value, None)
    targets = e.take("targets", whole(1, ROW_CAP), 1)
    effect = e.take("effect", effect_value, None)
    unique = e.take("unique", F.boolean, False)
    e.done()
    return by_rule(e, lambda: Fighter.new(pid, CREATURES, stats, kind="creature", abilities=tuple(abilities),
                                           effects=effects, attack_element=attack_element,
                                           defense_element=defense_element, targets=targets,
                                           attack_effect=effect, unique=unique, name=name))


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
