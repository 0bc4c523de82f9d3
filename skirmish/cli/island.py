"""``skirmish island invade|distance|play FILE``: Spirit island on a region map.

Thin over :mod:`skirmish.rules.spiritisland`: one invaders' phase, the steps between
two regions, or whole games with simple spirits (``--games N`` spread by
:func:`skirmish.scale.run_jobs`, game i seeded ``job_rng(seed, i)``). JSON schemas
in docs/spiritisland.md. ``skirmish play FILE`` on an island runs :func:`play`.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..errors import SkirmishError
from ..game.policy import parse_policy_specs
from ..maps.base import Map
from ..maps.regions import Regions
from ..rules.spiritisland import TERRAINS, Event, Island, invader_phase, outcome, play_game
from ..rules.spiritisland.island import ROUNDS
from ..scale import ci95, ci95_text, job_rng, run_jobs
from ..scenario.dump import write_scenario
from ..scenario.load import load
from ._commands import COMMANDS
from ._games import add_game_args, check_game_args, game_number, replay_hint, seed_value
from ..wording import count
from ._output import add_json_flag, emit_json
from ._progress import progress_bar

GAME = "spiritisland"


def register(sub: Any) -> None:
    p = sub.add_parser("island", help=COMMANDS["island"],
                       description="Spirit island on a map of regions (map = \"regions\", docs/island-format.md): "
                       "run one invaders' phase, measure region steps, or play whole games with simple spirits.")
    isub = p.add_subparsers(dest="island_command", metavar="SUBCOMMAND")
    isub.required = True

    inv = isub.add_parser("invade", help="run one invaders' phase: ravage, build, explore (S-RAVAGE..S-EXPLORE)",
                          description="One invaders' phase on the island: the blighted-island and fear effects, "
                          "ravage where marked (blight cascade, presence loss, dahan strike back), build where "
                          "marked, explore the given terrain(s). Prints what happened region by region and the "
                          "next round's ravage and build markers.")
    inv.add_argument("scenario", help="island file (.toml, map = \"regions\")")
    inv.add_argument("--explore", metavar="TERRAIN[,TERRAIN]",
                     help=f"the terrain(s) explored this round ({', '.join(TERRAINS)}); default: the file's explore "
                     "order for its round")
    inv.add_argument("--seed", type=seed_value, help="seed of the choices left open (which neighbour a cascading blight "
                     "takes); default: a fresh one, printed")
    inv.add_argument("--save", metavar="TOML", help="write the island after the phase to this file, at the next "
                     "round (the markers set for it)")
    add_json_flag(inv)
    inv.set_defaults(func=run_invade)

    dist = isub.add_parser("distance", help="fewest region steps between two regions (S-ISLAND)",
                           description="The fewest region steps between A and B (adjacent regions: 1), with a "
                           "shortest chain of regions. A and B are region ids or groups of pieces (KIND@REGION).")
    dist.add_argument("scenario", help="island file (.toml)")
    dist.add_argument("a", help="a region id (or KIND@REGION)")
    dist.add_argument("b", help="another region id (or KIND@REGION)")
    add_json_flag(dist)
    dist.set_defaults(func=run_distance)

    pl = isub.add_parser("play", help="play whole games: simple spirits against the invaders (S-ROUND)",
                         description="Play the island over its rounds: each round the spirits use their energy "
                         "(destroy invaders or add presence within range, docs/spiritisland.md), then the invaders' "
                         "phase with the file's explore order. One game prints its log; --games N reports wins, "
                         "losses and means. Game i is seeded from (seed, i): the report is the same for any "
                         "--workers or backend.")
    pl.add_argument("scenario", help="island file (.toml)")
    add_play_args(pl)
    pl.set_defaults(func=run_play)


def add_play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds to play (default {ROUNDS})")
    add_game_args(p, who="spirit")
    add_json_flag(p)


def load_island(path: str) -> Regions:
    m = load(path)
    if not isinstance(m, Regions):
        raise SkirmishError(f"{path}: `skirmish island` needs an island (map = \"regions\"); this is a {m.kind} map",
                            kind="map_kind")
    return m


def _seed(value: int | None) -> int:
    return value if value is not None else random.SystemRandom().randrange(2**32)


def _terrains(text: str) -> tuple[str, ...]:
    out = tuple(t.strip() for t in text.split(",") if t.strip())
    bad = [t for t in out if t not in TERRAINS]
    if bad or not out:
        raise SkirmishError(f"--explore {text!r}: expected terrains separated by commas, each one of "
                            f"{', '.join(TERRAINS)}" + (f" (not {bad[0]!r})" if bad else ""))
    return out


# -- invade ---------------------------------------------------------------------------------------------

def by_region(isl: Island, events: tuple[Event, ...]) -> list[tuple[str | None, list[Event]]]:
    """Events grouped for reading: island-wide ones first (fear, blighted), then region by region."""
    out: list[tuple[str | None, list[Event]]] = []
    first = [e for e in events if e.region is None and e.step in ("blighted_effect", "fear_effect")]
    if first:
        out.append((None, first))
    for land in isl.lands:
        here = [e for e in events if e.region == land.id]
        if here:
            out.append((land.id, here))
    rest = [e for e in events if e.region is None and e not in first]
    if rest:
        out.append((None, rest))
    return out


def run_invade(args: argparse.Namespace) -> int:
    isle = load_island(args.scenario)
    isl = isle.island
    terrains = _terrains(args.explore) if args.explore else isl.explore_for(isl.round)
    seed = _seed(args.seed)
    phase = invader_phase(isl, terrains, random.Random(seed))
    after = phase.island
    end = outcome(after)
    if args.save:  # the island at the end of the round: time has passed
        write_scenario(Regions(replace(after, round=after.round + 1), isle.name, args.save), args.save)
    if args.json:
        emit_json({**after.to_json(), "explore": list(terrains), "seed": seed,
                   "outcome": end.to_json() if end else None, "events": [e.to_json() for e in phase.events]})
        return 0
    print(f"{isle.name or args.scenario}: invaders' phase, round {isl.round}, exploring {' and '.join(terrains)} "
          f"(seed {seed})")
    for region, evs in by_region(after, phase.events):
        print(f"{region}:" if region else "island:")
        for e in evs:
            text = e.text.removeprefix(f"{region}: ") if region else e.text
            print(f"  {text}")
    print(f"fear {after.fear} (terror {after.terror}), blight {after.blight}"
          f"{' (blighted)' if after.blighted else ''}")
    rav = [land.id for land in after.lands if land.ravage]
    bld = [land.id for land in after.lands if land.build]
    print(f"next round: ravage in {', '.join(rav) or 'none'}; build in {', '.join(bld) or 'none'}")
    if end:
        print(f"the spirits have {end.result}: {end.reason}")
    if args.save:
        print(f"saved to {args.save}")
    return 0


# -- distance -----------------------------------------------------------------------------------------

def run_distance(args: argparse.Namespace) -> int:
    isle = load_island(args.scenario)
    a, b = isle.region_of(args.a), isle.region_of(args.b)
    d = isle.steps(a, b)
    connected = d != float("inf")
    path = list(isle.path(a, b)) if connected else None
    if args.json:
        emit_json({"from": args.a, "to": args.b, "distance": int(d) if connected else None, "path": path})
        return 0
    if not connected:
        print(f"{args.a} -> {args.b}: not connected (no chain of borders joins {a} and {b})")
    else:
        n = int(d)
        print(f"{args.a} -> {args.b}: {n} step{'s' * (n != 1)}" + (f" ({' -> '.join(path or [])})" if n else
                                                                   f" (same region {a})"))
    return 0


# -- play ---------------------------------------------------------------------------------------------------

def _one_game(job: tuple[Island, int, str | None, int, int]) -> dict[str, Any]:
    isl, rounds, spec, seed, i = job
    policies = parse_policy_specs(spec, isl.spirits, GAME, default="greedy")
    game = play_game(isl, job_rng(seed, i), policies, rounds=rounds)
    return game.to_json(events=False)


def run_play(args: argparse.Namespace) -> int:
    return play(args, load_island(args.scenario))


def play(args: argparse.Namespace, board: Map) -> int:
    """Play an island (``skirmish island play`` and ``skirmish play`` on a regions map)."""
    if not isinstance(board, Regions):
        raise SkirmishError(f"expected an island (map = \"regions\"), got a {board.kind} map")
    isl = board.island
    rounds = getattr(args, "rounds", ROUNDS)
    if rounds < 1:
        raise SkirmishError(f"--rounds must be 1 or more, got {rounds}", kind="range")
    check_game_args(args)
    last = isl.round + rounds - 1
    if last > len(isl.explore):  # the explore order covers every round played
        can = len(isl.explore) - isl.round + 1
        fix = f"play --rounds {can} or less, or add entries" if can >= 1 else "add entries"
        raise SkirmishError(f"{args.scenario}: the explore order ([island] explore) has {len(isl.explore)} "
                            f"entr{'y' if len(isl.explore) == 1 else 'ies'}, and {rounds} rounds from round "
                            f"{isl.round} need {last}: {fix}", kind="range")
    policies = parse_policy_specs(args.policy, isl.spirits, GAME, default="greedy")  # a bad spec: refused now
    seed = _seed(args.seed)
    if args.games is None:
        number = game_number(args)
        game = play_game(isl, job_rng(seed, number), policies, rounds=rounds)
        if args.json:
            emit_json({"seed": seed, "game": number, **game.to_json()})
            return 0
        again = replay_hint(seed, number) + (f" --rounds {rounds}" if rounds != ROUNDS else "")
        print(f"{board.name or args.scenario}: {len(isl.spirits)} spirit{'s' * (len(isl.spirits) != 1)} "
              f"({', '.join(isl.spirits) or 'none'}), seed {seed} (replay with {again})")
        for r in game.rounds:
            print(f"round {r.round} (explore {' and '.join(r.explore)}):")
            for e in r.events:
                print(f"  {e.text}")
            print(f"  -> blight {r.blight}, fear {r.fear}, terror {r.terror}")
        print(f"the spirits have {game.outcome.result} after {len(game.rounds)} round"
              f"{'s' * (len(game.rounds) != 1)}: {game.outcome.reason}")
        return 0
    jobs = [(isl, rounds, args.policy, seed, i) for i in range(args.games)]
    with progress_bar(len(jobs), "games", unit="game") as update:
        games = run_jobs(_one_game, jobs, workers=args.workers, backend=args.backend, scheduler=args.scheduler,
                         progress=update)
    report = summarise(games, seed)
    if args.json:
        emit_json(report)
        return 0
    n = report["games"]
    def dec(text: str) -> str:  # (the JSON keeps the exact fraction; a reader wants the number)
        return f"{float(Fraction(text)):.3g}"
    print(f"{count(n, 'game')} of {count(rounds, 'round')} from seed {seed}: won {report['won']}, lost {report['lost']} "
          f"(win share {float(Fraction(report['win_share'])):.1%}; "
          f"{ci95_text(report['won'], n)})")
    print(f"  mean blight {dec(report['mean_blight'])}, mean fear {dec(report['mean_fear'])}, "
          f"mean rounds {dec(report['mean_rounds'])}")
    for reason, k in report["reasons"].items():
        print(f"  {k:>5} × {reason}")
    return 0


def summarise(games: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """The ``--games`` report: counts, shares and means as exact fraction strings; ``win_share_ci95`` is the
    win share's 95 % Wilson interval ``[low, high]`` (floats rounded to 4 places)."""
    n = len(games)
    won = sum(g["result"] == "won" for g in games)

    def mean(key: str) -> str:
        return str(Fraction(sum(g[key] for g in games), n))

    reasons = Counter(f"{g['result']}: {g['why']}" for g in games)
    return {"seed": seed, "games": n, "won": won, "lost": n - won, "win_share": str(Fraction(won, n)),
            "win_share_ci95": ci95(won, n),
            "mean_blight": mean("blight"), "mean_fear": mean("fear"), "mean_rounds": mean("rounds_played"),
            "reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))}


# -- check and measure on an island (called from check.py and measure.py) ----------------------------

def check_lines(isle: Regions, path: str) -> list[str]:
    """The ``skirmish check`` summary of an island: counters, then each region."""
    isl = isle.island
    title = f'"{isle.name}"' if isle.name else path
    coastal = sum(land.coastal for land in isl.lands)
    spirits = f"{len(isl.spirits)} spirit{'s' * (len(isl.spirits) != 1)}" + (
        f" ({', '.join(isl.spirits)})" if isl.spirits else "")
    lines = [f"{title}: ok — island of {len(isl.lands)} regions ({coastal} coastal), {len(isl.borders())} borders, "
             f"{spirits}",
             f"round {isl.round}; fear {isl.fear} (terror {isl.terror}); blight {isl.blight}"
             f"{' (blighted)' if isl.blighted else ''}, blighted at {isl.blighted_at}, spirits lose at "
             f"{isl.defeat_at}; spirits' energy {isl.energy} a round, range {isl.range}",
             "explore order: " + (" / ".join("+".join(e) for e in isl.explore) or "none")]
    width = max(len(land.id) for land in isl.lands)
    for land in isl.lands:
        pieces = ", ".join(f"{k} {v}" for k, v in land.pieces().items() if v)
        pres = ", ".join(f"{s} {n}{' (sacred site)' if land.sacred_site(s) else ''}" for s, n in land.presence)
        marks = " ".join(f"[{m}]" for m in ("ravage", "build") if getattr(land, m))
        lines.append(f"  {land.id:<{width}} {land.terrain:<8} {'coastal' if land.coastal else '       '} "
                     f"borders {', '.join(land.neighbours) or 'none'}"
                     + (f" | {pieces}" if pieces else "") + (f" | presence: {pres}" if pres else "")
                     + (f" {marks}" if marks else ""))
    return lines


def measure_doc(isle: Regions, a: str, b: str) -> dict[str, Any]:
    """The ``skirmish measure --json`` document on an island."""
    ra, rb = isle.region_of(a), isle.region_of(b)
    d = isle.distance(a, b)
    connected = d != float("inf")
    return {"from": a, "to": b, "unit": isle.unit, "distance": int(d) if connected else None,
            "from_region": ra, "to_region": rb, "path": list(isle.path(ra, rb)) if connected else None,
            "base_contact": isle.in_contact(a, b), "line_of_sight": ra == rb, "adjacent": rb in isle.neighbours(ra)}


def measure_lines(isle: Regions, a: str, b: str) -> list[str]:
    d = measure_doc(isle, a, b)
    if d["distance"] is None:
        return [f"{a} -> {b}: not connected ({d['from_region']} and {d['to_region']})"]
    n = d["distance"]
    lines = [f"{a} -> {b}: {n} step{'s' * (n != 1)} ("
             + (f"same region {d['from_region']}" if n == 0 else " -> ".join(d["path"])) + ")",
             f"  same region (contact, line of sight): {'yes' if d['base_contact'] else 'no'}"]
    if d["adjacent"]:
        lines.append("  adjacent regions: yes")
    return lines
