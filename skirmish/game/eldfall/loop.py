"""A whole game of Eldfall: rounds, turns, Activation Sequences and Reactions.

The loop follows E-ROUND and E-TURN: every round the first side is Active in the
first turn and Reactive in the second. A turn runs its phases (Strategic: Recovery
and Bleeding rolls; Upkeep: AP = STA for every model of both sides; Tactical: the
Active side's Activations; End: unspent AP are lost). An Activation Sequence
(E-ACTIVATION) pays 1 AP, then Movement → Reactions → Action → Resolution; every
outcome lands together at the end, Incapacitation last.

Every choice is asked of the side's :class:`~skirmish.game.policy.Policy` through a
:class:`~skirmish.game.policy.Decision` (kinds in :mod:`.choices`); a choice outside
the legal options, or a Move the movement checker refuses, raises
:class:`~.choices.IllegalChoice` and is never applied.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ...errors import RuleInputError, ScenarioError, SkirmishError
from ...game.policy import Decision, Policy, PolicyError, ask
from ...geometry.distance import distances_to_cylinders_at
from ...geometry.los import DEFAULT_TOLERANCE
from ...maps.results import LineOfSight, MovePlan
from ...maps.table import CONTACT_TOLERANCE, Table, reach_band, within_awareness
from ...sim.script import Script
from ...rules.eldfall.dice import AttributeRoll, ExchangeLog, attribute_roll, resolve_exchange, roll_d20
from ...rules.eldfall.exchange import Exchange
from ...rules.eldfall.modifiers import modify
from ...rules.eldfall.movement import fall_rolls, half_up
from ...rules.eldfall.weapons import Weapon
from ...rules.eldfall.wounds import ModelState, apply_wounds
from ...values import is_number, with_fields
from ...wording import count
from .attacks import (AttackGeometry, action_kind, attack_geometry, attacking_side, defending_side, engagers,
                      strike_of, weapons_in_hand, with_rerolls)
from .choices import (NO_REACTION, NOTHING, SPECIAL_MOVES, Action, IllegalChoice, Move, Reaction, climb_jump_aims,
                      nearest_on_path, path_samples, strike_splits, with_moments)
from .deploy import OPPOSITE, deploy_spots, placement_problem, zone_centre, zone_rects
from .sampling import sample_ends
from .policies import PLAYED, ScriptPolicy
from .settings import GameSettings, check_playable
from .templates import place, roll_hits
from .templates import targets as template_targets
from .sight import PathTables, Sight, sight_along
from .state import OUT, GameState, Unit, attributes_of, facing_toward

#: How many end points a move decision offers per movement kind (the decision is open).
SAMPLES = {"walk": 4, "run": 3, "dodge": 3, "climb": 1, "jump": 2, "deploy": 6}
#: The movement planner's kind for each game movement (a Run and a Dodge move are walks with their budget).
PLANNER_KIND = {"walk": "walk", "run": "walk", "dodge": "walk", "climb": "climb", "jump": "jump"}
#: States a Dead model no longer has (dropped at the end of Resolution).
_NOT_WHEN_DEAD = frozenset({"Crouched", "Engaged"})
#: The Dodge move's stays: as it is, or Crouching at the end (E-ACTION-DODGE).
_STAY, _STAY_CROUCHING = Move("idle"), Move("idle", crouch="end")


@dataclass(frozen=True)
class MoveResult:
    """A movement as made: its kind, the checked plan (None for idle), the path, the
    points where Reactions are judged, and the E-FALL rolls it owes."""

    kind: str
    plan: MovePlan | None
    path: tuple[tuple[float, float, float], ...]
    samples: tuple[tuple[float, float, float], ...]
    facing: float
    #: the declared path that the movement checker accepts (``check_move(via, kind=PLANNER_KIND[kind])``):
    #: the path after the start, or for a Jump its aim and then where it leaves the model
    via: tuple[tuple[float, float, float], ...] = ()
    crouch: str | None = None  # Crouched toggled at the "start" or "end" (E-ACTIVATION)
    spd: float | None = None  # the SPD the States left the model as it moved (its budget's; E-FALL's)

    @property
    def length(self) -> float:
        """The path's length (inches, drops included)."""
        return 0.0 if self.plan is None else float(self.plan.length)

    @property
    def cost(self) -> float:
        """What the movement spent of its budget (a drop costs nothing: E-FALL)."""
        return 0.0 if self.plan is None else float(self.plan.cost)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "length": round(self.length, 4), "cost": round(self.cost, 4),
                "path": [[round(c, 4) for c in p] for p in self.path], "facing": round(self.facing, 2),
                "crouch": self.crouch,
                "stopped_at_contact": None if self.plan is None else self.plan.stopped_at_contact}


@dataclass(frozen=True)
class GameRecord:
    """A played game: one JSON-ready event per activation, reaction and phase roll
    (none when played with ``log=False``), and the summary ``{seed, winner, vp,
    rounds, states}``."""

    events: tuple[dict[str, Any], ...]
    summary: dict[str, Any]
    turns: tuple[tuple[int, int, str], ...] = ()  # (round, turn, Active side) as played
    sequences: int = 0  # the Activation Sequences played (as many as the log's activations)

    def __repr__(self) -> str:  # (the events are the whole log: read them, or the summary)
        s = self.summary
        return (f"GameRecord(seed {s.get('seed')}, winner {s.get('winner')!r}, {s.get('rounds')} rounds, "
                f"VP {s.get('vp')}, {len(self.events)} events)")


@dataclass
class _Sequence:
    """The facts of one Activation Sequence while it is being resolved."""

    number: int
    mover: str
    move: MoveResult
    tables: PathTables  # the table with the mover at each path sample (made when asked for)
    reactions: dict[str, Reaction] = field(default_factory=dict)
    reaction_ap: dict[str, int] = field(default_factory=dict)
    sight: Sight | None = None  # the Reactive models' sight of the mover at every path point
    distances: dict[str, list[float]] = field(default_factory=dict)  # E-DIST from a reactor at every path point
    reach: dict[str, list[list[Weapon]]] = field(default_factory=dict)  # the reactor's weapons reaching there
    morale: dict[str, dict[str, Any]] = field(default_factory=dict)  # E-MORALE rolls of this sequence
    equips: dict[str, dict[str, Any]] = field(default_factory=dict)  # E-ACTION-OTHER: weapons changed
    was_crouched: bool = False  # the mover was Crouched before its movement


