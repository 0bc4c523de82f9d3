"""Arguments shared by the commands that read a scenario file."""

from __future__ import annotations

import argparse
import dataclasses

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.table import Table
from ..rules.eldfall.modes import MODES, Mode
from ..scenario.load import load


def add_scenario_args(parser: argparse.ArgumentParser, *, mode: bool = True) -> None:
    parser.add_argument("scenario", help="scenario file (.toml)")
    if mode:
        parser.add_argument("--mode", choices=MODES, help="measurement mode (E-MODE); overrides the file's mode")


def load_table(args: argparse.Namespace) -> Map:
    """The scenario's map; ``--mode`` (when the command has it) overrides a table's
    measurement mode, and is refused for another kind of map."""
    m = load(args.scenario)
    mode = getattr(args, "mode", None)
    if mode:
        if not isinstance(m, Table):
            raise SkirmishError(f"--mode: measurement modes (E-MODE) apply to the table; {args.scenario} is a "
                                f"{m.kind} map, always measured exactly", kind="map_kind")
        m = dataclasses.replace(m, mode=Mode(mode))
    return m


def require_table(m: Map, what: str) -> Table:
    """The continuous table, or a clear refusal for another kind of map."""
    if not isinstance(m, Table):
        raise SkirmishError(f"{what} needs a continuous table; this scenario is a {m.kind} map", kind="map_kind")
    return m
