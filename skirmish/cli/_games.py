"""The options every command that plays whole games shares: policies, seed, --games
and where they run (``skirmish play``, ``skirmish chaos play``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

from ..errors import SkirmishError
from ._scale import add_scale_args, scale_kwargs
from ._values import whole_number

T = TypeVar("T")


def seed_value(text: str) -> int:
    """An argparse type for ``--seed``: a whole number 0 or more (Python's generator
    seeds -n as n, so a negative seed would replay another's games)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text!r} (it would replay seed "
                                         f"{-value})")
    return value


def file_stamp(path: str) -> tuple[str, int, int]:
    """``(path, mtime_ns, size)`` of a scenario file: the key of a process's cache of it,
    which an edit of the file changes (a run in the same process reads the new file)."""
    try:
        st = os.stat(path)
    except OSError:  # (the loader names the missing file)
        return path, 0, -1
    return path, st.st_mtime_ns, st.st_size


def per_file(maxsize: int) -> Callable[[Callable[[str], T]], Callable[[str], T]]:
    """A decorator: ``load(path)`` read once per process (pool workers) for each of the
    ``maxsize`` files last asked, and again once the file is edited (:func:`file_stamp`)."""
    def wrap(load: Callable[[str], T]) -> Callable[[str], T]:
        stamped = lru_cache(maxsize=maxsize)(lambda path, mtime_ns, size: load(path))

        @wraps(load)
        def cached(path: str) -> T:
            return stamped(*file_stamp(path))
        return cached
    return wrap


#: An argparse type for ``--game``: a game's number in a run, 0 or more.
game_index = whole_number(0, "a game's number in the run,")


def add_game_args(p: Any, who: str = "side") -> None:
    """``--policy --seed --games --workers --backend --scheduler``."""
    p.add_argument("--policy", metavar="SPEC",
                   help=f"policies per {who}, e.g. red=greedy,blue=random; a bare name applies to every {who} not named; "
                   "package.module:ClassName plugs in your own (default: greedy)")
    p.add_argument("--seed", type=seed_value, help="the seed, 0 or more (default: a fresh one, printed so the game "
                   "can be replayed)")
    p.add_argument("--games", type=int, help="play this many games and report win shares and means")
    p.add_argument("--game", type=game_index, metavar="I",
                   help="one game with its log: game I of the --games run with this --seed (from 0; default 0)")
    add_scale_args(p, "--games")


def one_or_many(one: int | None, many: int | None, noun: str) -> None:
    """Refuse ``--NOUN I`` (one game or trial of a run, with its log) beside ``--NOUNs N``
    (a report on N of them)."""
    if one is not None and many is not None:
        raise SkirmishError(f"--{noun} I plays {noun} I of a run alone, with its log; --{noun}s N reports on N "
                            f"{noun}s: give one of them", kind="usage")


def game_number(args: argparse.Namespace) -> int:
    """The game a single play plays: ``--game``, or game 0 of the run."""
    return 0 if args.game is None else int(args.game)


def replay_hint(seed: int, game: int) -> str:
    """The options that pick the same game again: ``--seed S`` (and ``--game I`` past
    game 0); a command adds its own that change the game (the island's ``--rounds``)."""
    return f"--seed {seed}" + (f" --game {game}" if game else "")


#: Most games one ``--games`` run plays (the report keeps a result per game).
MAX_GAMES = 1_000_000


def check_game_args(args: argparse.Namespace) -> None:
    """Refuse ``--games`` or ``--workers`` below 1, ``--games`` above :data:`MAX_GAMES`, and
    ``--game`` with ``--games`` (one game with its log, or a report of many)."""
    one_or_many(args.game, args.games, "game")
    if args.games is not None and args.games < 1:
        raise SkirmishError(f"--games must be 1 or more, got {args.games}", kind="range")
    if args.games is not None and args.games > MAX_GAMES:
        raise SkirmishError(f"--games must be at most {MAX_GAMES:,} (the report keeps every game's result), got "
                            f"{args.games:,}; play a bigger study as several runs with different --seed", kind="range")
    scale_kwargs(args)  # checks --workers