class EldfallGame:
    """One game in progress. ``state`` is the current :class:`GameState`; policies
    receive this object as ``game`` (read ``game.state`` and the helper queries)."""

    def __init__(self, table: Table, settings: GameSettings, policies: Mapping[str, Policy], rng: random.Random,
                 *, seed: int | None = None, script: Script | None = None, log: bool = True):
        where = table.source or "<table>"
        if not isinstance(rng, random.Random):
            raise RuleInputError(f"rng: pass a random.Random (seeded: the dice), got {type(rng).__name__}")
        if not isinstance(settings, GameSettings):
            raise RuleInputError(f"settings: pass a GameSettings (parse_settings(table.catalogue.game, table)), "
                                 f"got {type(settings).__name__}")
        check_playable(table, where)  # (what load_game checks: two sides, STA, SPD, HP, a usable weapon)
        sides = table.all_sides()
        missing = [s for s in sides if s not in policies]
        if missing:
            raise PolicyError(f"{where}: no policy for side {', '.join(missing)}; give one per side "
                              f"({', '.join(sides)})")
        extra = [s for s in policies if s not in sides]
        if extra:
            raise PolicyError(f"{where}: a policy for side {', '.join(map(str, extra))}, which no model has; the "
                              f"sides are {', '.join(sides)}")
        for s, p in policies.items():
            if not callable(getattr(p, "choose", None)):
                raise PolicyError(f"policy for side {s}: {p!r} has no choose(game, decision, rng); make one with "
                                  "load_policy(name, \"eldfall\") or a class of your own")
        _check_scripted(policies, script, table, where)
        if settings.first is not None and settings.first not in sides:
            raise ScenarioError(f"{where}: [game] first = {settings.first!r} is not a side; the sides are "
                                f"{', '.join(sides)}")
        self.settings = settings
        self.script = script  # the scenario's [[script]], for the script policy
        self.script_pos = 0  # how far the script policy has played it
        self.policies = dict(policies)
        self.rng = rng  # the dice
        self.policy_rng = random.Random(rng.getrandbits(64))
        self.seed = seed
        self.events: list[dict[str, Any]] = []
        self.log = log  # (False: no events are written; the game is the same)
        self.turns: list[tuple[int, int, str]] = []
        self.sequence = 0
        first = settings.first or self._initiative(table)
        if table.catalogue.reserve:  # E-DEPLOY: models without a position deploy by policy
            table = self._deploy(table, first)
        self.state = GameState.start(table, settings, first)
        self.start_table = table  # where the models stood at the start (own table edges, E-MORALE)
        # plans already made on this board: (model, move) -> (table, unit, plan or refusal)
        self._plans: dict[tuple[str, Move], tuple[Table, Unit, MoveResult | IllegalChoice]] = {}
        self._engaged: dict[str, tuple[Table, tuple[Any, ...], tuple[str, ...]]] = {}  # see engaged_by

    # -- asking ------------------------------------------------------------------------
    def ask(self, side: str, decision: Decision[Any]) -> Any:
        """The side's policy answers ``decision`` (:func:`~skirmish.game.policy.ask`); a
        closed decision's answer that is not one of its options is an :class:`IllegalChoice`."""
        return ask(self.policies[side], self, decision, self.policy_rng,
                   refuse=lambda reason, choice: IllegalChoice(decision.actor, reason, choice))

    # -- E-SETUP ------------------------------------------------------------------------
    def _initiative(self, table: Table) -> str:
        """E-SETUP: each side rolls d20 + its Leader's Morale (MOR); ties reroll. The
        winner takes the first turn (its choice, made as a careful player would)."""
        sides = table.all_sides()
        models = {m.id: m for m in table.all_models()}
        while True:
            rolls = []
            for s in sides:
                leader = self.settings.leaders.get(s)
                mor = models[leader].attributes.get("MOR", 0) if leader else 0
                rolls.append(roll_d20(self.rng) + int(mor or 0))
            if rolls[0] != rolls[1]:
                return sides[0] if rolls[0] > rolls[1] else sides[1]

    # -- E-DEPLOY -----------------------------------------------------------------------
    def _deploy(self, table: Table, first: str) -> Table:
        """E-DEPLOY: the reserve models deploy one at a time, the sides taking turns, the
        first side first; each in its side's zone, where its policy chooses (a
        ``deploy`` decision: sampled legal spots, open to any legal (x, y, z)). Without
        ``[game] zones`` the second side chooses an edge (a ``zone`` decision) and the
        first side takes the opposite one (E-SETUP). A model faces the enemy's zone."""
        sides = table.all_sides()
        second = sides[1] if first == sides[0] else sides[0]
        self.state = GameState.start(table, self.settings, first, sides)
        spec = dict(self.settings.zones)
        if not spec:
            edge = self.ask(second, Decision("zone", second, ("south", "north", "west", "east")))
            spec = {second: edge, first: OPPOSITE[edge]}
        zones = zone_rects(table, spec, self.settings.zone_depth)
        queues = {s: [m for m in table.catalogue.reserve if m.side == s] for s in sides}
        turn = [first, second]
        i = 0
        while queues[first] or queues[second]:
            side = turn[i % 2]
            i += 1
            if not queues[side]:
                continue
            m = queues[side].pop(0)
            zone = zones[side]
            spots = deploy_spots(table, m, zone, self.policy_rng, SAMPLES["deploy"])
            if not spots:
                raise ScenarioError(f"{table.source or '<table>'}: E-DEPLOY: no room for {m.id} in {side}'s zone "
                                    f"{list(zone)}; give the scenario bigger zones ([game] zones, zone_depth) or "
                                    "place it with at = [x, y]")
            choice = self.ask(side, Decision("deploy", m.id, tuple(spots), open=True,
                                             context={"zone": zone, "side": side}))
            try:
                x, y, z = (float(v) for v in choice)
            except (TypeError, ValueError):
                raise IllegalChoice(m.id, "a deploy decision needs a point (x, y, z)", choice) from None
            why = placement_problem(table, m, x, y, z, zone)
            if why is not None:
                raise IllegalChoice(m.id, why, choice)
            cx, cy = zone_centre(zones[second if side == first else first])
            placed = dataclasses.replace(m, x=x, y=y, z=z, facing=facing_toward(x, y, cx, cy, m.facing))
            table = dataclasses.replace(table, models=(*table.models, placed))
            self.state = GameState.start(table, self.settings, first, sides)
            if self.log:
                self.events.append({
                    "round": 0, "turn": 0, "active": side, "sequence": None, "model": m.id, "role": "deploy", "ap": 0,
                    "at": [x, y, z], "facing": round(placed.facing, 2), "zone": list(zone),
                    "movement": {"kind": "deploy", "length": 0.0, "path": [[x, y, z]], "facing": round(placed.facing, 2)},
                    "text": f"{m.id} ({side}) deploys at {_place((x, y, z))} facing {placed.facing:.0f}°"})
        return dataclasses.replace(table, catalogue=dataclasses.replace(table.catalogue, reserve=()))

    # -- the game ----------------------------------------------------------------------
    def play(self) -> GameRecord:
        """Play every round (E-ROUND) and return the record."""
        st = self.state
        second = st.enemy_of(st.first)
        ended = False
        played = 0
        for rnd in range(1, self.settings.rounds + 1):
            for turn, side in ((1, st.first), (2, second)):
                self.state = self.state.replace(round=rnd, turn=turn, active=side)
                self.turns.append((rnd, turn, side))
                if not self.state.in_play(side):  # E-ROUND: a side starts its turn with nothing in play
                    ended = True
                    break
                self._strategic(side)
                self._upkeep()
                self._tactical(side)
                self._end_phase()
            played = rnd
            if ended:
                break
        return GameRecord(tuple(self.events), self.summary(played), tuple(self.turns), self.sequence)

    def summary(self, rounds: int) -> dict[str, Any]:
        """E-ROUND default scoring: each enemy model Incapacitated or Dead scores its VP
        (1, or ``[game] vp``; +1 for a Leader), capped at ``vp_cap``; more VP wins."""
        st = self.state
        vp = {s: 0 for s in st.sides}
        for u in st.units.values():
            if not u.in_play:
                vp[st.enemy_of(u.side)] += self.settings.model_vp(u.id)
        vp = {s: min(v, self.settings.vp_cap) for s, v in vp.items()}
        a, b = st.sides
        winner = a if vp[a] > vp[b] else b if vp[b] > vp[a] else None
        return {"seed": self.seed, "winner": winner, "vp": vp, "rounds": rounds,
                "states": {u.id: self._state_name(u.id) for u in st.units.values()}}

    # -- phases -------------------------------------------------------------------------
    def _strategic(self, side: str) -> None:
        """E-TURN Strategic phase, in its order: Bleeding and Poisoned rolls (E-STATE-OTHER:
        STA, Poisoned at −6; an Incapacitated model rolls too, and a Wound kills it,
        E-WOUND), then Recovery rolls (E-STATE-INCAPACITATED) of the Active side's models;
        STA as the States leave it (Weakened halves it). Recovery is rolled by the models
        Incapacitated as the phase starts: one that Bleeding takes to 0 HP rolls from its
        next Strategic phase. Weakened halves STA after the fixed modifiers (E-MOD-HALF):
        Poisoned and Weakened at STA 10 rolls ⌈(10 − 6)/2⌉ = 2."""
        for u in self.state.side_units(side):
            m = self.state.model(u.id)
            sta = attributes_of(m, u.states)["STA"]
            weak = "Weakened" in u.states
            was_out = "Incapacitated" in u.states
            for state, mods in (("Bleeding", ()), ("Poisoned", (-6,))):
                if state not in u.states or "Dead" in self.state.unit(u.id).states:
                    continue
                target = modify(int(m.attributes["STA"]), *mods, halve=weak)
                r = attribute_roll(target, self.rng)
                before = self._state_name(u.id)
                if not r.success:
                    self._apply_wounds({u.id: 1})
                    self._finish_states()
                after = self._state_name(u.id)
                said = f"STA {m.attributes['STA']}{''.join(f' {x:+d}' for x in mods)}, halved: {target.value}" \
                    if weak and mods else f"STA {sta}{''.join(f' {x:+d}' for x in mods)}"
                self._phase_event(u.id, state.lower(), r.face, r.success,
                                  f"{u.id} rolls for {state} ({said}): "
                                  f"{_face(r.face)} -> " + ("no Wound" if r.success else "1 Wound")
                                  + (f", {after}" if after != before and after in ("Incapacitated", "Dead") else ""))
            u = self.state.unit(u.id)
            if was_out and "Dead" not in u.states:
                r = attribute_roll(modify(sta), self.rng)
                if r.success:
                    nu = dataclasses.replace(u, hp=u.hp + 1, states=(u.states - {"Incapacitated", "Crouched"})
                                             | {"Weakened"})
                    self.state = self.state.with_unit(nu)
                self._phase_event(u.id, "recovery", r.face, r.success,
                                  f"{u.id} rolls Recovery (STA {sta}): {_face(r.face)} -> "
                                  + ("back with 1 HP, Weakened" if r.success else "stays Incapacitated"))

    def _phase_event(self, model: str, kind: str, face: int | None, success: bool, text: str) -> None:
        if not self.log:
            return
        st = self.state
        self.events.append({"round": st.round, "turn": st.turn, "active": st.active, "sequence": None,
                            "model": model, "role": "strategic", "ap": st.unit(model).ap,
                            "roll": {"kind": kind, "face": face, "success": success},
                            "result": {"states": {model: self._state_name(model)}}, "text": text})

    def _upkeep(self) -> None:
        """E-AP: every model of both sides gets AP = STA (none when Incapacitated, Dead
        or Fatigued; Weakened: STA halved, −1 AP). Fatigued lasts one Upkeep."""
        units = {}
        for u in self.state.units.values():
            sta = int(self.state.model(u.id).attributes["STA"])
            states = u.states
            if not u.in_play or "Fatigued" in states:
                ap = 0
                states = states - {"Fatigued"}
            elif "Weakened" in states:
                ap = max(0, int(half_up(sta)) - 1)
            else:
                ap = sta
            units[u.id] = with_fields(u, ap=ap, states=states)
        self.state = self.state.with_units(units)

    def _end_phase(self) -> None:
        """E-TURN End phase: all unspent AP are lost."""
        self.state = self.state.with_units({u.id: with_fields(u, ap=0) for u in self.state.units.values() if u.ap})

    def _tactical(self, side: str) -> None:
        """E-AP-SPEND: the Active side activates models with AP, in any order, until
        none has AP or it stops."""
        while True:
            ready = tuple(sorted([u.id for u in self.state.in_play(side) if u.ap > 0]))
            if not ready:
                return
            choice = self.ask(side, Decision("activate", side, (*ready, None), context={"round": self.state.round}))
            if choice is None:
                return
            self.activate(choice)

    # -- the Activation Sequence ----------------------------------------------------------
    def activate(self, model_id: str) -> None:
        """E-ACTIVATION: pay 1 AP; Movement; Reactions; Action; Resolution."""
        st = self.state
        u = st.unit(model_id)
        if u.side != st.active or not u.in_play or u.ap < 1:
            raise IllegalChoice(model_id, "only an Active model in play with AP can be activated")
        self.sequence += 1
        self.state = st.with_unit(with_fields(u, ap=u.ap - 1))  # E-AP-SPEND
        side = u.side
        morale = self._morale(model_id)
        if morale is not None and not morale["success"]:  # E-MORALE: Run toward its own table edge
            move = self._flight(model_id)
        else:
            move = self.ask(side, self._move_decision(model_id, "move"))
            why = _not_a_move_for("move", move)
            if why:
                raise IllegalChoice(model_id, why, move)
        was_crouched = "Crouched" in self.state.unit(model_id).states
        mr, distances = self._with_near_moments(model_id, self.apply_move(model_id, move))
        seq = _Sequence(self.sequence, model_id, mr, self._tables_along(model_id, mr.samples),
                        distances=distances, was_crouched=was_crouched)
        if morale is not None:
            seq.morale[model_id] = morale
        self._reactions(seq)
        if morale is not None and not morale["success"]:
            action = NOTHING
        else:
            action = self.ask(side, Decision("action", model_id, self.action_options(model_id, mr.kind),
                                             context={"reactions": dict(seq.reactions),
                                                      "path": seq.move.samples}))
        self._resolve(seq, action)

    # E-MORALE ----------------------------------------------------------------------------
    def _morale(self, model_id: str) -> dict[str, Any] | None:
        """E-MORALE: in a Panicked side (fewer than half its starting models in play) each
        Activation or Reaction first rolls Morale (MOR); a model without MOR never panics."""
        u = self.state.unit(model_id)
        mor = self.state.model(model_id).attributes.get("MOR")
        if mor is None or not self.state.panicked(u.side):
            return None
        r = attribute_roll(modify(int(mor)), self.rng)
        return {"face": r.face, "success": r.success, "attribute": int(mor)}

    def home_edge(self, side: str) -> str:
        """The table edge nearest the side's starting models (its own edge, E-MORALE)."""
        ms = self.start_table.models_of_side(side)
        t = self.state.table
        cx = sum(m.x for m in ms) / len(ms)
        cy = sum(m.y for m in ms) / len(ms)
        gaps = {"west": cx, "east": t.width - cx, "south": cy, "north": t.depth - cy}
        return min(gaps, key=lambda k: (gaps[k], k))

    def _flight(self, model_id: str) -> Move:
        """A panicked model's Run: the sampled end of its Run range nearest its own edge."""
        st = self.state
        t = st.table
        edge = self.home_edge(st.unit(model_id).side)
        m = t.model(model_id)

        def gap(p: tuple[float, float, float]) -> float:
            return {"west": p[0], "east": t.width - p[0], "south": p[1], "north": t.depth - p[1]}[edge]

        kind = "walk" if "Crouched" in st.unit(model_id).states else "run"
        ends = [mv.to for mv in self._sample_moves(model_id, kind, 8, face=False) if mv.to is not None]
        if not ends:
            return Move("idle")
        best = min(ends, key=gap)
        return Move(kind, best, facing_toward(m.x, m.y, best[0], best[1], m.facing))  # type: ignore[arg-type]

    # movement ---------------------------------------------------------------------------
    def move_options(self, model_id: str) -> tuple[Move, ...]:
        """A sample of legal moves: idle (facing the nearest enemy; also toggling
        Crouched), walks and runs to points drawn from the movement range (a Crouched
        model stands up at the start of a Run, Climb or Jump), climbs and jumps
        (E-MOVE-CLIMB, E-MOVE-JUMP). An Engaged model only Idles or Walks straight into
        contact with an engager (E-STATE-ENGAGED)."""
        fixed, kinds = self._move_kinds(model_id)
        opts: list[Move] = list(fixed)
        for kind in kinds:
            opts += self._sample_moves(model_id, kind, SAMPLES[kind])
        return tuple(opts)

    def _move_kinds(self, model_id: str) -> tuple[tuple[Move, ...], tuple[str, ...]]:
        """The moves always offered (idle, idle toggling Crouched, an Engaged model's walks
        at its engagers) and the kinds whose ends are sampled."""
        st = self.state
        m = st.model(model_id)
        u = st.unit(model_id)
        face = self._face_nearest(model_id, (m.x, m.y))
        if self.on_face(model_id):  # E-MOVE-CLIMB: it climbs on (up or down), or stays (it cannot Crouch there)
            stuck = "Immobilized" in u.states or self.engaged_by(model_id)  # (Engaged: only Idle or a Walk)
            return (Move("idle", None, face),), (() if stuck else ("climb",))
        fixed: list[Move] = [Move("idle", None, face), Move("idle", None, face, crouch="end")]
        if "Immobilized" in u.states:
            return tuple(fixed), ()
        foes = self.engaged_by(model_id)
        for e in foes:  # E-STATE-ENGAGED: straight at it, to base contact (or as far as the Walk goes)
            if st.table.distance(model_id, e) <= CONTACT_TOLERANCE:
                continue
            em = st.model(e)
            d = math.hypot(em.x - m.x, em.y - m.y)
            step = min(d - m.radius - em.radius - 1e-4, self.budget(model_id, "walk"))
            if step <= 1e-6:
                continue
            end = (m.x + (em.x - m.x) * step / d, m.y + (em.y - m.y) * step / d, m.z)
            mv = Move("walk", end, facing_toward(end[0], end[1], em.x, em.y, m.facing))
            if self._legal(model_id, mv):
                fixed.append(mv)
        if foes:
            return tuple(fixed), ()
        return tuple(fixed), ("walk", "run", "climb", "jump")

    def _move_decision(self, model_id: str, kind: str) -> Decision[Move]:
        """The ``move`` or ``dodge-move`` decision. A policy with ``lazy = True`` gets the
        option *slots* instead of the samples: the moves always offered and one
        ``Move(kind)`` per sample the kind would get (:data:`SAMPLES`), with
        ``context["resolve"](slot, rng)`` drawing a legal move of the slot's kind (None
        when it finds none): the same options, drawn only when chosen.
        ``context["draw"](kind, n, rng)`` gives up to ``n`` candidate moves of a kind whose
        ends pass the quick filter but are not yet checked, and ``context["legal"](move)``
        checks one (a policy weighing many candidates checks only those it would pick)."""
        side = self.state.unit(model_id).side
        if kind == "move":
            fixed, kinds = self._move_kinds(model_id)
        else:
            fixed, kinds = self._dodge_kinds(model_id)
        if not getattr(self.policies[side], "lazy", False):
            opts = self.move_options(model_id) if kind == "move" else self.dodge_move_options(model_id)
            return Decision(kind, model_id, opts, open=True)

        def resolve(slot: Move, rng: random.Random) -> Move | None:
            if slot.to is not None or slot.kind == "idle":
                return slot
            got = self._sample_moves(model_id, slot.kind, 1, rng=rng)
            return got[0] if got else None

        def draw(k: str, n: int, rng: random.Random) -> list[Move]:
            return self._sample_moves(model_id, k, n, rng=rng, check=False)

        slots = (*fixed, *_slots(kinds))
        return Decision(kind, model_id, slots, open=True, context={
            "resolve": resolve, "draw": draw,
            "legal": lambda mv: not _not_a_move_for(kind, mv) and self._legal(model_id, mv)})

    def _sample_moves(self, model_id: str, kind: str, n: int, *, face: bool = True,
                      rng: random.Random | None = None, check: bool = True) -> list[Move]:
        """Up to ``n`` legal moves of ``kind`` to ends drawn uniformly from where the model
        can end (:func:`.sampling.sample_ends`), facing the nearest enemy (or unset); a
        Climb or Jump to the aims of :func:`.choices.climb_jump_aims`. A Crouched model
        stands up at the start of Special movement (E-STATE-CROUCHED: only Walk).
        ``check=False``: the ends pass the quick filter only (not yet planned)."""
        states = self.state.unit(model_id).states
        stand = kind in SPECIAL_MOVES and "Crouched" in states
        toggle = "start" if stand else None
        budget = self.budget(model_id, kind, states - {"Crouched"} if stand else None)
        rng = rng or self.policy_rng
        if kind != "climb" and self.on_face(model_id):
            return []  # (E-MOVE-CLIMB: only a Climb moves it on)
        if kind in ("climb", "jump"):
            out = []
            aims = climb_jump_aims(self.state.table, model_id, "climb" if kind == "climb" else "jump", budget, rng,
                                   SAMPLES["jump"])
            for p in aims:
                mv = Move(kind, p, None, toggle)  # type: ignore[arg-type]
                if not check or self._legal(model_id, mv):
                    out.append(mv)
                    if len(out) == n:
                        break
            return out

        def accept(p: tuple[float, float, float]) -> Move | None:
            mv = Move(kind, p, self._face_nearest(model_id, p[:2]) if face else None, toggle)  # type: ignore[arg-type]
            return mv if not check or self._legal(model_id, mv) else None

        # (each end checked: the straight-line filter spares the movement net where the way is open)
        return sample_ends(self.state.table, model_id, rng, n, budget, accept, straight=check)

    def _legal(self, model_id: str, move: Move) -> bool:
        try:
            self.plan(model_id, move)
        except IllegalChoice:
            return False
        return True

    def engaged_by(self, model_id: str) -> tuple[str, ...]:
        """E-STATE-ENGAGED: the enemies engaging ``model_id`` now (:func:`.attacks.engagers`),
        found once per board and the units' States (AP and Wounds change nothing there but
        the States: being in play is one)."""
        st = self.state
        facts = st.unit_states
        hit = self._engaged.get(model_id)
        if hit is None or hit[0] is not st.table or hit[1] != facts:
            hit = self._engaged[model_id] = (st.table, facts, engagers(st, model_id))
        return hit[2]

    def budget(self, model_id: str, kind: str, states: frozenset[str] | None = None) -> float:
        """E-MOVE-KIND with the States: Walk SPD, Run 2 × SPD, Climb, Jump and the Dodge
        move ⌈SPD/2⌉; SPD as the States (or ``states``) leave it: halved when Slowed,
        Crippled or Crouched, doubled when Flying (E-STATE-*, :func:`.state.attributes_of`)."""
        if states is None:
            states = self.state.unit(model_id).states
        spd = float(attributes_of(self.state.model(model_id), states)["SPD"])
        if kind in ("dodge", "climb", "jump"):
            return half_up(spd)
        return {"walk": spd, "run": 2 * spd, "idle": 0.0}[kind]

    def _face_nearest(self, model_id: str, xy: tuple[float, float]) -> float:
        st = self.state
        model, hypot = st.table.model, math.hypot
        m = model(model_id)
        x, y = xy
        near, near_d = None, math.inf
        for u in st.in_play(st.enemy_of(m.side)):  # (the first nearest)
            e = model(u.id)
            d = hypot(e.x - x, e.y - y)
            if near is None or d < near_d:
                near, near_d = e, d
        if near is None:
            return m.facing
        return facing_toward(x, y, near.x, near.y, m.facing)

    def plan(self, model_id: str, move: Move, table: Table | None = None) -> MoveResult:
        """Check ``move`` with the movement planner (E-MOVE-*); :class:`IllegalChoice` if it is not legal.
        The same move asked again on the same board by the same model (its options, then
        a policy weighing them) is planned once."""
        table = self.state.table if table is None else table
        if not isinstance(move, Move):
            return self._plan(model_id, move, table)
        u = self.state.unit(model_id)
        hit = self._plans.get((model_id, move))
        if hit is None or hit[0] is not table or hit[1] is not u:
            try:
                got: MoveResult | IllegalChoice = self._plan(model_id, move, table)
            except IllegalChoice as e:
                # (kept as a copy without the frames it went through, and raised as a new
                # copy: with them it would hold this game in a reference cycle, which only
                # the garbage collector frees)
                got = copy.copy(e)
            if len(self._plans) > 4096:
                self._plans.clear()
            hit = self._plans[(model_id, move)] = (table, u, got)
        if isinstance(hit[2], IllegalChoice):
            raise copy.copy(hit[2])
        return hit[2]

    def _plan(self, model_id: str, move: Move, table: Table) -> MoveResult:
        if not isinstance(move, Move):
            raise IllegalChoice(model_id, f"a move decision needs a Move, got {type(move).__name__}", move)
        u = self.state.unit(model_id)
        if move.crouch not in (None, "start", "end"):
            raise IllegalChoice(model_id, "crouch toggles Crouched at the 'start' or the 'end' of a movement", move)
        if move.face is not None and not (is_number(move.face) and math.isfinite(move.face)):
            raise IllegalChoice(model_id, f"face is the facing at the end, a finite number of degrees (or None), "
                                f"got {move.face!r}", move)
        if move.crouch is not None and "Crouched" not in u.states and self.on_face(model_id):  # (one may stand up)
            raise IllegalChoice(model_id, "a model on a face cannot Crouch there (E-MOVE-CLIMB: it hangs on, "
                                "E-STATE-CROUCHED)", move)
        if move.crouch == "start":  # E-ACTIVATION: toggled before moving, the movement is made so
            u, toggled = _toggle_crouched(u, table)
            assert toggled is not None
            table = toggled
        m = table.model(model_id)
        start = (m.x, m.y, m.z)
        if move.kind == "idle":
            face = m.facing if move.face is None else float(move.face)
            return MoveResult("idle", None, (start,), (start,), face % 360.0, crouch=move.crouch)
        if move.kind not in PLANNER_KIND:
            raise IllegalChoice(model_id, f"movement kind {move.kind!r} is not playable (idle, walk, run, climb, "
                                "jump; dodge after a Dodge)", move)
        if "Crouched" in u.states and move.kind in ("run", "climb", "jump"):
            raise IllegalChoice(model_id, "a Crouched model may only Walk or Idle (E-STATE-CROUCHED)", move)
        if move.to is None:
            raise IllegalChoice(model_id, f"a {move.kind} needs a destination", move)
        if "Immobilized" in u.states:
            raise IllegalChoice(model_id, "an Immobilized model cannot move (E-STATE-OTHER)", move)
        foes = self.engaged_by(model_id) if move.kind != "dodge" else ()
        if foes and move.kind != "walk":
            raise IllegalChoice(model_id, f"Engaged by {', '.join(foes)}: it may only Idle or Walk straight at "
                                "one engager (E-STATE-ENGAGED)", move)
        budget = self.budget(model_id, move.kind, u.states)
        kind = PLANNER_KIND[move.kind]
        try:
            to = tuple(map(float, move.to))
            plan = table.plan_move(model_id, to, kind=kind, budget=budget, declared=True, bounded=True)
            via = tuple(plan.points[1:])
            if kind == "jump":  # E-MOVE-JUMP: the line aimed at ``to``; it may end short and drop (E-FALL)
                via = (to, *plan.points[2:])
                plan = table.check_move(model_id, list(via), kind="jump", budget=budget, declared=True)
        except (SkirmishError, TypeError, ValueError) as e:  # (a point that is no point: the planner says why)
            raise IllegalChoice(model_id, f"{move.kind} to {move.to}: {e}", move) from None
        if not plan.legal:
            why = "; ".join(v.what for v in plan.violations) or "not legal"
            raise IllegalChoice(model_id, f"{move.kind} to {move.to}: {why}", move)
        path = tuple([(float(p[0]), float(p[1]), float(p[2])) for p in plan.points])
        end = path[-1]
        if foes and not any(_straight_at(path, self.state.model(e)) for e in foes):
            raise IllegalChoice(model_id, f"Engaged by {', '.join(foes)}: a Walk goes straight at one engager "
                                "(E-STATE-ENGAGED)", move)
        if move.face is not None:
            face = float(move.face)
        else:
            prev = next((p for p in reversed(path[:-1]) if math.hypot(p[0] - end[0], p[1] - end[1]) > 1e-6), None)
            face = m.facing if prev is None else facing_toward(prev[0], prev[1], end[0], end[1], m.facing)
        spd = float(attributes_of(m, u.states)["SPD"])
        return MoveResult(move.kind, plan, path, path_samples(path), face % 360.0,
                          tuple(tuple(map(float, p)) for p in via), move.crouch, spd)  # type: ignore[misc]

    def apply_move(self, model_id: str, move: Move) -> MoveResult:
        mr = self.plan(model_id, move)
        end = mr.path[-1]
        if mr.crouch == "start":
            self.state = self.state.with_unit(_toggle_crouched(self.state.unit(model_id), None)[0])
        self.state = self.state.moved(model_id, end[0], end[1], end[2], mr.facing)
        if mr.crouch == "end":
            self.state = self.state.with_unit(_toggle_crouched(self.state.unit(model_id), None)[0])
        return mr

    def _with_near_moments(self, model_id: str, mr: MoveResult) -> tuple[MoveResult, dict[str, list[float]]]:
        """E-REACTION: the moments of the move are its judged points (:func:`.choices.path_samples`)
        and, for each model that may react, the point of the path nearest it where that
        brings a weapon's reach, a nearer band or the Awareness that no judged point
        brings: a reactor never misses an Attack of Opportunity (or a Dodge) because the
        mover passed it between two judged points. With the move, each such reactor's
        E-DIST to the mover at its moments (the sequence's, :meth:`_distances`) where no
        moment was added (else none: they were measured at the samples)."""
        st = self.state
        if len(mr.path) < 2:
            return mr, {}
        extra = []
        found: dict[str, list[float]] = {}
        mm = st.model(model_id)
        reactors = [st.model(u.id) for u in st.in_play(st.reactive) if u.ap >= 1]
        for rm, (near, _) in zip(reactors, nearest_on_path(mr.path, [(rm.x, rm.y) for rm in reactors])):
            *ds, d = distances_to_cylinders_at(rm.hitbox, (*mr.samples, near), mm.radius, mm.hitbox_height)
            found[rm.id] = ds
            if d >= min(ds) - 1e-9:
                continue
            hand = self._hand(rm.id, reaction=True)

            def offers(dist: float) -> set[tuple[str, int]]:  # (weapon, band) in reach; Awareness
                got = {(w.name, b) for w in hand if (b := reach_band(rm, w, dist)) is not None}
                return got | ({("Awareness", 0)} if within_awareness(rm, dist) else set())

            if offers(d) - set().union(*map(offers, ds)):
                extra.append(near)
        if extra:
            return dataclasses.replace(mr, samples=with_moments(mr.path, mr.samples, extra)), {}
        return mr, found

    def _tables_along(self, model_id: str, samples: tuple[tuple[float, float, float], ...]) -> PathTables:
        return PathTables(self.state.table, self.state.model(model_id), samples)

    # reactions --------------------------------------------------------------------------
    def reaction_options(self, seq: _Sequence, reactor: str) -> tuple[Reaction, ...]:
        """E-REACTION: with LoS from its front arc to the mover at some path point, a
        reactor may Attack at any point where it has LoS and reach (Attack of
        Opportunity), or Dodge; without LoS only Dodge (Agility halved), and only if the
        mover came within its Awareness."""
        st = self.state
        rm = st.model(reactor)
        opts: list[Reaction] = [NO_REACTION]
        seen = False
        blind = "Blinded" in st.unit(reactor).states  # E-STATE-OTHER: no LoS
        reach = self._reach_along(seq, reactor)
        seen_at = [False] * len(reach) if blind else self._seen_along(seq, reactor)
        for i, (reaching, seen_there) in enumerate(zip(reach, seen_at)):
            if seen_there:
                seen = True
                opts += [Reaction("attack", i, w.name) for w in reaching]
        if seen:
            opts.append(Reaction("dodge"))
        elif rm.awareness is not None and within_awareness(rm, min(self._distances(seq, reactor))):
            opts.append(Reaction("dodge", los=False))
        return tuple(opts)

    def _distances(self, seq: _Sequence, reactor: str) -> list[float]:
        """E-DIST from ``reactor`` to the mover at each path point (found once per sequence)."""
        got = seq.distances.get(reactor)
        if got is None:
            got = seq.distances[reactor] = seq.tables.distances(reactor)
        return got

    def _reach_along(self, seq: _Sequence, reactor: str) -> list[list[Weapon]]:
        """Per path point, the weapons in ``reactor``'s hand (E-STATE-ENGAGED: melee only)
        that reach the mover there (E-REACH); found once per sequence."""
        got = seq.reach.get(reactor)
        if got is None:
            rm = self.state.model(reactor)
            hand = self._hand(reactor, reaction=True)
            got = seq.reach[reactor] = [[w for w in hand if reach_band(rm, w, d) is not None]
                                        for d in self._distances(seq, reactor)]
        return got

    def _hand(self, model_id: str, *, reaction: bool = False) -> tuple[Weapon, ...]:
        """:func:`.attacks.weapons_in_hand`, asking whether the model is Engaged only where
        that changes the answer (a ranged weapon in hand: E-STATE-ENGAGED)."""
        m = self.state.model(model_id)
        hand = weapons_in_hand(m, False, reaction=reaction)
        melee = weapons_in_hand(m, True, reaction=reaction)  # (the hand less its ranged weapons: both kept)
        return melee if len(melee) < len(hand) and self.engaged_by(model_id) else hand

    def _seen_along(self, seq: _Sequence, reactor: str) -> list[bool]:
        """Per path point, LoS from ``reactor``'s front arc to the mover there, solved for
        every Reactive model that may react at once (cached in the sequence). Where no
        weapon of a reactor reaches the mover, only whether it sees it at some point
        matters (the Dodge): those points are left unsolved once another is seen."""
        if seq.sight is None:
            ids = [u.id for u in self.state.in_play(self.state.reactive)  # only they may react
                   if u.ap >= 1 and "Blinded" not in u.states]
            # the action's LoS (the same board: reactions move no one) joins the batch
            also = [] if seq.move.kind in SPECIAL_MOVES or "Blinded" in self.state.unit(seq.mover).states else \
                [(seq.mover, e) for e, ws in self._in_reach(seq.mover).items() if ws]
            n = len(seq.move.samples)
            reach = [self._reach_along(seq, r) for r in ids]  # (per reactor, per point: the weapons)
            exact = np.array([bool(ws[i]) for i in range(n) for ws in reach], bool).reshape(n, len(ids))
            seq.sight = sight_along(self.state.table, self.state.model(seq.mover), seq.move.samples, ids, also=also,
                                    exact=exact)
            seq.tables = seq.sight.tables
        sight = seq.sight
        if reactor not in sight.others:
            return [False] * len(seq.move.samples)
        return sight.seen_by[:, sight.others.index(reactor)].tolist()

    def _sight_at(self, seq: _Sequence, i: int, reactor: str) -> LineOfSight | None:
        """The reaction batch's LoS from ``reactor`` to the mover at path point ``i`` as the
        table there answers it (its witness holds there: :class:`.sight.Sight`), or None
        where the batch kept no witness (the table is asked)."""
        sight = seq.sight
        if sight is None or sight.witness is None or reactor not in sight.others:
            return None
        seg = sight.witness[i][sight.others.index(reactor)]
        if seg is None:
            return None
        return LineOfSight(reactor, seq.mover, True, "clear", seg, (), DEFAULT_TOLERANCE, "front", "witness")

    def _reactions(self, seq: _Sequence) -> None:
        st = self.state
        side = st.reactive
        for u in sorted(st.in_play(side), key=lambda u: u.id):
            if self.state.unit(u.id).ap < 1:
                continue
            opts = self.reaction_options(seq, u.id)
            if len(opts) == 1:
                continue
            r = self.ask(side, Decision("reaction", u.id, opts, context={
                "mover": seq.mover, "path": seq.move.samples, "movement": seq.move.kind}))
            if r.kind == "none":
                continue
            cur = self.state.unit(u.id)
            self.state = self.state.with_unit(with_fields(cur, ap=cur.ap - 1))
            morale = self._morale(u.id)
            if morale is not None:
                seq.morale[u.id] = morale
                if not morale["success"]:  # E-MORALE: the Reaction is lost, its AP spent
                    r = NO_REACTION
            seq.reactions[u.id] = r
            seq.reaction_ap[u.id] = cur.ap - 1

    # action -----------------------------------------------------------------------------
    def action_options(self, model_id: str, move_kind: str) -> tuple[Action, ...]:
        """E-ACTION-COMBO: after Special movement only Nothing; otherwise Attack (an
        enemy in LoS from the front arc and in reach, per weapon) or Cast (a spell, the
        same; an Aura spell also without LoS, E-AURA-CAST), Dodge, Death Blow (an
        Incapacitated enemy in base contact) or Nothing. Engaged: only melee Attacks,
        Dodge or Nothing (E-STATE-ENGAGED); Blinded: no LoS (E-STATE-OTHER)."""
        if move_kind in SPECIAL_MOVES:
            return (NOTHING,)
        st = self.state
        m = st.model(model_id)
        opts: list[Action] = [NOTHING, Action("dodge")]
        enemies = [e for e in st.side_units(st.enemy_of(m.side)) if "Dead" not in e.states]
        # reach first (a distance), LoS only for the enemies some weapon reaches
        reach = self._in_reach(model_id)
        live = [eid for eid, ws in reach.items() if ws]
        if live:
            blind = "Blinded" in st.unit(model_id).states
            sights = [False] * len(live) if blind else \
                [s.visible for s in st.table.line_of_sight_pairs([(model_id, e) for e in live])]
            by_weapon: dict[str, list[str]] = {}
            for eid, seen in zip(live, sights):
                for w in reach[eid]:
                    if (seen or w.aura) and (w.template is None or place(st.table, model_id, eid, w) is not None):
                        opts.append(Action(action_kind(w), eid, w.name))
                        by_weapon.setdefault(w.name, []).append(eid)
            u = st.unit(model_id)
            # E-STK-SPLIT: an Active Strike > 1 among several targets (E-TMPL-STK: its templates)
            for name, targets in by_weapon.items():
                sw = m.weapon(name)
                assert sw is not None
                opts += [Action(action_kind(sw), sp[0][0], name, sp)
                         for sp in strike_splits(targets, strike_of(m, u, sw))]
        fallen = [e.id for e in enemies if not e.in_play]  # (Engaged: no Death Blow)
        if fallen and not self.engaged_by(model_id):
            opts += [Action("death-blow", e) for e in fallen if st.table.distance(model_id, e) <= CONTACT_TOLERANCE]
        return tuple(opts)

    def _in_reach(self, model_id: str) -> dict[str, list[Weapon]]:
        """Per enemy in play, the weapons in ``model_id``'s hand that reach it (E-DIST;
        Engaged: melee only, E-STATE-ENGAGED)."""
        st = self.state
        m, hand, dist = st.model(model_id), self._hand(model_id), st.table.distance
        return {e.id: [w for w in hand if reach_band(m, w, d) is not None]  # (Table.reach)
                for e in st.in_play(st.enemy_of(st.unit(model_id).side)) for d in (dist(model_id, e.id),)}

    # resolution -------------------------------------------------------------------------
    def _resolve(self, seq: _Sequence, action: Action) -> None:
        """E-ACTIVATION Resolution: every exchange rolled, Wounds summed per model and
        applied together, States last; then turns to face attackers and Dodge moves."""
        if action.weapon:  # E-ACTION-OTHER: the weapon used is equipped (once per Activation or Reaction)
            self._equip(seq, seq.mover, action.weapon)
        for rid, r in seq.reactions.items():
            if r.kind == "attack" and r.weapon:
                self._equip(seq, rid, r.weapon)
        st = self.state
        mover = seq.mover
        logs: dict[str, list[dict[str, Any]]] = {mover: []}
        rolled: dict[str, int] = {}
        hits_on: dict[str, list[str]] = {}  # model -> the attackers that Hit it, in order (E-TURN-FACING)
        dodgers: list[str] = []

        def note(model: str, entry: dict[str, Any]) -> None:
            logs.setdefault(model, []).append(entry)

        def roll(ex: Exchange, attacker: str, defender: str, geo: AttackGeometry, back: AttackGeometry | None
                 ) -> ExchangeLog:
            log = resolve_exchange(with_rerolls(ex, self.settings.reroll), self.rng)  # E-ROLL-REROLL
            rolled[defender] = rolled.get(defender, 0) + log.active.wounds_rolled
            rolled[attacker] = rolled.get(attacker, 0) + log.reactive.wounds_rolled
            if log.active.hits:
                hits_on.setdefault(defender, []).append(attacker)
            if log.reactive.hits:
                hits_on.setdefault(attacker, []).append(defender)
            note(attacker, _exchange_json(log, defender, geo, "active"))
            if back is not None or log.reactive.dodge is not None:
                note(defender, _exchange_json(log, attacker, back, "reactive"))
            return log

        # falls of the movement (E-FALL): one Agility roll per interval, a Wound per failure
        falls = self._fall_rolls(mover, seq.move)
        if falls:
            rolled[mover] = rolled.get(mover, 0) + sum(not r.success for r in falls)
        mm = st.model(mover)
        mu = st.unit(mover)
        confronted: set[str] = set()
        w = mm.weapon(action.weapon) if action.weapon else None
        if action.kind in ("attack", "cast") and w is not None and w.template is not None:
            # E-TMPL: placed, not rolled, each a Hit on every model under it; Strike templates,
            # on the main target or spread among targets (E-TMPL-STK, the split)
            dodging = {rid: r.los for rid, r in seq.reactions.items() if r.kind == "dodge"}
            for target, n in action.shares:
                placed = place(st.table, mover, target, w)
                if placed is None:  # cannot happen for an offered option; kept as a guard
                    raise IllegalChoice(mover, f"{w.template} on {target}: it cannot cover its main target", action)
                tgts = template_targets(placed, st, w, dodging)
                for _ in range(strike_of(mm, mu, w) if n is None else n):
                    note(mover, {"kind": "template", "template": placed.to_json()})  # where it lay, whom it covered
                    for hit in roll_hits(tgts, self.rng, reroll=self.settings.reroll >= 1):
                        tid = hit["target"]
                        rolled[tid] = rolled.get(tid, 0) + hit["wounds"]
                        if hit["hits"]:
                            hits_on.setdefault(tid, []).append(mover)
                        note(mover, {"role": "active", "exchange": "template", "template": w.template, **hit})
                        if "dodge" in hit:
                            note(tid, {"role": "reactive", "exchange": "template", "template": w.template,
                                       "target": mover, "dice": [], "hits": 0, "wounds": 0, "damage": [],
                                       "dodge": hit["dodge"]})
                dodgers += [tid for tid in dodging if tid in placed.affected_ids and tid not in dodgers]
        elif action.kind in ("attack", "cast"):
            assert action.target is not None and w is not None
            # E-STK-SPLIT: one exchange per target, each with its share of the Strike
            for target, dice in action.shares:
                geo = attack_geometry(st.table, mover, target, w, unseen_aura=True, blind="Blinded" in mu.states)
                if not geo.legal:  # cannot happen for an offered option; kept as a guard
                    raise IllegalChoice(mover, f"attack on {target}: no LoS or out of reach", action)
                tgt, tu = st.model(target), st.unit(target)
                active = attacking_side(mm, mu, geo, reactive=False)
                r = seq.reactions.get(target, NO_REACTION)
                back = None
                if r.kind == "attack":
                    rw = tgt.weapon(r.weapon or "")
                    assert rw is not None and r.at is not None
                    back = attack_geometry(seq.tables[r.at], target, mover, rw,
                                           sight=self._sight_at(seq, r.at, target))
                    reactive = attacking_side(tgt, tu, back, reactive=True)
                    confronted.add(target)
                elif r.kind == "dodge":
                    reactive = defending_side(tgt, tu, dodge=True, los=r.los)
                    dodgers.append(target)
                else:
                    reactive = defending_side(tgt, tu)
                roll(Exchange(active, reactive, dice), mover, target, geo, back)
        elif action.kind == "death-blow":
            assert action.target is not None
            tu = st.unit(action.target)
            self.state = self.state.with_unit(dataclasses.replace(tu, states=tu.states | {"Dead"}, ap=0))
            note(mover, {"kind": "death-blow", "target": action.target})
        elif action.kind == "dodge":
            dodgers.append(mover)
        # Attacks of Opportunity not met by a Confrontation: the reactor attacks, the mover takes it (or Dodges)
        for rid, r in seq.reactions.items():
            if r.kind == "dodge" and rid not in dodgers and rid not in confronted:
                dodgers.append(rid)  # a Dodge declared against an attack that never came: only its move
            if r.kind != "attack" or rid in confronted:
                continue
            rm, ru = st.model(rid), st.unit(rid)
            rw = rm.weapon(r.weapon or "")
            assert rw is not None and r.at is not None
            geo = attack_geometry(seq.tables[r.at], rid, mover, rw, sight=self._sight_at(seq, r.at, rid))
            active = attacking_side(rm, ru, geo, reactive=True)
            # E-LOS-MOVE: the mover turned freely while moving, so its Dodge has LoS
            reactive = defending_side(mm, mu, dodge=action.kind == "dodge")
            roll(Exchange(active, reactive), rid, mover, geo, None)
        self._apply_wounds(rolled)
        # (E-WOUND: a model at 0 HP becomes Incapacitated at the end of the Sequence, so it
        # still turns and makes its Dodge move; a Death Blow's Dead is out at once)
        turned = self._face_attackers(hits_on)
        # E-ACTION-DODGE: the Dodge move, up to ⌈SPD/2⌉
        dodge_moves: dict[str, MoveResult] = {}
        for d in dodgers:
            if not self.state.unit(d).in_play or "Immobilized" in self.state.unit(d).states:
                continue
            side = self.state.unit(d).side
            mv = self.ask(side, self._move_decision(d, "dodge-move"))
            if mv.kind == "idle":
                if mv.crouch:  # E-ACTION-DODGE: it may toggle Crouched
                    self.apply_move(d, mv)
                continue
            why = _not_a_move_for("dodge-move", mv)
            if why:
                raise IllegalChoice(d, why, mv)
            dmr = self.apply_move(d, mv)
            dodge_moves[d] = dmr
            fr = self._fall_rolls(d, dmr)
            if fr:
                fails = sum(not r.success for r in fr)
                if fails:
                    self._apply_wounds({d: fails})
                    rolled[d] = rolled.get(d, 0) + fails
                note(d, {"kind": "fall", "rolls": [{"face": r.face, "success": r.success} for r in fr]})
        changed = self._finish_states()
        self._log_sequence(seq, action, logs, falls, changed | {m for m, n in rolled.items() if n > 0}, dodge_moves,
                           turned)

    def _face_attackers(self, hits_on: Mapping[str, list[str]]) -> dict[str, str]:
        """E-TURN-FACING: a model that suffered a Hit may turn to face an attacker, at the
        end of Resolution. It turns to the last attacker that Hit it from base contact, or
        else to the last that Hit it, unless an enemy engaging it (E-STATE-ENGAGED) is in
        its front arc: a careful player keeps its melee foe in front rather than face a
        distant archer. Returns who turned to whom."""
        turned = {}
        for model, attackers in hits_on.items():
            if "Dead" in self.state.unit(model).states:
                continue
            table = self.state.table
            touching = [a for a in attackers if table.distance(model, a) <= CONTACT_TOLERANCE]
            to = touching[-1] if touching else attackers[-1]
            if not touching and any(table.arc(model, e) == "front" for e in self.engaged_by(model)):
                continue
            m, a = self.state.model(model), self.state.model(to)
            face = facing_toward(m.x, m.y, a.x, a.y, m.facing)
            if abs((face - m.facing + 180) % 360 - 180) > 1e-9:
                self.state = self.state.moved(model, m.x, m.y, m.z, face)
                turned[model] = to
        return turned

    @staticmethod
    def fall_count(mr: MoveResult) -> int:
        """E-FALL: how many Agility rolls a movement's drops owe, at the SPD the States
        left the model as it moved."""
        if mr.plan is None:
            return 0
        return mr.plan.fall_rolls if mr.spd is None else sum(fall_rolls(d, mr.spd) for d in mr.plan.drops)

    def fall_risk(self, model_id: str, mr: MoveResult) -> float:
        """The Wounds a movement's falls are expected to cost ``model_id`` (each roll fails
        with 1 − AGI/20, AGI as the States leave it; at most its HP)."""
        n = self.fall_count(mr)
        if not n:
            return 0.0
        agi = self._fall_agility(model_id)
        return min(float(self.state.unit(model_id).hp), n * (1.0 - max(0, min(20, agi)) / 20))

    def _fall_agility(self, model_id: str) -> int:
        """The AGI a fall roll is made against: as the States leave it (Crippled halves it)."""
        return attributes_of(self.state.model(model_id), self.state.unit(model_id).states).get("AGI", 0)

    def _fall_rolls(self, model_id: str, mr: MoveResult) -> list[AttributeRoll]:
        """E-FALL: the Agility rolls of a movement's falls, one per interval of half the
        Speed (SPD and AGI as the States leave them: Slowed, Crippled or Crouched halve
        SPD, Crippled halves AGI); a failure is a Wound."""
        n = self.fall_count(mr)
        if not n:
            return []
        return [attribute_roll(modify(self._fall_agility(model_id)), self.rng) for _ in range(n)]

    def _equip(self, seq: _Sequence, model_id: str, weapon: str) -> None:
        """E-ACTION-OTHER: one item of each category equipped at a time. Using a weapon
        (not a spell) that is not in hand equips it in place of the one that was, the
        one Equip of this Activation or Reaction (logged as ``equip``)."""
        w = self.state.model(model_id).weapon(weapon)
        u = self.state.unit(model_id)
        if w is None or w.spell or u.equipped == w.name:
            return
        if model_id in seq.equips:
            raise IllegalChoice(model_id, "one Equip per Activation or Reaction (E-ACTION-OTHER)", weapon)
        seq.equips[model_id] = {"unequip": u.equipped, "equip": w.name}
        self.state = self.state.with_unit(dataclasses.replace(u, equipped=w.name))

    def dodge_move_options(self, model_id: str) -> tuple[Move, ...]:
        fixed, kinds = self._dodge_kinds(model_id)
        return (*fixed, *(mv for k in kinds for mv in self._sample_moves(model_id, k, SAMPLES[k])))

    def _dodge_kinds(self, model_id: str) -> tuple[tuple[Move, ...], tuple[str, ...]]:
        """E-ACTION-DODGE: the Dodge move's fixed options (stay, or stay and Crouch) and
        kinds sampled; on a face, only stay (it moves only by a Climb, and cannot Crouch there)."""
        if self.on_face(model_id):
            return (_STAY,), ()
        return (_STAY, _STAY_CROUCHING), ("dodge",)

    def on_face(self, model_id: str) -> bool:
        """Whether ``model_id`` hangs on a vertical face where a Climb stopped (E-MOVE-CLIMB)."""
        t = self.state.table
        return t.model(model_id).z > 1e-6 and t.on_face(model_id) is not None

    def _apply_wounds(self, rolled: Mapping[str, int]) -> None:
        """E-WOUND for every model at once: Wounds capped by HP; 0 HP is marked for
        Incapacitation; a Wound on an Incapacitated model kills it."""
        for mid, n in rolled.items():
            if n <= 0:
                continue
            u = self.state.unit(mid)
            if "Dead" in u.states:
                continue
            inc = "Incapacitated" in u.states
            res = apply_wounds(n, 0 if inc else u.hp, inc)
            states = u.states | ({"Dead"} if res.state is ModelState.DEAD else set())
            self.state = self.state.with_unit(dataclasses.replace(u, hp=res.hp_after or 0, states=states))

    def _finish_states(self) -> set[str]:
        """End of Resolution: models at 0 HP become Incapacitated (and Crouched); the
        Incapacitated and the Dead lose their AP. Returns the models that changed."""
        changed = set()
        for u in self.state.units.values():
            states = u.states
            if "Dead" in states:
                if states & _NOT_WHEN_DEAD:
                    states = states - _NOT_WHEN_DEAD
            elif u.hp <= 0 and "Incapacitated" not in states:
                states = states | {"Incapacitated", "Crouched"}
            ap = 0 if states & OUT else u.ap
            if states != u.states or ap != u.ap:
                self.state = self.state.with_unit(dataclasses.replace(u, states=states, ap=ap))
                changed.add(u.id)
        return changed

    def _state_name(self, model: str) -> str:
        u = self.state.unit(model)
        if not u.in_play:
            return u.condition
        hp = int(self.state.model(model).attributes["HP"])
        return "Wounded" if u.hp < hp else "Unharmed"

    # -- the log ---------------------------------------------------------------------------
    def _log_sequence(self, seq: _Sequence, action: Action, logs: dict[str, list[dict[str, Any]]],
                      falls: list[Any], changed: set[str], dodge_moves: Mapping[str, MoveResult],
                      turned: Mapping[str, str]) -> None:
        if not self.log:
            return
        st = self.state
        involved = {seq.mover, *seq.reactions, *(e.get("target") for es in logs.values() for e in es
                                                 if e.get("target"))}
        states = {m: self._state_name(m) for m in sorted(x for x in involved if x)}
        head = {"round": st.round, "turn": st.turn, "active": st.active, "sequence": seq.number}
        mover_json = seq.move.to_json()
        entries = logs.get(seq.mover, [])
        self.events.append({
            **head, "model": seq.mover, "role": "activation", "ap": st.unit(seq.mover).ap
            if st.unit(seq.mover).in_play else 0,
            "movement": mover_json,
            "action": {"kind": action.kind, "target": action.target, "weapon": action.weapon,
                       **({"split": [list(x) for x in action.split]} if action.split else {})},
            "result": {"hits": sum(e.get("hits", 0) for e in entries if e.get("role") == "active"),
                       "wounds": sum(e.get("wounds", 0) for e in entries if e.get("role") == "active"),
                       "falls": [{"face": r.face, "success": r.success} for r in falls],
                       "exchanges": entries, "states": states,
                       "dodge_move": dodge_moves[seq.mover].to_json() if seq.mover in dodge_moves else None,
                       "turned": {m: {"toward": a, "facing": round(st.model(m).facing, 2)} for m, a in turned.items()}},
            "morale": seq.morale.get(seq.mover), "equip": seq.equips.get(seq.mover),
            "text": _activation_text(seq, action, entries, falls, states, changed,
                                     _dodge_move_text(dodge_moves.get(seq.mover), entries) + _turned_text(turned, st)),
        })
        for rid, r in seq.reactions.items():
            rent = logs.get(rid, [])
            at = seq.move.samples[r.at] if r.at is not None else None
            self.events.append({
                **head, "model": rid, "role": "reaction", "ap": seq.reaction_ap[rid],
                "movement": (dodge_moves[rid].to_json() if rid in dodge_moves else
                             {"kind": "idle", "length": 0.0, "path": [list(_xyz(st.model(rid)))]}),
                "action": {"kind": _reaction_kind(st.model(rid), r), "target": seq.mover, "weapon": r.weapon,
                           "at": None if at is None else [round(c, 4) for c in at], "los": r.los},
                "result": {"hits": sum(e.get("hits", 0) for e in rent if e.get("role") == "active"),
                           "wounds": sum(e.get("wounds", 0) for e in rent if e.get("role") == "active"),
                           "exchanges": rent, "states": states},
                "morale": seq.morale.get(rid), "equip": seq.equips.get(rid),
                "text": _reaction_text(rid, seq.mover, r, rent, at, seq.morale.get(rid),
                                       [e for e in entries if e.get("role") == "reactive" and e.get("target") == rid])
                + _dodge_move_text(dodge_moves.get(rid), rent),
            })


