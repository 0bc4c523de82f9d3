"""``skirmish play FILE``: play whole games with policies (Eldfall on a table, Party
Hard on a grid, Spirit island on regions, a Chaos Party duel), once with a log or
many times with a report.

This module only parses and dispatches on the scenario's map kind (a Chaos Party
duel file, ``game = "chaosparty"``, has no map: ``skirmish chaos play`` plays it);
each game's printing lives in its own module with a ``play(args, board) -> int``
function.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from ..errors import SkirmishError
from ..scenario.load import from_dict, parse_toml, read_source
from ._commands import COMMANDS
from ._games import add_game_args, check_game_args
from ._output import add_json_flag

#: map kind -> the private CLI module that plays it
GAMES = {"table": "_play_eldfall", "grid": "_play_partyhard", "regions": "island"}


def register(sub: Any) -> None:
    p = sub.add_parser("play", help=COMMANDS["play"],
                       description="Play a scenario as a whole game: rounds, turns and every choice made by a "
                       "policy per side. One game prints a log; --games N prints win shares and means. "
                       "Game i is seeded from (seed, i): the report is the same for any --workers or backend.")
    p.add_argument("scenario", help="scenario file (.toml): an Eldfall table, a Party Hard grid, Spirit island "
                   "regions or a Chaos Party duel")
    add_game_args(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_game_args(args)
    data = parse_toml(read_source(args.scenario), args.scenario)
    if data.get("game") == "chaosparty":  # a duel file: no map (docs/chaos-format.md)
        from .chaos import run_play
        args.duel = args.scenario
        return run_play(args)
    board = from_dict(data, args.scenario)
    name = GAMES.get(board.kind)
    if name is None:
        raise SkirmishError(f"{args.scenario}: `play` knows no game on a {board.kind} map "
                            f"(it plays: {', '.join(GAMES)})")
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError:
        raise SkirmishError(f"{args.scenario}: the game on a {board.kind} map is not built yet") from None
    return int(module.play(args, board))
