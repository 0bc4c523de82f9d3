"""A logged game of Eldfall, replayed: the ``skirmish play --json`` log as frozen steps,
and where every model stands, faces and how it fares after any step.

Pure data: :func:`parse_log` reads the JSON Lines text (one object per activation,
reaction or phase roll, then the summary ``{seed, winner, vp, rounds, states}``) into
:class:`GameLog`; :func:`replay` applies it to the scenario's table (the models'
starting positions) and checks that it fits. Nothing is rolled or decided again: the
positions are the ends of the logged paths, the facings the logged facings, the
conditions the logged states, the turns after a Hit (E-TURN-FACING) the logged
``result.turned``. A log from before turns were logged has them inferred from the Hits
(the model turned to its attacker unless it made a Dodge move in the same Activation
Sequence, whose facing came later and wins).

>>> from skirmish.scenario.load import load
>>> table = load("scenarios/first-steps.toml")
>>> line = ('{"round": 1, "turn": 1, "active": "blue", "sequence": 1, "model": "brute", "role": "activation", '
...         '"ap": 1, "movement": {"kind": "walk", "length": 3.0, "path": [[8.4173, 6, 0], [8.4173, 3, 0]], '
...         '"facing": 270}, "action": {"kind": "nothing", "target": null, "weapon": null}, "result": {}}')
>>> r = replay(table, parse_log(line))
>>> r.state_at(1).models["brute"]
Placed('brute', (8.4173, 3.0, 0.0), facing 270°, Unharmed)
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ...errors import SkirmishError
from ...maps.table import Table
from .state import OUT, facing_toward

Point3 = tuple[float, float, float]

#: The roles of the log's step lines (``strategic``: a Recovery or Bleeding roll;
#: ``deploy``: a model without a position placed before round 1, E-DEPLOY).
ROLES = ("activation", "reaction", "strategic", "deploy")
#: The conditions a log names (``result.states``); logs written before the game named
#: Unharmed and Wounded said ``Active`` for both, and still replay (as Unharmed).
CONDITIONS = ("Unharmed", "Wounded", "Active", "Incapacitated", "Dead")
#: How far (inches) a logged path may start from where the replay has the model.
TOLERANCE = 0.01


class ReplayError(SkirmishError, ValueError):
    """A game log that cannot be read, or does not fit the scenario: names the line and field."""

    kind = "replay"


@dataclass(frozen=True)
class Movement:
    """A logged movement: ``idle|walk|run|dodge|…``, its length, its path (x, y, z) and
    the facing it ends with (None: unchanged)."""

    kind: str
    length: float
    path: tuple[Point3, ...]
    facing: float | None = None
    cost: float | None = None  # the Movement spent (a drop costs none: E-FALL); None in older logs

    @property
    def end(self) -> Point3:
        return self.path[-1]


@dataclass(frozen=True)
class Die:
    face: int
    hit: bool
    critical: bool = False


@dataclass(frozen=True)
class ExchangeRecord:
    """One side of one exchange as logged: this model's dice, Hits and Wounds against
    ``target``; ``witness`` is the LoS witness segment (attacker → target) when it attacked."""

    role: str
    target: str
    exchange: str
    dice: tuple[Die, ...]
    hits: int
    wounds: int
    weapon: str | None = None
    distance: float | None = None
    cover: str | None = None
    witness: tuple[Point3, Point3] | None = None
    dodge: tuple[int, bool] | None = None  # (face, success)


@dataclass(frozen=True)
class ActionRecord:
    """The declared action (or Reaction): kind, target, weapon; a Reaction's ``at`` is the
    path point where it was judged, ``los`` whether it saw the mover; ``split`` an Active
    Strike split among targets, (target, dice) each (E-STK-SPLIT)."""

    kind: str
    target: str | None = None
    weapon: str | None = None
    at: Point3 | None = None
    los: bool | None = None
    split: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Step:
    """One line of the log: an activation, a reaction or a phase roll (``strategic``)."""

    number: int  # 1-based: the log's n-th step line
    line: int  # 1-based line of the log
    round: int
    turn: int
    active: str
    sequence: int | None
    model: str
    role: str
    ap: int
    movement: Movement | None
    action: ActionRecord | None
    hits: int
    wounds: int
    exchanges: tuple[ExchangeRecord, ...]
    states: Mapping[str, str]
    dodge_move: Movement | None = None
    templates: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()  # (name, plan outline) per template placed
    roll: tuple[str, int | None, bool] | None = None  # (kind, face, success) of a phase roll
    falls: tuple[tuple[int, bool], ...] = ()
    text: str = ""
    #: E-TURN-FACING: the facings models turned to after a Hit (None: a log from before
    #: they were logged, where the replay infers them from the Hits)
    turned: Mapping[str, float] | None = None

    def __repr__(self) -> str:
        what = self.action.kind if self.action else (self.roll[0] if self.roll else "")
        return f"Step({self.number}, round {self.round} turn {self.turn}, {self.model} {self.role} {what})"


@dataclass(frozen=True)
class Outcome:
    """The log's last line: ``{seed, winner, vp, rounds, states}``."""

    seed: int | None
    winner: str | None
    vp: Mapping[str, int]
    rounds: int
    states: Mapping[str, str]