def _toggle_crouched(u: Unit, table: Table | None) -> tuple[Unit, Table | None]:
    """The unit with Crouched toggled (E-STATE-CROUCHED), and ``table`` with its model's
    hitbox States to match (None: no table)."""
    nu = with_fields(u, states=u.states ^ {"Crouched"})
    if table is None:
        return nu, None
    m = table.model(u.id)
    return nu, table.with_model(with_fields(m, states=m.states ^ {"Crouched"}))


def _straight_at(path: tuple[tuple[float, float, float], ...], e: Any, degrees: float = 1.0) -> bool:
    """E-STATE-ENGAGED: a Walk of one straight stretch heading at model ``e``'s centre."""
    if len(path) != 2 or abs(path[0][2] - path[1][2]) > 1e-9:
        return False
    (x0, y0, _), (x1, y1, _) = path
    if math.hypot(x1 - x0, y1 - y0) < 1e-9:
        return True
    turn = abs((math.degrees(math.atan2(y1 - y0, x1 - x0) - math.atan2(e.y - y0, e.x - x0)) + 180) % 360 - 180)
    return turn <= degrees


def _xyz(m: Any) -> tuple[float, float, float]:
    return (round(m.x, 4), round(m.y, 4), round(m.z, 4))


def _dice(log_side: Any) -> list[dict[str, Any]]:
    return [{"face": d.face, "success": d.success, "critical": d.critical, "hit": d.hit,
             **({"rerolled_from": d.rerolled_from} if d.rerolled_from is not None else {})} for d in log_side.dice]


