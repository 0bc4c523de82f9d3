"""The ``skirmish`` command line: a thin layer over the library.

Every module in this package whose name does not start with ``_`` is a command:
it defines ``register(subparsers)``, which adds its sub-parser and sets
``func(args) -> int`` as the default. New commands need no edit here.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from ..errors import SkirmishError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skirmish",
        description="Settle line-of-sight disputes, measure, place templates, move and roll dice "
        "on a miniatures skirmish table.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"skirmish {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except SkirmishError as exc:
        print(f"skirmish {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `skirmish los ... --all | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
