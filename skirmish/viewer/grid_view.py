"""The Party Hard grid of rooms in the viewer: its scene and its session. Pure (no pyglet).

Rooms are unit squares. The map addresses room ``(column, row)`` with rows growing
downwards, as the drawing is read; the viewer's world has y up, so room ``(c, r)`` is
drawn over ``[c, c+1] × [R-r-1, R-r]`` (R = the number of rows) and the top row of
the scenario's drawing is the top of the picture.

Each room shows its sides' rows (P-LINE): a row per side, places 1, 2, 3, 4 from the
left; in a fight the creatures' row faces the players' rows. Every answer — who is in
a room, the rows, the fights, where a piece may move, which step a move takes — is the
map's; the viewer only lays the answers out.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal

import numpy as np
from shapely.geometry import Polygon

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import MovePlan, MoveRange
from ..scenario.dump import default_save_path, write_scenario
from . import palette as P
from .overlays import describe_violation
from .unsaved import UnsavedWork
from .palette import Color
from .scene import (
    HELP_LINES,
    Disc,
    Dot,
    Fill,
    LegendItem,
    Line,
    Prim,
    Scene,
    Text,
    empty_scene,
)

Room = tuple[int, int]
Point2 = tuple[float, float]
CREATURES = "creatures"
ROOM_FILL: Color = (233, 228, 212, 255)
NAMED_FILL: Color = (238, 222, 170, 255)
WALL: Color = (60, 48, 40, 255)
DOORWAY: Color = (200, 190, 168, 255)
FIGHT: Color = (230, 57, 70, 255)
CREATURE: Color = (112, 84, 140, 255)
PIECE_R = 0.08


def is_grid(m: Map) -> bool:
    return getattr(m, "kind", "") == "grid"


def grid_colors(grid: Any) -> dict[str, Color]:
    """Players' colours as on the table; the creatures in violet."""
    out = P.side_colors([s for s in grid.sides if s != CREATURES])
    out[CREATURES] = CREATURE
    return out


class Layout:
    """Where things of a grid are drawn (world coordinates, y up)."""

    def __init__(self, grid: Any) -> None:
        self.grid = grid
        self.rows = grid.size[1]
        self.pieces: dict[str, Point2] = {}
        for room in grid.rooms:
            rows = grid.rows(room.at)
            for side, ids in rows.items():
                for k, pid in enumerate(ids):
                    self.pieces[pid] = self._slot(room.at, side, rows, k, len(ids))

    def origin(self, at: Room) -> Point2:
        """The bottom-left corner of room ``at``."""
        return (float(at[0]), float(self.rows - at[1] - 1))

    def centre(self, at: Room) -> Point2:
        x, y = self.origin(at)
        return (x + 0.5, y + 0.5)

    def to_world(self, pt: tuple[float, ...]) -> Point2:
        """A point of the map's plane (y down) in the viewer's world (y up)."""
        return (float(pt[0]), float(self.rows - pt[1]))

    def room_at(self, x: float, y: float) -> Room | None:
        c, r = int(math.floor(x)), self.rows - 1 - int(math.floor(y))
        return (c, r) if self.grid.has_room((c, r)) else None

    def _slot(self, at: Room, side: str, rows: dict[str, tuple[str, ...]], k: int, n: int) -> Point2:
        x0, y0 = self.origin(at)
        players = [s for s in rows if s != CREATURES]
        if side == CREATURES:
            fy = 0.62
        elif CREATURES in rows:
            fy = 0.4 if len(players) == 1 else 0.44 - 0.24 * players.index(side) / max(1, len(players) - 1)
        else:
            fy = 0.6 - 0.28 * players.index(side) / max(1, len(players) - 1) if len(players) > 1 else 0.5
        span = max(4, n)
        fx = (k + 0.5) / span if n > 4 else 0.17 + 0.22 * k
        return (x0 + fx, y0 + fy)

    def piece_at(self, x: float, y: float, slack: float = 0.02) -> str | None:
        best = None
        for pid, (px, py) in self.pieces.items():
            d = math.hypot(x - px, y - py)
            if d <= PIECE_R + slack and (best is None or d < best[0]):
                best = (d, pid)
        return best[1] if best else None


def _square(x0: float, y0: float, inset: float = 0.0) -> list[Point2]:
    return [(x0 + inset, y0 + inset), (x0 + 1 - inset, y0 + inset), (x0 + 1 - inset, y0 + 1 - inset),
            (x0 + inset, y0 + 1 - inset)]