def _exchange_json(log: ExchangeLog, other: str, geo: AttackGeometry | None, role: str) -> dict[str, Any]:
    me, them = (log.active, log.reactive) if role == "active" else (log.reactive, log.active)
    out: dict[str, Any] = {"role": role, "target": other, "exchange": log.kind, "dice": _dice(me),
                           "hits": me.hits, "wounds": me.wounds_dealt,
                           "damage": [{"face": d.face, "target": d.target, "wound": d.wound} for d in me.damage or ()]}
    if geo is not None:
        out["geometry"] = geo.to_json()
    if me.dodge is not None:
        out["dodge"] = {"face": me.dodge.face, "success": me.dodge.success,
                        "agility": me.dodge.attribute.value, "rerolled_from": me.dodge.rerolled_from}
    return out


def _rerolled(d: Mapping[str, Any]) -> str:
    """A die's face for the text, after the face it replaced when rerolled (E-ROLL-REROLL): ``14→4``."""
    was = d.get("rerolled_from")
    return f"{d['face']}" if was is None else f"{was}→{d['face']}"


def _describe_exchange(e: dict[str, Any], who: str) -> str:
    dice = " ".join(f"{_rerolled(d)}{'*' if d['critical'] else ''}{'✓' if d['hit'] else '✗'}" for d in e["dice"])
    text = f"{who} → {e['target']}" if who else e["target"]
    geo = e.get("geometry")
    if geo:
        text += f" with {geo['weapon']} at {geo['distance']:.2f} in"
        mods = [f"Accuracy {geo['accuracy']:+d}"] if geo.get("accuracy") else []
        if geo.get("cover") and geo["cover"]["modifier"]:
            mods.append(f"{geo['cover']['level']} cover {geo['cover']['modifier']:+d}")
        if geo.get("aura") and geo.get("los") is False:
            mods.append("no LoS: halved (E-AURA-CAST)")
        if mods:
            text += f" ({', '.join(mods)})"
    if dice:
        text += f" [{dice}]"
    elif e.get("exchange") != "template":
        text += " [no die: the value is 0 or less, an automatic failure (E-MOD-ZERO)]"
    text += f": {count(e['hits'], 'Hit')}, {count(e['wounds'], 'Wound')}"
    if e.get("dodge"):
        text += f"; Dodge {_dodge(e['dodge'])}"
    return text


