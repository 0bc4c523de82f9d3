"""skirmish: a continuous-space engine for miniatures skirmish games.

>>> import skirmish
>>> table = skirmish.load("scenarios/first-steps.toml")
>>> round(table.distance("akane", "brute"), 3)
5.0
"""

from .errors import (
    IllegalActionError,
    MeasurementRefused,
    ScenarioError,
    SkirmishError,
    UnitError,
    UnknownIdError,
)
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
