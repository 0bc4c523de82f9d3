"""``skirmish fight FILE --room C,R --seed N``: resolve a Party Hard fight and print its log."""

from __future__ import annotations

import argparse
import random
from typing import Any

from ..errors import SkirmishError
from ..maps.grid import CREATURES, Grid, Reinforce, as_room, room_text
from ..rules.partyhard.fight import resolve_fight
from ..rules.partyhard.fighter import Fighter
from ..rules.partyhard.log import ActionLog, FightLog, Note, TargetLog
from ..rules.partyhard.policy import GreedyPolicy, ScriptedPolicy
from ._commands import COMMANDS
from ._games import seed_value
from ._output import add_json_flag, emit_json
from ._scenario import load_table


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fight", help=COMMANDS["fight"],
        description="Resolve the fight in one room of a grid scenario: the attacking player's row against the "
        "creatures there (or another player). Damage is exact (P-DMG, P-STREAK, P-SHIELD, P-EFFECT, P-HEAL); the "
        "choices (actions, targets, shields) are a careful greedy player's, ties broken by the seed. The log shows "
        "every action, its damage formula, shields, effects, reinforcements and retreats. The same seed gives the "
        "same log.",
        epilog="examples:\n"
        "  skirmish fight scenarios/party-hard-maze.toml --room 2,1 --seed 4\n"
        "  skirmish fight scenarios/party-hard-maze.toml --room 2,1 --reinforce cleric@2 --seed 1 --json\n"
        "  skirmish fight scenarios/party-hard-maze.toml --room 2,1 --retreat mage@2 --seed 3\n"
        "\nThe rules, the policy and every interpretation: docs/partyhard.md",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="a grid scenario file (.toml, map = \"grid\")")
    p.add_argument("--room", required=True, metavar="C,R", help="the room of the fight: column,row (from 0, top left)")
    p.add_argument("--attacker", metavar="PLAYER", help="the attacking player (default: the only player in a room "
                   "with creatures)")
    p.add_argument("--defender", metavar="SIDE", help="the defending side (default: the creatures, or the only "
                   "other player)")
    p.add_argument("--reinforce", action="append", default=[], metavar="ID[@ROUND][:SIDE]",
                   help="a character in an adjacent room joins in ROUND (default 1) on SIDE (default its player) "
                   "(P-REINF); repeatable")
    p.add_argument("--retreat", action="append", default=[], metavar="ID@ROUND",
                   help="the character starts retreating at the start of its side's turn in ROUND; repeatable")
    p.add_argument("--retreat-below", type=int, default=0, metavar="N",
                   help="characters start retreating when their Health is N or less (default 0: never)")
    p.add_argument("--opening", metavar="ID[,ID]", help="the 1-2 attackers that act in the first turn (P-TURN)")
    p.add_argument("--max-rounds", type=int, default=30, metavar="N", help="stop undecided after N rounds (default 30)")
    p.add_argument("--seed", type=seed_value, metavar="N",
                   help="seed of the choices' tie-breaks (an integer >= 0); without it one is drawn and printed")
    add_json_flag(p)
    p.set_defaults(func=run)


def parse_reinforce(text: str) -> Reinforce:
    """``ID[@ROUND][:SIDE]``."""
    rest, _, side = text.partition(":")
    ident, _, rnd = rest.partition("@")
    if not ident or (":" in text and not side):
        raise SkirmishError(f"--reinforce: {text!r}: expected ID[@ROUND][:SIDE], like cleric@2 or scout@1:red")
    try:
        n = int(rnd) if rnd else 1
    except ValueError:
        raise SkirmishError(f"--reinforce: {text!r}: the round is a whole number, like cleric@2") from None
    if n < 1:
        raise SkirmishError(f"--reinforce: {text!r}: rounds count from 1")
    return Reinforce(ident, n, side or None)


def parse_retreat(text: str) -> tuple[str, int]:
    ident, at, rnd = text.partition("@")
    try:
        n = int(rnd)
    except ValueError:
        n = 0
    if not ident or not at or n < 1:
        raise SkirmishError(f"--retreat: {text!r}: expected ID@ROUND, like mage@2 (rounds count from 1)")
    return ident, n