def _activation_text(seq: _Sequence, action: Action, entries: list[dict[str, Any]], falls: list[Any],
                     states: Mapping[str, str], took: set[str], after: str = "") -> str:
    mv = seq.move
    end = mv.path[-1]
    if mv.kind == "idle":
        move = f"stays (facing {mv.facing:.0f}°)"
    else:
        pulled = mv.kind == "jump" and len(mv.path) > 2 and end[2] > mv.path[1][2] + 1e-6  # E-MOVE-JUMP
        path = "" if mv.length - mv.cost <= 0.005 else \
            f" (a {mv.length:.2f} in path, pulled up onto the edge)" if pulled else \
            f" (a {mv.length:.2f} in path with its drop)"
        move = f"{mv.kind}s {mv.cost:.2f} in{path} to {_place(end)}"
        if mv.plan is not None and any("stops on the vertical face" in n for n in mv.plan.notes):
            move += ", hanging on the face"  # E-MOVE-CLIMB
    toggle = "stands up" if seq.was_crouched else "crouches"  # E-ACTIVATION: Crouched toggled
    if mv.crouch == "start":
        move = f"{toggle} and {move}"
    elif mv.crouch == "end":
        move = f"{move}, then {toggle}"
    parts = [f"#{seq.number} {seq.mover} {move}"]
    panic = seq.morale.get(seq.mover)
    if panic is not None:
        parts[0] = (f"#{seq.number} {seq.mover} passes its Morale roll ({panic['face']} ✓) and {move}"
                    if panic["success"] else f"#{seq.number} {seq.mover} panics (Morale roll {panic['face']} ✗) and {move}")
    if falls:
        parts.append("falls: " + _falls((r.face, r.success) for r in falls))
    if action.kind in ("attack", "cast"):
        ex = [e for e in entries if e.get("role") == "active"]
        verb = "casts at " if action.kind == "cast" else "attacks "
        if ex and ex[0].get("exchange") == "template":
            on = "/".join(t for t, _ in action.shares)
            verb = f"{'casts' if action.kind == 'cast' else 'places'} {ex[0].get('template')} on {on}: "
        parts.append(verb + "; ".join(_describe_exchange(e, "") for e in ex))
    elif action.kind == "death-blow":
        parts.append(f"deals a Death Blow to {action.target}")
    else:
        parts.append(action.kind)
    out = ", ".join(parts) + after
    hurt = [f"{m}: {s}" for m, s in states.items() if m in took]
    return out + (f" — {', '.join(hurt)}" if hurt else "")