@dataclass(frozen=True)
class GameLog:
    """A parsed log: its steps and, when the log is complete, the outcome."""

    steps: tuple[Step, ...]
    outcome: Outcome | None
    source: str = "log"

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        return f"GameLog({self.source!r}, {len(self.steps)} steps{'' if self.outcome else ', no outcome'})"


@dataclass(frozen=True)
class Placed:
    """A model at a step: where it stands, where it faces and its condition."""

    id: str
    at: Point3
    facing: float
    condition: str

    def __repr__(self) -> str:
        return f"Placed({self.id!r}, {self.at}, facing {self.facing:g}°, {self.condition})"

    @property
    def in_play(self) -> bool:
        return self.condition not in OUT


@dataclass(frozen=True)
class ReplayState:
    """Every model after step ``step`` (0: the start, before any step)."""

    step: int
    models: Mapping[str, Placed]


# -- parsing --------------------------------------------------------------------------------------

class _Line:
    """Field readers for one log line: errors name the log, the line and the field."""

    def __init__(self, source: str, line: int, obj: Mapping[str, Any], prefix: str = ""):
        self.source, self.line, self.obj, self.prefix = source, line, obj, prefix

    def fail(self, field: str, what: str) -> ReplayError:
        field = f"'{self.prefix}{field[1:]}" if self.prefix and field.startswith("'") else field
        return ReplayError(f"{self.source} line {self.line}: {field} {what}; a game log is what "
                           f"`skirmish play FILE --json` prints")

    def get(self, path: str, kind: type | tuple[type, ...], *, optional: bool = False, default: Any = None) -> Any:
        cur: Any = self.obj
        for part in path.split("."):
            if not isinstance(cur, Mapping) or part not in cur or cur[part] is None:
                if optional:
                    return default
                raise self.fail(f"'{path}'", "is missing")
            cur = cur[part]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(cur, bool) and bool not in kinds or not isinstance(cur, kinds):
            words = {int: "a number" if float in kinds else "a whole number", dict: "an object", list: "a list",
                     str: "a string", bool: "true or false"}
            names = " or ".join(words.get(k, k.__name__) for k in kinds if k is not float)
            raise self.fail(f"'{path}'", f"must be {names}, got {json.dumps(cur)[:40]}")
        return cur

    def point(self, path: str, value: Any) -> Point3:
        if (not isinstance(value, list) or len(value) not in (2, 3)
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) for c in value)):
            raise self.fail(f"'{path}'", f"must be a point [x, y, z], got {json.dumps(value)[:40]}")
        return (float(value[0]), float(value[1]), float(value[2]) if len(value) == 3 else 0.0)

    def movement(self, path: str, *, optional: bool = False) -> Movement | None:
        m = self.get(path, dict, optional=optional)
        if m is None:
            return None
        pts = self.get(f"{path}.path", list)
        if not pts:
            raise self.fail(f"'{path}.path'", "is empty (it holds at least the model's position)")
        face = self.get(f"{path}.facing", (int, float), optional=True)
        return Movement(self.get(f"{path}.kind", str), float(self.get(f"{path}.length", (int, float), optional=True,
                                                                              default=0.0)),
                        tuple(self.point(f"{path}.path[{i}]", p) for i, p in enumerate(pts)),
                        None if face is None else float(face) % 360.0,
                        self.get(f"{path}.cost", (int, float), optional=True))

    def templates(self) -> tuple[tuple[str, tuple[tuple[float, float], ...]], ...]:
        """Each template the step placed (E-TMPL): its name and plan outline."""
        out = []
        for i, e in enumerate(self.get("result.exchanges", list, optional=True, default=[])):
            if isinstance(e, dict) and e.get("kind") == "template":
                sub = _Line(self.source, self.line, e, f"result.exchanges[{i}].")
                pts = sub.get("template.outline", list)
                outline = tuple((float(p[0]), float(p[1])) for p in
                                (self.point(f"result.exchanges[{i}].template.outline[{j}]", q) for j, q in enumerate(pts)))
                out.append((sub.get("template.template", str), outline))
        return tuple(out)

    def exchanges(self) -> tuple[ExchangeRecord, ...]:
        out = []
        for i, e in enumerate(self.get("result.exchanges", list, optional=True, default=[])):
            f = f"result.exchanges[{i}]"
            if not isinstance(e, dict):
                raise self.fail(f"'{f}'", "must be an object")
            if "kind" in e and "dice" not in e:  # a note, not an exchange: a Death Blow, a Dodge move's falls
                continue
            sub = _Line(self.source, self.line, e, f + ".")
            dice = tuple(Die(int(d.get("face") or 0), bool(d.get("hit")), bool(d.get("critical")))
                         for d in sub.get("dice", list, optional=True, default=[]) if isinstance(d, dict))
            geo: dict[str, Any] = e["geometry"] if isinstance(e.get("geometry"), dict) else {}
            wit = geo.get("witness")
            witness = None
            if isinstance(wit, list) and len(wit) == 2:
                witness = (self.point(f"{f}.geometry.witness[0]", wit[0]), self.point(f"{f}.geometry.witness[1]", wit[1]))
            dodge = e.get("dodge")
            out.append(ExchangeRecord(
                role=sub.get("role", str, optional=True, default="active"), target=sub.get("target", str),
                exchange=sub.get("exchange", str, optional=True, default=""), dice=dice,
                hits=sub.get("hits", int, optional=True, default=0), wounds=sub.get("wounds", int, optional=True,
                                                                                     default=0),
                weapon=sub.get("geometry.weapon", str, optional=True),
                distance=sub.get("geometry.distance", (int, float), optional=True),
                cover=sub.get("geometry.cover.level", str, optional=True), witness=witness,
                dodge=(int(dodge.get("face") or 0), bool(dodge.get("success"))) if isinstance(dodge, dict) else None))
        return tuple(out)


