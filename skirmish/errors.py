"""One hierarchy of errors: every refusal the engine makes is a ``SkirmishError``.

Messages name the input, the place and, where there is one, the fix. The CLI
prints them without a traceback and exits 2.
"""

from __future__ import annotations


class SkirmishError(Exception):
    """Root of every error the engine raises on purpose.

    ``kind`` names the sort of refusal in one word (the ``kind`` of the CLI's JSON
    error); subclasses set their own, and an instance may be more precise."""

    kind: str = "error"

    def __init__(self, *args: object, kind: str | None = None) -> None:
        super().__init__(*args)
        if kind is not None:
            self.kind = kind


class ScenarioError(SkirmishError, ValueError):
    """A scenario file (or value) breaks the format: names file, entry and field."""

    kind = "scenario"


class UnitError(SkirmishError, ValueError):
    """A length or angle could not be read."""

    kind = "unit"


class UnknownIdError(SkirmishError, LookupError):
    """A model, scenery piece, weapon or template name that does not exist."""

    kind = "unknown_id"

    def __str__(self) -> str:  # LookupError would repr() the message
        return str(self.args[0]) if self.args else ""


class MeasurementRefused(SkirmishError):
    """The measurement mode forbids this pre-measure (E-MODE)."""

    kind = "measurement_refused"


class IllegalActionError(SkirmishError, ValueError):
    """A declared action breaks a rule (no LoS, out of reach, illegal path, ...)."""

    kind = "illegal_action"


class RuleInputError(SkirmishError, ValueError):
    """Inputs to a rule calculation are out of their domain (e.g. a negative Strike)."""

    kind = "rule_input"


class UsageError(SkirmishError, ValueError):
    """The command line itself is wrong: an unknown option, a missing argument."""

    kind = "usage"

    def __init__(self, *args: object, kind: str | None = None, parser: object = None) -> None:
        super().__init__(*args, kind=kind)
        self.parser = parser  # the argparse parser whose usage to print, if any
