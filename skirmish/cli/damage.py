"""``skirmish damage``: the Party Hard damage calculator (P-DMG, P-STREAK, P-EFFECT, P-HEAL, P-SHIELD)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import RuleInputError, SkirmishError
from ..maps.grid import Grid
from ..rules.partyhard.damage import Absorption, Breakdown, absorb, attack_breakdown, max_shield
from ..rules.partyhard.effects import NONRESISTANCE, POWERLESS, SHOCK, Effects
from ..rules.partyhard.elements import ELEMENTS, parse_element
from ..rules.partyhard.fighter import Fighter
from ..rules.partyhard.items import ATTACK, BUILTIN_ABILITIES, BUILTIN_ITEMS, Ability, Item, ItemKind, lookup
from ..rules.partyhard.stats import STAT_MAX, Stats
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._scenario import load_table

HAND_FLAGS = ("attack", "weapon", "weapon_element", "weapon_bonus", "armor", "armor_element", "defense", "health",
              "energy", "powerless", "nonresistance", "shock")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "damage", help=COMMANDS["damage"],
        description="Exact damage of one Party Hard attack (P-DMG): base (the ability's damage, or the Attack for a "
        "plain weapon hit, P-WEAPON) + weapon bonus + 1 if the weapon's element is the damage's + element relation "
        "(Matter vs Void +1, same -1, Ether 0) + streak (P-STREAK) - Defense, never below 0. With --heal, healing "
        "(P-HEAL). With the target's Health or Energy, also the energy shield (P-SHIELD). Give the fighters by hand, "
        "or take them from a grid scenario with --scenario FILE --attacker ID --target ID.",
        epilog="examples:\n"
        '  skirmish damage --ability "Void Arrow" --attack 1 --weapon "Void Shard" --armor "Matter Shield"  # the worked example: 3\n'
        '  skirmish damage --plain --attack 3 --weapon "Matter Shard" --armor "Void Shield" --streak 2\n'
        '  skirmish damage --ability Drain --health 4 --energy 3 --shield max --json\n'
        "  skirmish damage --scenario scenarios/party-hard-maze.toml --attacker knight --target shade\n"
        f"\nbuilt-in items: {', '.join(i.name for i in BUILTIN_ITEMS.values())}\n"
        f"built-in abilities: {', '.join(a.name for a in BUILTIN_ABILITIES.values())}\n"
        "\nThe rules and every interpretation: docs/partyhard.md",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    what = p.add_argument_group("the attack (one of)")
    what.add_argument("--ability", metavar="NAME", help="an ability by name or key (built-in, or the scenario's)")
    what.add_argument("--plain", action="store_true", help="a plain weapon hit: base = the attacker's Attack (P-WEAPON)")
    what.add_argument("--base", type=int, metavar="N", help="a custom ability: base damage N (with --element)")
    what.add_argument("--element", metavar="E", help=f"the custom ability's element: {', '.join(ELEMENTS)}")
    what.add_argument("--heal", action="store_true", help="with --base: healing, not damage (P-HEAL)")
    att = p.add_argument_group("the attacker, by hand")
    att.add_argument("--attack", type=int, metavar="N", help="its Attack: the base of --plain and of abilities with damage = \"attack\" (default 0)")
    att.add_argument("--weapon", metavar="NAME", help="its weapon, a built-in item (Void Shard, ...)")
    att.add_argument("--weapon-element", metavar="E", help="or a custom weapon's element")
    att.add_argument("--weapon-bonus", type=int, metavar="N", help="and its bonus (default 0)")
    att.add_argument("--powerless", action="store_true", help="the attacker is Powerless (P-EFFECT)")
    tgt = p.add_argument_group("the target, by hand")
    tgt.add_argument("--defense", type=int, metavar="N", help="its printed Defense (default 0; armour is added)")
    tgt.add_argument("--armor", metavar="NAME", help="its armour, a built-in item (Matter Shield, ...)")
    tgt.add_argument("--armor-element", metavar="E", help="or just its defence element")
    tgt.add_argument("--nonresistance", action="store_true", help="the target has Non-resistance (P-EFFECT)")
    tgt.add_argument("--health", type=int, metavar="N", help="its current Health: show what the hit leaves")
    tgt.add_argument("--energy", type=int, metavar="N", help="its current Energy (for the shield)")
    tgt.add_argument("--shock", action="store_true", help="the target is Shocked: no shield (P-EFFECT)")
    sc = p.add_argument_group("from a grid scenario")
    sc.add_argument("--scenario", metavar="FILE", help="a grid scenario (map = \"grid\")")
    sc.add_argument("--attacker", metavar="ID", help="the attacking character or creature")
    sc.add_argument("--target", metavar="ID", help="the target")
    how = p.add_argument_group("the hit")
    how.add_argument("--streak", type=int, default=1, metavar="N",
                     help="this is the N-th attack of its element in its side's turn (P-STREAK; default 1)")
    how.add_argument("--shield", default="0", metavar="N|max",
                     help="Energy the target puts in its shield (P-SHIELD; default 0)")
    how.add_argument("--burns", type=int, metavar="N", help="Energy the attack burns first (default: the ability's)")
    add_json_flag(p)
    p.set_defaults(func=run)


def _stat(name: str, v: int | None, default: int = 0) -> int:
    if v is None:
        return default
    if not 0 <= v <= STAT_MAX:
        raise RuleInputError(f"--{name}: a stat is 0..{STAT_MAX} (P-STAT), got {v}")
    return v


def _item(name: str | None, element: str | None, bonus: int | None, kind: ItemKind, flag: str) -> Item | None:
    if name is not None:
        if element is not None or bonus is not None:
            raise RuleInputError(f"--{flag}: give a built-in {kind.value} by name, or its element (and bonus), not both")
        it = lookup(BUILTIN_ITEMS, name, "item")
        if it.kind is not kind:
            raise RuleInputError(f"--{flag}: {it.name} is a {it.kind.value}, not a {kind.value}")
        return it
    if element is None:
        if bonus:
            raise RuleInputError(f"--{flag}-bonus needs --{flag}-element")
        return None
    return Item(f"custom {kind.value}", kind, parse_element(element), bonus or 0)


def _ability(args: argparse.Namespace, catalogue: dict[str, Ability]) -> Ability | None:
    given = [n for n, on in (("--ability", args.ability is not None), ("--plain", args.plain),
                             ("--base", args.base is not None)) if on]
    if len(given) != 1:
        raise RuleInputError("name the attack: exactly one of --ability NAME, --plain or --base N --element E"
                             + (f" (got {', '.join(given)})" if given else ""))
    if args.heal and args.base is None:
        raise RuleInputError("--heal goes with --base N --element E (a healing ability is named with --ability)")
    if args.element is not None and args.base is None:
        raise RuleInputError("--element goes with --base N")
    if args.ability is not None:
        return lookup(catalogue, args.ability, "ability")
    if args.plain:
        return None
    if args.element is None:
        raise RuleInputError("--base N needs --element E (damage and healing have an element)")
    el = parse_element(args.element)
    if args.heal:
        return Ability("custom healing", 0, el, heal=args.base, on="allies")
    return Ability("custom ability", 0, el, damage=args.base)


def _by_hand(args: argparse.Namespace) -> tuple[Fighter, Fighter]:
    weapon = _item(args.weapon, args.weapon_element, args.weapon_bonus, ItemKind.WEAPON, "weapon")
    armor = _item(args.armor, args.armor_element, None, ItemKind.ARMOR, "armor")
    attacker = Fighter.new("attacker", "a", Stats(_stat("attack", args.attack), 0, 1, 0),
                           items=(weapon,) if weapon else (), effects=(POWERLESS,) if args.powerless else ())
    target_effects = Effects.of([e for e, on in ((NONRESISTANCE, args.nonresistance), (SHOCK, args.shock)) if on])
    target = Fighter.new("target", "b", Stats(0, _stat("defense", args.defense), STAT_MAX, STAT_MAX),
                         items=(armor,) if armor else (), effects=target_effects)
    target = target.with_health(_stat("health", args.health, STAT_MAX)).with_energy(_stat("energy", args.energy))
    return attacker, target


def run(args: argparse.Namespace) -> int:
    if args.streak < 1:
        raise RuleInputError(f"--streak: the first attack of a run is 1, got {args.streak}")
    catalogue: dict[str, Ability] = dict(BUILTIN_ABILITIES)
    if args.scenario is not None:
        used = [f"--{n.replace('_', '-')}" for n in HAND_FLAGS if getattr(args, n) not in (None, False)]
        if used:
            raise SkirmishError(f"{', '.join(used)}: with --scenario the fighters come from the file; drop "
                                "--scenario to give them by hand")
        if not (args.attacker and args.target):
            raise SkirmishError("--scenario needs --attacker ID and --target ID")
        grid = load_table(args)
        if not isinstance(grid, Grid):
            raise SkirmishError(f"--scenario: {args.scenario} is a {grid.kind} map, not a Party Hard grid",
                                kind="map_kind")
        if args.attacker == args.target:
            raise SkirmishError(f"--attacker and --target are both {args.attacker!r}: a piece does not attack itself",
                                kind="same_model")
        attacker, target = grid.fighter(args.attacker), grid.fighter(args.target)
        catalogue = {a.name: a for a in attacker.abilities}
        if args.ability is None and not args.plain and args.base is None:
            args.plain = True
        show_shield = True
    else:
        if args.attacker or args.target:
            raise SkirmishError("--attacker and --target name pieces of a --scenario")
        attacker, target = _by_hand(args)
        show_shield = args.health is not None or args.energy is not None or args.shield != "0" or bool(args.burns)
    ability = _ability(args, catalogue)
    if ability is not None and ability.damage is None and ability.heal is None:
        raise RuleInputError(f"{ability.name} deals no damage and heals nothing: nothing to calculate")
    b = attack_breakdown(attacker, target, ability, streak=args.streak)
    burns = args.burns if args.burns is not None else (ability.burns if ability else 0)
    a = None
    if b.kind == "damage" and show_shield:
        top = max_shield(b.total, target.energy, burns=burns, shocked=target.effects.shocked)
        if args.shield == "max":
            shield = top
        else:
            try:
                shield = int(args.shield)
            except ValueError:
                raise RuleInputError(f"--shield: a whole number or max, got {args.shield!r}") from None
        a = absorb(b.total, health=target.health, energy=target.energy, shield=shield, burns=burns,
                   shocked=target.effects.shocked)
    if args.json:
        emit_json(result_json(b, a, attacker, target, ability))
        return 0
    lines = result_lines(b, a, attacker, target, ability)
    if a is not None and not args.scenario and args.health is None:  # (by hand: say where the Health came from)
        lines.append(f"  (the target's Health {target.health} is the default: give --health N for its own)")
    print("\n".join(lines))
    return 0


def result_json(b: Breakdown, a: Absorption | None, attacker: Fighter, target: Fighter,
                ability: Ability | None) -> dict[str, Any]:
    healed = min(b.total, target.max_health - target.health) if b.kind == "heal" else None
    return {"kind": b.kind, "amount": b.total, "breakdown": b.to_json(), "absorption": None if a is None else a.to_json(),
            "healed": healed, "ability": None if ability is None else ability.to_json(),
            "attacker": attacker.to_json(), "target": target.to_json()}


def result_lines(b: Breakdown, a: Absorption | None, attacker: Fighter, target: Fighter,
                 ability: Ability | None) -> list[str]:
    if ability is None:
        what = f"plain hit ({b.element}, base = Attack {b.base})"
    elif ability.damage == ATTACK:
        what = f"{ability.name} ({ability.element}, base = Attack {b.base})"
    elif ability.damage == 0:
        what = f"{ability.name} ({ability.element}, damage 0: no damage)"
    else:
        what = f"{ability.name} ({ability.element}, base {ability.damage if ability.damage is not None else ability.heal})"
    weapon = f"{attacker.weapon.name} ({attacker.weapon.element} {attacker.weapon.bonus:+d})" if attacker.weapon else "no weapon"
    guard = target.guard_element.value if target.guard_element else "no element"
    lines = [f"{what}; attacker: {weapon}{', Powerless' if attacker.effects.powerless else ''}; "
             f"target: Defense {target.defense} ({guard}){', Non-resistance' if target.effects.nonresistance else ''}",
             f"  {b.explain()}"]
    lines += [f"  ({n})" for n in b.notes]
    if b.kind == "heal":
        lines.append(f"healing: {b.total}")
        return lines
    lines.append(f"damage: {b.total}")
    if ability is not None and ability.damage == 0:
        does = [d for d, on in ((f"burns {ability.burns} Energy", ability.burns),
                                (f"puts {ability.effect}", ability.effect),
                                (f"restores {ability.restore} Energy", ability.restore)) if on]
        lines.append(f"  it only {' and '.join(does)}" if does else "  it does nothing to the target")
        if a is not None and a.burned:
            lines.append(f"  {a.burned} Energy burned (Energy {a.energy_before} -> {a.energy_after}); "
                         f"Health {a.health_after}")
        return lines
    if a is not None:
        parts = []
        if a.burned:
            parts.append(f"{a.burned} Energy burned first")
        if target.effects.shocked:
            parts.append("Shocked: no shield")
        elif a.shielded:
            parts.append(f"{a.shielded} on the shield (Energy {a.energy_before} -> {a.energy_after})")
        parts.append(f"{a.health_lost} to Health ({a.health_before} -> {a.health_after})")
        lines.append("  " + "; ".join(parts) + ("; defeated" if a.health_after == 0 else ""))
    return lines

