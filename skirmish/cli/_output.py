"""Shared helpers for CLI commands: JSON output and small formatting."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(obj: Any) -> None:
    """Print ``obj`` as JSON (one document, indented, keys in insertion order)."""
    json.dump(obj, sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON (schema in docs/cli.md)")
