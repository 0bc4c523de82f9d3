"""``skirmish implant odds|roll|fight``: Implant's d6 oracle, its exact odds, and fights."""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from typing import Any

from ..game.policy import load_policy
from ..rules.implant import (
    LADDER,
    FightLog,
    FightOdds,
    FightState,
    Pool,
    PoolOdds,
    Roll,
    fight_odds,
    fight_setup,
    level_bound,
    play_fight,
    pool,
)
from ..wording import count as counted
from ._commands import COMMANDS
from ._games import seed_value
from ._output import add_json_flag, emit_json
from ._progress import progress_bar
from ._values import whole_number
from .odds import pct

DOC = "docs/implant.md"


count = whole_number(0)
positive = whole_number(1)


def _factor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--helps", type=count, default=0, metavar="A", help="helping factors (default 0)")
    p.add_argument("--hinders", type=count, default=0, metavar="H", help="hindering factors (default 0)")


def register(sub: Any) -> None:
    top = sub.add_parser(
        "implant", help=COMMANDS["implant"],
        description="Implant solo (I-LADDER, I-POOL, I-DRAMA, I-FIGHT, I-DAMAGE): |A - H| + 1 d6, the highest "
        "kept when the helping factors A win, the lowest when the hindering factors H do; more than 5 dice "
        f"answer without a roll. Rules, interpretations and JSON: {DOC}")
    isub = top.add_subparsers(dest="implant_command", metavar="SUBCOMMAND")
    isub.required = True

    p = isub.add_parser("odds", help="the exact chance of each rung of the ladder",
                        description="The exact chance of each rung (6 yes-and ... 1 no-and) for A helping and "
                        f"H hindering factors; --json gives exact fractions. Schema: {DOC}",
                        epilog="example: skirmish implant odds --helps 2 --hinders 1")
    _factor_args(p)
    p.add_argument("--drama-dice", type=count, default=0, metavar="N",
                   help="extra action dice bought with drama points (each counts as a helping factor)")
    add_json_flag(p)
    p.set_defaults(func=run_odds)

    p = isub.add_parser("roll", help="roll the pool with a seed: the dice, the kept one and the rung",
                        description=f"Roll the pool once with seeded dice. Schema: {DOC}",
                        epilog="example: skirmish implant roll --helps 2 --hinders 1 --seed 7")
    _factor_args(p)
    p.add_argument("--drama-dice", type=count, default=0, metavar="N",
                   help="extra action dice bought with drama points")
    p.add_argument("--seed", type=seed_value, metavar="N", help="seed of the dice (without it one is drawn and printed)")
    add_json_flag(p)
    p.set_defaults(func=run_roll)

    p = isub.add_parser("fight", help="exact odds of a fight (win, die, injured), or one seeded fight",
                        description="Without --seed: the exact chance that the character wins, dies or ends "
                        "the fight injured, from the Markov chain over Health, enemy Health, initiative, "
                        "injuries (each a new hindering factor) and drama, with the policy making every "
                        f"choice. With --seed: one fight, every roll logged. Schema: {DOC}",
                        epilog="examples:\n"
                        "  skirmish implant fight --health 3 --enemy-health 2 --helps 1 --hinders 0\n"
                        "  skirmish implant fight --health 3 --enemy-health 3 --drama 1 --policy bold --seed 4",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--health", type=positive, required=True, metavar="N", help="the character's Health")
    p.add_argument("--enemy-health", type=positive, required=True, metavar="N", help="the enemy's Health (1 to 5+)")
    _factor_args(p)
    p.add_argument("--initiative", choices=("me", "enemy"), default="me", help="who holds it first (default me)")
    p.add_argument("--drama", type=count, default=0, metavar="N", help="drama points (default 0)")
    p.add_argument("--policy", default="cautious", metavar="NAME",
                   help="who makes the choices: cautious (default) or bold, or package.module:ClassName")
    p.add_argument("--seed", type=seed_value, metavar="N", help="play one fight with these dice and log it")
    add_json_flag(p)
    p.set_defaults(func=run_fight)


# ---------------------------------------------------------------------- odds


def odds_json(o: PoolOdds) -> dict[str, Any]:
    """The ``implant odds --json`` document."""
    return {"dice": o.pool.dice, "keep": o.pool.keep, "auto": o.pool.auto,
            "outcomes": {str(face): str(p) for face, p in enumerate(o.outcomes, 1)}, "yes": str(o.yes)}


def pool_title(p: Pool) -> str:
    drama = f" + {counted(p.drama_dice, 'drama die', 'drama dice')}" if p.drama_dice else ""
    return (f"{counted(p.helps, 'help')}, {counted(p.hinders, 'hindrance')}{drama}: {p.describe()}")


def odds_lines(o: PoolOdds) -> list[str]:
    lines = [pool_title(o.pool)]
    for r, p in o.items():
        lines.append(f"  {r.face}  {r.name:<9} {pct(p)}  {str(p):>13}  {'#' * round(float(p) * 40)}")
    lines.append(f"yes (4 to 6): {pct(o.yes).strip()} ({o.yes})")
    return lines


def run_odds(args: argparse.Namespace) -> int:
    o = pool(args.helps, args.hinders, drama_dice=args.drama_dice).odds()
    if args.json:
        emit_json(odds_json(o))
    else:
        print("\n".join(odds_lines(o)))
    return 0


# ---------------------------------------------------------------------- roll


def _seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(2**32) if seed is None else seed


def roll_json(r: Roll) -> dict[str, Any]:
    """One roll: the pool, every die, the kept one and the rung."""
    return {"dice": r.pool.dice, "keep": r.pool.keep, "auto": r.pool.auto, "faces": list(r.faces),
            "kept": r.kept, "rung": {"face": r.rung.face, "name": r.rung.name, "yes": r.rung.yes}}


def roll_text(r: Roll) -> str:
    if r.kept is None:
        return f"-> {r.rung.face} {r.rung.name}"
    return f"[{', '.join(map(str, r.faces))}] keep {r.kept} -> {r.rung.face} {r.rung.name}"


def run_roll(args: argparse.Namespace) -> int:
    seed = _seed(args.seed)
    r = pool(args.helps, args.hinders, drama_dice=args.drama_dice).roll(random.Random(seed))
    if args.json:
        emit_json({"seed": seed, **roll_json(r)})
        return 0
    print(f"Seed {seed} (replay with --seed {seed})")
    print(pool_title(r.pool))
    print(roll_text(r) + f": {LADDER[r.rung.face - 1].meaning}")
    return 0


# ---------------------------------------------------------------------- fight


def state_json(s: FightState) -> dict[str, Any]:
    return {"health": s.health, "enemy_health": s.enemy_health, "initiative": s.initiative,
            "injuries": s.injuries, "drama": s.drama, "next_die": s.next_die}


def setup_json(args: argparse.Namespace) -> dict[str, Any]:
    return {"health": args.health, "enemy_health": args.enemy_health, "helps": args.helps,
            "hinders": args.hinders, "initiative": args.initiative, "drama": args.drama}


def fight_odds_json(args: argparse.Namespace, o: FightOdds) -> dict[str, Any]:
    """The exact ``implant fight --json`` document."""
    return {"setup": setup_json(args), "policy": o.policy,
            "win": str(o.win), "die": str(o.die), "injured": str(o.injured), "unhurt_win": str(o.unhurt_win),
            "expected_rolls": str(o.expected_rolls),
            "ends": [{"result": e.result, "health": e.health, "injuries": e.injuries, "drama": e.drama,
                      "p": str(p)} for e, p in o.ends]}


def fight_log_json(args: argparse.Namespace, seed: int, log: FightLog) -> dict[str, Any]:
    """The seeded ``implant fight --seed N --json`` document."""
    return {"seed": seed, "setup": setup_json(args), "policy": log.policy, "result": log.result,
            "injured": log.result == "win" and log.end.injuries > 0,
            "rolls": [{"n": r.number, "side": r.side, **roll_json(r.roll),
                       "effect": r.effect.key, "text": r.effect.text, "chosen": r.chosen,
                       "damage": list(r.damage), "after": state_json(r.after)} for r in log.rounds],
            "end": state_json(log.end)}


def _setup_line(args: argparse.Namespace, policy: str) -> str:
    return (f"Health {args.health} against enemy Health {args.enemy_health}; {counted(args.helps, 'help')}, "
            f"{counted(args.hinders, 'hindrance')}; initiative: {args.initiative}; drama {args.drama}; "
            f"policy {policy}")


def _dist(d: dict[int, Fraction]) -> str:
    return ", ".join(f"{k}: {pct(p).strip()}" for k, p in d.items())


def fight_odds_lines(args: argparse.Namespace, o: FightOdds) -> list[str]:
    lines = [_setup_line(args, o.policy), "Exact outcome:",
             f"  win            {pct(o.win)}", f"    unhurt       {pct(o.unhurt_win)}",
             f"    injured      {pct(o.injured)}", f"  die            {pct(o.die)}",
             f"  expected rolls {float(o.expected_rolls):7.2f}"]
    if o.win:
        lines.append(f"Health left when winning:   {_dist(o.distribution('health', 'win'))}  (shares of all fights)")
        lines.append(f"Injuries when winning:      {_dist(o.distribution('injuries', 'win'))}  (shares of all fights)")
    if args.drama:
        lines.append(f"Drama left (every end):     {_dist(o.distribution('drama'))}")
    return lines


def _state_text(s: FightState) -> str:
    extra = {1: ", +1 action die", -1: ", +1 hindrance die"}.get(s.next_die, "")
    return (f"Health {s.health}, enemy {s.enemy_health}, initiative {s.initiative}, "
            f"injuries {s.injuries}, drama {s.drama}{extra}")


HOW = {"drama": "a drama point", "injury": "an injury", "health": "-1 Health"}


def fight_log_lines(args: argparse.Namespace, seed: int, log: FightLog) -> list[str]:
    lines = [f"Seed {seed} (replay with --seed {seed})", _setup_line(args, log.policy)]
    for r in log.rounds:
        chosen = " (chosen)" if r.chosen else ""
        damage = f"; damage taken as {', '.join(HOW[d] for d in r.damage)}" if r.damage else ""
        lines.append(f"{r.number:>3} {r.side:<8} {r.roll.pool.describe()}: {roll_text(r.roll)}: "
                     f"{r.effect.text}{chosen}{damage}")
        lines.append(f"    -> {_state_text(r.after)}")
    end = log.end
    tail = f" with {counted(end.injuries, 'injury', 'injuries')}" if end.injuries else ""
    lines.append(f"Result: {'the character wins' if log.result == 'win' else 'the character dies'}{tail} "
                 f"after {counted(len(log.rounds), 'roll')}")
    return lines


def run_fight(args: argparse.Namespace) -> int:
    policy = load_policy(args.policy, "implant")
    setup = fight_setup(args.health, args.enemy_health, args.helps, args.hinders,
                        initiative=args.initiative, drama=args.drama)
    if args.seed is None:
        with progress_bar(level_bound(setup), "solving the fight", unit="levels") as update:
            o = fight_odds(setup, policy, progress=update)
        if args.json:
            emit_json(fight_odds_json(args, o))
        else:
            print("\n".join(fight_odds_lines(args, o)))
        return 0
    log = play_fight(setup, policy, random.Random(args.seed))
    if args.json:
        emit_json(fight_log_json(args, args.seed, log))
    else:
        print("\n".join(fight_log_lines(args, args.seed, log)))
    return 0

