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

import dataclasses
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...game.policy import Decision, Policy
from ...maps.results import MovePlan
from ...maps.table import CONTACT_TOLERANCE, Table
from ...sim.script import Script
from ...rules.eldfall.dice import ExchangeLog, attribute_roll, resolve_exchange, roll_d20
from ...rules.eldfall.exchange import Exchange
from ...rules.eldfall.modifiers import modify
from ...rules.eldfall.movement import half_up
from ...rules.eldfall.wounds import ModelState, apply_wounds
from ...wording import count
from .attacks import AttackGeometry, attack_geometry, attacking_side, defending_side, usable_weapons
from .choices import NO_REACTION, NOTHING, SPECIAL_MOVES, Action, IllegalChoice, Move, Reaction, path_samples
from .sampling import sample_ends
from .settings import GameSettings
from .sight import Sight, moved_to, sight_along
from .state import OUT, GameState, Unit, facing_toward

#: How many end points a move decision offers per movement kind (the decision is open).
SAMPLES = {"walk": 4, "run": 3, "dodge": 3}


@dataclass(frozen=True)
class MoveResult:
    """A movement as made: its kind, the checked plan (None for idle), the path, the
    points where Reactions are judged, and the E-FALL rolls it owes."""

    kind: str
    plan: MovePlan | None
    path: tuple[tuple[float, float, float], ...]
    samples: tuple[tuple[float, float, float], ...]
    facing: float

    @property
    def length(self) -> float:
        return 0.0 if self.plan is None else float(self.plan.length)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "length": round(self.length, 4),
                "path": [[round(c, 4) for c in p] for p in self.path], "facing": round(self.facing, 2),
                "stopped_at_contact": None if self.plan is None else self.plan.stopped_at_contact}


@dataclass
class GameRecord:
    """A played game: one JSON-ready event per activation, reaction and phase roll,
    and the summary ``{seed, winner, vp, rounds, states}``."""

    events: list[dict[str, Any]]
    summary: dict[str, Any]
    turns: list[tuple[int, int, str]] = field(default_factory=list)  # (round, turn, Active side) as played


@dataclass
class _Sequence:
    """The facts of one Activation Sequence while it is being resolved."""

    number: int
    mover: str
    move: MoveResult
    tables: list[Table]  # the table with the mover at each path sample
    reactions: dict[str, Reaction] = field(default_factory=dict)
    reaction_ap: dict[str, int] = field(default_factory=dict)
    sight: Sight | None = None  # the Reactive models' sight of the mover at every path point
    morale: dict[str, dict[str, Any]] = field(default_factory=dict)  # E-MORALE rolls of this sequence


