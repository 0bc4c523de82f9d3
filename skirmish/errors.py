"""One hierarchy of errors: every refusal the engine makes is a ``SkirmishError``.

Messages name the input, the place and, where there is one, the fix. The CLI
prints them without a traceback and exits 2.
"""

from __future__ import annotations


class SkirmishError(Exception):
    """Root of every error the engine raises on purpose."""


class ScenarioError(SkirmishError, ValueError):
    """A scenario file (or value) breaks the format: names file, entry and field."""


class UnitError(SkirmishError, ValueError):
    """A length or angle could not be read."""


class UnknownIdError(SkirmishError, LookupError):
    """A model, scenery piece, weapon or template name that does not exist."""

    def __str__(self) -> str:  # LookupError would repr() the message
        return str(self.args[0]) if self.args else ""


class MeasurementRefused(SkirmishError):
    """The measurement mode forbids this pre-measure (E-MODE)."""


class IllegalActionError(SkirmishError, ValueError):
    """A declared action breaks a rule (no LoS, out of reach, illegal path, ...)."""


class RuleInputError(SkirmishError, ValueError):
    """Inputs to a rule calculation are out of their domain (e.g. a negative Strike)."""