def _dodge_move_text(mr: MoveResult | None, entries: list[dict[str, Any]]) -> str:
    """The Dodge move of a model (E-ACTION-DODGE) and the falls it made, for the log."""
    if mr is None:
        return ""
    text = f"; Dodge move {mr.cost:.2f} in to {_place(mr.path[-1])}"
    for e in entries:
        if e.get("kind") == "fall":
            text += ", falls: " + _falls((r["face"], r["success"]) for r in e["rolls"])
    return text


def _place(p: Sequence[float]) -> str:
    """``(x, y)`` of a point for the log, with ``z`` when above the table."""
    return f"({p[0]:.2f}, {p[1]:.2f}{f', z {round(p[2], 2):g}' if p[2] else ''})"


def _falls(rolls: Iterable[tuple[int | None, bool]]) -> str:
    """E-FALL rolls for the log: ``14✗ 5✓``."""
    return " ".join(f"{face}{'✓' if ok else '✗'}" for face, ok in rolls)


def _dodge(d: Mapping[str, Any]) -> str:
    """A logged Dodge roll for the text: ``19 ✗`` (rerolled: ``14→19 ✗``)."""
    return f"{_rerolled(d)} {'✓' if d['success'] else '✗'}"


def _face(face: int | None) -> str:
    """A phase roll's face for the text (None: no die, E-MOD-ZERO)."""
    return "automatic failure" if face is None else str(face)


