"""Shared helpers for CLI commands: JSON output and small formatting."""

from __future__ import annotations

import json
import sys
from typing import Any


#: Decimal places of every float in every command's JSON (1e-6 in is 25 nm).
JSON_DECIMALS = 6


def rounded(obj: Any) -> Any:
    """``obj`` with every float rounded to :data:`JSON_DECIMALS` places (one precision
    for every command; exact probabilities are fraction strings and are untouched)."""
    if isinstance(obj, float):
        r = round(obj, JSON_DECIMALS)
        return 0.0 if r == 0 else r
    if isinstance(obj, dict):
        return {k: rounded(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(v) for v in obj]
    return obj


def emit_json(obj: Any, *, indent: int | None = 2) -> None:
    """Print ``obj`` as JSON (one document, keys in insertion order, floats rounded to
    :data:`JSON_DECIMALS` places); ``indent=None`` prints it on one line."""
    json.dump(rounded(obj), sys.stdout, indent=indent, allow_nan=False)
    sys.stdout.write("\n")


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON (schema in docs/cli.md)")
