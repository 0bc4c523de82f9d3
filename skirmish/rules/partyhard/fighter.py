"""A character or creature as the combat rules see it: printed stats, items,
abilities, the current Health and Energy, and its effects."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from ...errors import RuleInputError
from .effects import Effect, Effects, Slot
from .elements import Element
from .items import Ability, Item, ItemKind
from .stats import Stats, clamp_stat

Kind = Literal["character", "creature"]
#: At most two abilities per character (the rules text).
MAX_ABILITIES = 2


@dataclass(frozen=True)
class Fighter:
    """One combatant. Build it with :meth:`Fighter.new`; every change gives a new value.

    Characters take their attack element from the ability (or weapon) they use and
    their defence element from their armour; creatures have both built in
    (``attack_element``, ``defense_element``), attack ``targets`` consecutive places
    for their Attack without Energy, and may put ``attack_effect`` on every target.
    """

    id: str
    side: str
    kind: Kind
    base: Stats
    health: int
    energy: int
    weapon: Item | None = None
    armor: Item | None = None
    accessory: Item | None = None
    abilities: tuple[Ability, ...] = ()
    effects: Effects = Effects()
    attack_element: Element | None = None
    defense_element: Element | None = None
    targets: int = 1
    attack_effect: Effect | None = None
    unique: bool = False
    name: str = ""

    @classmethod
    def new(cls, id: str, side: str, base: Stats, *, kind: Kind = "character", items: tuple[Item, ...] = (),
            abilities: tuple[Ability, ...] = (), effects: Effects | tuple = (), attack_element: Element | None = None,
            defense_element: Element | None = None, targets: int = 1, attack_effect: Effect | None = None,
            unique: bool = False, name: str = "") -> Fighter:
        """A fighter at full Health and Energy (the maxima its items allow)."""
        slots: dict[ItemKind, Item] = {}
        for it in items:
            if it.kind in slots:
                raise RuleInputError(f"{id}: one item of each kind; {slots[it.kind].name!r} and {it.name!r} are both "
                                     f"{it.kind.value}s")
            slots[it.kind] = it
        if kind == "character" and len(abilities) > MAX_ABILITIES:
            raise RuleInputError(f"{id}: a character has at most {MAX_ABILITIES} abilities, got {len(abilities)}")
        if kind == "character" and (attack_element or defense_element or attack_effect or unique or targets != 1):
            raise RuleInputError(f"{id}: built-in elements, targets, attack effects and unique are for creatures")
        if kind == "creature" and slots:
            raise RuleInputError(f"{id}: creatures carry no items")
        if kind == "creature" and attack_element is None:
            raise RuleInputError(f"{id}: a creature's attack has an element (matter, ether or void)")
        if not 1 <= targets <= 4:
            raise RuleInputError(f"{id}: targets is 1..4, got {targets}")
        eff = effects if isinstance(effects, Effects) else Effects.of(effects)
        f = cls(id, side, kind, base, 0, 0, slots.get(ItemKind.WEAPON), slots.get(ItemKind.ARMOR),
                slots.get(ItemKind.ACCESSORY), tuple(abilities), eff, attack_element, defense_element, targets,
                attack_effect, unique, name)
        return replace(f, health=f.max_health, energy=f.max_energy)

    def __repr__(self) -> str:
        eff = f", effects {self.effects.to_json()}" if len(self.effects) else ""
        return (f"Fighter({self.id!r}, {self.side}, ATK {self.attack} DEF {self.defense} "
                f"HP {self.health}/{self.max_health} EN {self.energy}/{self.max_energy}{eff})")

    # -- P-STAT: effective stats -----------------------------------------------------------
    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(i for i in (self.weapon, self.armor, self.accessory) if i is not None)

    def item_bonus(self, stat: str) -> int:
        return sum(i.stat_bonus(stat) for i in self.items)

    @cached_property
    def attack(self) -> int:
        """Attack with items and effects, clamped to 0..6."""
        return clamp_stat(self.base.attack + self.item_bonus("attack") + self.effects.modifier(Slot.ATTACK))

    @cached_property
    def defense(self) -> int:
        """Defense with armour, items and effects, clamped to 0..6."""
        return clamp_stat(self.base.defense + self.item_bonus("defense") + self.effects.modifier(Slot.DEFENSE))

    @cached_property
    def max_health(self) -> int:
        return clamp_stat(self.base.health + self.item_bonus("health"))

    @cached_property
    def max_energy(self) -> int:
        return clamp_stat(self.base.energy + self.item_bonus("energy"))

    @property
    def guard_element(self) -> Element | None:
        """The defence element: built in (creatures) or the armour's."""
        if self.defense_element is not None:
            return self.defense_element
        return None if self.armor is None else self.armor.element

    @property
    def weapon_bonus(self) -> int:
        return 0 if self.weapon is None else self.weapon.bonus

    @property
    def weapon_element(self) -> Element | None:
        return None if self.weapon is None else self.weapon.element

    @cached_property
    def immune(self) -> frozenset[str]:
        return frozenset().union(*(i.immune for i in self.items))

    @cached_property
    def regenerates(self) -> bool:
        """False when an item takes away every way of regaining Energy."""
        return not any(i.no_energy_regen for i in self.items)

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def is_creature(self) -> bool:
        return self.kind == "creature"

    def ability(self, name: str) -> Ability:
        from .items import key_of
        for a in self.abilities:
            if key_of(a.name) == key_of(name):
                return a
        have = ", ".join(a.name for a in self.abilities) or "none"
        raise RuleInputError(f"{self.id} has no ability {name!r} (it has: {have})")

    def cost_of(self, ability: Ability) -> int:
        """Energy the ability costs this fighter (creatures pay nothing)."""
        return 0 if self.is_creature else ability.cost

    # -- changes ------------------------------------------------------------------------------
    def with_health(self, health: int) -> Fighter:
        return replace(self, health=max(0, min(self.max_health, health)))

    def with_energy(self, energy: int) -> Fighter:
        return replace(self, energy=max(0, min(self.max_energy, energy)))

    def with_effects(self, effects: Effects) -> Fighter:
        return replace(self, effects=effects)

    def restored(self) -> Fighter:
        """Full Health and Energy (creatures that won a fight)."""
        return replace(self, health=self.max_health, energy=self.max_energy)

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "side": self.side, "kind": self.kind, "name": self.name or self.id,
                "attack": self.attack, "defense": self.defense, "health": self.health, "max_health": self.max_health,
                "energy": self.energy, "max_energy": self.max_energy, "base": self.base.to_json(),
                "attack_element": None if self.attack_element is None else self.attack_element.value,
                "defense_element": None if self.guard_element is None else self.guard_element.value,
                "weapon": None if self.weapon is None else self.weapon.name,
                "armor": None if self.armor is None else self.armor.name,
                "accessory": None if self.accessory is None else self.accessory.name,
                "abilities": [a.name for a in self.abilities], "effects": self.effects.to_json(),
                "targets": self.targets if self.is_creature else None,
                "attack_effect": None if self.attack_effect is None else str(self.attack_effect),
                "unique": self.unique}
