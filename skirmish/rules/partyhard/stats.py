"""The four stats and their range (P-STAT)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...errors import RuleInputError

STAT_MIN, STAT_MAX = 0, 6
#: The stats in card order: Attack, Defense, Health, Energy.
STATS: tuple[str, ...] = ("attack", "defense", "health", "energy")
StatName = Literal["attack", "defense", "health", "energy"]


def clamp_stat(value: int) -> int:
    """P-STAT: with every bonus and penalty a stat stays in 0..6.

    >>> clamp_stat(9), clamp_stat(-2), clamp_stat(4)
    (6, 0, 4)
    """
    return max(STAT_MIN, min(STAT_MAX, value))


@dataclass(frozen=True)
class Stats:
    """A card's printed stats (each 0..6, P-STAT)."""

    attack: int = 0
    defense: int = 0
    health: int = 1
    energy: int = 0

    def __post_init__(self) -> None:
        for name in STATS:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not STAT_MIN <= v <= STAT_MAX:
                raise RuleInputError(f"{name}: a stat is a whole number {STAT_MIN}..{STAT_MAX} (P-STAT), got {v!r}")

    def __getitem__(self, name: str) -> int:
        if name not in STATS:
            raise RuleInputError(f"no stat {name!r}; the stats are {', '.join(STATS)}")
        return int(getattr(self, name))

    def to_json(self) -> dict[str, int]:
        return {name: self[name] for name in STATS}
