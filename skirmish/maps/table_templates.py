"""Area-of-effect templates on the continuous table (E-TMPL-*): a mixin of :class:`Table`.

Kept in its own module so templates can grow without crowding ``table.py``.
"""

from __future__ import annotations


class TableTemplates:
    """Template queries of the table."""
