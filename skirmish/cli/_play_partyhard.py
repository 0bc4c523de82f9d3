"""``skirmish play`` on a grid: Party Hard games (one logged game, or ``--games N``).

The JSON shapes are documented in docs/partyhard.md ("skirmish play").
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import SkirmishError
from ..game.partyhard import GameEvent, GameResult, play_game
from ..game.policy import parse_policy_specs
from ..maps.grid import Grid
from ..rules.partyhard.log import FightLog
from ..scale import ci95, ci95_text, job_rng, run_jobs
from ..scenario.load import load
from ..wording import count
from ._games import game_number, per_file, replay_hint
from ._output import emit_json
from ._progress import progress_bar

GAME = "partyhard"


def play(args: argparse.Namespace, board: Any) -> int:
    if not isinstance(board, Grid):
        raise SkirmishError(f"{args.scenario}: Party Hard is played on a grid of rooms")
    if len(board.players) < 2:
        raise SkirmishError(f"{args.scenario}: a game needs two players or more; the scenario has "
                            f"{', '.join(board.players) or 'none'}")
    seed = args.seed  # (0 or more: the argument's type, seed_value)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    parse_policy_specs(args.policy, board.players, GAME, default="greedy")  # refuse a bad --policy before playing
    if args.games is None:
        policies = parse_policy_specs(args.policy, board.players, GAME, default="greedy")
        game = game_number(args)
        result = play_game(board, policies, job_rng(seed, game), seed=seed)
        if args.json:
            for event in result.events:
                for obj in event.json_lines():
                    emit_json(obj, indent=None)
            emit_json({"seed": seed, "game": game, **result.summary()}, indent=None)
            return 0
        print(f"Seed {seed} (replay with {replay_hint(seed, game)})")
        for event in result.events:
            line = event_line(event)
            if line:
                print(line)
        print(result_line(result))
        return 0
    return _many(args, board, seed)


# -- many games ---------------------------------------------------------------------------------

@per_file(maxsize=4)
def _board(source: str) -> Grid:
    """The grid scenario file, read once per process (pool workers), again once edited."""
    g = load(source)
    assert isinstance(g, Grid)
    return g


def one_game(job: tuple[str, str | None, int, int]) -> dict[str, Any]:
    """Game ``i`` of a ``--games`` run (a module-level function: it is pickled)."""
    source, spec, seed, i = job
    board = _board(source)
    policies = parse_policy_specs(spec, board.players, GAME, default="greedy")
    r = play_game(board, policies, job_rng(seed, i), seed=seed)
    return {"winner": r.winner, "turns": r.turns, "restored": dict(r.restored)}


def report(results: list[dict[str, Any]], players: tuple[str, ...], seed: int, policy: str | None) -> dict[str, Any]:
    """The ``--games`` report; ``win_share_ci95`` / ``draw_share_ci95`` are each share's 95 % Wilson interval."""
    n = len(results)
    wins = {p: sum(1 for r in results if r["winner"] == p) for p in players}
    draws = sum(1 for r in results if r["winner"] is None)
    restored: dict[str, int] = {}
    for r in results:
        for c, k in r["restored"].items():
            restored[c] = restored.get(c, 0) + k
    return {"games": n, "seed": seed, "policy": policy or "greedy", "wins": wins,
            "win_share": {p: wins[p] / n for p in players},
            "win_share_ci95": {p: ci95(wins[p], n) for p in players},
            "draws": draws, "draw_share": draws / n, "draw_share_ci95": ci95(draws, n),
            "mean_turns": sum(r["turns"] for r in results) / n, "restored": restored,
            "restored_per_game": {c: k / n for c, k in restored.items()}}


def _many(args: argparse.Namespace, board: Grid, seed: int) -> int:
    if not board.source:
        raise SkirmishError("--games needs the scenario as a file")
    jobs = [(board.source, args.policy, seed, i) for i in range(args.games)]
    with progress_bar(len(jobs), "games", unit="game") as update:
        results = run_jobs(one_game, jobs, workers=args.workers, backend=args.backend, scheduler=args.scheduler,
                           progress=update)
    rep = report(results, board.players, seed, args.policy)
    if args.json:
        emit_json(rep)
        return 0
    print(f"{count(rep['games'], 'game')}, seed {seed}, policy {rep['policy']} (the same report for any --workers)")
    for p in board.players:
        print(f"  {p:<10} wins {rep['wins'][p]:>5}  ({100 * rep['win_share'][p]:.1f}%; "
              f"{ci95_text(rep['wins'][p], rep['games'])})")
    draw_ci = f"; {ci95_text(rep['draws'], rep['games'])}" if rep["draws"] else ""
    print(f"  {'draws':<10}      {rep['draws']:>5}  ({100 * rep['draw_share']:.1f}%{draw_ci})")
    print(f"  mean turns {rep['mean_turns']:.2f}")
    print("  restored: " + ", ".join(f"{c} {k} ({rep['restored_per_game'][c]:.2f} a game)"
                                     for c, k in rep["restored"].items()))
    sys.stdout.flush()
    return 0


