"""``skirmish play`` for Eldfall on a table: one logged game, or ``--games N`` with a
report (schemas in docs/game.md)."""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from ..game.eldfall import GameRecord, play_game
from ..game.eldfall.settings import GameSettings, load_game
from ..game.policy import parse_policy_specs
from ..maps.table import Table
from ..scale import ci95, ci95_text, job_rng, run_jobs, settle_heap
from ..sim.script import Script
from ..wording import count
from ._games import game_number, per_file, replay_hint
from ._output import emit_json
from ._progress import progress_bar

DEFAULT_POLICY = "greedy"
#: The final states of a model still in play (survival in `--games`).
IN_PLAY = ("Unharmed", "Wounded")


def play(args: argparse.Namespace, board: Any) -> int:
    table, _, _ = _loaded(args.scenario)
    spec = args.policy or DEFAULT_POLICY
    parse_policy_specs(spec, table.all_sides(), "eldfall")  # refuse an unknown policy before playing
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    if args.games is None:
        game = game_number(args)
        record = play_one((args.scenario, spec, seed, game))
        if args.json:
            for e in record.events:
                emit_json(e, indent=None)
            emit_json({"seed": seed, "game": game, **record.summary}, indent=None)
        else:
            _print_game(record, spec, seed, game)
        return 0
    jobs = [(args.scenario, spec, seed, i) for i in range(args.games)]
    settle_heap()  # (many games: the start-up objects stay out of the collector's full passes)
    with progress_bar(len(jobs), "games", unit="game") as update:
        summaries = run_jobs(summary_of, jobs, workers=args.workers, backend=args.backend,
                             scheduler=args.scheduler, progress=update)
    report = game_report(summaries, table.all_sides(), seed)
    if args.json:
        emit_json(report)
    else:
        _print_report(report, spec)
    return 0


@per_file(maxsize=8)
def _loaded(path: str) -> tuple[Table, GameSettings, Script]:
    """The scenario file, read once per process (pool workers), again once edited."""
    return load_game(path)


def play_one(job: tuple[str, str, int, int], *, log: bool = True) -> GameRecord:
    """Game ``i`` of a run seeded ``seed`` (the single game of ``--seed`` is game
    ``--game``, 0 by default); each worker loads the scenario file once. ``log=False``:
    played without writing its event log (the same game)."""
    path, spec, seed, i = job
    table, settings, script = _loaded(path)
    policies = parse_policy_specs(spec, table.all_sides(), "eldfall")
    return play_game(table, settings, policies, job_rng(seed, i), seed=seed, script=script, log=log)


def summary_of(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """The summary of :func:`play_one`'s game alone (a run of many writes no event logs)."""
    return play_one(job, log=False).summary


def game_report(summaries: Sequence[dict[str, Any]], sides: Sequence[str], seed: int) -> dict[str, Any]:
    """``{games, seed, wins: {side: share, draw: share}, wins_ci95: {side: [low, high], ...},
    vp_mean, rounds_mean, survival}`` (``wins_ci95``: each share's 95 % Wilson interval)."""
    n = len(summaries)
    won = {s: sum(r["winner"] == s for r in summaries) for s in sides}
    won["draw"] = sum(r["winner"] is None for r in summaries)
    wins = {s: k / n for s, k in won.items()}
    models = list(summaries[0]["states"]) if summaries else []
    return {"games": n, "seed": seed, "wins": wins,
            "wins_ci95": {s: ci95(k, n) for s, k in won.items()},
            "vp_mean": {s: sum(r["vp"][s] for r in summaries) / n for s in sides},
            "rounds_mean": sum(r["rounds"] for r in summaries) / n,
            "survival": {m: sum(r["states"][m] in IN_PLAY for r in summaries) / n for m in models}}


def _print_game(record: GameRecord, spec: str, seed: int, game: int) -> None:
    print(f"Seed {seed} (replay with {replay_hint(seed, game)}); policies: {spec}")
    by_turn: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for e in record.events:
        by_turn.setdefault((e["round"], e["turn"]), []).append(e)
    if (0, 0) in by_turn:  # E-DEPLOY: models without a position deployed before round 1
        print("Deployment")
        for e in by_turn[(0, 0)]:
            print(f"  {e['text']}")
    for rnd, turn, side in record.turns:
        print(f"Round {rnd}, turn {turn}: {side} is Active")
        events = by_turn.get((rnd, turn), [])
        for e in events:
            print(f"  {e['text']}")
        if not events:
            print("  (no activations)")
    s = record.summary
    vp = ", ".join(f"{k} {v}" for k, v in s["vp"].items())
    print(f"Result after {count(s['rounds'], 'round')}: " + (f"{s['winner']} wins" if s["winner"] else "a draw")
          + f" (VP {vp})")
    print("States: " + ", ".join(f"{m} {st}" for m, st in s["states"].items()))


def _print_report(report: dict[str, Any], spec: str) -> None:
    print(f"{count(report['games'], 'game')} from seed {report['seed']}; policies: {spec}")
    n = report["games"]
    print("Wins: " + ", ".join(f"{k} {round(v * n)} ({v:.1%}; {ci95_text(round(v * n), n)})"
                               for k, v in report["wins"].items()))
    print("Mean VP: " + ", ".join(f"{k} {v:.2f}" for k, v in report["vp_mean"].items())
          + f"; mean rounds {report['rounds_mean']:.2f}")
    print("Survival (share of games each model ends in play):")
    for m, v in report["survival"].items():
        print(f"  {m:<16} {v:6.1%}")