def _step(src: str, lineno: int, number: int, obj: Mapping[str, Any]) -> Step:
    ln = _Line(src, lineno, obj)
    role = ln.get("role", str)
    if role not in ROLES:
        raise ln.fail("'role'", f"is {role!r}; a step is one of {', '.join(ROLES)}")
    states = ln.get("result.states", dict, optional=True, default={})
    for m, s in states.items():
        if s not in CONDITIONS:
            raise ln.fail(f"'result.states.{m}'", f"is {s!r}; a state is one of {', '.join(CONDITIONS)}")
    action = None
    roll = None
    if role == "strategic":
        roll = (ln.get("roll.kind", str), ln.get("roll.face", int, optional=True), bool(ln.get("roll.success", bool)))
    elif role != "deploy":
        at = ln.get("action.at", list, optional=True)
        split = ln.get("action.split", list, optional=True, default=[])
        if not all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], int)
                   and not isinstance(x[1], bool) for x in split):
            raise ln.fail("'action.split'", f"must be [[target, dice], ...], got {json.dumps(split)[:40]}")
        action = ActionRecord(ln.get("action.kind", str), ln.get("action.target", str, optional=True),
                              ln.get("action.weapon", str, optional=True),
                              None if at is None else ln.point("action.at", at), ln.get("action.los", bool, optional=True),
                              tuple((t, n) for t, n in split))
    seq = ln.get("sequence", int, optional=True)
    falls = tuple((int(f.get("face") or 0), bool(f.get("success")))
                  for f in ln.get("result.falls", list, optional=True, default=[]) if isinstance(f, dict))
    return Step(number=number, line=lineno, round=ln.get("round", int), turn=ln.get("turn", int),
                active=ln.get("active", str), sequence=seq, model=ln.get("model", str), role=role,
                ap=ln.get("ap", int), movement=None if role == "strategic" else ln.movement("movement"),
                action=action, hits=ln.get("result.hits", int, optional=True, default=0),
                wounds=ln.get("result.wounds", int, optional=True, default=0), exchanges=ln.exchanges(),
                states=MappingProxyType(dict(states)), dodge_move=ln.movement("result.dodge_move", optional=True),
                templates=ln.templates(),
                roll=roll, falls=falls, text=ln.get("text", str, optional=True, default=""),
                turned=_turned(ln))