class EldfallGame:
    """One game in progress. ``state`` is the current :class:`GameState`; policies
    receive this object as ``game`` (read ``game.state`` and the helper queries)."""

    def __init__(self, table: Table, settings: GameSettings, policies: Mapping[str, Policy], rng: random.Random,
                 *, seed: int | None = None, script: Script | None = None):
        self.settings = settings
        self.script = script  # the scenario's [[script]], for the script policy
        self.script_pos = 0  # how far the script policy has played it
        self.policies = dict(policies)
        self.rng = rng  # the dice
        self.policy_rng = random.Random(rng.getrandbits(64))
        self.seed = seed
        self.events: list[dict[str, Any]] = []
        self.turns: list[tuple[int, int, str]] = []
        self.sequence = 0
        first = settings.first or self._initiative(table)
        self.state = GameState.start(table, settings, first)
        self.start_table = table  # where the models stood at the start (own table edges, E-MORALE)
        # plans already made on this board: (model, move) -> (table, unit, plan or refusal)
        self._plans: dict[tuple[str, Move], tuple[Table, Unit, MoveResult | IllegalChoice]] = {}

    # -- asking ------------------------------------------------------------------------
    def ask(self, side: str, decision: Decision[Any]) -> Any:
        """The side's policy answers ``decision``; closed decisions must pick an option."""
        choice = self.policies[side].choose(self, decision, self.policy_rng)
        if not decision.open and choice not in decision.options:
            raise IllegalChoice(decision.actor, f"{decision.kind}: not one of the {len(decision.options)} legal "
                                f"options", choice)
        return choice

    # -- E-SETUP ------------------------------------------------------------------------
    def _initiative(self, table: Table) -> str:
        """E-SETUP: each side rolls d20 + its Leader's Morale (MOR); ties reroll. The
        winner takes the first turn (its choice, made as a careful player would)."""
        sides = table.sides
        while True:
            rolls = []
            for s in sides:
                leader = self.settings.leaders.get(s)
                mor = table.model(leader).attributes.get("MOR", 0) if leader else 0
                rolls.append(roll_d20(self.rng) + int(mor or 0))
            if rolls[0] != rolls[1]:
                return sides[0] if rolls[0] > rolls[1] else sides[1]

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
        return GameRecord(self.events, self.summary(played), self.turns)

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
                "states": {u.id: u.condition for u in st.units.values()}}

    # -- phases -------------------------------------------------------------------------
    def _strategic(self, side: str) -> None:
        """E-TURN Strategic phase: Recovery rolls (E-STATE-INCAPACITATED) and Bleeding
        rolls (E-STATE-OTHER) of the Active side's models."""
        for u in self.state.side_units(side):
            m = self.state.model(u.id)
            sta = int(m.attributes["STA"])
            if "Incapacitated" in u.states and "Dead" not in u.states:
                r = attribute_roll(modify(sta), self.rng)
                if r.success:
                    nu = dataclasses.replace(u, hp=u.hp + 1, states=(u.states - {"Incapacitated", "Crouched"})
                                             | {"Weakened"})
                    self.state = self.state.with_unit(nu)
                self._phase_event(u.id, "recovery", r.face, r.success,
                                  f"{u.id} rolls Recovery (STA {sta}): {r.face} -> "
                                  + ("back with 1 HP, Weakened" if r.success else "stays Incapacitated"))
            elif "Bleeding" in u.states and u.in_play:
                r = attribute_roll(modify(sta), self.rng)
                if not r.success:
                    self._apply_wounds({u.id: 1})
                    self._finish_states()
                self._phase_event(u.id, "bleeding", r.face, r.success,
                                  f"{u.id} rolls for Bleeding (STA {sta}): {r.face} -> "
                                  + ("no Wound" if r.success else "1 Wound"))

    def _phase_event(self, model: str, kind: str, face: int | None, success: bool, text: str) -> None:
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
            units[u.id] = dataclasses.replace(u, ap=ap, states=states)
        self.state = self.state.with_units(units)

    def _end_phase(self) -> None:
        """E-TURN End phase: all unspent AP are lost."""
        self.state = self.state.with_units({u.id: dataclasses.replace(u, ap=0) for u in self.state.units.values()})

    def _tactical(self, side: str) -> None:
        """E-AP-SPEND: the Active side activates models with AP, in any order, until
        none has AP or it stops."""
        while True:
            ready = tuple(sorted(u.id for u in self.state.in_play(side) if u.ap > 0))
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
        self.state = st.with_unit(dataclasses.replace(u, ap=u.ap - 1))  # E-AP-SPEND
        side = u.side
        morale = self._morale(model_id)
        if morale is not None and not morale["success"]:  # E-MORALE: Run toward its own table edge
            move = self._flight(model_id)
        else:
            move = self.ask(side, self._move_decision(model_id, "move"))
        mr = self.apply_move(model_id, move)
        seq = _Sequence(self.sequence, model_id, mr, self._tables_along(model_id, mr.samples))
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
        """A sample of legal moves: idle (facing the nearest enemy), walks and runs to
        points drawn from the movement range and walks into contact with enemies."""
        idle, kinds = self._move_kinds(model_id)
        opts: list[Move] = [idle]
        for kind in kinds:
            opts += self._sample_moves(model_id, kind, SAMPLES[kind])
        return tuple(opts)

    def _move_kinds(self, model_id: str) -> tuple[Move, tuple[str, ...]]:
        st = self.state
        m = st.model(model_id)
        kinds: tuple[str, ...] = ("walk",) if "Crouched" in st.unit(model_id).states else ("walk", "run")
        if "Immobilized" in st.unit(model_id).states:
            kinds = ()
        return Move("idle", None, self._face_nearest(model_id, (m.x, m.y))), kinds

    def _move_decision(self, model_id: str, kind: str) -> Decision[Move]:
        """The ``move`` or ``dodge-move`` decision. A policy with ``lazy = True`` gets the
        option *slots* instead of the samples: the idle move and one ``Move(kind)`` per
        sample the kind would get (:data:`SAMPLES`), with ``context["resolve"](slot, rng)``
        drawing a legal move of the slot's kind (None when it finds none): the same
        options, drawn only when chosen. ``context["draw"](kind, n, rng)`` gives up to
        ``n`` candidate moves of a kind whose ends pass the quick filter but are not yet
        checked, and ``context["legal"](move)`` checks one (a policy weighing many
        candidates checks only those it would pick)."""
        side = self.state.unit(model_id).side
        if kind == "move":
            idle, kinds = self._move_kinds(model_id)
        else:
            idle, kinds = Move("idle"), ("dodge",)
        if not getattr(self.policies[side], "lazy", False):
            opts = self.move_options(model_id) if kind == "move" else self.dodge_move_options(model_id)
            return Decision(kind, model_id, opts, open=True)

        def resolve(slot: Move, rng: random.Random) -> Move | None:
            if slot.kind == "idle":
                return slot
            got = self._sample_moves(model_id, slot.kind, 1, rng=rng)
            return got[0] if got else None

        def draw(k: str, n: int, rng: random.Random) -> list[Move]:
            return self._sample_moves(model_id, k, n, rng=rng, check=False)

        slots = (idle, *(Move(k) for k in kinds for _ in range(SAMPLES[k])))  # type: ignore[arg-type]
        return Decision(kind, model_id, slots, open=True, context={
            "resolve": resolve, "draw": draw, "legal": lambda mv: self._legal(model_id, mv)})

    def _sample_moves(self, model_id: str, kind: str, n: int, *, face: bool = True,
                      rng: random.Random | None = None, check: bool = True) -> list[Move]:
        """Up to ``n`` legal moves of ``kind`` to ends drawn uniformly from where the model
        can end (:func:`.sampling.sample_ends`), facing the nearest enemy (or unset).
        ``check=False``: the ends pass the quick filter only (not yet planned)."""
        def accept(p: tuple[float, float, float]) -> Move | None:
            mv = Move(kind, p, self._face_nearest(model_id, p[:2]) if face else None)  # type: ignore[arg-type]
            return mv if not check or self._legal(model_id, mv) else None

        return sample_ends(self.state.table, model_id, rng or self.policy_rng, n, self.budget(model_id, kind), accept)

    def _legal(self, model_id: str, move: Move) -> bool:
        try:
            self.plan(model_id, move)
        except IllegalChoice:
            return False
        return True

    def budget(self, model_id: str, kind: str) -> float:
        """E-MOVE-KIND with the States: Walk SPD, Run 2 × SPD, the Dodge move ⌈SPD/2⌉;
        SPD halved when Slowed, Crippled or Crouched (E-STATE-*)."""
        u = self.state.unit(model_id)
        spd = float(self.state.model(model_id).attributes["SPD"])
        if {"Slowed", "Crippled", "Crouched"} & u.states:
            spd = half_up(spd)
        return {"walk": spd, "run": 2 * spd, "dodge": half_up(spd), "idle": 0.0}[kind]

    def _face_nearest(self, model_id: str, xy: tuple[float, float]) -> float:
        st = self.state
        m = st.model(model_id)
        enemies = [st.model(e.id) for e in st.in_play(st.enemy_of(m.side))]
        if not enemies:
            return m.facing
        e = min(enemies, key=lambda e: math.hypot(e.x - xy[0], e.y - xy[1]))
        return facing_toward(xy[0], xy[1], e.x, e.y, m.facing)

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
                got = e
            if len(self._plans) > 4096:
                self._plans.clear()
            hit = self._plans[(model_id, move)] = (table, u, got)
        if isinstance(hit[2], IllegalChoice):
            raise hit[2]
        return hit[2]

    def _plan(self, model_id: str, move: Move, table: Table) -> MoveResult:
        m = table.model(model_id)
        u = self.state.unit(model_id)
        start = (m.x, m.y, m.z)
        if not isinstance(move, Move):
            raise IllegalChoice(model_id, f"a move decision needs a Move, got {type(move).__name__}", move)
        if move.kind == "idle":
            face = m.facing if move.face is None else float(move.face)
            return MoveResult("idle", None, (start,), (start,), face % 360.0)
        if move.kind not in ("walk", "run", "dodge"):
            raise IllegalChoice(model_id, f"movement kind {move.kind!r} is not playable (idle, walk, run)", move)
        if "Crouched" in u.states and move.kind == "run":
            raise IllegalChoice(model_id, "a Crouched model may only Walk or Idle (E-STATE-CROUCHED)", move)
        if move.to is None:
            raise IllegalChoice(model_id, f"a {move.kind} needs a destination", move)
        if "Immobilized" in u.states:
            raise IllegalChoice(model_id, "an Immobilized model cannot move (E-STATE-OTHER)", move)
        budget = self.budget(model_id, move.kind)
        plan = table.plan_move(model_id, tuple(move.to), kind="walk", budget=budget, declared=True)
        if not plan.legal:
            why = "; ".join(v.what for v in plan.violations) or "not legal"
            raise IllegalChoice(model_id, f"{move.kind} to {move.to}: {why}", move)
        path = tuple((float(p[0]), float(p[1]), float(p[2])) for p in plan.points)
        end = path[-1]
        if move.face is not None:
            face = float(move.face)
        else:
            prev = next((p for p in reversed(path[:-1]) if math.hypot(p[0] - end[0], p[1] - end[1]) > 1e-6), None)
            face = m.facing if prev is None else facing_toward(prev[0], prev[1], end[0], end[1], m.facing)
        return MoveResult(move.kind, plan, path, path_samples(path), face % 360.0)

    def apply_move(self, model_id: str, move: Move) -> MoveResult:
        mr = self.plan(model_id, move)
        end = mr.path[-1]
        self.state = self.state.moved(model_id, end[0], end[1], end[2], mr.facing)
        return mr

    def _tables_along(self, model_id: str, samples: tuple[tuple[float, float, float], ...]) -> list[Table]:
        m = self.state.model(model_id)
        return [moved_to(self.state.table, m, p) for p in samples]

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
        for i, t in enumerate(seq.tables):
            if not self._sees(seq, i, reactor):
                continue
            seen = True
            for w in usable_weapons(rm):
                if t.reach(reactor, seq.mover, w).in_reach:
                    opts.append(Reaction("attack", i, w.name))
        if seen:
            opts.append(Reaction("dodge"))
        elif rm.attributes.get("AGI") is not None and any(t.in_awareness(reactor, seq.mover) for t in seq.tables):
            opts.append(Reaction("dodge", los=False))
        return tuple(opts)

    def _sees(self, seq: _Sequence, i: int, reactor: str) -> bool:
        """LoS from ``reactor``'s front arc to the mover at path point ``i``, solved for
        every Reactive model at once per point (cached in the sequence)."""
        if seq.sight is None:
            ids = [u.id for u in self.state.in_play(self.state.reactive) if u.ap >= 1]  # only they may react
            seq.sight = sight_along(self.state.table, self.state.model(seq.mover), seq.move.samples, ids)
            seq.tables = list(seq.sight.tables)
        sight = seq.sight
        if reactor not in sight.others:
            return False
        return bool(sight.seen_by[i, sight.others.index(reactor)])

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
            self.state = self.state.with_unit(dataclasses.replace(cur, ap=cur.ap - 1))
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
        enemy in LoS from the front arc and in reach, per weapon), Dodge, Death Blow
        (an Incapacitated enemy in base contact) or Nothing."""
        if move_kind in SPECIAL_MOVES:
            return (NOTHING,)
        st = self.state
        m = st.model(model_id)
        opts: list[Action] = [NOTHING, Action("dodge")]
        enemies = [e for e in st.side_units(st.enemy_of(m.side)) if "Dead" not in e.states]
        weapons = usable_weapons(m)
        # reach first (a distance), LoS only for the enemies some weapon reaches
        reach = {e.id: [w for w in weapons if st.table.reach(model_id, e.id, w).in_reach]
                 for e in enemies if e.in_play}
        live = [eid for eid, ws in reach.items() if ws]
        if live:
            sights = st.table.line_of_sight_pairs([(model_id, e) for e in live])
            for eid, s in zip(live, sights):
                if s.visible:
                    opts += [Action("attack", eid, w.name) for w in reach[eid]]
        for e in enemies:
            if not e.in_play and st.table.distance(model_id, e.id) <= CONTACT_TOLERANCE:
                opts.append(Action("death-blow", e.id))
        return tuple(opts)

    # resolution -------------------------------------------------------------------------
    def _resolve(self, seq: _Sequence, action: Action) -> None:
        """E-ACTIVATION Resolution: every exchange rolled, Wounds summed per model and
        applied together, States last; then turns to face attackers and Dodge moves."""
        st = self.state
        mover = seq.mover
        logs: dict[str, list[dict[str, Any]]] = {mover: []}
        rolled: dict[str, int] = {}
        hits_on: dict[str, str] = {}  # model -> an attacker that Hit it (E-TURN-FACING)
        dodgers: list[str] = []

        def note(model: str, entry: dict[str, Any]) -> None:
            logs.setdefault(model, []).append(entry)

        def roll(ex: Exchange, attacker: str, defender: str, geo: AttackGeometry, back: AttackGeometry | None
                 ) -> ExchangeLog:
            log = resolve_exchange(ex, self.rng)
            rolled[defender] = rolled.get(defender, 0) + log.active.wounds_rolled
            rolled[attacker] = rolled.get(attacker, 0) + log.reactive.wounds_rolled
            if log.active.hits:
                hits_on[defender] = attacker
            if log.reactive.hits:
                hits_on[attacker] = defender
            note(attacker, _exchange_json(log, defender, geo, "active"))
            if back is not None or log.reactive.dodge is not None:
                note(defender, _exchange_json(log, attacker, back, "reactive"))
            return log

        # falls of the movement (E-FALL): one Agility roll per interval, a Wound per failure
        falls = []
        if seq.move.plan is not None and seq.move.plan.fall_rolls:
            agi = int(st.model(mover).attributes.get("AGI", 0))
            falls = [attribute_roll(modify(agi), self.rng) for _ in range(seq.move.plan.fall_rolls)]
            rolled[mover] = rolled.get(mover, 0) + sum(not r.success for r in falls)
        mm = st.model(mover)
        mu = st.unit(mover)
        confronted: str | None = None
        if action.kind == "attack":
            assert action.target is not None and action.weapon is not None
            w = mm.weapon(action.weapon)
            assert w is not None
            geo = attack_geometry(st.table, mover, action.target, w)
            if not geo.legal:  # cannot happen for an offered option; kept as a guard
                raise IllegalChoice(mover, f"attack on {action.target}: no LoS or out of reach", action)
            tgt, tu = st.model(action.target), st.unit(action.target)
            active = attacking_side(mm, mu, geo, reactive=False)
            r = seq.reactions.get(action.target, NO_REACTION)
            back = None
            if r.kind == "attack":
                rw = tgt.weapon(r.weapon or "")
                assert rw is not None and r.at is not None
                back = attack_geometry(seq.tables[r.at], action.target, mover, rw)
                reactive = attacking_side(tgt, tu, back, reactive=True)
                confronted = action.target
            elif r.kind == "dodge":
                reactive = defending_side(tgt, tu, dodge=True, los=r.los)
                dodgers.append(action.target)
            else:
                reactive = defending_side(tgt, tu)
            roll(Exchange(active, reactive), mover, action.target, geo, back)
        elif action.kind == "death-blow":
            assert action.target is not None
            tu = st.unit(action.target)
            self.state = self.state.with_unit(dataclasses.replace(tu, states=tu.states | {"Dead"}, ap=0))
            note(mover, {"kind": "death-blow", "target": action.target})
        elif action.kind == "dodge":
            dodgers.append(mover)
        # Attacks of Opportunity not met by a Confrontation: the reactor attacks, the mover takes it (or Dodges)
        for rid, r in seq.reactions.items():
            if r.kind == "dodge" and rid not in dodgers and rid != confronted:
                dodgers.append(rid)  # a Dodge declared against an attack that never came: only its move
            if r.kind != "attack" or rid == confronted:
                continue
            rm, ru = st.model(rid), st.unit(rid)
            rw = rm.weapon(r.weapon or "")
            assert rw is not None and r.at is not None
            geo = attack_geometry(seq.tables[r.at], rid, mover, rw)
            active = attacking_side(rm, ru, geo, reactive=True)
            # E-LOS-MOVE: the mover turned freely while moving, so its Dodge has LoS
            reactive = defending_side(mm, mu, dodge=action.kind == "dodge")
            roll(Exchange(active, reactive), rid, mover, geo, None)
        self._apply_wounds(rolled)
        changed = self._finish_states()
        # E-TURN-FACING: a model that suffered a Hit turns to face its attacker
        for model, attacker in hits_on.items():
            u = self.state.unit(model)
            if u.in_play:
                m, a = self.state.model(model), self.state.model(attacker)
                self.state = self.state.moved(model, m.x, m.y, m.z, facing_toward(m.x, m.y, a.x, a.y, m.facing))
        # E-ACTION-DODGE: the Dodge move, up to ⌈SPD/2⌉
        dodge_moves: dict[str, MoveResult] = {}
        for d in dodgers:
            if not self.state.unit(d).in_play or "Immobilized" in self.state.unit(d).states:
                continue
            side = self.state.unit(d).side
            mv = self.ask(side, self._move_decision(d, "dodge-move"))
            if mv.kind == "idle":
                continue
            if mv.kind != "dodge":
                raise IllegalChoice(d, "a Dodge move is of kind 'dodge' (or 'idle' to stay)", mv)
            dmr = self.apply_move(d, mv)
            dodge_moves[d] = dmr
            if dmr.plan is not None and dmr.plan.fall_rolls:
                agi = int(self.state.model(d).attributes.get("AGI", 0))
                fr = [attribute_roll(modify(agi), self.rng) for _ in range(dmr.plan.fall_rolls)]
                fails = sum(not r.success for r in fr)
                if fails:
                    self._apply_wounds({d: fails})
                    changed |= self._finish_states()
                note(d, {"kind": "fall", "rolls": [{"face": r.face, "success": r.success} for r in fr]})
        self._log_sequence(seq, action, logs, falls, changed | {m for m, n in rolled.items() if n > 0}, dodge_moves)

    def dodge_move_options(self, model_id: str) -> tuple[Move, ...]:
        return (Move("idle"), *self._sample_moves(model_id, "dodge", SAMPLES["dodge"]))

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
                states = states - {"Crouched", "Engaged"}
            elif u.hp <= 0 and "Incapacitated" not in states:
                states = states | {"Incapacitated", "Crouched"}
            nu = dataclasses.replace(u, states=states, ap=0 if states & OUT else u.ap)
            if nu != u:
                self.state = self.state.with_unit(nu)
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
                      falls: list[Any], changed: set[str], dodge_moves: Mapping[str, MoveResult]) -> None:
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
            "action": {"kind": action.kind, "target": action.target, "weapon": action.weapon},
            "result": {"hits": sum(e.get("hits", 0) for e in entries if e.get("role") == "active"),
                       "wounds": sum(e.get("wounds", 0) for e in entries if e.get("role") == "active"),
                       "falls": [{"face": r.face, "success": r.success} for r in falls],
                       "exchanges": entries, "states": states,
                       "dodge_move": dodge_moves[seq.mover].to_json() if seq.mover in dodge_moves else None},
            "morale": seq.morale.get(seq.mover),
            "text": _activation_text(seq, action, entries, falls, states, changed),
        })
        for rid, r in seq.reactions.items():
            rent = logs.get(rid, [])
            at = seq.move.samples[r.at] if r.at is not None else None
            self.events.append({
                **head, "model": rid, "role": "reaction", "ap": seq.reaction_ap[rid],
                "movement": (dodge_moves[rid].to_json() if rid in dodge_moves else
                             {"kind": "idle", "length": 0.0, "path": [list(_xyz(st.model(rid)))]}),
                "action": {"kind": r.kind, "target": seq.mover, "weapon": r.weapon,
                           "at": None if at is None else [round(c, 4) for c in at], "los": r.los},
                "result": {"hits": sum(e.get("hits", 0) for e in rent if e.get("role") == "active"),
                           "wounds": sum(e.get("wounds", 0) for e in rent if e.get("role") == "active"),
                           "exchanges": rent, "states": states},
                "morale": seq.morale.get(rid),
                "text": _reaction_text(rid, seq.mover, r, rent, at, seq.morale.get(rid)),
            })


def _xyz(m: Any) -> tuple[float, float, float]:
    return (round(m.x, 4), round(m.y, 4), round(m.z, 4))


def _dice(log_side: Any) -> list[dict[str, Any]]:
    return [{"face": d.face, "success": d.success, "critical": d.critical, "hit": d.hit} for d in log_side.dice]


def _exchange_json(log: ExchangeLog, other: str, geo: AttackGeometry | None, role: str) -> dict[str, Any]:
    me, them = (log.active, log.reactive) if role == "active" else (log.reactive, log.active)
    out: dict[str, Any] = {"role": role, "target": other, "exchange": log.kind, "dice": _dice(me),
                           "hits": me.hits, "wounds": me.wounds_dealt,
                           "damage": [{"face": d.face, "target": d.target, "wound": d.wound} for d in me.damage or ()]}
    if geo is not None:
        out["geometry"] = geo.to_json()
    if me.dodge is not None:
        out["dodge"] = {"face": me.dodge.face, "success": me.dodge.success,
                        "agility": me.dodge.attribute.value}
    return out


def _describe_exchange(e: dict[str, Any], who: str) -> str:
    dice = " ".join(f"{d['face']}{'*' if d['critical'] else ''}{'✓' if d['hit'] else '✗'}" for d in e["dice"])
    text = f"{who} → {e['target']}" if who else e["target"]
    geo = e.get("geometry")
    if geo:
        text += f" with {geo['weapon']} at {geo['distance']:.2f} in"
        if geo.get("cover") and geo["cover"]["modifier"]:
            text += f" ({geo['cover']['level']} cover {geo['cover']['modifier']:+d})"
    if dice:
        text += f" [{dice}]"
    text += f": {count(e['hits'], 'Hit')}, {count(e['wounds'], 'Wound')}"
    if e.get("dodge"):
        text += f"; Dodge {e['dodge']['face']} {'✓' if e['dodge']['success'] else '✗'}"
    return text


def _activation_text(seq: _Sequence, action: Action, entries: list[dict[str, Any]], falls: list[Any],
                     states: Mapping[str, str], took: set[str]) -> str:
    mv = seq.move
    end = mv.path[-1]
    if mv.kind == "idle":
        move = f"stays (facing {mv.facing:.0f}°)"
    else:
        move = f"{mv.kind}s {mv.length:.2f} in to ({end[0]:.2f}, {end[1]:.2f}{'' if not end[2] else f', z {end[2]:g}'})"
    parts = [f"#{seq.number} {seq.mover} {move}"]
    panic = seq.morale.get(seq.mover)
    if panic is not None and not panic["success"]:
        parts[0] = f"#{seq.number} {seq.mover} panics (Morale roll {panic['face']} ✗) and {move}"
    if falls:
        parts.append("falls: " + " ".join(f"{r.face}{'✓' if r.success else '✗'}" for r in falls))
    if action.kind == "attack":
        ex = [e for e in entries if e.get("role") == "active"]
        parts.append("attacks " + "; ".join(_describe_exchange(e, "") for e in ex))
    elif action.kind == "death-blow":
        parts.append(f"deals a Death Blow to {action.target}")
    else:
        parts.append(action.kind)
    out = ", ".join(parts)
    hurt = [f"{m}: {s}" for m, s in states.items() if m in took]
    return out + (f" — {', '.join(hurt)}" if hurt else "")


def _reaction_text(rid: str, mover: str, r: Reaction, entries: list[dict[str, Any]],
                   at: tuple[float, float, float] | None, morale: dict[str, Any] | None = None) -> str:
    if r.kind == "none":
        face = morale["face"] if morale else "?"
        return f"   ↳ {rid} panics (Morale roll {face} ✗): its Reaction is lost (E-MORALE)"
    if r.kind == "attack":
        where = f" at ({at[0]:.2f}, {at[1]:.2f})" if at else ""
        ex = [e for e in entries if e.get("role") == "active"] or [e for e in entries]
        return f"   ↳ {rid} reacts: Attack of Opportunity{where}; " + "; ".join(
            _describe_exchange(e, rid) for e in ex)
    return f"   ↳ {rid} reacts: Dodge{'' if r.los else ' (no LoS: Agility halved)'}" + "".join(
        f"; Dodge {e['dodge']['face']} {'✓' if e['dodge']['success'] else '✗'}" for e in entries if e.get("dodge"))


def play_game(table: Table, settings: GameSettings, policies: Mapping[str, Policy], rng: random.Random,
              *, seed: int | None = None, script: Script | None = None) -> GameRecord:
    """Play one game from ``rng`` (the same seed gives the same game)."""
    return EldfallGame(table, settings, policies, rng, seed=seed, script=script).play()
