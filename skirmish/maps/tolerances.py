"""Tolerances of movement on the table, shared by Walk, Run, Climb and Jump."""

#: Heights closer than this (inches) are the same surface.
Z_TOL = 1e-3
#: Two pieces closer than this touch (E-CONTACT); the table's CONTACT_TOLERANCE.
CONTACT = 1e-3

#: The longest table side and the greatest height skirmish accepts, in inches (20 ft):
#: larger tables, and points further off, are refused rather than searched for minutes.
MAX_EXTENT = 240.0


def far_off_table(p: tuple[float, ...], width: float, depth: float) -> bool:
    """Whether the point ``p`` ((x, y) or (x, y, z), inches) lies further off a ``width`` x
    ``depth`` table than the table's own size, or below the table or above :data:`MAX_EXTENT`:
    no aim for a move (no base ends there, and the geometry's rounding eats it)."""
    return not (-width <= p[0] <= 2 * width and -depth <= p[1] <= 2 * depth) or \
        (len(p) == 3 and not 0 <= p[2] <= MAX_EXTENT)