def _turned(ln: _Line) -> Mapping[str, float] | None:
    """``result.turned`` of an activation: {model: {"toward": id, "facing": degrees}}."""
    raw = ln.get("result.turned", dict, optional=True)
    if raw is None:
        return None
    out = {}
    for m, t in raw.items():
        face = t.get("facing") if isinstance(t, dict) else None
        if not isinstance(face, (int, float)) or isinstance(face, bool):
            raise ln.fail(f"'result.turned.{m}.facing'", f"must be a number, got {json.dumps(face)}")
        out[m] = float(face)
    return MappingProxyType(out)


def parse_log(text: str, source: str = "log") -> GameLog:
    """The steps of a ``skirmish play --json`` log (blank lines skipped); :class:`ReplayError`
    naming the line and the field when a line is not what the game prints."""
    steps: list[Step] = []
    outcome: Outcome | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{source} line {lineno}: not JSON ({exc.msg} at column {exc.colno}); a game log "
                              f"is what `skirmish play FILE --json` prints, one object a line") from None
        if not isinstance(obj, dict):
            raise ReplayError(f"{source} line {lineno}: a log line is a JSON object, got {type(obj).__name__}")
        if outcome is not None:
            raise ReplayError(f"{source} line {lineno}: a line after the game's result (the result "
                              f"{{seed, winner, vp, rounds, states}} is the log's last line)")
        if "role" not in obj and "event" in obj and not steps:  # (a Party Hard game's first line)
            raise ReplayError(f"{source}: a Party Hard game log (its lines are events); --replay steps through "
                              "Eldfall games, logged by `skirmish play` on a table")
        if "role" not in obj and "winner" in obj:
            ln = _Line(source, lineno, obj)
            outcome = Outcome(ln.get("seed", int, optional=True), ln.get("winner", str, optional=True),
                              MappingProxyType(dict(ln.get("vp", dict))), ln.get("rounds", int),
                              MappingProxyType(dict(ln.get("states", dict))))
            continue
        steps.append(_step(source, lineno, len(steps) + 1, obj))
    if not steps:
        raise ReplayError(f"{source}: no activation, reaction or phase roll in the log; make one with "
                          f"`skirmish play FILE --seed 1 --json > game.jsonl`")
    return GameLog(tuple(steps), outcome, source)


