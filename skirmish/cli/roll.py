"""``skirmish roll --active K=V,... --reactive K=V,... --seed N``: one exchange, logged."""

from __future__ import annotations

import argparse
import random
from typing import Any

from ..rules.eldfall.dice import AttackDie, DamageDie, EngagementLog, ExchangeLog, SideLog, resolve_engagement
from ..rules.eldfall.wounds import WoundResult
from ._commands import COMMANDS
from ._games import seed_value
from ._output import add_json_flag, emit_json
from .odds import KIND_TITLES, SIDE_KEYS, add_side_args, read_sides


def register(sub: Any) -> None:
    p = sub.add_parser(
        "roll",
        help=COMMANDS["roll"],
        description="Resolve one Attack with seeded dice and log every die: face, target, success, "
        "Critical, which enemy dice cancel it, rerolls; the Hits, the damage dice, the Wounds and the "
        "states (Incapacitated, Dead). The same seed gives the same log.",
        epilog=SIDE_KEYS + "\nexamples:\n"
        "  skirmish roll --active ATT=13,STK=3,PW=10,ARM=1,HP=3 --reactive ATT=11,PW=9,ARM=2,HP=2 --seed 7\n"
        "  skirmish roll --active ATT=14,STK=2,PW=9 --reactive DODGE=8,HP=2 --seed 1 --json\n"
        "\nThe order of the dice drawn from the seed, the rules and every interpretation: docs/dice.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_side_args(p)
    p.add_argument("--seed", type=seed_value, metavar="N",
                   help="seed of the dice (an integer ≥ 0); without it a fresh seed is drawn and printed")
    add_json_flag(p)
    p.set_defaults(func=run)


# ----------------------------------------------------------------------- JSON


def _die_json(d: AttackDie) -> dict[str, Any]:
    return {"id": d.id, "face": d.face, "target": d.target, "success": d.success, "critical": d.critical,
            "cancelled_by": list(d.cancelled_by), "dodged": d.dodged, "hit": d.hit, "rerolled_from": d.rerolled_from}


def _damage_json(d: DamageDie) -> dict[str, Any]:
    return {"id": d.id, "hit": d.hit, "face": d.face, "target": d.target, "critical": d.critical,
            "wound": d.wound, "rerolled_from": d.rerolled_from}


def _result_json(r: WoundResult) -> dict[str, Any]:
    return {"wounds_taken": r.taken, "hp_before": r.hp_before, "hp_after": r.hp_after, "state": r.state.value}


def _side_json(s: SideLog, include_result: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "input": s.side.to_text(),
        "attribute": None if s.attribute is None else s.attribute.value,
        "fails_automatically": s.fails_automatically,
        "dice": [_die_json(d) for d in s.dice],
        "dodge": None if s.dodge is None else {
            "face": s.dodge.face, "target": s.dodge.attribute.value, "success": s.dodge.success,
            "rerolled_from": s.dodge.rerolled_from},
        "hits": s.hits,
        "critical_hits": s.critical_hits,
        "damage": None if s.damage is None else [_damage_json(d) for d in s.damage],
        "wounds_rolled": s.wounds_rolled,
        "wounds_dealt": s.wounds_dealt,
    }
    if include_result:
        out.update(_result_json(s.result))
    return out


def exchange_json(log: ExchangeLog, include_active_result: bool = True) -> dict[str, Any]:
    return {"kind": log.kind, "active": _side_json(log.active, include_active_result),
            "reactive": _side_json(log.reactive)}


def engagement_json(seed: int, log: EngagementLog) -> dict[str, Any]:
    if len(log.exchanges) == 1:
        return {"seed": seed, **exchange_json(log.exchanges[0])}
    return {"seed": seed, "exchanges": [exchange_json(x, False) for x in log.exchanges],
            "active": _result_json(log.active_result)}


# ----------------------------------------------------------------------- text


def _die_line(d: AttackDie) -> str:
    verdict = "CRITICAL" if d.critical else ("success" if d.success else "fail")
    if d.hit:
        outcome = "-> Hit"
    elif d.cancelled_by:
        outcome = "cancelled by " + ", ".join(d.cancelled_by)
    elif d.dodged:
        outcome = "ignored (Dodge)"
    else:
        outcome = ""
    reroll = f"  (rerolled, was {d.rerolled_from})" if d.rerolled_from is not None else ""
    return f"  {d.id:<4}{d.face:>3}  {verdict:<8}  {outcome}{reroll}".rstrip()


def _side_lines(name: str, s: SideLog) -> list[str]:
    if s.attribute is None:
        return []
    if s.fails_automatically:
        return [f"{name} attack: ATT {s.attribute.describe()}: fails automatically, no dice (E-MOD-ZERO)"]
    return [f"{name} attack dice (succeed on <= {s.attribute.value}"
            + (", a 20 is Critical" if s.attribute.critical_on_20 else "") + "):"] + [_die_line(d) for d in s.dice]


def _damage_lines(name: str, s: SideLog, target_arm: int) -> list[str]:
    if s.damage is None:
        return [f"{name} has no PW: no damage roll"] if s.hits else []
    if not s.damage:
        return []
    pw = s.side.pw
    assert pw is not None
    lines = [f"{name} damage dice (wound on <= PW {pw} - ARM {target_arm} = {pw - target_arm}; "
             f"a Critical Hit ignores ARM: <= {pw}):"]
    for d in s.damage:
        mark = "Wound" if d.wound else "no wound"
        reroll = f"  (rerolled, was {d.rerolled_from})" if d.rerolled_from is not None else ""
        lines.append(f"  {d.id:<5} for {d.hit:<4}{d.face:>3}  {'<=' if d.wound else '> '} {d.target:<3} {mark}{reroll}")
    return lines


def _result_line(name: str, r: WoundResult) -> str:
    capped = f" ({r.rolled} rolled, capped by HP)" if r.rolled > r.taken else ""
    hp = "" if r.hp_before is None else f", HP {r.hp_before} -> {r.hp_after}"
    return f"  {name + ':':<9} takes {r.taken} Wound{'' if r.taken == 1 else 's'}{capped}{hp}: {r.state.value}"


def exchange_lines(log: ExchangeLog, show_active_result: bool = True) -> list[str]:
    lines = [KIND_TITLES[log.kind]]
    lines += _side_lines("Active", log.active)
    lines += _side_lines("Reactive", log.reactive)
    dodge = log.reactive.dodge
    if dodge is not None:
        if dodge.face is None:
            lines.append(f"Dodge: AGI {dodge.attribute.describe()}: fails automatically (E-MOD-ZERO)")
        else:
            was = f" (rerolled, was {dodge.rerolled_from})" if dodge.rerolled_from is not None else ""
            lines.append(f"Dodge: {dodge.face} against AGI {dodge.attribute.value}: "
                         f"{'success, non-critical Hits ignored' if dodge.success else 'fail'}{was}")
    hits = f"Hits: active {log.active.hits}"
    if log.active.critical_hits:
        hits += f" ({log.active.critical_hits} Critical)"
    if log.kind == "confrontation":
        hits += f", reactive {log.reactive.hits}"
        if log.reactive.critical_hits:
            hits += f" ({log.reactive.critical_hits} Critical)"
    lines.append(hits)
    lines += _damage_lines("Active", log.active, log.reactive.side.arm)
    lines += _damage_lines("Reactive", log.reactive, log.active.side.arm)
    lines.append("Result (states at the end of the Activation Sequence):")
    lines.append(_result_line("reactive", log.reactive.result))
    if show_active_result:
        lines.append(_result_line("active", log.active.result))
    return lines


def run(args: argparse.Namespace) -> int:
    active, reactives = read_sides(args)
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    log = resolve_engagement(active, reactives, random.Random(seed))
    if args.json:
        emit_json(engagement_json(seed, log))
        return 0
    print(f"Seed {seed} (replay with --seed {seed})")
    if len(log.exchanges) == 1:
        print("\n".join(exchange_lines(log.exchanges[0])))
        return 0
    for i, x in enumerate(log.exchanges, 1):
        print(f"== Target {i} of {len(log.exchanges)}")
        print("\n".join(exchange_lines(x, show_active_result=False)))
    print("== The active model, after every target's Reaction")
    print(_result_line("active", log.active_result))
    return 0
