"""Arguments shared by the commands that read a scenario file."""

from __future__ import annotations

import argparse
import dataclasses

from ..maps.table import Table
from ..rules.eldfall.modes import MODES, Mode
from ..scenario.load import load


def add_scenario_args(parser: argparse.ArgumentParser, *, mode: bool = True) -> None:
    parser.add_argument("scenario", help="scenario file (.toml)")
    if mode:
        parser.add_argument("--mode", choices=MODES, help="measurement mode (E-MODE); overrides the file's mode")


def load_table(args: argparse.Namespace) -> Table:
    table = load(args.scenario)
    if getattr(args, "mode", None):
        table = dataclasses.replace(table, mode=Mode(args.mode))
    return table