def parse_room(text: str) -> tuple[int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        return as_room([int(p) for p in parts], "--room")
    except ValueError:
        raise SkirmishError(f"--room: expected column,row like 2,1, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if args.max_rounds < 1:
        raise SkirmishError(f"--max-rounds: give 1 or more, got {args.max_rounds}", kind="range")
    if args.retreat_below < 0:
        raise SkirmishError(f"--retreat-below: give 0 or more, got {args.retreat_below}", kind="range")
    grid = load_table(args)
    if not isinstance(grid, Grid):
        raise SkirmishError(f"{args.scenario} is a {grid.kind} map; fights are resolved on a grid of rooms "
                            '(map = "grid", see docs/grid-format.md)', kind="map_kind")
    room = parse_room(args.room)
    retreats = dict(parse_retreat(t) for t in args.retreat)
    for ident in retreats:
        grid.piece(ident)
    opening = tuple(i.strip() for i in args.opening.split(",")) if args.opening else ()
    policy = ScriptedPolicy(GreedyPolicy(args.retreat_below), retreats, opening)
    setup = grid.fight_setup(room, attacker=args.attacker, defender=args.defender,
                             reinforcements=[parse_reinforce(t) for t in args.reinforce], max_rounds=args.max_rounds)
    log = resolve_fight(setup, random.Random(seed), policy)
    if args.json:
        emit_json({"seed": seed, **log.to_json()})
        return 0
    print(f"Seed {seed} (replay with --seed {seed})")
    print("\n".join(log_lines(log)))
    return 0


# ------------------------------------------------------------------------------- text


def fighter_line(f: Fighter) -> str:
    eff = f" [{', '.join(f.effects.to_json())}]" if len(f.effects) else ""
    return f"{f.id} (ATK {f.attack} DEF {f.defense} HP {f.health}/{f.max_health} EN {f.energy}/{f.max_energy}){eff}"


def _target_lines(t: TargetLog) -> list[str]:
    out = []
    if t.breakdown is not None:
        b = t.breakdown
        if b.kind == "heal":
            out.append(f"{t.target}: heal {b.explain()}; +{t.healed} Health -> {t.health_after}")
        else:
            a = t.absorption
            assert a is not None
            parts = []
            if a.burned:
                parts.append(f"{a.burned} Energy burned")
            if a.shielded:
                parts.append(f"{a.shielded} on the shield")
            parts.append(f"Health {a.health_before} -> {a.health_after}")
            out.append(f"{t.target}: {b.explain()}; " + ", ".join(parts))
            out += [f"  ({n})" for n in b.notes]
    elif t.burned:
        out.append(f"{t.target}: {t.burned} Energy burned -> {t.energy_after}")
    if t.restored:
        out.append(f"{t.target}: +{t.restored} Energy -> {t.energy_after}")
    out += [str(e) for e in t.effects]
    if t.defeated:
        out.append(f"{t.target} is defeated")
    return out


def possessive(side: str) -> str:
    return "the creatures'" if side == CREATURES else f"{side}'s"


def log_lines(log: FightLog) -> list[str]:
    room = f" in {room_text(log.room)}" if log.room else ""
    lines = [f"Fight{room}: {log.attackers} attack{'s' * (log.attackers != CREATURES)} "
             f"{'the ' * (log.defenders == CREATURES)}{log.defenders}"]
    for side, row in log.rows.items():
        lines.append(f"  {side + ':':<11}" + ", ".join(f"{i + 1} {fighter_line(log.start[fid])}" for i, fid in enumerate(row)))
    cur: tuple[int, str] | None = None
    regen: list[str] = []
    restore: list[str] = []
    for e in log.events:
        if isinstance(e, Note) and e.kind == "regen":
            regen.append(f"{e.actor} {e.before}->{e.after}")
            continue
        if isinstance(e, Note) and e.kind == "restore":
            restore.append(f"{e.actor} EN {e.before}->{e.after}" + (" and full Health" if "Health" in e.reason else ""))
            continue
        if regen:
            lines.append(f"  end of round: +1 Energy: {', '.join(regen)}")
            regen = []
        if cur is None or e.round != cur[0]:
            lines.append(f"Round {e.round}")
        if cur != (e.round, e.side) and not (isinstance(e, Note) and e.kind == "defeated"):
            lines.append(f"  {possessive(e.side)} turn")
        if not (isinstance(e, Note) and e.kind == "defeated"):
            cur = (e.round, e.side)
        if isinstance(e, ActionLog):
            cost = f", {e.cost} Energy ({e.energy_before} -> {e.energy_after})" if e.cost else ""
            streak = f", streak {e.streak}" if e.streak > 1 else ""
            if e.action.kind == "rest":
                lines.append(f"    {e.actor} rests: Energy {e.energy_before} -> {e.energy_after}")
            elif e.action.kind == "cleanse":
                lines.append(f"    {e.actor} removes {e.effects[0].effect} from itself")
            else:
                el = f" ({e.element}{cost}{streak})" if e.element else (f" ({cost.lstrip(', ')})" if cost else "")
                what = "weapon hit with " + e.name if e.action.kind == "weapon" else e.name
                lines.append(f"    {e.actor}: {what}{el} on {', '.join(e.action.targets)}")
                for t in e.targets:
                    lines += [f"      {x}" for x in _target_lines(t)]
        elif e.kind == "defeated":
            continue  # shown under the action
        elif e.kind == "join":
            frm = f" from {room_text(e.room)}" if e.room else ""
            lines.append(f"    {e.actor} joins{frm} at place {e.place}; it skips this turn (P-REINF)")
        elif e.kind == "wait":
            lines.append(f"    {e.actor} waits to join: {e.reason}")
        elif e.kind == "skip":
            why = {"newcomer": "just joined", "retreating": "retreating",
                   "opening": "only 1-2 attackers act in the first turn"}.get(e.reason, e.reason)
            lines.append(f"    {e.actor} does not act ({why})")
        elif e.kind == "retreat":
            lines.append(f"    {e.actor} starts retreating: it acts no more and can still be attacked")
        elif e.kind == "leave":
            lines.append(f"    {e.actor} retreats to {room_text(e.room)}" if e.room else f"    {e.actor} retreats")
        elif e.kind == "stuck":
            lines.append(f"    {e.actor} cannot leave: {e.reason}")
    if regen:
        lines.append(f"  end of round: +1 Energy: {', '.join(regen)}")
    if log.winner is None:
        lines.append(f"Result: undecided — {log.reason}")
    else:
        lines.append(f"Result: {'the ' * (log.winner == CREATURES)}{log.winner} win{'s' * (log.winner != CREATURES)} "
                     f"in round {log.rounds} — {log.reason}")
    if restore:
        lines.append(f"  the fight is over: {', '.join(restore)}")
    if log.rewards is not None:
        r = log.rewards
        lines.append(f"  rewards: {r.abilities} abilit{'y' if r.abilities == 1 else 'ies'}, {r.items} "
                     f"item{'s' * (r.items != 1)} ({r.reason})")
    left = [fid for fid in log.final if log.final[fid].alive]
    lines.append("  standing: " + ("; ".join(fighter_line(log.final[f]) + (f" in {room_text(log.retreated[f])}"
                                                                           if f in log.retreated else "")
                                             for f in left) or "nobody"))
    return lines
