"""``skirmish attack FILE A B``: can A attack B as the table stands, and with what odds."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..maps.table_attack import Attack, attack
from ..rules.eldfall.reactions import REACTION_KINDS
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table, require_table
from .odds import dist_lines, states_line


def register(sub: Any) -> None:
    p = sub.add_parser(
        "attack", help=COMMANDS["attack"],
        description="One answer from the table as placed (E-ACTION-ATTACK): line of sight with its proof "
        "(E-LOS), the weapon and reach band with its Accuracy (E-REACH), cover (E-COVER), the Reaction the "
        "target can make (E-REACTION) and the exact odds of Hits, Wounds and both models' end States "
        "(E-CONF, E-DODGE, E-WOUND). A refusal says why: no LoS, out of arc, out of reach, no Power.",
        epilog="examples:\n"
        "  skirmish attack scenarios/mill-ambush.toml yumi brute\n"
        "  skirmish attack scenarios/mill-ambush.toml raider-1 yumi --weapon 'short bow' --reaction dodge\n"
        "  skirmish attack scenarios/mill-ambush.toml raider-1 yumi --modifier -2 --json\n"
        "\nJSON schema and interpretations: docs/cli.md, docs/rules.md",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_scenario_args(p, mode=False)
    p.add_argument("a", help="the attacking (Active) model")
    p.add_argument("b", help="the target (Reactive) model")
    p.add_argument("--weapon", help="the attacker's weapon (default: the first usable one that reaches)")
    p.add_argument("--reaction", choices=REACTION_KINDS,
                   help="the target's Reaction (default: attack back if it can, else Dodge if it can, else none)")
    p.add_argument("--reaction-weapon", metavar="W", help="the weapon the target attacks back with")
    p.add_argument("--modifier", type=int, action="append", default=[], metavar="N",
                   help="a further fixed modifier of the attacker's roll, e.g. -2; may repeat (E-MOD-SUM)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = require_table(load_table(args), "attack")
    for m in args.modifier:
        if not -20 <= m <= 20:
            raise UsageError(f"--modifier {m}: a modifier is between -20 and +20 (a d20 roll)", kind="range")
    result = attack(table, args.a, args.b, weapon=args.weapon, reaction=args.reaction,
                    reaction_weapon=args.reaction_weapon, modifiers=args.modifier)
    if args.json:
        emit_json(result.to_json())
    else:
        print("\n".join(attack_lines(result)))
    return 0


def attack_lines(r: Attack) -> list[str]:
    """The human answer: the evidence, then the odds."""
    ex, o = r.exchange, r.odds
    w = r.weapon
    att = ex.active.attribute
    assert att is not None
    lines = [f"{r.frm} attacks {r.to} with {w.name}"]
    los = r.los
    if los.witness is not None:
        (x0, y0, z0), (x1, y1, z1) = los.witness
        lines.append(f"  line of sight: yes, witness ({x0:.2f}, {y0:.2f}, z {z0:.2f}) -> "
                     f"({x1:.2f}, {y1:.2f}, z {z1:.2f})")
    else:
        lines.append("  line of sight: yes")
    limit = w.bands[r.band - 1].max_range
    lines.append(f"  reach: {r.reach.distance:.2f} in, band {r.band} of {len(w.bands)} (up to {limit:g} in), "
                 f"Accuracy {r.accuracy:+d}")
    if r.cover is None:
        lines.append("  cover: none (melee: E-COVER is for ranged attacks)")
    else:
        lines.append(f"  cover: {r.cover.level} ({r.cover.modifier:+d}): {r.cover.why}")
    extra = f", your modifiers {' '.join(f'{m:+d}' for m in r.modifiers)}" if r.modifiers else ""
    lines.append(f"  roll: {w.attribute} {att.describe()}{extra}; {ex.active_dice} "
                 f"{'die' if ex.active_dice == 1 else 'dice'}, PW {ex.active.pw} against ARM {ex.reactive.arm}")
    rc = r.reaction
    if rc.kind == "attack":
        assert rc.weapon is not None and rc.reach is not None and ex.reactive.attribute is not None
        cover = "" if rc.cover is None else f", {r.frm}'s cover {rc.cover.level} ({rc.cover.modifier:+d})"
        lines.append(f"  reaction: {r.to} attacks back with {rc.weapon.name} (band {rc.reach.band}, Accuracy "
                     f"{rc.reach.accuracy or 0:+d}{cover}): {rc.weapon.attribute} {ex.reactive.attribute.describe()}, "
                     f"1 die (E-STK-REACT), PW {ex.reactive.pw} against ARM {ex.active.arm}")
    elif rc.kind == "dodge":
        assert ex.reactive.dodge_attribute is not None
        lines.append(f"  reaction: {r.to} Dodges with AGI {ex.reactive.dodge_attribute.describe()}"
                     + (" (no LoS to the attacker: halved, E-DODGE)" if rc.dodge_halved else ""))
    else:
        lines.append(f"  reaction: none, {r.to} only takes the Hits")
    for kind, why in rc.options.why_not:
        lines.append(f"    {r.to} cannot {'attack back' if kind == 'attack' else 'Dodge'}: {why}")
    lines.append(f"  odds for `skirmish odds`: --active {ex.active.to_text()} "
                 f"--reactive {ex.reactive.to_text() or 'ARM=0'}")
    lines.append("")
    lines += dist_lines(f"Hits on {r.to}", o.active.hits)
    if o.active.wounds is not None:
        lines += dist_lines(f"Wounds on {r.to}", o.active.wounds)
    if rc.kind == "attack":
        lines += dist_lines(f"Hits on {r.frm} (back)", o.reactive.hits)
        lines += dist_lines(f"Wounds on {r.frm} (back)", r.wounds_back)
    lines.append("States after the exchange")
    lines.append(states_line(r.to, o.reactive.state))
    if rc.kind == "attack":
        lines.append(states_line(r.frm, o.active.state))
    return lines