def _turned_text(turned: Mapping[str, str], st: GameState) -> str:
    """E-TURN-FACING: who turned to face whom after a Hit, for the log."""
    return "".join(f"; {m} turns to face {a} ({st.model(m).facing:.0f}°)" for m, a in turned.items())


def _reaction_kind(m: Any, r: Reaction) -> str:
    """The logged kind of a Reaction: ``cast`` for an attack with a spell (E-AURA-CAST)."""
    w = m.weapon(r.weapon) if r.kind == "attack" and r.weapon else None
    return "cast" if w is not None and w.spell else r.kind


def _reaction_text(rid: str, mover: str, r: Reaction, entries: list[dict[str, Any]],
                   at: tuple[float, float, float] | None, morale: dict[str, Any] | None = None,
                   mover_side: Sequence[dict[str, Any]] = ()) -> str:
    """A Reaction's line: its Morale roll, the Attack of Opportunity (with the mover's
    Dodge against it, ``mover_side``) or the Dodge."""
    if r.kind == "none":
        face = morale["face"] if morale else "?"
        return f"   ↳ {rid} panics (Morale roll {face} ✗): its Reaction is lost (E-MORALE)"
    passed = f" (Morale roll {morale['face']} ✓)" if morale else ""
    if r.kind == "attack":
        where = f" at ({at[0]:.2f}, {at[1]:.2f})" if at else ""
        ex = [e for e in entries if e.get("role") == "active"] or [e for e in entries]
        return f"   ↳ {rid} reacts{passed}: Attack of Opportunity{where}; " + "; ".join(
            _describe_exchange(e, rid) for e in ex) + "".join(
            f"; {mover} Dodges {_dodge(e['dodge'])}" for e in mover_side)
    return f"   ↳ {rid} reacts{passed}: Dodge{'' if r.los else ' (no LoS: Agility halved)'}" + "".join(
        f"; Dodge {_dodge(e['dodge'])}" for e in entries if e.get("dodge"))


