"""Layers for the features that plug into the viewer: movement (paths, range) and
templates. Pure: each turns the map's answer (``MovePlan``, ``MoveRange``, a template
result) into primitives; nothing here decides whether a move or a hit is legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Polygon

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import MovePlan, MoveRange
from . import palette as P
from .palette import Color
from .scene import Dot, Fill, LegendItem, Line, Prim, Scene, Text, empty_scene, inches


@dataclass
class Extras:
    """Extra world layers and legend rows for a picture."""

    scene: Scene = field(default_factory=empty_scene)
    legend: list[LegendItem] = field(default_factory=list)


def range_prims(rng: MoveRange) -> list[Prim]:
    """Where the model can end its movement: the regions, tinted and outlined."""
    out: list[Prim] = []
    for region in rng.regions:
        if not region:
            continue
        poly = Polygon(region[0], list(region[1:]))
        if poly.is_empty or poly.area <= 0:
            continue
        out.append(Fill.of(poly, P.RANGE_FILL))
        out += Line.outline(poly, P.RANGE_EDGE, 2.0)
    return out


def path_prims(plan: MovePlan, reason: str | None = None) -> list[Prim]:
    """A checked path: blue when legal, red up to the first violation with the reason."""
    pts = np.array([p[:2] for p in plan.points], float)
    if len(pts) == 0:
        return []
    col = P.PATH_OK if plan.legal else P.PATH_BAD
    out: list[Prim] = []
    if len(pts) > 1:
        out.append(Line(pts, P.WHITE, 6.0))
        out.append(Line(pts, col, 3.0, dash=None if plan.legal else 8.0))
    for x, y in pts[1:-1]:
        out.append(Dot(x, y, 3.5, col))
    ex, ey = pts[-1]
    out.append(Dot(ex, ey, 5.0, col))
    budget = f" of {inches(plan.budget)}" if plan.budget is not None else ""
    label = f"{inches(plan.length)}{budget}"
    if plan.fall_rolls:
        label += f" · {plan.fall_rolls} fall roll{'s' if plan.fall_rolls != 1 else ''}"
    if plan.stopped_at_contact:
        label += f" · stops at {plan.stopped_at_contact}"
    if not plan.legal:
        label = reason or describe_violation(plan)
    out.append(Text(ex, ey, label, P.WHITE, 10, dy=16, box=P.with_alpha(col, 235), bold=True))
    return out


def describe_violation(plan: MovePlan) -> str:
    """The first reason a path is illegal, as the map gave it."""
    if not plan.violations:
        return "illegal move"
    v = plan.violations[0]
    return f"refused: {v.what}" + (f" ({v.with_})" if v.with_ else "")


def supports_movement(m: Map) -> bool:
    """Whether the map answers ``plan_move`` / ``movement_range`` (not the protocol's refusal)."""
    return type(m).plan_move is not Map.plan_move


def supports_templates(m: Map) -> bool:
    """Whether the map places area templates."""
    return callable(getattr(m, "templates", None))


def extras_for(table: Map, *, template: str | None = None, template_on: str | None = None,
               range_of: str | None = None, colors: dict[str, Color] | None = None) -> Extras:
    """Extra layers a picture asks for: a movement range, a template placed on a model."""
    ex = Extras()
    if range_of is not None:
        rng = table.movement_range(range_of)
        ex.scene["underlay"] += range_prims(rng)
        ex.legend += [LegendItem("heading", f"Movement of {range_of}"),
                      LegendItem("fill", f"can end its move here ({inches(rng.budget)})", P.RANGE_FILL)]
    if template is not None or template_on is not None:
        if template is None or template_on is None:
            raise SkirmishError("a template needs both --template NAME and --on MODEL")
        raise SkirmishError("templates are not available in this version of the engine yet")
    return ex
