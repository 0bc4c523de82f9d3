"""What the user is doing with the table, without any window: selection, tools, drags,
edits, and the scenes they produce. Pure (no pyglet): the window only turns pyglet
events into these calls, in table inches, and draws :meth:`Session.world_scene`.

Every verdict shown comes from the map: LoS from ``line_of_sight_pairs``, distances
from ``measure`` and the mode policy, paths from ``plan_move``, ranges from
``movement_range``. The session only remembers which answers to show.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..analysis.heatmap import Heatmap, heatmap
from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import LineOfSight, MovePlan, MoveRange
from ..maps.table import Table
from ..maps.table_attack import Attack, attack
from ..maps.template_results import TemplateResult
from ..rules.eldfall.templates import TEMPLATES, template_spec
from ..scenario.dump import default_save_path, write_scenario
from . import palette as P
from .heat import heat_prims
from .overlays import (
    describe_violation,
    path_prims,
    range_prims,
    supports_movement,
    supports_templates,
    template_prims,
    template_summary,
)
from .scene import (
    HELP_LINES,
    MOVE_HELP,
    TEMPLATE_HELP,
    LegendItem,
    MeasureAnswer,
    Profile,
    Scene,
    all_sight_scene,
    describe_point,
    empty_scene,
    legend_items,
    measure,
    measure_prims,
    merge,
    nearest_model,
    profile_slice,
    selection_scene,
    table_scene,
)
from .unsaved import UnsavedWork

if TYPE_CHECKING:
    from .grid_view import GridSession

Tool = Literal["select", "measure", "template"]
Point2 = tuple[float, float]

#: Cell size of the viewer's exposure heatmap (key x), inches.
HEAT_STEP = 2.0
#: How far one key press turns the selected model (degrees).
TURN_STEP = 15.0


def make_session(m: Map, *, save_path: str | Path | None = None) -> Session | GridSession:
    """The session for a map: the continuous table, or the Party Hard grid."""
    from .grid_view import GridSession, is_grid

    if is_grid(m):
        return GridSession(m, save_path=save_path)
    return Session(m, save_path=save_path)  # type: ignore[arg-type]  # refuses other maps clearly


@dataclass
class _Drag:
    kind: Literal["move", "measure", "none"]
    model: str | None
    start: Point2
    moved: bool = False
    shift: bool = False
    run: bool = False


class Session(UnsavedWork):
    """The viewer's state over one table. Call the event methods with table coordinates."""

    def __init__(self, table: Table, *, save_path: str | Path | None = None) -> None:
        if not isinstance(table, Table):
            raise SkirmishError(f"the viewer draws the continuous table; this scenario is a {table.kind} map")
        self.table = table
        self.colors = P.side_colors(table.sides)
        self.save_path = Path(save_path) if save_path else default_save_path(table.source)
        self.selected: str | None = None
        self.target: str | None = None
        self.tool: Tool = "select"
        self.show_help = False
        self.show_all = False
        self.show_range = False
        self.show_profile = True
        self.show_legend = False
        self.hovered: str | None = None
        self._attacks: dict[tuple[str, str], Attack | SkirmishError] = {}
        self.measured: MeasureAnswer | None = None
        self.template_names: tuple[str, ...] = tuple(TEMPLATES)
        self.template_name = self.template_names[0]
        self.template: TemplateResult | None = None
        self.template_pinned = False
        self._pointer: Point2 | None = None
        self.move_plan: MovePlan | None = None
        self.message = "click a model to select it · h for help · l legend"
        self.error = False
        self.hover_text = ""
        #: Bumped when the table changes (static layers must be rebuilt) and when any
        #: overlay changes; the window compares them with what it last drew.
        self.table_version = 0
        self.overlay_version = 0
        #: A press and release closer than this (inches) is a click, not a drag.
        self.slop = 0.05
        self._drag: _Drag | None = None
        self._sight: dict[str, list[LineOfSight]] = {}
        self._all: list[LineOfSight] | None = None
        self._range: dict[str, MoveRange | SkirmishError] = {}
        self._static: Scene | None = None
        self.show_heat = False
        self._heat: dict[tuple[str, str], Heatmap] = {}
        self.mark_saved()

    # -- feedback ----------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        self.message, self.error = text, error
        self.overlay_version += 1

    def _changed(self) -> None:
        self.overlay_version += 1

    def _set_table(self, table: Table) -> None:
        self.table = table
        self._sight.clear()
        self._all = None
        self._range.clear()
        self._heat.clear()
        self._attacks.clear()
        self._static = None
        self.table_version += 1
        self.overlay_version += 1
        if self._pointer is not None:  # what is under the pointer may have moved
            self.hover_text = describe_point(table, *self._pointer)

    # -- engine answers (cached per table) -------------------------------------------------
    def sight_from(self, model_id: str) -> list[LineOfSight]:
        """LoS from ``model_id`` to every other model (one batch query, cached)."""
        if model_id not in self._sight:
            others = [m for m in self.table.model_ids if m != model_id]
            self._sight[model_id] = self.table.line_of_sight_pairs([(model_id, o) for o in others]) if others else []
        return self._sight[model_id]

    def all_sight(self) -> list[LineOfSight]:
        if self._all is None:
            self._all = self.table.line_of_sight_all()
        return self._all

    def verdict(self) -> LineOfSight | None:
        """The selected pair's LoS verdict."""
        if self.selected is None or self.target is None or self.selected == self.target:
            return None
        return next((r for r in self.sight_from(self.selected) if r.to == self.target), None)

    def profile(self, aspect: float | None = None) -> Profile | None:
        v = self.verdict()
        return None if v is None or not self.show_profile else profile_slice(self.table, v, self.colors, aspect=aspect)

    def attack_answer(self) -> Attack | SkirmishError | None:
        """Can the selected model attack the second one (shift+click), or else the hovered
        one, and with what odds: the ``skirmish attack`` answer (a refusal is an error)."""
        a = self.selected
        b = self.target if self.target is not None else self.hovered
        if a is None or b is None or a == b:
            return None
        if (a, b) not in self._attacks:
            try:
                self._attacks[(a, b)] = attack(self.table, a, b)
            except SkirmishError as exc:
                self._attacks[(a, b)] = exc
        return self._attacks[(a, b)]

    def info_lines(self) -> tuple[str, list[str], bool]:
        """The info panel: a title, its lines and whether they are a refusal (empty: none)."""
        ans = self.attack_answer()
        if ans is None:
            return "", [], False
        if isinstance(ans, SkirmishError):
            b = self.target if self.target is not None else self.hovered
            return f"{self.selected} cannot attack {b}", [str(ans)], True
        return "attack (skirmish attack)", ans.summary_lines(), False

    def legend(self) -> list[LegendItem]:
        """The window's legend (``l``): sides, sight lines, scenery shades, the selection."""
        sel = self.table.model(self.selected) if self.selected is not None else None
        return legend_items(self.table, sight=True, selection=sel)

    def movement_range(self, model_id: str) -> MoveRange | None:
        if model_id not in self._range:
            try:
                self._range[model_id] = self.table.movement_range(model_id)
            except SkirmishError as exc:
                self._range[model_id] = exc
        r = self._range[model_id]
        if isinstance(r, SkirmishError):
            self.say(f"no movement range: {r}", error=True)
            return None
        return r

    # -- selection --------------------------------------------------------------------------
    def select(self, model_id: str | None, *, as_target: bool = False) -> None:
        if as_target and model_id is not None and self.selected is not None and model_id != self.selected:
            self.target = model_id
            v = self.verdict()
            if v is not None:
                self.say(_verdict_text(v))
        else:
            self.selected, self.target = model_id, None
            if model_id is None:
                self.say("click a model to select it · h for help")
            else:
                rs = self.sight_from(model_id)
                seen = sum(r.visible for r in rs)
                self.say(f"{model_id}: sees {seen} of {len(rs)} models · shift+click another for the profile")
        self._changed()

    def cycle_target(self) -> None:
        if self.selected is None:
            self.say("select a model first", error=True)
            return
        others = [m for m in self.table.model_ids if m != self.selected]
        if not others:
            return
        i = others.index(self.target) + 1 if self.target in others else 0
        self.select(others[i % len(others)], as_target=True)

    # -- pointer events (table inches) ------------------------------------------------------
    def press(self, x: float, y: float, *, shift: bool = False, run: bool = False) -> None:
        """A button went down; with ``run`` (the window's ctrl) a drag Runs instead of Walks."""
        hit = nearest_model(self.table, x, y)
        if self.tool == "template":
            self._drag = _Drag("none", hit, (x, y), shift=shift)
            return
        if self.tool == "measure":
            if hit is None:
                self._drag = _Drag("none", None, (x, y))
                self.say("start a measurement on a model: the model measures (E-MODE)", error=True)
                return
            self._drag = _Drag("measure", hit, (x, y))
            self.measured = None
            self._changed()
            return
        self._drag = _Drag("move" if hit is not None and not shift else "none", hit, (x, y), shift=shift, run=run)

    def hover(self, x: float, y: float) -> None:
        """The pointer moved (no button): say what is under it; a loose template follows it."""
        self._pointer = (x, y)
        if self.tool == "template" and not self.template_pinned:
            self.place_template(x, y)
            return
        hovered = nearest_model(self.table, x, y)
        if hovered != self.hovered:
            self.hovered = hovered
            if self.selected is not None and self.target is None:
                self._changed()  # the attack panel follows the pointer
        if self._drag is None and not self.error:
            text = describe_point(self.table, x, y)
            if text != self.hover_text:
                self.hover_text = text
                self._changed()

    def drag(self, x: float, y: float) -> None:
        d = self._drag
        if d is None or d.kind == "none" or d.model is None:
            return
        if not d.moved and math.hypot(x - d.start[0], y - d.start[1]) < self.slop:
            return
        d.moved = True
        if d.kind == "measure":
            target = nearest_model(self.table, x, y)
            self.measured = measure(self.table, d.model, target if target and target != d.model else (x, y))
            if self.measured.refused:
                self.say(self.measured.refused, error=True)
            else:
                self.say(f"{d.model}: {self.measured.label}")
            self._changed()
        elif d.kind == "move":
            self._preview_move(d.model, (x, y), run=d.run)

    def release(self, x: float, y: float) -> None:
        d, self._drag = self._drag, None
        if d is None:
            return
        if self.tool == "measure":
            if d.kind == "measure" and not d.moved:
                self.say(f"drag from {d.model} to measure")
            return
        if self.tool == "template":  # a click keeps the template where it is; another lets it follow again
            hit = nearest_model(self.table, x, y)
            if d.shift and hit is not None:  # shift+click: the template's user (a spray's attacker)
                self.select(hit)
                self.template_pinned = False
                self.place_template(x, y)
                return
            if self.template_pinned:
                self.template_pinned = False
                self.place_template(x, y)
            else:
                self.place_template(x, y)
                self.template_pinned = self.template is not None
                if self.template_pinned:
                    self.say(self.message + " · kept (click again to move it)", error=self.error)
            return
        if not d.moved:  # a click
            hit = nearest_model(self.table, x, y)
            self.select(hit, as_target=d.shift and hit is not None)
            return
        if d.kind == "move" and d.model is not None:
            self._commit_move(d.model, (x, y), run=d.run)

    # -- templates (the map places them and says who is hit) ----------------------------------
    def place_template(self, x: float, y: float) -> None:
        """Place the current template at the pointer: a circle centred there (on the model
        under it, its main target, if any); a spray from the selected model toward it."""
        spec = template_spec(self.template_name)
        hit = nearest_model(self.table, x, y)
        try:
            if spec.kind == "circle":
                by = self.selected if self.selected is not None and self.selected != hit else None
                res = (self.table.template(spec.name, on=hit, by=by) if hit is not None
                       else self.table.template(spec.name, at=(x, y), by=by))
            else:
                if self.selected is None:
                    self.template = None
                    self.say(f"{spec.name}: select the attacker first (a spray starts at its base)", error=True)
                    return
                toward: str | Point2 = hit if hit is not None and hit != self.selected else (x, y)
                res = self.table.template(spec.name, by=self.selected, toward=toward)
        except SkirmishError as exc:
            self.template = None
            self.say(f"{spec.name}: {exc}", error=True)
            return
        self.template = res
        lines = template_summary(res)
        self.say(" · ".join(lines[:1] + [ln for ln in lines[1:] if "main target" in ln]),
                 error=res.main_target_covered is False)

    def _template_key(self, name: str) -> None:
        if not supports_templates(self.table):
            self.say(f"the {self.table.kind} map does not place area templates", error=True)
            return
        if name == "t":
            self.tool = "select" if self.tool == "template" else "template"
            self.template, self.template_pinned = None, False
            self.say(f"template {self.template_name}: it follows the pointer; click to keep it; c: next template"
                     if self.tool == "template" else "select")
            return
        i = self.template_names.index(self.template_name)
        self.template_name = self.template_names[(i + 1) % len(self.template_names)]
        if self.tool != "template":
            self.tool = "template"
        self.template_pinned = False
        if self._pointer is not None:
            self.place_template(*self._pointer)
        else:
            self.say(f"template {self.template_name}")

    # -- movement (the map plans and checks; the viewer shows and applies) -------------------
    def _preview_move(self, model_id: str, to: Point2, *, run: bool = False) -> None:
        kind = "run" if run else "walk"
        try:
            self.move_plan = self.table.plan_move(model_id, to, kind=kind)
        except SkirmishError as exc:
            self.move_plan = None
            self.say(f"cannot move {model_id}: {exc}", error=True)
            return
        p = self.move_plan
        if p.legal:
            self.say(f"{model_id} {'runs' if run else 'walks'}: {p.length:.2f} in"
                     + (f" of {p.budget:g}" if p.budget is not None else ""))
        else:
            self.say(f"{model_id}: refused: {describe_violation(p)}", error=True)
        self._changed()

    def _commit_move(self, model_id: str, to: Point2, *, run: bool = False) -> None:
        self._preview_move(model_id, to, run=run)
        plan, self.move_plan = self.move_plan, None
        if plan is None:
            return
        if not plan.legal:
            self.say(f"move refused: {describe_violation(plan)}", error=True)
            return
        end = plan.points[-1]
        m = self.table.model(model_id)
        moved = dataclasses.replace(m, x=float(end[0]), y=float(end[1]), z=float(end[2]) if len(end) > 2 else m.z)
        self._set_table(self.table.with_model(moved))
        self.say(f"{model_id} {'ran' if run else 'walked'} {plan.length:.2f} in")

    def heatmap_for(self, model_id: str) -> Heatmap:
        """The exposure heatmap for a model of ``model_id``'s side and size (cached per table)."""
        m = self.table.model(model_id)
        k = (m.side, m.size)
        if k not in self._heat:
            self._heat[k] = heatmap(self.table, m.side, m.size, HEAT_STEP)
        return self._heat[k]

    # -- keys ---------------------------------------------------------------------------------
    def key(self, name: str) -> None:
        """A key by name: h, s, m, t, c, r, a, p, l, q, e, x, tab, escape (and d, answering
        the quit question)."""
        if self.confirm_quit:
            self.answer_quit(name)
        elif name == "h":
            self.show_help = not self.show_help
        elif name == "s":
            try:
                path = self.save()
                self.say(f"saved to {path}")
            except SkirmishError as exc:
                self.say(str(exc), error=True)
        elif name == "m":
            self.tool = "select" if self.tool == "measure" else "measure"
            self.measured = None
            self.say("measure: drag from a model" if self.tool == "measure" else "select")
        elif name in ("t", "c"):
            self._template_key(name)
        elif name == "r":
            self.show_range = not self.show_range
            if self.show_range and self.selected is None:
                self.say("select a model to see its movement range", error=True)
        elif name == "a":
            self.show_all = not self.show_all
            if self.show_all:
                seen = sum(r.visible for r in self.all_sight())
                self.say(f"who sees whom: {seen} of {len(self.all_sight())} ordered pairs have LoS")
        elif name == "p":
            self.show_profile = not self.show_profile
        elif name == "x":
            self.show_heat = not self.show_heat
            if self.show_heat and self.selected is None:
                self.say("select a model to see the exposure of its side", error=True)
            elif self.show_heat and self.selected is not None:
                m = self.table.model(self.selected)
                self.heatmap_for(self.selected)
                self.say(f"exposure of a {m.size} model of {m.side}: enemies that would see it, per "
                         f'{HEAT_STEP:g}" cell (red: many, green: none)')
        elif name == "l":
            self.show_legend = not self.show_legend
        elif name in ("q", "e"):
            self.turn(TURN_STEP if name == "q" else -TURN_STEP)
        elif name == "tab":
            self.cycle_target()
        elif name == "escape":
            self.tool = "select"
            self.measured = None
            self.move_plan = None
            self.template, self.template_pinned = None, False
            self.show_help = False
            self.select(None)
        self._changed()

    def turn(self, degrees: float) -> None:
        """Turn the selected model (an edit of the set-up; E-MOVE-KIND lets Idle rotate)."""
        if self.selected is None:
            self.say("select a model to turn it", error=True)
            return
        m = self.table.model(self.selected)
        self._set_table(self.table.with_model(dataclasses.replace(m, facing=(m.facing + degrees) % 360.0)))
        self.say(f"{m.id} faces {(m.facing + degrees) % 360.0:g}°")

    # -- saving ---------------------------------------------------------------------------------
    def save(self, path: str | Path | None = None) -> Path:
        """Write the (edited) table as a scenario file; it is checked to load back equal."""
        target = Path(path) if path else self.save_path
        written = write_scenario(self.table, target)
        self.mark_saved()
        return written

    # -- scenes -----------------------------------------------------------------------------------
    def static_scene(self) -> Scene:
        """Board, scenery and models (rebuilt only when the table changes)."""
        if self._static is None:
            self._static = table_scene(self.table, self.colors)
        return self._static

    def overlay_scene(self) -> Scene:
        """Everything drawn over the table for the current state."""
        s = empty_scene()
        if self.show_all:
            s = merge(s, all_sight_scene(self.table, self.all_sight()))
        if self.selected is not None:
            s = merge(s, selection_scene(self.table, self.selected, self.sight_from(self.selected),
                                         target=self.target, colors=self.colors))
            if self.show_heat:
                s["underlay"] += heat_prims(self.heatmap_for(self.selected))
            if self.show_range:
                rng = self.movement_range(self.selected)
                if rng is not None:
                    s["underlay"] += range_prims(rng)
        if self.template is not None:
            under, over = template_prims(self.template, self.table)
            s["underlay"] += under
            s["overlays"] += over
        if self.measured is not None:
            s["overlays"] += measure_prims(self.measured)
        if self.move_plan is not None:
            m = self.table.model(self.move_plan.model)
            s["overlays"] += path_prims(self.move_plan, ghost=(m.radius, self.colors[m.side]))
        return s

    def help_lines(self) -> list[tuple[str, str]]:
        """The help overlay's lines for what this map supports."""
        lines = list(HELP_LINES[:2])
        if supports_movement(self.table):
            lines += MOVE_HELP
        if supports_templates(self.table):
            lines += TEMPLATE_HELP
        return lines + list(HELP_LINES[2:])

    def status(self) -> str:
        tool = {"select": "", "measure": "[measure] ", "template": "[template] "}[self.tool]
        hover = f"   ·   {self.hover_text}" if self.hover_text else ""
        return f"{tool}{self.message}   ·   {self.table.mode.value} mode{hover}"


def _verdict_text(v: LineOfSight) -> str:
    if v.visible:
        return f"{v.frm} → {v.to}: VISIBLE (witness shown in the profile)"
    if v.reason == "out_of_arc":
        return f"{v.frm} → {v.to}: out of arc"
    return f"{v.frm} → {v.to}: blocked by {', '.join(v.blockers)}"