def grid_scene(grid: Any, colors: dict[str, Color] | None = None, layout: Layout | None = None) -> Scene:
    """Rooms (walls where no room is beyond, doorways between rooms), room names and
    vaults, the fights on, and every piece in its side's row."""
    colors = colors or grid_colors(grid)
    lay = layout or Layout(grid)
    s = empty_scene()
    fights = set(grid.fights())
    for room in grid.rooms:
        x0, y0 = lay.origin(room.at)
        named = bool(room.name) or room.treasure is not None
        s["table"].append(Fill.polygon(_square(x0, y0), NAMED_FILL if named else ROOM_FILL))
        for k in range(1, 4):  # a faint floor grid, a room's four places
            s["table"].append(Line.seg((x0 + 0.06 + k * 0.22, y0 + 0.08), (x0 + 0.06 + k * 0.22, y0 + 0.92),
                                       P.GRID_MINOR, 1.0))
        walls = set(grid.walls(room.at))
        edges = {"south": ((x0, y0), (x0 + 1, y0)), "north": ((x0, y0 + 1), (x0 + 1, y0 + 1)),
                 "west": ((x0, y0), (x0, y0 + 1)), "east": ((x0 + 1, y0), (x0 + 1, y0 + 1))}
        for side, (a, b) in edges.items():
            if side in walls:
                s["scenery"].append(Line.seg(a, b, WALL, 5.0))
            elif side in ("north", "east"):  # each doorway once
                s["scenery"].append(Line.seg(a, b, DOORWAY, 1.5, dash=6.0))
        s["scenery"].append(Text(x0, y0, f"{room.at[0]},{room.at[1]}", P.RULER_TEXT, 7.5, "left", "bottom",
                                 dx=6, dy=4))
        if room.name:
            s["scenery"].append(Text(x0, y0 + 1, room.name, P.INK, 8.5, "left", "top", dx=7, dy=-6, bold=True))
        if room.treasure is not None:
            s["scenery"].append(Text(x0, y0 + 1, f"vault: {room.treasure} Anima", P.INK, 7.5, "left", "top", dx=7,
                                     dy=-20 if room.name else -6))
        if room.at in fights:
            s["scenery"] += Line.outline(Polygon(_square(x0, y0, 0.03)), FIGHT, 3.0)
            s["scenery"].append(Text(x0 + 1, y0 + 1, "FIGHT", P.WHITE, 8, "right", "top", dx=-7, dy=-6,
                                     box=P.with_alpha(FIGHT, 235), bold=True))
    for p in grid.pieces:
        x, y = lay.pieces[p.id]
        col = colors[p.side]
        f = p.fighter
        s["models"].append(Disc(x, y, PIECE_R, col if f.alive else P.with_alpha(col, 110)))
        s["models"].append(Line.ring(x, y, PIECE_R, P.darker(col, 0.45), 2.0, n=40,
                                     dash=4.0 if p.kind == "creature" else None))
        s["models"].append(Text(x, y, str(p.place), P.WHITE, 8, bold=True))
        # labels away from the other rows (creatures above, players below), staggered by place
        up = p.side == CREATURES and len(grid.rows(p.room)) > 1
        shift = 3 + 14 * ((p.place - 1) % 2)
        s["models"].append(Text(x, y + PIECE_R if up else y - PIECE_R, f"{p.id} ♥{f.health}", P.INK, 7.5, "center",
                                "bottom" if up else "top", dy=shift if up else -shift, box=P.LABEL_BOX))
    return s


def range_prims_grid(rng: MoveRange, lay: Layout) -> list[Prim]:
    """The rooms a piece may end its turn in (the map's regions, turned y up)."""
    out: list[Prim] = []
    for region in rng.regions:
        pts = [lay.to_world(p) for p in region[0]]
        poly = Polygon(pts).buffer(-0.02)
        out.append(Fill.of(poly, P.RANGE_FILL))
        out += Line.outline(poly, P.RANGE_EDGE, 2.5)
    return out


def path_prims_grid(plan: MovePlan, lay: Layout, reason: str | None = None) -> list[Prim]:
    """A planned step: from the piece to the next room's centre, blue when legal, red with the reason."""
    pts = np.array([lay.centre((int(r[0]), int(r[1]))) for r in plan.points], dtype=np.float64)
    if plan.model in lay.pieces:
        pts[0] = lay.pieces[plan.model]
    col = P.PATH_OK if plan.legal else P.PATH_BAD
    out: list[Prim] = []
    if len(pts) > 1:
        out += [Line(pts, P.WHITE, 7.0), Line(pts, col, 4.0, dash=None if plan.legal else 8.0)]
    ex, ey = pts[-1]
    out.append(Dot(ex, ey, 6.0, col))
    label = "step here" if plan.legal else (reason or f"refused: {describe_violation(plan)}")
    out.append(Text(ex, ey, label, P.WHITE, 9, dy=-16, box=P.with_alpha(col, 235), bold=True))
    return out


