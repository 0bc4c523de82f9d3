"""Measurement modes as a policy over distance queries (E-MODE)."""

from __future__ import annotations

from enum import Enum

from ...errors import MeasurementRefused, RuleInputError


class Mode(str, Enum):
    ASSISTED = "assisted"
    STANDARD = "standard"
    REALISM = "realism"

    def __str__(self) -> str:
        return self.value


MODES = tuple(m.value for m in Mode)


def parse_mode(mode: Mode | str) -> Mode:
    """A :class:`Mode` from itself or its name (any case); a clear error for another."""
    if isinstance(mode, Mode):
        return mode
    try:
        return Mode(str(mode).strip().lower())
    except ValueError:
        raise RuleInputError(f"unknown measurement mode {mode!r}; use {', '.join(MODES)} (E-MODE)") from None


def premeasure_limit(awareness: float | None, movement: float | None) -> float:
    """Standard mode: how far a model may pre-measure, max(Awareness, Movement).

    A missing attribute counts as 0: such a model may pre-measure only contact.
    """
    return max(awareness or 0.0, movement or 0.0)


def apply_mode(mode: Mode, distance: float, *, limit: float, declared: bool, asker: str,
               what: str = "distance") -> tuple[float | None, float | None]:
    """What the asking model may learn of ``distance``: ``(exact or None, beyond or None)``.

    Assisted, or a query that resolves a declared action: exact. Standard: exact
    within ``limit`` of the asker, else only "beyond ``limit``". Realism: refused.
    """
    if declared or mode is Mode.ASSISTED:
        return distance, None
    if mode is Mode.REALISM:
        raise MeasurementRefused(
            f"realism mode: {asker} may not pre-measure the {what}; measuring happens only while "
            "resolving a declared action or movement (pass declared=True for that, "
            "or use mode='assisted')")
    if distance <= limit:
        return distance, None
    return None, limit
