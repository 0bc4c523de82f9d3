"""Movement rules as pure functions (E-MOVE-KIND, E-MOVE-LADDER, E-FALL).

No geometry here: budgets from Speed, what a vertical move costs, how many Agility
rolls a fall takes. The table (``maps/table_movement.py``) applies them to paths.

>>> movement_budget(5, "walk"), movement_budget(5, "run"), movement_budget(5, "climb")
(5.0, 10.0, 3.0)
>>> fall_rolls(5, 6), fall_rolls(6, 6)        # the rulebook example: SPD 6
(1, 2)
"""

from __future__ import annotations

import math
from enum import Enum

from ...errors import RuleInputError


class MoveKind(str, Enum):
    """The kinds of Movement (E-MOVE-KIND)."""

    IDLE = "idle"
    WALK = "walk"
    RUN = "run"
    CLIMB = "climb"
    JUMP = "jump"

    def __str__(self) -> str:
        return self.value


MOVE_KINDS = tuple(k.value for k in MoveKind)


def move_kind(kind: MoveKind | str) -> MoveKind:
    """``kind`` as a :class:`MoveKind` (a clear error names the choices)."""
    try:
        return MoveKind(kind.lower() if isinstance(kind, str) else kind)
    except ValueError:
        raise RuleInputError(f"unknown movement kind {kind!r}; choose one of {', '.join(MOVE_KINDS)}") from None


def half_up(value: float) -> float:
    """Halved, rounded up (E-MOD-HALF): ``half_up(5) == 3``, ``half_up(4) == 2``."""
    return float(math.ceil(value / 2 - 1e-12))


def movement_budget(spd: float, kind: MoveKind | str = MoveKind.WALK) -> float:
    """How far (inches) a model with Speed ``spd`` may move (E-MOVE-KIND).

    Walk: SPD. Run: 2 × SPD. Climb: SPD halved, rounded up. Jump: SPD / 2, also
    rounded up (E-MOD-HALF: halving an attribute rounds up). Idle: 0 (rotate only).
    """
    if spd < 0 or not math.isfinite(spd):
        raise RuleInputError(f"Speed must be 0 or more, got {spd!r}")
    k = move_kind(kind)
    if k is MoveKind.IDLE:
        return 0.0
    if k is MoveKind.WALK:
        return float(spd)
    if k is MoveKind.RUN:
        return 2.0 * spd
    return half_up(spd)


def vertical_cost(rise: float, *, ladder: bool = False, narrow: bool = False) -> float:
    """Movement spent on a vertical move of ``rise`` inches (E-MOVE-LADDER).

    Along a ladder, or along a surface narrower than the model's base, vertical
    movement costs double; otherwise it costs its length.

    >>> vertical_cost(3, ladder=True), vertical_cost(3)
    (6.0, 3.0)
    """
    rise = abs(float(rise))
    return 2.0 * rise if (ladder or narrow) else rise


def crosses_freely(obstacle_height: float, hitbox_height: float, tol: float = 1e-9) -> bool:
    """Whether an obstacle this tall (above the surface the model stands on) is crossed
    at no extra cost: no taller than the model's hitbox (E-MOVE-KIND).

    >>> crosses_freely(1.0, 1.77), crosses_freely(2.0, 1.77)
    (True, False)
    """
    return obstacle_height <= hitbox_height + tol


def is_fall(drop: float, hitbox_height: float, tol: float = 1e-9) -> bool:
    """A drop to a lower surface is a fall when it is more than the hitbox height;
    a smaller one is a step, part of crossing freely (interpretation, docs/movement.md)."""
    return drop > hitbox_height + tol


def fall_rolls(fall: float, spd: float) -> int:
    """Agility rolls for a fall of ``fall`` inches (E-FALL).

    A model that falls more than half its Speed rolls once for every whole interval of
    half its Speed: ``floor(fall / (SPD / 2))`` when ``fall > SPD / 2``, else none.

    >>> [fall_rolls(h, 6) for h in (2, 3, 3.5, 5, 6, 9)]
    [0, 0, 1, 1, 2, 3]
    """
    if spd <= 0 or not math.isfinite(spd):
        raise RuleInputError(f"fall rolls need a Speed above 0, got {spd!r}")
    if fall < 0 or not math.isfinite(fall):
        raise RuleInputError(f"a fall is a height of 0 or more, got {fall!r}")
    half = spd / 2.0
    if fall <= half + 1e-9:
        return 0
    return int(math.floor(fall / half + 1e-9))
