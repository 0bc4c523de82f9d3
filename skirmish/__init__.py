"""skirmish: a continuous-space engine for miniatures skirmish games.

>>> import skirmish
>>> table = skirmish.load("scenarios/first-steps.toml")
>>> round(table.distance("akane", "brute"), 3)
5.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    IllegalActionError,
    MeasurementRefused,
    ScenarioError,
    SkirmishError,
    UnitError,
    UnknownIdError,
)

if TYPE_CHECKING:
    from .maps.base import MAPS, Map
    from .maps.grid import Grid
    from .maps.pieces import Model, Scenery
    from .maps.regions import Regions
    from .maps.results import Cover, LineOfSight, MovePlan, MoveRange, Violation
    from .maps.table import CONTACT_TOLERANCE, Measurement, Reach, Table
    from .maps.template_results import BestTemplate, Placement, TemplateResult
    from .rules.eldfall.modes import Mode
    from .rules.eldfall.weapons import ReachBand, Weapon
    from .scenario.load import load, loads

__version__ = "0.1.0"

__all__ = [
    "BestTemplate", "CONTACT_TOLERANCE", "Cover", "Grid", "IllegalActionError", "LineOfSight", "MAPS", "Map",
    "Measurement", "MeasurementRefused", "Mode", "Model", "MovePlan", "MoveRange", "Placement", "Reach", "ReachBand",
    "Regions", "ScenarioError", "Scenery", "SkirmishError", "Table", "TemplateResult", "UnitError", "UnknownIdError",
    "Violation", "Weapon", "load", "loads",
]


def __getattr__(name: str) -> Any:
    """The engine's names (and its subpackages), imported at the first use of one: the
    command line imports only the modules of the command it runs, and starts quicker."""
    _load()
    try:
        return globals()[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    _load()
    return sorted(globals())


def _load() -> None:
    from .maps.base import MAPS, Map
    from .maps.grid import Grid
    from .maps.pieces import Model, Scenery
    from .maps.regions import Regions
    from .maps.results import Cover, LineOfSight, MovePlan, MoveRange, Violation
    from .maps.table import CONTACT_TOLERANCE, Measurement, Reach, Table
    from .maps.template_results import BestTemplate, Placement, TemplateResult
    from .rules.eldfall.modes import Mode
    from .rules.eldfall.weapons import ReachBand, Weapon
    from .scenario.load import load, loads

    globals().update(locals())