def read_log(path: str) -> GameLog:
    """:func:`parse_log` of the file ``path`` (a clear error when it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ReplayError(f"--replay {path}: cannot read the game log ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ReplayError(f"--replay {path}: not a text file; a game log is what `skirmish play FILE --json` "
                          f"prints") from None
    return parse_log(text, path)


# -- applying -------------------------------------------------------------------------------------

class Replay:
    """A log applied to its scenario's table: the state after every step, checked to fit
    (every model known, every path starting where the model stands)."""

    def __init__(self, table: Table, log: GameLog):
        table = _deployed(table, log)
        self.table = table
        self.log = log
        known = set(table.model_ids)
        start = {m.id: Placed(m.id, (m.x, m.y, m.z), m.facing % 360.0, _initial(m.states)) for m in table.models}
        self._start = ReplayState(0, MappingProxyType(start))
        cur = dict(start)
        states: list[ReplayState] = []
        dodgers = _dodgers(log.steps)
        for s in log.steps:
            _check_ids(s, known, log.source, table)
            _apply(cur, s, dodgers.get(s.sequence, frozenset()), log.source)
            states.append(ReplayState(s.number, MappingProxyType(dict(cur))))
        self._states = tuple(states)

    def __len__(self) -> int:
        return len(self.log.steps)

    def __repr__(self) -> str:
        return f"Replay({self.table.name or self.table.source!r}, {len(self)} steps)"

    def step(self, k: int) -> Step:
        """Step ``k`` (1..len)."""
        return self.log.steps[self._index(k, start=False)]

    def state_at(self, k: int) -> ReplayState:
        """Every model after steps 1..k (k = 0: the start, as the scenario places them)."""
        return self._start if self._index(k) < 0 else self._states[self._index(k)]

    def table_at(self, k: int) -> Table:
        """The scenario's table with every model where it is after step ``k``; the
        Incapacitated lie Crouched and the Dead are marked Dead (E-SIZE: flat hitboxes)."""
        t = self.table
        for p in self.state_at(k).models.values():
            m = t.model(p.id)
            moved = dataclasses.replace(m, x=p.at[0], y=p.at[1], z=p.at[2], facing=p.facing,
                                        states=_table_states(m.states, p.condition))
            if moved != m:
                t = t.with_model(moved)
        return t

    def sequence_of(self, k: int) -> tuple[Step, ...]:
        """Every step of step ``k``'s Activation Sequence (just step ``k`` for a phase roll)."""
        s = self.step(k)
        if s.sequence is None:
            return (s,)
        return tuple(x for x in self.log.steps if x.sequence == s.sequence)

    def _index(self, k: int, *, start: bool = True) -> int:
        n = len(self.log.steps)
        if not (0 if start else 1) <= k <= n:
            raise ReplayError(f"--step {k}: the log {self.log.source} has steps 1..{n}"
                              + (" (0: the start)" if start else ""))
        return k - 1


def replay(table: Table, log: GameLog) -> Replay:
    """Apply ``log`` to ``table``; :class:`ReplayError` when it was not played there."""
    return Replay(table, log)


def load_replay(table: Table, path: str, step: int | None = None) -> Replay:
    """The game logged in the file ``path`` replayed on ``table`` (``--replay``); ``step``,
    when given, is checked to be one of its steps (0: the start)."""
    rp = replay(table, read_log(path))
    if step is not None:
        rp.state_at(step)  # a clear error for a step the log does not have
    return rp


def _deployed(table: Table, log: GameLog) -> Table:
    """The table with its reserve models (no ``at`` in the scenario) where the log's
    ``deploy`` steps placed them (E-DEPLOY); the replay starts after deployment."""
    reserve = table.catalogue.reserve
    if not reserve:
        return table
    at = {s.model: s.movement for s in log.steps if s.role == "deploy" and s.movement is not None}
    missing = [m.id for m in reserve if m.id not in at]
    if missing:
        raise ReplayError(f"{log.source}: the scenario's models {', '.join(missing)} have no position and the log "
                          "does not deploy them; replay the log on the scenario it was played on")
    placed = []
    for m in reserve:
        mv = at[m.id]
        placed.append(dataclasses.replace(m, x=mv.path[0][0], y=mv.path[0][1], z=mv.path[0][2],
                                          facing=m.facing if mv.facing is None else mv.facing))
    return dataclasses.replace(table, models=(*table.models, *placed),
                               catalogue=dataclasses.replace(table.catalogue, reserve=()))


