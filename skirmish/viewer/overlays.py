"""Layers for the features that plug into the viewer: movement (paths, range) and
templates. Pure: each turns the map's answer (``MovePlan``, ``MoveRange``, a template
result) into primitives; nothing here decides whether a move or a hit is legal.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Polygon

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import MovePlan, MoveRange
from ..maps.template_results import TemplateResult
from ..rules.eldfall.templates import template_spec
from . import palette as P
from .palette import Color
from .scene import Disc, Dot, Fill, LegendItem, Line, Prim, Scene, Text, empty_scene, inches


@dataclass
class Extras:
    """Extra world layers and legend rows for a picture."""

    scene: Scene = field(default_factory=empty_scene)
    legend: list[LegendItem] = field(default_factory=list)
    template: TemplateResult | None = None


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


def path_prims(plan: MovePlan, reason: str | None = None, *, ghost: tuple[float, Color] | None = None) -> list[Prim]:
    """A checked path: blue when legal, red (dashed) when not, with the reason. ``ghost``
    (base radius, colour) draws the model's base, faint, where the path ends."""
    pts = np.array([p[:2] for p in plan.points], float)
    if len(pts) == 0:
        return []
    col = P.PATH_OK if plan.legal else P.PATH_BAD
    out: list[Prim] = []
    if ghost is not None:
        r, c = ghost
        out += [Disc(pts[-1][0], pts[-1][1], r, P.with_alpha(c, 90)),
                Line.ring(pts[-1][0], pts[-1][1], r, P.with_alpha(col, 220), 2.0, dash=5.0, n=48)]
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
        label = reason or f"refused: {describe_violation(plan)}"
    out.append(Text(ex, ey, label, P.WHITE, 10, dy=16, box=P.with_alpha(col, 235), bold=True))
    return out


def describe_violation(plan: MovePlan) -> str:
    """The first reason a path is illegal, as the map gave it (callers say "refused")."""
    if not plan.violations:
        return "illegal move"
    v = plan.violations[0]
    return v.what + (f" ({v.with_})" if v.with_ else "")


def template_prims(res: TemplateResult, table: Map) -> tuple[list[Prim], list[Prim]]:
    """A resolved template: ``(under, over)``. Under the models: its area. Over them:
    its outline, an orange ring on every model it hits (with the LoS witness the map
    gave), a grey dashed ring on every model under it that is spared."""
    poly = Polygon(res.outline)
    under: list[Prim] = [Fill.of(poly, P.TEMPLATE)]
    over: list[Prim] = [*Line.outline(poly, P.TEMPLATE_EDGE, 2.5)]
    if res.center is not None:
        over.append(Dot(res.center[0], res.center[1], 3.5, P.TEMPLATE_EDGE))
    for h in res.affected:
        m = table.model(h.id)  # type: ignore[attr-defined]
        (ax, ay, _), (bx, by, _) = h.witness
        over.append(Line.seg((ax, ay), (bx, by), P.with_alpha(P.HIT, 200), 1.5, dash=4.0))
        over.append(Line.ring(m.x, m.y, m.radius + 0.1, P.HIT, 3.5 if h.id == res.main_target else 2.5, n=64))
    for sp in res.spared:
        m = table.model(sp.id)  # type: ignore[attr-defined]
        over.append(Line.ring(m.x, m.y, m.radius + 0.1, P.LOS_OUT_OF_ARC, 2.0, dash=4.0, n=64))
        over.append(Text(m.x, m.y - m.radius, _spared_word(sp.reason, sp.los_reason), P.WHITE, 8, "center", "top",
                         dy=-4, box=P.with_alpha(P.LOS_OUT_OF_ARC, 230)))
    if res.main_target is not None and res.main_target_covered is False:
        m = table.model(res.main_target)  # type: ignore[attr-defined]
        over.append(Text(m.x, m.y - m.radius, "main target not covered", P.WHITE, 9, "center", "top", dy=-22,
                         box=P.with_alpha(P.REFUSED, 235), bold=True))
    return under, over


def _spared_word(reason: str, los_reason: str | None) -> str:
    if reason == "user":
        return "user"
    if reason == "band":
        return "out of band"
    if reason == "aura":
        return "out of the Aura"
    return "out of arc" if los_reason == "out_of_arc" else "no LoS"


def template_summary(res: TemplateResult) -> list[str]:
    """Lines that say what a template does: who it hits, who it spares and why."""
    if res.kind == "spray":
        where = f"from {res.by} toward " + (res.main_target or f"{res.direction or 0:.0f}°")
    else:
        where = f"on {res.main_target}" if res.main_target else (
            f"at ({res.center[0]:.1f}, {res.center[1]:.1f})" if res.center else "")
    out = [f"{res.template} {where}: hits {', '.join(res.affected_ids) or 'nobody'}"]
    out += [f"{sp.id}: {sp.why}" for sp in res.spared]
    if res.main_target is not None and res.main_target_covered is False:
        out.append(f"main target {res.main_target} is not covered: the placement is not legal")
    return out


def supports_movement(m: Map) -> bool:
    """Whether the map answers ``plan_move`` / ``movement_range`` (not the protocol's refusal)."""
    return type(m).plan_move is not Map.plan_move


def supports_templates(m: Map) -> bool:
    """Whether the map places area templates."""
    return callable(getattr(m, "template", None))


def extras_for(table: Map, *, template: str | None = None, template_on: str | None = None, by: str | None = None,
               range_of: str | None = None, colors: dict[str, Color] | None = None) -> Extras:
    """Extra layers a picture asks for: a movement range, a template placed on a model
    (a circle centred on it; a spray from ``by`` toward it). ``by`` is the template's
    user, never hit by its own template."""
    ex = Extras()
    if range_of is not None:
        rng = table.movement_range(range_of)
        ex.scene["underlay"] += range_prims(rng)
        ex.legend += [LegendItem("heading", f"Movement of {range_of}"),
                      LegendItem("fill", f"can end its move here ({inches(rng.budget)})", P.RANGE_FILL)]
    if template is not None or template_on is not None:
        if template is None or template_on is None:
            raise SkirmishError("a template needs both --template NAME and --on MODEL")
        if not supports_templates(table):
            raise SkirmishError(f"the {table.kind} map does not place area templates")
        spec = template_spec(template)
        if spec.kind == "spray":
            if by is None:
                raise SkirmishError(f"{spec.name} starts at its attacker's base: name it with --from MODEL")
            res = table.template(spec.name, by=by, toward=template_on)  # type: ignore[attr-defined]
        else:
            res = table.template(spec.name, on=template_on, by=by)  # type: ignore[attr-defined]
        under, over = template_prims(res, table)
        ex.scene["underlay"] += under
        ex.scene["overlays"] += over
        ex.legend += [LegendItem("heading", f"Template {spec.name}"),
                      LegendItem("fill", "its area", P.with_alpha(P.TEMPLATE, 200)), LegendItem("ring", "hit", P.HIT),
                      LegendItem("ring", "under it, spared", P.LOS_OUT_OF_ARC)]
        for line in template_summary(res):
            for k, part in enumerate(textwrap.wrap(line, 50)):
                ex.legend.append(LegendItem("text", part if k == 0 else "    " + part, P.PANEL_DIM))
        ex.template = res
    return ex