@lru_cache(maxsize=None)
def _slots(kinds: tuple[str, ...]) -> tuple[Move, ...]:
    """A lazy move decision's slots of ``kinds``: one ``Move(kind)`` per sample the kind gets."""
    return tuple(Move(k) for k in kinds for _ in range(SAMPLES[k]))  # type: ignore[arg-type]


def _not_a_move_for(decision: str, mv: Any) -> str | None:
    """Why ``mv`` cannot answer a ``"move"`` or ``"dodge-move"`` decision by its kind (None:
    it may; the movement checker judges the rest). E-ACTION-DODGE: the Dodge move comes
    only after a Dodge, and is all a Dodging model may do but stay."""
    kind = getattr(mv, "kind", None)
    if decision == "dodge-move":
        return None if kind in ("idle", "dodge") else "a Dodge move is of kind 'dodge' (or 'idle' to stay)"
    return "a Dodge move (kind 'dodge') comes only after a Dodge (E-ACTION-DODGE)" if kind == "dodge" else None


def _check_scripted(policies: Mapping[str, Policy], script: Script | None, table: Table, where: str) -> None:
    """Refuse the ``script`` policy for a side the scenario's ``[[script]]`` gives nothing
    to play (no move or attack by one of its models: the policy skips the rest), which
    would play a whole game of empty turns."""
    side_of = {m.id: m.side for m in table.all_models()}
    playing = {side_of.get(a.actor) for a in (script.actions if script is not None else ()) if a.do in PLAYED}
    idle = [s for s, p in policies.items() if isinstance(p, ScriptPolicy) and s not in playing]
    if idle:
        raise PolicyError(f"{where}: policy script (side {', '.join(idle)}) plays the scenario's [[script]], and it "
                          f"has no move or attack by a model of {'that side' if len(idle) == 1 else 'those sides'}: "
                          "give the file one (docs/simulation.md) or use random or greedy")


def play_game(table: Table, settings: GameSettings, policies: Mapping[str, Policy], rng: random.Random,
              *, seed: int | None = None, script: Script | None = None, log: bool = True) -> GameRecord:
    """Play one game from ``rng`` (the same seed gives the same game). ``log=False``: the
    same game without its event log (``events`` empty; what a run of many keeps)."""
    return EldfallGame(table, settings, policies, rng, seed=seed, script=script, log=log).play()
