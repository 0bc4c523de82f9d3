"""``skirmish chaos``: Chaos Party — ``odds`` of one attack, exact, and ``play`` whole duels.

Schemas of ``--json``: docs/chaosparty.md.
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from typing import Any

from ..errors import RuleInputError
from ..rules.chaosparty.attack import ATTACK_BOOSTS, DEFENCE_BOOSTS, Attack, parse_boosts
from ..rules.chaosparty.odds import AttackOdds, attack_odds
from ..rules.chaosparty.tokens import Player, Tokens
from ..scale import ci95, ci95_text
from ..wording import count
from ._commands import COMMANDS
from ._games import add_game_args, check_game_args, game_number, replay_hint
from ._output import emit_json
from ._progress import progress_bar


def register(sub: Any) -> None:
    p = sub.add_parser("chaos", help=COMMANDS["chaos"],
                       description="Chaos Party (C-* rules): `odds` gives the exact odds of one attack, `play` "
                       "plays whole duels from a duel file. Rules as built: docs/chaosparty.md.")
    chaos = p.add_subparsers(dest="chaos_command", metavar="SUBCOMMAND")
    chaos.required = True

    o = chaos.add_parser("odds", help="exact odds of one attack (repelled, damage, overload, absorb, counter)",
                         description="The exact odds of one Chaos Party attack (C-ATTACK, C-DEFENCE, C-RESOLVE, "
                         "C-OVERLOAD, C-ABSORB as C-EXACT fixes them). Every probability is an exact fraction.",
                         epilog="examples:\n"
                         "  skirmish chaos odds --attack-potential 4 --defence-potential 2\n"
                         "  skirmish chaos odds --attack-potential 5 --defence-potential 3 --attack-boosts raise,floor"
                         " --defence-boosts counter --defender-attack-potential 2 --json\n"
                         "\nRules, interpretations and the JSON schema: docs/chaosparty.md",
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    o.add_argument("--attack-potential", type=int, required=True, metavar="N",
                   help="the attacker's attack Potential tokens (class 0 at 0: a d4)")
    o.add_argument("--defence-potential", type=int, required=True, metavar="N",
                   help="the target's defence Potential tokens")
    o.add_argument("--attack-boosts", metavar="LIST", default="",
                   help=f"comma-separated, from {','.join(ATTACK_BOOSTS)} (overload: bought whenever the die is "
                   "not at its top face)")
    o.add_argument("--defence-boosts", metavar="LIST", default="",
                   help=f"comma-separated, from {','.join(DEFENCE_BOOSTS)} (absorb: bought whenever the die is "
                   "not at its top face)")
    o.add_argument("--defender-attack-potential", type=int, metavar="N",
                   help="the target's attack Potential: the damage of its counter (needed with counter)")
    o.add_argument("--advantage", action="store_true",
                   help="Superiority: the attacker's aspect beats the target's (one die step up for free)")
    o.add_argument("--unlimited", action="store_true", help="the Unlimited variant (potential 7+ is class 4, d12)")
    o.add_argument("--json", action="store_true", help="print JSON (schema in docs/chaosparty.md)")
    o.set_defaults(func=run_odds)

    g = chaos.add_parser("play", help="play whole duels with policies (one logged game, or --games N)",
                         description="Play a Chaos Party duel file: bidding, Flow, attacks and boosts, each chosen "
                         "by a policy, to the last character. One game prints its log; --games N prints win shares. "
                         "Game i is seeded from (seed, i): the report is the same for any --workers or backend.")
    g.add_argument("duel", help="duel file (.toml, docs/chaos-format.md)")
    add_game_args(g, who="player")
    g.add_argument("--json", action="store_true", help="print JSON (schema in docs/chaosparty.md)")
    g.set_defaults(func=run_play)


# ---------------------------------------------------------------------- odds


def read_attack(args: argparse.Namespace) -> Attack:
    """The :class:`Attack` the ``odds`` flags describe."""
    for flag, value in (("--attack-potential", args.attack_potential), ("--defence-potential", args.defence_potential),
                        ("--defender-attack-potential", args.defender_attack_potential)):
        if value is not None and value < 0:
            raise RuleInputError(f"{flag} {value}: a number of tokens, 0 or more")
    a_boosts = parse_boosts(args.attack_boosts, ATTACK_BOOSTS, "attack")
    d_boosts = parse_boosts(args.defence_boosts, DEFENCE_BOOSTS, "defence")
    if "counter" in d_boosts and args.defender_attack_potential is None:
        raise RuleInputError("defence boost counter deals the target's attack class: give "
                             "--defender-attack-potential N")
    try:
        return Attack(args.attack_potential, args.defence_potential, a_boosts, d_boosts,
                      args.defender_attack_potential or 0, advantage=args.advantage, unlimited=args.unlimited)
    except RuleInputError as exc:
        raise RuleInputError(f"{exc}", kind=exc.kind) from None


def dist_json(d: tuple[Fraction, ...]) -> dict[str, str]:
    return {str(k): str(p) for k, p in enumerate(d)}


def odds_json(o: AttackOdds) -> dict[str, Any]:
    """The ``skirmish chaos odds --json`` document."""
    a = o.attack
    return {
        "repelled": str(o.repelled),
        "damage": dist_json(o.damage),
        "expected_damage": str(o.expected_damage),
        "counter": str(o.expected_counter),
        "counter_damage": dist_json(o.counter_damage),
        "overload": str(o.overload),
        "absorb": str(o.absorb),
        "attack": {"potential": a.attack_potential, "class": a.attack_class, "die": a.attack_die,
                   "boosts": sorted(a.attack_boosts), "advantage": a.advantage, "time": a.attacker_time},
        "defence": {"potential": a.defence_potential, "class": a.defence_class, "die": a.defence_die,
                    "boosts": sorted(a.defence_boosts), "attack_potential": a.defender_attack_potential,
                    "time": a.defender_time},
        "unlimited": a.unlimited,
    }


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:7.2f}%"


def odds_lines(o: AttackOdds) -> list[str]:
    a = o.attack
    ab = ", ".join(sorted(a.attack_boosts)) or "none"
    db = ", ".join(sorted(a.defence_boosts)) or "none"
    adv = ", advantage" if a.advantage else ""
    lines = [f"attack:  potential {a.attack_potential} (class {a.attack_class}) rolls d{a.attack_die}{adv}; "
             f"boosts {ab}; {a.attacker_time} Time",
             f"defence: potential {a.defence_potential} (class {a.defence_class}) rolls d{a.defence_die}; "
             f"boosts {db}; {a.defender_time} Time", ""]
    rows = [("repelled", o.repelled)] + [(f"damage {k}", p) for k, p in enumerate(o.damage)]
    rows += [("overload doubles", o.overload), ("absorb blocks", o.absorb)]
    lines.append(f"{'outcome':<18} {'chance':>8}  exact")
    lines += [f"{name:<18} {pct(p)}  {p}" for name, p in rows]
    lines.append(f"{'expected damage':<18} {float(o.expected_damage):8.3f}  {o.expected_damage}")
    if "counter" in a.defence_boosts:
        # (every counter k with a chance, 0 too: the rows sum to 100 %, as the damage rows do)
        lines += [f"{f'counter {k}':<18} {pct(p)}  {p}" for k, p in enumerate(o.counter_damage) if p]
        lines.append(f"{'expected counter':<18} {float(o.expected_counter):8.3f}  {o.expected_counter}")
    return lines


def run_odds(args: argparse.Namespace) -> int:
    o = attack_odds(read_attack(args))
    if args.json:
        emit_json(odds_json(o))
    else:
        print("\n".join(odds_lines(o)))
    return 0


# ---------------------------------------------------------------------- play


def tokens_json(t: Tokens) -> dict[str, int]:
    return {"time": t.time, "form": t.form, "potential": t.potential}


def player_json(p: Player) -> dict[str, Any]:
    return {"id": p.id, "store": tokens_json(p.store),
            "characters": [{"id": c.id, "time": c.time, "form": c.form, "attack": c.attack, "defence": c.defence,
                            "lost": c.lost} for c in p.characters]}


def run_play(args: argparse.Namespace) -> int:
    from ..game.chaosparty import play_games
    from ..game.chaosparty.runs import play_seeded
    from ..scenario.chaos import load_duel

    check_game_args(args)
    duel = load_duel(args.duel)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.games is None:
        game = game_number(args)
        r = play_seeded(duel, args.policy, seed, game)
        if args.json:
            emit_json({"duel": duel.name, "seed": seed, "game": game, "policy": args.policy or "greedy",
                       "first": r.first,
                       "winner": r.winner, "turns": r.turns, "events": [e.as_json() for e in r.events],
                       "final": {"players": [player_json(p) for p in r.final.players],
                                 "bag": tokens_json(r.final.bag)}})
            return 0
        print(f"{duel.name or args.duel}: seed {seed} (replay with {replay_hint(seed, game)}), "
              f"policy {args.policy or 'greedy'}")
        for e in r.events:
            who = f"{e.player}: " if e.player else ""
            print(f"[{e.turn:>3}] {who}{e.text}")
        for p in r.final.players:
            left = ", ".join(f"{c.id} {c.time}/{c.form}/{c.attack}/{c.defence}" for c in p.alive) or "nothing"
            print(f"{p.id} ends with (time/form/attack/defence): {left}")
        return 0
    with progress_bar(args.games, "games", unit="game") as update:
        rep = play_games(duel, args.policy, seed, args.games, workers=args.workers, backend=args.backend,
                         scheduler=args.scheduler, progress=update)
    if args.json:
        emit_json({"duel": duel.name, "seed": seed, "policy": args.policy or "greedy", "games": rep.games,
                   "wins": dict(rep.wins), "shares": {k: str(Fraction(n, rep.games)) for k, n in rep.wins},
                   "shares_ci95": {k: ci95(n, rep.games) for k, n in rep.wins},
                   "draws": rep.draws, "draw_share": str(Fraction(rep.draws, rep.games)),
                   "draw_share_ci95": ci95(rep.draws, rep.games),
                   "first_player_wins": rep.first_wins, "mean_turns": str(rep.mean_turns)})
        return 0
    print(f"{duel.name or args.duel}: {count(rep.games, 'game')}, seed {seed}, policy {args.policy or 'greedy'}")
    for pid, n in rep.wins:
        print(f"  {pid:<12} wins {n:>6}  {pct(Fraction(n, rep.games))}  ({ci95_text(n, rep.games)})")
    draw_ci = f"  ({ci95_text(rep.draws, rep.games)})" if rep.draws else ""
    print(f"  {'draws':<12}      {rep.draws:>6}  {pct(Fraction(rep.draws, rep.games))}{draw_ci}")
    print(f"  the first player won {rep.first_wins} of {rep.games - rep.draws} decided games; "
          f"mean {float(rep.mean_turns):.1f} turns")
    return 0
