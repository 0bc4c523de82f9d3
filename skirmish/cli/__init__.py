"""The ``skirmish`` command line: a thin layer over the library.

Each command is a module of this package, listed with its one-line help in
:data:`._commands.COMMANDS`: it defines ``register(subparsers)``, which adds its
sub-parser and sets ``func(args) -> int`` as the default. A command line that names a
command imports that command's module alone (and what it needs); the top-level help
lists the commands without importing any.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import SkirmishError, UsageError
from ..game.policy import PolicyFailed
from ..geometry.compiling import on_first_compile
from ._commands import COMMANDS


#: An argument that starts like a negative number (``-1,5``, ``-.5``, ``-3in``) is a
#: value, never an option (no option starts so): Python 3.13's own test.
_NEGATIVE = re.compile(r"^-\.?\d")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are raised (as :class:`UsageError`) so that
    :func:`main` reports them like every other error, in JSON too with ``--json``.
    ``commands``: the sub-parser of each command (on the top-level parser)."""

    commands: Mapping[str, argparse.ArgumentParser] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (``--to -1,5``: argparse before 3.13 takes only a lone number for a value)
        self._negative_number_matcher = _NEGATIVE

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(message, parser=self)


def build_parser(argv: Sequence[str] | None = None) -> _Parser:
    """The parser of every command; with ``argv``, of the command it names alone (its first
    word that is no option: the top level's options take no value), or where it names none,
    of the top level alone (the commands listed with their help, for ``--help`` and the
    errors). Either parses ``argv`` as the parser of every command does, without importing
    the other commands' modules."""
    parser = _Parser(
        prog="skirmish",
        description="Settle line-of-sight disputes, measure, place templates, move and roll dice "
        "on a miniatures skirmish table.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"skirmish {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    parser.commands = sub.choices
    if argv is None:
        names = list(COMMANDS)
    else:
        named = next((a for a in argv if not a.startswith("-")), None)
        if named not in COMMANDS:  # (the top level's help, version or error: no command runs)
            for name, text in COMMANDS.items():
                sub.add_parser(name, help=text)
            return parser
        names = [named]
    for name in names:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


#: The library's Python spellings in messages, as the CLI spells them.
CLI_WORDS = (
    ("declared=True", "--declared"), ("mode='assisted'", "--mode assisted"), ("on=MODEL", "--on MODEL"),
    ("at=(x, y)", "--at X,Y"), ("by=MODEL", "--by MODEL"), ("toward=MODEL", "--toward MODEL"),
    ("toward=(x, y)", "--toward X,Y"), ("direction=DEGREES", "--direction DEGREES"),
    ("toward= or direction=", "--toward or --direction"), ("toward= and direction=", "--toward and --direction"),
    ("strike must", "--strike must"), ("spacing must", "--spacing must"), ("enemy_weight must", "--enemy-weight must"),
    ("friend_weight must", "--friend-weight must"),
)


def cli_words(message: str) -> str:
    """``message`` with the library's keyword spellings replaced by the CLI's flags."""
    for py, flag in CLI_WORDS:
        message = message.replace(py, flag)
    return message


def _fail(exc: SkirmishError, command: str | None, as_json: bool) -> int:
    """Report an error: the message on stderr and, with ``--json``, also
    ``{"error": message, "kind": kind}`` on stdout. Exit status 2."""
    parser = getattr(exc, "parser", None)
    message = cli_words(str(exc))
    if isinstance(parser, argparse.ArgumentParser):
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
    else:
        print(f"skirmish{' ' + command if command else ''}: error: {message}", file=sys.stderr)
    if isinstance(exc, PolicyFailed) and exc.policy_traceback:
        print("the policy's traceback (most recent call last):\n" + exc.policy_traceback, end="", file=sys.stderr)
    if as_json:
        try:
            json.dump({"error": message, "kind": exc.kind}, sys.stdout)
            sys.stdout.write("\n")
            sys.stdout.flush()
        except BrokenPipeError:  # (`... --json | true`: the reader is gone; the status still says it)
            _drop_stdout()
    return 2


def _drop_stdout() -> None:
    """Point stdout at /dev/null once its reader has gone, so that nothing more written
    to it (nor its flush at exit) raises BrokenPipeError again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


#: What a terminal shows while a fresh install compiles the geometry kernels.
COMPILE_NOTICE = ("skirmish: compiling the geometry kernels for their first use on this machine "
                  "(once: about a minute; cached afterwards)...")


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stderr.isatty():  # (a terminal: tell why the first run waits)
        on_first_compile(lambda: print(COMPILE_NOTICE, file=sys.stderr, flush=True))
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:  # (Ctrl-C, even while the command's modules load: no traceback)
        return 130


def _main(argv: list[str]) -> int:
    as_json = "--json" in argv
    parser = build_parser(argv)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # report an unknown option with the command's own usage, not the top level's
            parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    except SkirmishError as exc:  # a usage error exits as argparse's do (SystemExit 2)
        raise SystemExit(_fail(exc, None, as_json)) from None
    as_json = bool(getattr(args, "json", False))
    try:
        return int(args.func(args) or 0)
    except SkirmishError as exc:  # (named as typed: `skirmish chaos odds: error: ...`)
        sub = getattr(args, f"{args.command}_command", None)
        return _fail(exc, f"{args.command} {sub}" if sub else args.command, as_json)
    except BrokenPipeError:  # e.g. `skirmish los ... --all | head`
        _drop_stdout()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
