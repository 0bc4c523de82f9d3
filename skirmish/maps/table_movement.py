"""Movement on the continuous table (E-MOVE-*, E-FALL): a mixin of :class:`Table`.

Kept in its own module so movement can grow without crowding ``table.py``.
"""

from __future__ import annotations


class TableMovement:
    """Movement queries of the table (``plan_move``, ``check_move``, ``movement_range``)."""