def _initial(states: frozenset[str]) -> str:
    return "Dead" if "Dead" in states else "Incapacitated" if "Incapacitated" in states else "Unharmed"


def _table_states(states: frozenset[str], condition: str) -> frozenset[str]:
    if condition == "Dead":
        return (states - {"Crouched", "Incapacitated"}) | {"Dead"}
    if condition == "Incapacitated":
        return states | {"Incapacitated", "Crouched"}
    if states & OUT:  # back from Incapacitated (E-STATE-INCAPACITATED)
        return states - OUT - {"Crouched"}
    return states


def _dodgers(steps: Sequence[Step]) -> dict[int | None, frozenset[str]]:
    """Per Activation Sequence, the models that make a logged Dodge move in it."""
    out: dict[int | None, set[str]] = {}
    for s in steps:
        if s.sequence is None:
            continue
        moved = (s.dodge_move is not None and s.dodge_move.kind != "idle") or (
            s.role == "reaction" and s.movement is not None and s.movement.kind != "idle")
        if moved:
            out.setdefault(s.sequence, set()).add(s.model)
    return {k: frozenset(v) for k, v in out.items()}


def _check_ids(s: Step, known: set[str], source: str, table: Table) -> None:
    names = [("model", s.model)]
    if s.action is not None and s.action.target is not None:
        names.append(("action.target", s.action.target))
    names += [(f"result.exchanges[{i}].target", e.target) for i, e in enumerate(s.exchanges)]
    names += [(f"result.states.{m}", m) for m in s.states]
    for field, mid in names:
        if mid not in known:
            ids = ", ".join(sorted(known)[:12]) + (", …" if len(known) > 12 else "")
            raise ReplayError(f"{source} line {s.line}: {field} names model {mid!r}, which is not in the scenario "
                              f"{table.source or table.name or ''} (its models: {ids}); replay the log on the "
                              f"scenario it was played on")


def _place(cur: dict[str, Placed], mid: str, mv: Movement, what: str, s: Step, source: str) -> None:
    p = cur[mid]
    a = mv.path[0]
    if math.dist(a, p.at) > TOLERANCE:
        raise ReplayError(f"{source} line {s.line}: {what} of {mid} starts at ({a[0]:g}, {a[1]:g}, {a[2]:g}) but "
                          f"the replay has {mid} at ({p.at[0]:g}, {p.at[1]:g}, {p.at[2]:g}); the log does not "
                          f"match this scenario (replay it on the scenario it was played on)")
    face = p.facing if mv.facing is None else mv.facing
    cur[mid] = dataclasses.replace(p, at=mv.end, facing=face)


def _apply(cur: dict[str, Placed], s: Step, dodgers: frozenset[str], source: str) -> None:
    if s.movement is not None:
        _place(cur, s.model, s.movement, "movement.path", s, source)
    for mid, cond in s.states.items():
        cur[mid] = dataclasses.replace(cur[mid], condition="Unharmed" if cond == "Active" else cond)
    # E-TURN-FACING: a model that suffered a Hit may turn to face an attacker (its own
    # Dodge move, made after, keeps its own facing): as logged, or inferred from the Hits
    if s.turned is not None:
        for mid, face in s.turned.items():
            cur[mid] = dataclasses.replace(cur[mid], facing=face % 360.0)
    else:
        for e in s.exchanges:
            t, a = cur[e.target], cur[s.model]
            if e.hits > 0 and e.target not in dodgers and t.in_play:
                cur[e.target] = dataclasses.replace(t, facing=facing_toward(t.at[0], t.at[1], a.at[0], a.at[1],
                                                                            t.facing))
    if s.dodge_move is not None:
        _place(cur, s.model, s.dodge_move, "result.dodge_move.path", s, source)


__all__ = ["ActionRecord", "Die", "ExchangeRecord", "GameLog", "Movement", "Outcome", "Placed", "Replay",
           "ReplayError", "ReplayState", "Step", "load_replay", "parse_log", "read_log", "replay"]