def grid_legend(grid: Any) -> list[LegendItem]:
    colors = grid_colors(grid)
    c, r = grid.size
    items = [LegendItem("title", grid.name or "grid"),
             LegendItem("text", f"{len(grid.rooms)} rooms in {c} × {r} · Party Hard", P.PANEL_DIM),
             LegendItem("heading", "Sides (a row each, places 1–4)")]
    for side in grid.sides:
        n = sum(1 for p in grid.pieces if p.side == side)
        items.append(LegendItem("disc", f"{side} ({n})", colors[side]))
    items += [LegendItem("heading", "Rooms"),
              LegendItem("line", "wall (no room beyond)", WALL),
              LegendItem("dashed", "doorway to the next room", DOORWAY),
              LegendItem("fill", "named room / vault", NAMED_FILL)]
    if grid.fights():
        items.append(LegendItem("ring", "fight on (characters with creatures)", FIGHT))
    return items


# -- the session: events in world units -----------------------------------------------------------

class GridSession(UnsavedWork):
    """The viewer's state over a grid map, with the same interface as :class:`Session`:
    click selects a piece (its movement range and who shares its room); dragging a
    piece to a room plans the move and takes the map's step; ``s`` saves."""

    def __init__(self, grid: Any, *, save_path: str | Path | None = None) -> None:
        if not is_grid(grid):
            raise SkirmishError(f"expected a grid map, got a {getattr(grid, 'kind', '?')} map")
        self.table = grid
        self.colors = grid_colors(grid)
        self.layout = Layout(grid)
        self.save_path = Path(save_path) if save_path else default_save_path(grid.source)
        self.selected: str | None = None
        self.target: str | None = None
        self.tool: Literal["select"] = "select"
        self.show_help = False
        self.show_profile = False
        self.show_legend = False
        self.show_range = True
        self.move_plan: MovePlan | None = None
        self.message = "click a piece to select it · drag it to a room to move · h for help"
        self.error = False
        self.hover_text = ""
        self.table_version = 0
        self.overlay_version = 0
        self.slop = 0.02
        self._press: tuple[str | None, Point2] | None = None
        self._pointer: Point2 | None = None
        self._moved = False
        self._static: Scene | None = None
        self.mark_saved()

    # -- feedback -------------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        self.message, self.error = text, error
        self.overlay_version += 1

    def _set_grid(self, grid: Any) -> None:
        self.table = grid
        self.layout = Layout(grid)
        self._static = None
        self.table_version += 1
        self.overlay_version += 1
        if self._pointer is not None:  # what is under the pointer may have moved
            self.hover_text = self._describe(*self._pointer)

    def verdict(self) -> None:
        return None

    def info_lines(self) -> tuple[str, list[str], bool]:
        """No info panel on the grid: the status bar says it all."""
        return "", [], False

    def legend(self) -> list[Any]:
        return []

    def profile(self, aspect: float | None = None) -> None:
        return None

    # -- events ---------------------------------------------------------------------------
    def piece_text(self, piece: str) -> str:
        """A piece for people: side, room and place, its stats, items and effects."""
        g = self.table
        f = g.fighter(piece)
        items = ", ".join(i.name for i in f.items)
        effects = ", ".join(f.effects.to_json()) if len(f.effects) else ""
        room = g.room_of(piece)
        return (f"{piece} ({g.side_of(piece)}) in room {room[0]},{room[1]}, place {g.place_of(piece)}: "
                f"ATK {f.attack} DEF {f.defense} HP {f.health}/{f.max_health} EN {f.energy}/{f.max_energy}"
                + (f" · {items}" if items else "") + (f" · {effects}" if effects else ""))

    def select(self, piece: str | None) -> None:
        self.selected = piece
        if piece is None:
            self.say("click a piece to select it · drag it to a room to move · h for help")
        else:
            g = self.table
            mates = [o for o in g.occupants(g.room_of(piece)) if o != piece]
            self.say(self.piece_text(piece) + (f" · shares the room with {', '.join(mates)}" if mates else ""))

    def _describe(self, x: float, y: float) -> str:
        pid = self.layout.piece_at(x, y)
        room = self.layout.room_at(x, y)
        return (self.piece_text(pid) if pid else
                f"room {room[0]},{room[1]}: {', '.join(self.table.occupants(room)) or 'empty'}" if room else "")

    def hover(self, x: float, y: float) -> None:
        self._pointer = (x, y)
        text = self._describe(x, y)
        if text != self.hover_text:
            self.hover_text = text
            self.overlay_version += 1

    def press(self, x: float, y: float, *, shift: bool = False, run: bool = False) -> None:
        """A button went down (a piece always moves one room a turn: ``run`` changes nothing)."""
        self._press = (self.layout.piece_at(x, y), (x, y))
        self._moved = False

    def drag(self, x: float, y: float) -> None:
        if self._press is None or self._press[0] is None:
            return
        pid, start = self._press
        if pid is None:
            return
        if not self._moved and math.hypot(x - start[0], y - start[1]) < self.slop:
            return
        self._moved = True
        room = self.layout.room_at(x, y)
        if room is None:
            self.move_plan = None
            self.say(f"{pid}: no room there", error=True)
            return
        self._plan(pid, room)

    def _plan(self, pid: str, room: Room) -> None:
        try:
            self.move_plan = self.table.plan_move(pid, room)
        except SkirmishError as exc:
            self.move_plan = None
            self.say(f"cannot move {pid}: {exc}", error=True)
            return
        p = self.move_plan
        note = p.notes[0] if p.notes else ""
        self.say(f"{pid}: {note}" if p.legal else f"{pid}: refused: {describe_violation(p)}", error=not p.legal)

    def release(self, x: float, y: float) -> None:
        press, self._press = self._press, None
        if press is None:
            return
        pid, _ = press
        if not self._moved:
            self.select(self.layout.piece_at(x, y))
            return
        plan, self.move_plan = self.move_plan, None
        if pid is None or plan is None:
            return
        if not plan.legal:
            self.say(f"move refused: {describe_violation(plan)}", error=True)
            return
        step = tuple(int(v) for v in plan.points[-1])
        if step == tuple(self.table.room_of(pid)):
            return
        self._set_grid(self.table.moved(pid, step))
        self.selected = pid
        self.say(f"{pid} moved to room {step[0]},{step[1]}" + (f" · {plan.notes[-1]}" if len(plan.notes) > 1 else ""))

    def key(self, name: str) -> None:
        if self.confirm_quit:
            self.answer_quit(name)
        elif name == "h":
            self.show_help = not self.show_help
        elif name == "s":
            try:
                self.say(f"saved to {self.save()}")
            except SkirmishError as exc:
                self.say(str(exc), error=True)
        elif name == "r":
            self.show_range = not self.show_range
        elif name == "escape":
            self.show_help = False
            self.move_plan = None
            self.select(None)
        self.overlay_version += 1

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path) if path else self.save_path
        written = write_scenario(self.table, target, hint=" (a fighter is not at full Health and Energy)")
        self.mark_saved()
        return written

    # -- scenes -----------------------------------------------------------------------------
    def static_scene(self) -> Scene:
        if self._static is None:
            self._static = grid_scene(self.table, self.colors, self.layout)
        return self._static

    def overlay_scene(self) -> Scene:
        s = empty_scene()
        if self.selected is not None:
            x, y = self.layout.pieces[self.selected]
            s["overlays"].append(Line.ring(x, y, PIECE_R + 0.02, P.SELECTED, 3.0, n=48))
            if self.show_range:
                try:
                    s["underlay"] += range_prims_grid(self.table.movement_range(self.selected), self.layout)
                except SkirmishError as exc:
                    self.message, self.error = str(exc), True
            g = self.table
            for r in g.line_of_sight_pairs([(self.selected, o) for o in g.model_ids if o != self.selected]):
                if r.visible:  # the map: sight is sharing a room
                    bx, by = self.layout.pieces[r.to]
                    s["overlays"].append(Line.seg((x, y), (bx, by), P.with_alpha(P.LOS_VISIBLE, 200), 2.0))
        if self.move_plan is not None:
            s["overlays"] += path_prims_grid(self.move_plan, self.layout)
        return s

    def help_lines(self) -> list[tuple[str, str]]:
        return [("left click", "select a piece: where it may move this turn, who shares its room"),
                ("left drag a piece", "to a room: the map's step toward it (one room a turn), or why not"),
                ("r", "show / hide the movement range"),
                *[line for line in HELP_LINES if line[0] in ("wheel / right drag", "s", "h")]]

    def status(self) -> str:
        hover = f"   ·   {self.hover_text}" if self.hover_text else ""
        return f"{self.message}{hover}"
