"""``skirmish odds --active K=V,... --reactive K=V,...``: the exact odds of an exchange."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from ..errors import RuleInputError
from ..rules.eldfall.exchange import Side, parse_side
from ..rules.eldfall.odds import (
    Distribution,
    EngagementOdds,
    ExchangeOdds,
    JointDistribution,
    engagement_odds,
)
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json

SIDE_KEYS = """\
side keys (KEY=VALUE, comma-separated, case-insensitive):
  ATT=n     base attribute of the Attack (MEL, ACC, ...), 0..99; a target without ATT
            does not attack back (an unopposed attack, or a Dodge)
  MOD=n     a fixed modifier of the roll; may repeat, all are summed (E-MOD-SUM)
  HALVE=1   halve the roll's attribute, DOUBLE=1 double it (after MOD, rounding up)
  STK=n     Strike: dice rolled, 1..30 (default 1; a Reactive model's is 1 unless an
            ability states otherwise, E-STK-REACT)
  PW=n      Power of the attack (no PW: Hits only, no damage roll)
  ARM=n     Armor of this model (default 0)
  HP=n      current HP of this model (no HP: Wounds are not capped)
  INC=1     this model is already Incapacitated (a Wound kills it)
  DODGE=n   (target only) Dodge with this Agility instead of attacking back
  LOS=0     (with DODGE) no LoS to the attacker: Agility halved (E-DODGE)
  REROLL=k  reroll up to k of this side's attack (or Dodge) dice once, chosen to
            maximise its expected Hits (E-ROLL-REROLL; the Reactive side chooses
            first, looking ahead; the Active side then knows every final die)
  REROLL=all  reroll every failed attack (or Dodge) die once (the older rule)
  REROLL_DMG=1  reroll this side's failed damage dice once
  SPLIT=a/b (Active, several --reactive) dice for each target (E-STK-SPLIT)