# -- text ------------------------------------------------------------------------------------------

def _room(r: Any) -> str:
    return f"({r[0]}, {r[1]})"


#: Events that spend or hand over Anima: their text, printed with every player's Anima after.
_SPENDING: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "restore": lambda d: f"restores {d['actor']} in {_room(d['room'])} (-{d['spent']} Anima)",
    "teleport": lambda d: f"teleports {d['actor']} {_room(d['frm'])} -> {_room(d['to'])} (-{d['spent']})",
    "buy": lambda d: f"buys back {d['card']} for {d['actor']} (-{d['spent']})",
    "discard": lambda d: f"discards {d['card']} of {d['actor']} (+{d['gained']})",
    "give": lambda d: f"gives {d['amount']} Anima to {d['to']}",
    "open": lambda d: f"opens the vault in {_room(d['room'])} (-{d['spent']})",
}


def event_line(e: GameEvent) -> str | None:
    d = e.data
    head = f"T{e.turn} {e.player}:" if e.player else f"T{e.turn}:"
    k = e.kind
    if k == "start":
        lairs = ", ".join(f"({r}) {n}" for r, n in d["lairs"].items()) or "none"
        vaults = ", ".join(f"({r}) {v['price']} Anima" for r, v in d["vaults"].items()) or "none"
        return f"Start: players {', '.join(d['players'])}; Anima {_per_player(e.anima)}; lairs {lairs}; vaults {vaults}"
    if k == "move":
        return f"{head} {d['actor']} moves {_room(d['frm'])} -> {_room(d['to'])}"
    if k == "skip":
        heal = f" (Full Health, +{d['healed']})" if d["healed"] else ""
        return f"{head} {d['actor']} skips in {_room(d['room'])}{heal}"
    if k == "attack":
        return f"{head} {d['actor']} attacks {d['defender']} in {_room(d['room'])}"
    if k == "lay-out":
        return f"{head} lays out {', '.join(d['creatures']) or 'nothing (the deck is empty)'} in {_room(d['room'])}"
    if k == "fight" and e.log is not None:
        log = e.log
        winner = "the creatures win" if log.winner == "creatures" else f"{log.winner} wins"
        how = f"{winner} in round {log.rounds}" if log.winner else f"undecided after {log.rounds} rounds"
        who = ", ".join(f"{s}: {' '.join(ids)}" for s, ids in log.rows.items())
        joined = [n.actor for n in log.events if getattr(n, "kind", None) == "join"]
        more = f"; joined: {', '.join(joined)}" if joined else ""
        return f"{head} fight in {_room(log.room)} ({d['why']}) — {who}{more} -> {how}{_losses(log)}"
    if k == "rewards":
        return (f"{head} rewards {count(d['items'], 'item')}, {count(d['abilities'], 'ability', 'abilities')}: "
                f"{', '.join(d['cards']) or 'decks empty'}")
    if k == "loot":
        got = (f"{d['to']}" + (f" (replacing {d['replaced']})" if d.get("replaced") else "") if d["to"]
               else f"+{d['anima_gained']} Anima")
        return f"{head} {d['card']} -> {got}  [Anima {_per_player(e.anima)}]"
    spend = _SPENDING.get(k)
    if spend is not None:
        return f"{head} {spend(d)}  [Anima {_per_player(e.anima)}]"
    if k == "out":
        return f"{head} is out: {d['reason']}"
    return None


def _losses(log: FightLog) -> str:
    """``; defeated: ranger, rogue (blue), knight (red); retreated: mage -> (2, 0)``: every
    fighter that fell, of both sides, and every one that left, with its room (P-RETREAT)."""
    by_side: dict[str, list[str]] = {}
    for fid in log.defeated:
        by_side.setdefault(log.final[fid].side, []).append(fid)
    out = ""
    if by_side:
        out += "; defeated: " + ", ".join(f"{', '.join(ids)} ({side})" for side, ids in by_side.items())
    if log.retreated:
        out += "; retreated: " + ", ".join(f"{fid} -> {_room(to)}" for fid, to in log.retreated.items())
    return out


def _per_player(anima: Mapping[str, int]) -> str:
    """``red 20, blue 0``."""
    return ", ".join(f"{p} {n}" for p, n in anima.items())


def result_line(r: GameResult) -> str:
    alive = {p: [c for c, v in r.characters().items() if v["player"] == p and v["alive"]] for p in r.final.players}
    standing = "; ".join(f"{p}: {', '.join(ids) or 'none'}" for p, ids in alive.items())
    anima = _per_player(r.final.anima)
    if r.winner:
        return f"Result: {r.winner} wins after {count(r.turns, 'turn')} — standing {standing}; Anima {anima}"
    return f"Result: a draw after {count(r.turns, 'turn')} — standing {standing}; Anima {anima}"
