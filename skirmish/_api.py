"""The library's public names: what ``skirmish.X`` gives (:mod:`skirmish` imports this
module at the first use of one of them)."""

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

__all__ = [
    "BestTemplate", "CONTACT_TOLERANCE", "Cover", "Grid", "IllegalActionError", "LineOfSight", "MAPS", "Map",
    "Measurement", "MeasurementRefused", "Mode", "Model", "MovePlan", "MoveRange", "Placement", "Reach", "ReachBand",
    "Regions", "ScenarioError", "Scenery", "SkirmishError", "Table", "TemplateResult", "UnitError", "UnknownIdError",
    "Violation", "Weapon", "load", "loads",
]