"""


def add_side_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--active", required=True, metavar="K=V,...",
                   help="the attacking model, e.g. ATT=13,STK=3,PW=10,ARM=1,HP=3")
    p.add_argument("--reactive", action="append", metavar="K=V,...",
                   help="the target, e.g. ATT=11,PW=9,ARM=2,HP=2 (attacks back), ARM=2,HP=3 (only takes "
                   "the Hits) or DODGE=7,HP=2; repeat for several targets with SPLIT (default: a target "
                   "with ARM 0 and unknown HP)")


def read_sides(args: argparse.Namespace) -> tuple[Side, list[Side]]:
    """The Active side and the targets from ``--active`` / ``--reactive``."""
    active = parse_side(args.active, option="--active")
    if not active.attacks:
        raise RuleInputError(f"--active: {args.active!r} has no ATT; the attacking model needs one, e.g. ATT=13,STK=2")
    texts = args.reactive or []
    reactives = [parse_side(t, option="--reactive" if len(texts) == 1 else f"--reactive #{i + 1}")
                 for i, t in enumerate(texts)] or [Side()]
    return active, reactives


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds",
        help=COMMANDS["odds"],
        description="Exact odds of one Attack (E-ROLL-ATK, E-CONF, E-CRIT, E-DODGE, E-ROLL-DMG, E-WOUND): "
        "the distribution of Hits and of Wounds dealt by each side, their joint outcome, expected values "
        "and the states the models end in. Every probability is exact (a fraction in --json).",
        epilog=SIDE_KEYS + "\nexamples:\n"
        "  skirmish odds --active ATT=13,STK=3,PW=10,ARM=1,HP=3 --reactive ATT=11,PW=9,ARM=2,HP=2\n"
        "  skirmish odds --active ATT=13,MOD=-3,STK=2,PW=10 --reactive ARM=2,HP=3 --json\n"
        "  skirmish odds --active ATT=12,STK=3,PW=10,SPLIT=2/1 --reactive ATT=10,PW=8 --reactive DODGE=6\n"
        "\nThe rules and every interpretation: docs/dice.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_side_args(p)
    add_json_flag(p)
    p.set_defaults(func=run)


# ----------------------------------------------------------------------- JSON


def frac(p: Fraction) -> str:
    """An exact probability as ``"num/den"`` (or ``"0"``, ``"1"``)."""
    return str(p)


def dist_json(d: Distribution | None) -> dict[str, str] | None:
    return None if d is None else {str(k): frac(p) for k, p in d.items()}


def joint_json(j: JointDistribution | None) -> list[dict[str, Any]] | None:
    if j is None:
        return None
    return [{"active": a, "reactive": b, "p": frac(p)} for (a, b), p in j.items()]


def _side_json(side: Side, dice: int, odds: Any, state: Any, include_state: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "input": side.to_text(),
        "attribute": None if side.attribute is None else side.attribute.value,
        "dodge": None if side.dodge_attribute is None else side.dodge_attribute.value,
        "dice": dice,
        "hits": dist_json(odds.hits),
        "critical_hits": dist_json(odds.critical_hits),
        "wounds": dist_json(odds.wounds),
        "expected_hits": frac(odds.expected_hits),
        "expected_wounds": None if odds.wounds is None else frac(odds.wounds.mean),
    }
    if include_state:
        out["state"] = None if state is None else {s.value: frac(p) for s, p in state.items()}
    return out


def exchange_json(o: ExchangeOdds, include_active_state: bool = True) -> dict[str, Any]:
    ex = o.exchange
    return {
        "kind": o.kind,
        "active": _side_json(ex.active, ex.active_dice, o.active, o.active.state, include_active_state),
        "reactive": _side_json(ex.reactive, ex.reactive_dice, o.reactive, o.reactive.state, True),
        "joint": {"hits": joint_json(o.joint_hits), "wounds": joint_json(o.joint_wounds)},
    }


def engagement_json(e: EngagementOdds) -> dict[str, Any]:
    if len(e.exchanges) == 1:
        return exchange_json(e.exchanges[0])
    return {
        "exchanges": [exchange_json(x, include_active_state=False) for x in e.exchanges],
        "active": {
            "wounds_taken": dist_json(e.active_wounds_taken),
            "state": None if e.active_state is None else {s.value: frac(p) for s, p in e.active_state.items()},
        },
    }


# ---------------------------------------------------------------------- table

BAR = 40


def pct(p: Fraction) -> str:
    """A probability in percent, at least 7 characters wide."""
    if p == 0:
        return "     0%"
    if p < Fraction(1, 10**4):
        return " <0.01%"
    return f"{float(p) * 100:6.2f}%"


def dist_lines(title: str, d: Distribution) -> list[str]:
    lines = [f"{title} (expected {float(d.mean):.3f})"]
    for k, p in d.items():
        lines.append(f"  {k:>3}  {pct(p)}  {'#' * round(float(p) * BAR)}")
    return lines


def _describe(side: Side, dice: int, target: Side) -> str:
    parts: list[str] = []
    if side.attribute is not None:
        a = side.attribute
        parts.append(f"ATT {a.describe()}" + (" (fails automatically, E-MOD-ZERO)" if a.fails_automatically else ""))
        parts.append(f"{dice} {'die' if dice == 1 else 'dice'}")
        parts.append(f"PW {side.pw} against ARM {target.arm}" if side.pw is not None else "no PW (Hits only)")
    elif side.dodge_attribute is not None:
        parts.append(f"Dodges with AGI {side.dodge_attribute.describe()}" + ("" if side.los else " (no LoS)"))
    else:
        parts.append("does not attack back")
    if side.reroll:
        parts.append("rerolls failed dice")
    if side.reroll_dice:
        parts.append(f"rerolls up to {side.reroll_dice} chosen {'die' if side.reroll_dice == 1 else 'dice'}")
    if side.reroll_damage:
        parts.append("rerolls failed damage dice")
    hp = "Incapacitated" if side.incapacitated else ("HP unknown" if side.hp is None else f"HP {side.hp}")
    return ", ".join(parts) + f" | own ARM {side.arm}, {hp}"


KIND_TITLES = {
    "confrontation": "Confrontation (E-CONF): the target attacks back",
    "dodge": "Attack against a Dodge (E-DODGE)",
    "unopposed": "Unopposed attack: the target only takes the Hits",
}


def states_line(name: str, state: Any) -> str:
    if state is None:
        return f"  {name + ':':<9} unknown (the other side has no PW)"
    return f"  {name + ':':<9} " + ", ".join(f"{s.value} {pct(p).strip()}" for s, p in state.items())


def exchange_lines(o: ExchangeOdds, show_active_state: bool = True) -> list[str]:
    ex = o.exchange
    lines = [KIND_TITLES[o.kind],
             f"  active:   {_describe(ex.active, ex.active_dice, ex.reactive)}",
             f"  reactive: {_describe(ex.reactive, ex.reactive_dice, ex.active)}", ""]
    lines += dist_lines("Active Hits", o.active.hits)
    if o.active.wounds is not None:
        lines += dist_lines("Wounds dealt by the active model", o.active.wounds)
    if o.kind == "confrontation":
        lines += dist_lines("Reactive Hits", o.reactive.hits)
        if o.reactive.wounds is not None:
            lines += dist_lines("Wounds dealt by the reactive model", o.reactive.wounds)
        j = o.joint_wounds or o.joint_hits
        what = "Wounds" if o.joint_wounds is not None else "Hits"
        lines.append(f"Joint outcome: {what} dealt (rows: by the active model, columns: by the reactive model)")
        cols = range(max(b for (_, b), _ in j.items()) + 1)
        rows = range(max(a for (a, _), _ in j.items()) + 1)
        lines.append("       " + "".join(f"{b:>9}" for b in cols))
        for a in rows:
            lines.append(f"  {a:>3}  " + "".join(f"  {pct(j.p(a, b))}" for b in cols))
    lines.append("States after the exchange")
    if show_active_state:
        lines.append(states_line("active", o.active.state))
    lines.append(states_line("reactive", o.reactive.state))
    return lines


def run(args: argparse.Namespace) -> int:
    active, reactives = read_sides(args)
    result = engagement_odds(active, reactives)
    if args.json:
        emit_json(engagement_json(result))
        return 0
    if len(result.exchanges) == 1:
        print("\n".join(exchange_lines(result.exchanges[0])))
        return 0
    for i, o in enumerate(result.exchanges, 1):
        print(f"== Target {i} of {len(result.exchanges)} ({o.exchange.active_dice} of the active model's dice, E-STK-SPLIT)")
        print("\n".join(exchange_lines(o, show_active_state=False)))
        print()
    print("== The active model, after every target's Reaction")
    if result.active_wounds_taken is not None:
        print("\n".join(dist_lines("Wounds taken", result.active_wounds_taken)))
    print(states_line("active", result.active_state))
    return 0


