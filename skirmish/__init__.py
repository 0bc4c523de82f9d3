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
from .maps.pieces import Model, Scenery
from .maps.table import CONTACT_TOLERANCE, Measurement, Reach, Table
from .rules.eldfall.modes import Mode
from .rules.eldfall.weapons import ReachBand, Weapon
from .scenario.load import load, loads

__version__ = "0.1.0"

__all__ = [
    "CONTACT_TOLERANCE", "IllegalActionError", "MAPS", "Map", "Measurement", "MeasurementRefused", "Mode",
    "Model", "Reach", "ReachBand", "ScenarioError", "Scenery", "SkirmishError", "Table", "UnitError",
    "UnknownIdError", "Weapon", "load", "loads",
]
