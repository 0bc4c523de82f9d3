"""Colours of the viewer: one place, so pictures, legends and tests agree.

Every colour is an ``(r, g, b, a)`` tuple of 0..255 ints.
"""

from __future__ import annotations

from collections.abc import Sequence

Color = tuple[int, int, int, int]

BACKGROUND: Color = (32, 36, 41, 255)
TABLE: Color = (233, 228, 212, 255)
TABLE_EDGE: Color = (120, 110, 92, 255)
GRID_MINOR: Color = (214, 207, 188, 255)
GRID_MAJOR: Color = (190, 181, 158, 255)
RULER_TEXT: Color = (150, 140, 120, 255)

#: Scenery is shaded by the height of its top: light sand (low) to dark umber (tall).
SCENERY_LOW: Color = (214, 197, 160, 255)
SCENERY_HIGH: Color = (86, 68, 56, 255)
#: Tops at or above this height (inches) get the darkest shade.
SCENERY_MAX_HEIGHT = 8.0
SCENERY_OUTLINE: Color = (60, 48, 40, 255)
LADDER: Color = (150, 92, 28, 255)  # (wood: drawn on the ground beside the piece)
SEE_THROUGH: Color = (158, 184, 133, 255)  # green foliage, as if seen through (opaque)
SEE_THROUGH_OUTLINE: Color = (56, 102, 65, 255)

INK: Color = (28, 30, 34, 255)
WHITE: Color = (255, 255, 255, 255)
LABEL_BOX: Color = (255, 255, 255, 200)
BADGE: Color = (33, 37, 41, 230)

LOS_VISIBLE: Color = (30, 200, 90, 255)
LOS_BLOCKED: Color = (230, 57, 70, 255)
LOS_OUT_OF_ARC: Color = (150, 150, 150, 255)
BLOCKER_FILL: Color = (230, 57, 70, 90)
SELECTED: Color = (255, 214, 10, 255)
TARGET: Color = (0, 200, 255, 255)
AWARENESS: Color = (255, 159, 28, 255)
REACH: tuple[Color, ...] = ((72, 149, 239, 255), (181, 23, 158, 255), (0, 150, 136, 255), (114, 9, 183, 255))
MEASURE: Color = (25, 25, 25, 255)
MEASURE_CLIPPED: Color = (255, 140, 0, 255)
REFUSED: Color = (230, 57, 70, 255)
TEMPLATE: Color = (255, 120, 0, 80)
TEMPLATE_EDGE: Color = (200, 80, 0, 255)
HIT: Color = (255, 120, 0, 255)
PATH_OK: Color = (30, 130, 255, 255)
PATH_BAD: Color = (230, 57, 70, 255)
#: A replayed step (skirmish view/render --replay): its movement, and a Dodge move.
REPLAY_PATH: Color = (225, 0, 160, 255)
REPLAY_DODGE: Color = (0, 175, 170, 255)
RANGE_FILL: Color = (72, 149, 239, 60)
RANGE_EDGE: Color = (72, 149, 239, 255)
PANEL: Color = (24, 27, 31, 255)
PANEL_TEXT: Color = (236, 236, 236, 255)
PANEL_DIM: Color = (150, 155, 160, 255)
PROFILE_SKY: Color = (46, 52, 60, 255)
PROFILE_GROUND: Color = (120, 110, 92, 255)

#: Named sides get a matching colour; any other side takes the next free one.
SIDE_NAMED: dict[str, Color] = {
    "red": (214, 40, 57, 255),
    "blue": (38, 110, 230, 255),
    "green": (44, 160, 90, 255),
    "yellow": (240, 190, 30, 255),
    "orange": (247, 127, 0, 255),
    "purple": (130, 60, 190, 255),
    "black": (40, 40, 40, 255),
    "white": (240, 240, 240, 255),
    "grey": (128, 128, 128, 255),
    "gray": (128, 128, 128, 255),
}
SIDE_CYCLE: tuple[Color, ...] = (
    (214, 40, 57, 255), (38, 110, 230, 255), (44, 160, 90, 255), (240, 190, 30, 255),
    (130, 60, 190, 255), (247, 127, 0, 255), (0, 170, 180, 255), (200, 80, 150, 255),
)


def side_colors(sides: Sequence[str]) -> dict[str, Color]:
    """A colour per side (in order of appearance): its own name's colour, else the next free one.

    >>> side_colors(["red", "blue"])["blue"]
    (38, 110, 230, 255)
    >>> side_colors(["elves", "orcs"])["orcs"]
    (38, 110, 230, 255)
    """
    out: dict[str, Color] = {}
    used = set()
    for s in sides:
        c = SIDE_NAMED.get(s.casefold())
        if c is not None and c not in used:
            out[s] = c
            used.add(c)
    free = [c for c in SIDE_CYCLE if c not in used]
    k = 0
    for s in sides:
        if s not in out:
            out[s] = free[k % len(free)] if free else SIDE_CYCLE[k % len(SIDE_CYCLE)]
            k += 1
    return out


def mix(a: Color, b: Color, t: float) -> Color:
    """``a`` blended towards ``b`` by ``t`` in [0, 1] (all four channels)."""
    t = min(1.0, max(0.0, t))
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def with_alpha(c: Color, alpha: int) -> Color:
    return (c[0], c[1], c[2], alpha)


def darker(c: Color, f: float = 0.35) -> Color:
    return mix(c, (0, 0, 0, c[3]), f)


def lighter(c: Color, f: float = 0.35) -> Color:
    return mix(c, (255, 255, 255, c[3]), f)


def scenery_shade(top: float) -> Color:
    """Fill of a LoS-blocking scenery piece whose top is at ``top`` inches: taller is darker.

    >>> scenery_shade(0) == SCENERY_LOW, scenery_shade(99) == SCENERY_HIGH
    (True, True)
    """
    return mix(SCENERY_LOW, SCENERY_HIGH, top / SCENERY_MAX_HEIGHT)


def luminance(c: Color) -> float:
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0


def text_on(c: Color) -> Color:
    """Ink that reads on a background ``c``: white on dark, near-black on light."""
    return WHITE if luminance(c) < 0.5 else INK
