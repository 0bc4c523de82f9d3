"""A laid-out picture (world scene, camera, legend, panels) and the picture's margins:
shared by the table's, the grid's and the island's renderers without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..maps.results import LineOfSight
from .camera import Camera
from .scene import Prim, Profile, Scene

MARGIN = 36
LEGEND_WIDTH = 330


@dataclass
class Composition:
    """A laid-out picture: world scene and camera, screen layers, and the pixel size."""

    width: int
    height: int
    scene: Scene
    camera: Camera
    clip: tuple[int, int, int, int]
    legend: list[Prim]
    panels: list[tuple[list[Prim], list[Prim], Camera]] = field(default_factory=list)
    profiles: list[Profile] = field(default_factory=list)
    sight: list[LineOfSight] = field(default_factory=list)
