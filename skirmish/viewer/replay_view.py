"""Replay mode: a logged game (``skirmish play --json``) drawn step by step.

Pure (no pyglet): :func:`step_extras` turns one step of a
:class:`~skirmish.game.eldfall.replay.Replay` into world layers (its movement path, the
line from the actor to its target along the logged LoS witness, the path point an
Attack of Opportunity was judged at) and legend rows (round, turn, model, action,
dice); :class:`ReplaySession` is the window's session stepping through the log. What
is drawn is what the log says: nothing is judged or rolled again here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from shapely.geometry import Polygon

from ..game.eldfall.replay import ExchangeRecord, Movement, Replay, Step
from ..maps.table import Table
from ..wording import count
from . import palette as P
from .overlays import Extras
from .palette import Color
from .scene import Dot, Fill, LegendItem, Line, Prim, Scene, Text, empty_scene, inches, merge
from .session import Session

#: The keys of replay mode, for the help overlay (the window maps the arrow keys).
REPLAY_HELP = (
    ("right / left", "replay: next / previous step (activation, reaction or phase roll)"),
    ("home / end", "replay: back to the start / the last step"),
)


def path_line(mv: Movement, color: Color, *, width: float = 3.0, dash: float | None = None) -> list[Prim]:
    """A logged path: a white-backed polyline with a dot at every corner and at its end."""
    pts = np.array([p[:2] for p in mv.path], float)
    out: list[Prim] = []
    if len(pts) > 1:
        out.append(Line(pts, P.with_alpha(P.WHITE, color[3]), width + 3.0))
        out.append(Line(pts, color, width, dash=dash))
        for x, y in pts[1:-1]:
            out.append(Dot(x, y, width + 0.5, color))
    out.append(Dot(pts[-1][0], pts[-1][1], width + 2.0, color))
    return out


def _sight_line(table: Table, actor: str, e: ExchangeRecord | None, target: str, at: tuple[float, ...] | None
                ) -> list[Prim]:
    """The actor's line to its target: green along the logged LoS witness; else a dark
    dashed line between the base centres (or to the path point ``at``)."""
    if e is not None and e.witness is not None:
        (ax, ay, _), (bx, by, _) = e.witness
        return [Line.seg((ax, ay), (bx, by), P.LOS_VISIBLE, 3.0), Dot(ax, ay, 4.5, P.LOS_VISIBLE),
                Dot(bx, by, 4.5, P.LOS_VISIBLE)]
    a = table.model(actor)
    b = (at[0], at[1]) if at is not None else (table.model(target).x, table.model(target).y)
    return [Line.seg((a.x, a.y), b, P.with_alpha(P.WHITE, 200), 4.5), Line.seg((a.x, a.y), b, P.INK, 2.0, dash=6.0)]


def step_scene(rp: Replay, k: int) -> Scene:
    """The overlays of step ``k`` (1..len) on the table as it stands after it."""
    s = empty_scene()
    if k == 0:
        return s
    step = rp.step(k)
    table = rp.table_at(k)
    over = s["overlays"]
    m = table.model(step.model)
    over.append(Line.ring(m.x, m.y, m.radius + 0.15, P.SELECTED, 3.0, n=64))
    if step.role == "reaction":  # the mover's path it reacted to, faint
        mover = next((x for x in rp.sequence_of(k) if x.role == "activation"), None)
        if mover is not None and mover.movement is not None:
            over += path_line(mover.movement, P.with_alpha(P.REPLAY_PATH, 120), width=2.0, dash=6.0)
    if step.movement is not None and step.movement.kind != "idle":
        over += path_line(step.movement, P.REPLAY_DODGE if step.movement.kind == "dodge" else P.REPLAY_PATH)
    if step.dodge_move is not None and step.dodge_move.kind != "idle":
        over += path_line(step.dodge_move, P.REPLAY_DODGE)
    for _, outline in step.templates:  # E-TMPL: each template it placed, under the models
        poly = Polygon(outline)
        s["underlay"].append(Fill.of(poly, P.TEMPLATE))
        over += Line.outline(poly, P.TEMPLATE_EDGE, 2.5)
    act = step.action
    if act is not None and act.target is not None and act.kind != "nothing":
        mine = [e for e in step.exchanges if e.target == act.target and e.witness is not None]
        over += _sight_line(table, step.model, mine[0] if mine else None, act.target, act.at)
        # every model the step attacked: the main target, a split Strike's others, each one under a template
        # (E-STK-SPLIT, E-TMPL), orange where its own exchanges Hit it
        whom = [act.target, *(t for t, _ in act.split), *(e.target for e in step.exchanges if e.target != step.model)]
        for tid in dict.fromkeys(whom):
            t = table.model(tid)
            hit = any(e.hits for e in step.exchanges if e.target == tid)
            over.append(Line.ring(t.x, t.y, t.radius + 0.15, P.HIT if hit else P.TARGET, 3.0,
                                  dash=None if hit else 5.0, n=64))
        if act.at is not None:
            over.append(Dot(act.at[0], act.at[1], 6.0, P.SELECTED))
            over.append(Text(act.at[0], act.at[1], "reacts here", P.INK, 8, dy=-14, box=P.LABEL_BOX))
    return s


def _dice(e: ExchangeRecord) -> str:
    faces = " ".join(f"{d.face}{'!' if d.critical else ''}{'+' if d.hit else '-'}" for d in e.dice)
    return f"d20 {faces}" if faces else ""


def exchange_line(e: ExchangeRecord) -> str:
    """One exchange of the step, as the log has it."""
    parts = [f"vs {e.target} ({e.exchange or e.role})"]
    if e.weapon:
        parts.append(f"{e.weapon}" + (f" at {inches(e.distance)}" if e.distance is not None else ""))
    if e.cover and e.cover != "none":
        parts.append(f"{e.cover} cover")
    if e.dice:
        parts.append(_dice(e))
    if e.dodge is not None:
        parts.append(f"Dodge {e.dodge[0]} {'passed' if e.dodge[1] else 'failed'}")
    parts.append(f"{e.hits} Hit{'s' if e.hits != 1 else ''}, {e.wounds} Wound{'s' if e.wounds != 1 else ''}")
    return ": ".join([parts[0], ", ".join(parts[1:])])


def step_title(rp: Replay, k: int) -> str:
    if k == 0:
        return f"Replay: the start (0 of {len(rp)})"
    s = rp.step(k)
    return f"Step {k} of {len(rp)} · round {s.round}, turn {s.turn} · {s.active} Active"


def step_lines(rp: Replay, k: int) -> list[str]:
    """What step ``k`` did: model, role, AP left, movement, action, dice and Hits, states."""
    if k == 0:
        out = [f"{len(rp)} steps logged; right arrow: the first"]
        if rp.log.outcome is not None:
            o = rp.log.outcome
            vp = ", ".join(f"{side} {v}" for side, v in o.vp.items())
            out.append(f"result: {o.winner + ' wins' if o.winner else 'a draw'} after {count(o.rounds, 'round')} (VP {vp})")
        return out
    s: Step = rp.step(k)
    who = f"{s.model} ({s.role}" + (f", sequence {s.sequence}" if s.sequence is not None else "") + f", {s.ap} AP left)"
    out = [who]
    if s.roll is not None:
        kind, face, ok = s.roll
        out.append(f"{kind} roll: {face} {'passed' if ok else 'failed'}")
    if s.movement is not None:
        mv = s.movement
        spent = mv.length if mv.cost is None else mv.cost
        drop = f" (a {inches(mv.length)} path with its drop)" if mv.length > spent + 1e-3 else ""
        out.append(f"movement: {mv.kind}" + (f" {inches(spent)}{drop}" if mv.kind != "idle" else "")
                   + ("" if mv.facing is None else f", facing {mv.facing:g}°"))
    if s.falls:
        out.append("falls: " + " ".join(f"{f} {'passed' if ok else 'failed'}" for f, ok in s.falls))
    if s.action is not None:
        a = s.action
        whom = "/".join(f"{t} ({n})" for t, n in a.split) if a.split else a.target
        line = f"action: {a.kind}" + (f" → {whom}" if whom else "") + (f" with {a.weapon}" if a.weapon else "")
        if a.at is not None:
            line += f" at ({a.at[0]:.2f}, {a.at[1]:.2f})"
        if a.los is False:
            line += " (no LoS: Agility halved)"
        out.append(line)
    out += [f"template placed: {name}" for name, _ in s.templates]
    out += [exchange_line(e) for e in s.exchanges]
    if s.role != "strategic" and s.action is not None and s.action.kind == "attack" or s.hits or s.wounds:
        out.append(f"result: {s.hits} Hit{'s' if s.hits != 1 else ''}, {s.wounds} Wound{'s' if s.wounds != 1 else ''}")
    if s.dodge_move is not None:
        out.append(f"Dodge move: {inches(s.dodge_move.length)}")
    if s.states:
        out.append("states: " + ", ".join(f"{m} {c}" for m, c in s.states.items()))
    return out


def step_extras(rp: Replay, k: int) -> Extras:
    """Step ``k`` as a picture layer: its overlays and legend rows (for ``RenderRequest.layers``)."""
    ex = Extras(scene=step_scene(rp, k))
    ex.legend = [LegendItem("heading", step_title(rp, k))]
    for line in step_lines(rp, k):
        for j, part in enumerate(textwrap.wrap(line, 50) or [""]):
            ex.legend.append(LegendItem("text", part if j == 0 else "    " + part, P.PANEL_TEXT))
    if k:
        ex.legend += [LegendItem("line", "movement", P.REPLAY_PATH), LegendItem("line", "Dodge move", P.REPLAY_DODGE),
                      LegendItem("line", "LoS (the logged witness)", P.LOS_VISIBLE),
                      LegendItem("ring", "target (orange: Hit)", P.TARGET)]
        if rp.step(k).templates:
            ex.legend.append(LegendItem("fill", "template placed", P.TEMPLATE))
    return ex


class ReplaySession(Session):
    """The viewer's session over a replay: the table as it stands after the current step
    (0: the start), that step's layers and its text panel. Right/left step, home/end jump."""

    def __init__(self, rp: Replay, *, save_path: str | Path | None = None, step: int = 0) -> None:
        super().__init__(rp.table, save_path=save_path)
        self.replay = rp
        self.step = 0
        self._step_scene: Scene | None = None
        self.go(step)

    def go(self, k: int) -> None:
        """Show the table after step ``k`` (clamped to 0..len)."""
        k = max(0, min(len(self.replay), k))
        self.step = k
        self._step_scene = None
        self._set_table(self.replay.table_at(k))
        self.mark_saved()  # stepping is not an edit
        self.say(f"{step_title(self.replay, k)} · right/left: next/previous step")

    def key(self, name: str) -> None:
        moves = {"right": self.step + 1, "left": self.step - 1, "home": 0, "end": len(self.replay)}
        if name in moves and not self.confirm_quit:
            self.go(moves[name])
            return
        super().key(name)

    def overlay_scene(self) -> Scene:
        if self._step_scene is None:
            self._step_scene = step_scene(self.replay, self.step)
        return merge(self._step_scene, super().overlay_scene())

    def info_lines(self) -> tuple[str, list[str], bool]:
        title, lines, refused = super().info_lines()
        if lines:  # an attack question asked with the mouse comes first
            return title, lines, refused
        return step_title(self.replay, self.step), step_lines(self.replay, self.step), False

    def help_lines(self) -> list[tuple[str, str]]:
        return [*REPLAY_HELP, *super().help_lines()]
