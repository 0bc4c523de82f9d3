"""One play-through of a script: each declared action resolved on the table.

Geometry (paths, line of sight, reach bands, cover) comes from the map; dice from
the d20 rules with the ``random.Random`` passed in. Geometry depends only on where
models stand and which are Dead (a Dead model's hitbox is its base), never on the
dice themselves, so it is computed once per such state and reused across trials.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import IllegalActionError, SkirmishError
from ..maps.results import Cover, LineOfSight, MovePlan
from ..maps.table import Table
from ..maps.table_attack import Attack, attack
from ..maps.template_results import TemplateResult
from ..rules.eldfall.dice import AttributeRoll, ExchangeLog, attribute_roll, resolve_exchange
from ..rules.eldfall.modifiers import damage_target, modify
from ..rules.eldfall.template_hits import roll_template_hit, template_wound_odds
from ..rules.eldfall.wounds import apply_wounds
from ..rules.eldfall.exchange import Exchange, Side
from ..rules.eldfall.modes import Mode
from ..rules.eldfall.weapons import Weapon
from ..rules.eldfall.wounds import ModelState
from ..wording import count
from .script import Action, Script

#: A model's condition during a play-through.
Status = dict[str, Any]  # hp, incapacitated, dead, taken


@dataclass(frozen=True)
class AttackPlan:
    """The geometry of one declared attack in one table state (no dice yet)."""

    weapon: Weapon
    distance: float
    band: int
    accuracy: int
    sight: LineOfSight
    cover: Cover | None
    reaction: str  # what the target actually does: attack | dodge | none
    reaction_weapon: Weapon | None = None
    reaction_accuracy: int = 0
    reaction_note: str = ""
    dodge_has_los: bool = True
    answer: Attack | None = None  # the table's whole answer (its exchange, before any Wounds)


@dataclass(frozen=True)
class Event:
    """One entry of the structured log."""

    action: int
    actor: str
    kind: str  # move | attack | template | measure | skip
    text: str
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "actor": self.actor, "kind": self.kind, "text": self.text, **self.data}


@dataclass
class PlayThrough:
    """A resolved play-through: the log, the end states and, per action, the exchange
    that was rolled (for exact odds) and the Wounds dealt each way."""

    events: list[Event]
    states: dict[str, ModelState]
    exchanges: list[Exchange | TemplateKey | None]
    wounds: list[tuple[int, int] | None]  # per action: (by the actor, back to the actor)


class Simulator:
    """Resolves a script on a table; keeps the geometry cache between trials."""

    def __init__(self, table: Table, script: Script):
        self.table = table
        self.script = script
        self._cache: dict[tuple, Any] = {}
        self._tables: dict[int, Table] = {id(table): table}  # keeps every keyed table alive

    # -- legality, once, before any dice ---------------------------------------
    def validate(self) -> list[Event]:
        """Resolve the geometry of every action in order with every model unhurt and
        raise :class:`IllegalActionError` for the first that is illegal then."""
        table = self.table
        dead: frozenset[str] = frozenset()
        for a in self.script.actions:
            try:
                table = self._geometry(a, table, dead)[0]
            except IllegalActionError as exc:
                raise IllegalActionError(f"{self.script.source}: script[{a.index}] ({a.describe()}): {exc}",
                                         kind=exc.kind) from None
        return []

    def _geometry(self, a: Action, table: Table, dead: frozenset[str]) -> tuple[Table, Any]:
        # tables after a move come from this cache, so the same state is the same object
        key = (a.index, id(table), dead)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out: tuple[Table, Any]
        if a.do == "move":
            out = self._plan_move(a, table)
        elif a.do == "attack":
            out = (table, self._plan_attack(a, table))
        elif a.do == "measure":
            out = (table, self._plan_measure(a, table))
        else:
            out = (table, self._plan_template(a, table))
        self._cache[key] = out
        self._tables[id(out[0])] = out[0]
        return out

    def _plan_move(self, a: Action, table: Table) -> tuple[Table, MovePlan]:
        kind = "run" if a.run else "walk"
        try:
            if a.to is not None:
                plan = table.plan_move(a.actor, a.to, kind=kind, declared=True)
            else:
                plan = table.check_move(a.actor, a.via or (), kind=kind, declared=True)
        except SkirmishError as exc:
            raise IllegalActionError(str(exc)) from None
        if not plan.legal:
            why = "; ".join(f"segment {v.at}: {v.what}" + (f" ({v.with_})" if v.with_ else "") for v in plan.violations)
            raise IllegalActionError(f"illegal path: {why or 'not legal'}")
        end = plan.points[-1]
        z = float(end[2]) if len(end) > 2 else table.model(a.actor).z
        moved = dataclasses.replace(table.model(a.actor), x=float(end[0]), y=float(end[1]), z=z)
        return table.with_model(moved), plan

    def _plan_template(self, a: Action, table: Table) -> TemplateResult:
        try:
            result = table.template(a.template or "", on=a.on, at=a.at, by=a.actor, toward=a.toward,
                                    declared=True, dodge=True)
        except SkirmishError as exc:
            raise IllegalActionError(str(exc)) from None
        if result.main_target is not None and not result.main_target_covered:
            raise IllegalActionError(f"the template does not cover its main target {result.main_target} "
                                     "entirely (E-TMPL)")
        return result

    def _plan_attack(self, a: Action, table: Table) -> AttackPlan:
        """The table's answer to the declared attack (``skirmish attack``'s, with the
        script's Reaction): LoS, weapon and band, cover, the Reaction it allows."""
        ans = attack(table, a.actor, a.target or "", weapon=a.weapon, reaction=a.reaction,
                     reaction_weapon=a.reaction_weapon, modifiers=a.modifiers)
        rc = ans.reaction
        note = "no LoS to the attacker: Agility halved (E-DODGE)" if rc.dodge_halved else ""
        return AttackPlan(ans.weapon, ans.reach.distance, ans.band, ans.accuracy, ans.los, ans.cover, rc.kind,
                          rc.weapon, 0 if rc.reach is None else rc.reach.accuracy or 0, note, not rc.dodge_halved,
                          ans)

    def _plan_measure(self, a: Action, table: Table) -> Any:
        if table.mode is Mode.REALISM:
            raise IllegalActionError("realism mode: no pre-measuring (a measure step is not a declared action)")
        return table.measure(a.actor, a.target or "")

    def _flattened(self, table: Table, dead: frozenset[str]) -> Table:
        key = ("flat", id(table), dead)
        hit = self._cache.get(key)
        if hit is None:
            hit = _flatten(table, dead)
            self._cache[key] = hit
            self._tables[id(hit)] = hit
        return hit

    # -- one play-through ------------------------------------------------------
    def run(self, rng: random.Random, *, log: bool = True) -> PlayThrough:
        table = self.table
        status = {m.id: {"hp": m.attributes.get("HP"), "incapacitated": "Incapacitated" in m.states,
                         "dead": "Dead" in m.states, "taken": 0} for m in table.models}
        dead = frozenset(k for k, v in status.items() if v["dead"])
        events: list[Event] = []
        exchanges: list[Exchange | TemplateKey | None] = []
        wounds: list[tuple[int, int] | None] = []
        for a in self.script.actions:
            ex: Exchange | TemplateKey | None = None
            w: tuple[int, int] | None = None
            skip = _why_skip(a, status)
            if skip:
                if log:
                    events.append(Event(a.index, a.actor, "skip", f"{a.describe()}: skipped, {skip}"))
                exchanges.append(None)
                wounds.append(None)
                continue
            table, plan = self._geometry(a, table, dead)
            if a.do == "move":
                falls = _fall(table, a.actor, plan.fall_rolls, status, rng)
                if log:
                    events.append(_move_event(a, plan, falls))
                w = (0, sum(not r.success for r in falls))
            elif a.do == "measure":
                if log:
                    d = "beyond %g in" % plan.beyond if plan.distance is None else f"{plan.distance:.2f} in"
                    events.append(Event(a.index, a.actor, "measure", f"{a.actor} measures to {a.target}: {d}",
                                        {"measurement": plan.to_json()}))
            elif a.do == "template":
                tk = TemplateKey.of(table, a, plan, status)
                hits = _template_hits(tk, status, rng)
                w = (sum(h["wounds"] for h in hits), 0)
                ex = tk
                if log:
                    events.append(_template_event(a, plan, hits))
            else:
                sa, st = status[a.actor], status[a.target or ""]
                ekey = ("ex", id(plan), sa["hp"], sa["incapacitated"], st["hp"], st["incapacitated"])
                exchange = self._cache.get(ekey)
                if exchange is None:
                    exchange = self._cache[ekey] = _exchange(plan, a, status)
                ex = exchange
                result = resolve_exchange(exchange, rng)
                w = (result.active.wounds_dealt, result.reactive.wounds_dealt)
                _apply(status, a.target or "", result.reactive.result.taken, result.reactive.result.state)
                _apply(status, a.actor, result.active.result.taken, result.active.result.state)
                if log:
                    events.append(_attack_event(a, plan, result))
            newly_dead = frozenset(k for k, v in status.items() if v["dead"])
            if newly_dead != dead:
                dead = newly_dead
                table = self._flattened(table, dead)
            exchanges.append(ex)
            wounds.append(w)
        states = {k: _state(v) for k, v in status.items()}
        return PlayThrough(events, states, exchanges, wounds)


def _flatten(table: Table, dead: frozenset[str]) -> Table:
    """Dead models lie flat (E-SIZE): their hitbox becomes their base."""
    models = tuple(dataclasses.replace(m, states=m.states | {"Dead"}) if m.id in dead and "Dead" not in m.states
                   else m for m in table.models)
    return dataclasses.replace(table, models=models)


def _why_skip(a: Action, status: dict[str, Status]) -> str:
    s = status[a.actor]
    if s["dead"]:
        return f"{a.actor} is Dead"
    if s["incapacitated"]:
        return f"{a.actor} is Incapacitated"
    if a.target is not None and a.do == "attack" and status[a.target]["dead"]:
        return f"{a.target} is already Dead"
    return ""


def _exchange(plan: AttackPlan, a: Action, status: dict[str, Status]) -> Exchange:
    """The planned exchange with both models' HP and state as they are now in the play-through."""
    assert plan.answer is not None
    ex = plan.answer.exchange

    def now(side: Side, s: Status) -> Side:
        return dataclasses.replace(side, hp=0 if s["incapacitated"] else s["hp"], incapacitated=s["incapacitated"])

    return Exchange(now(ex.active, status[a.actor]), now(ex.reactive, status[a.target or ""]))


def _apply(status: dict[str, Status], model_id: str, taken: int, state: ModelState) -> None:
    s = status[model_id]
    s["taken"] += taken
    if s["hp"] is not None and not s["incapacitated"]:
        s["hp"] = max(0, s["hp"] - taken)
    if state is ModelState.DEAD:
        s["dead"] = True
    elif state is ModelState.INCAPACITATED:
        s["incapacitated"] = True


def _state(s: Status) -> ModelState:
    if s["dead"]:
        return ModelState.DEAD
    if s["incapacitated"]:
        return ModelState.INCAPACITATED
    return ModelState.WOUNDED if s["taken"] else ModelState.UNHARMED


def _fall(table: Table, model_id: str, rolls: int, status: dict[str, Status],
          rng: random.Random) -> list[AttributeRoll]:
    """E-FALL: one Agility roll per interval of half its Speed; a Wound per failed roll."""
    if not rolls:
        return []
    agi = table.model(model_id).attributes.get("AGI", 0)
    out = [attribute_roll(modify(agi), rng) for _ in range(rolls)]
    failed = sum(not r.success for r in out)
    if failed:
        s = status[model_id]
        res = apply_wounds(failed, 0 if s["incapacitated"] else s["hp"], s["incapacitated"])
        _apply(status, model_id, res.taken, res.state)
    return out


def _move_event(a: Action, plan: MovePlan, falls: list[AttributeRoll]) -> Event:
    end = plan.points[-1]
    text = f"{a.actor} {'runs' if a.run else 'moves'} {plan.length:.2f} in to ({end[0]:.2f}, {end[1]:.2f})"
    if plan.stopped_at_contact:
        text += f", stopping in base contact with {plan.stopped_at_contact} (E-MOVE-ENEMY)"
    if falls:
        faces = " ".join(f"{r.face}{'✓' if r.success else '✗'}" for r in falls)
        text += f", falls: Agility [{faces}] -> {count(sum(not r.success for r in falls), 'Wound')} (E-FALL)"
    return Event(a.index, a.actor, "move", text,
                 {"path": plan.to_json(), "fall_rolls": [{"face": r.face, "success": r.success} for r in falls]})


@dataclass(frozen=True)
class TemplateKey:
    """Everything a template attack's dice depend on: per affected model, its Dodge
    (Agility, halved without LoS to the user; None when it does not Dodge), its HP and
    States, and the damage target PW − ARM. Equal keys give equal odds."""

    pw: int
    targets: tuple[tuple[str, int | None, bool, int | None, bool, int], ...]  # id, agi, halved, hp, inc, dmg

    @classmethod
    def of(cls, table: Table, a: Action, result: TemplateResult, status: dict[str, Status]) -> TemplateKey:
        rows = []
        for h in result.affected:
            s = status[h.id]
            if s["dead"]:
                continue
            m = table.model(h.id)
            agi = m.attributes.get("AGI") if a.reaction == "dodge" else None
            rows.append((h.id, agi, bool(h.agility_halved), 0 if s["incapacitated"] else s["hp"], s["incapacitated"],
                         damage_target(a.pw or 0, m.attributes.get("ARM", 0))))
        return cls(a.pw or 0, tuple(rows))

    def expected_wounds(self) -> Fraction:
        """Exact expected Wounds over all affected models (each takes one Hit)."""
        total = Fraction(0)
        for _, agi, halved, hp, inc, target in self.targets:
            cap = 1 if inc else (hp if hp is not None else 1)
            total += template_wound_odds(agi, halved, target) * min(1, cap)
        return total


def _template_hits(key: TemplateKey, status: dict[str, Status], rng: random.Random) -> list[dict[str, Any]]:
    """Each affected model takes one Hit (a template is placed, not rolled, E-TMPL), may
    Dodge it (E-DODGE), then one damage die against PW − ARM (E-ROLL-DMG)."""
    out = []
    for mid, agi, halved, hp, inc, target in key.targets:
        hit = roll_template_hit(agi, halved, target, rng)
        dodge = hit.dodge
        res = apply_wounds(int(hit.wound), hp, inc)
        _apply(status, mid, res.taken, res.state)
        out.append({"id": mid, "dodge": None if dodge is None else {"face": dodge.face, "success": dodge.success,
                                                                    "halved": halved},
                    "damage": None if hit.face is None else {"face": hit.face, "target": target, "wound": hit.wound},
                    "wounds": res.taken, "state": res.state.value})
    return out


def _template_event(a: Action, result: TemplateResult, hits: list[dict[str, Any]]) -> Event:
    parts = []
    for h in hits:
        if h["dodge"] and h["dodge"]["success"]:
            parts.append(f"{h['id']} dodges")
        else:
            parts.append(f"{h['id']} {count(h['wounds'], 'Wound')} ({h['state']})")
    where = f"on {a.on}" if a.on else (f"at {a.at}" if a.at else f"toward {a.toward}")
    text = f"{a.actor} places {a.template} {where}: " + ("; ".join(parts) if parts else "hits nobody")
    return Event(a.index, a.actor, "template", text, {"template": result.to_json(), "hits": hits})


def _die(d: Any) -> str:
    """One attack die in the log: its face, * when critical, ✓ a Hit, ✗ a miss or cancelled,
    "dodged" a success whose Hit a Dodge ignored."""
    mark = "✓" if d.hit else (" dodged" if d.dodged else "✗")
    return f"{d.face}{'*' if d.critical else ''}{mark}"


def _attack_event(a: Action, plan: AttackPlan, log: ExchangeLog) -> Event:
    act, rea = log.active, log.reactive
    parts = [f"{a.actor} attacks {a.target} with {plan.weapon.name} at {plan.distance:.2f} in"]
    if plan.accuracy:
        parts.append(f"Accuracy {plan.accuracy:+d}")
    if plan.cover and plan.cover.modifier:
        parts.append(f"{plan.cover.level} cover {plan.cover.modifier:+d}")
    dice = " ".join(_die(d) for d in act.dice)
    text = (", ".join(parts) + f": dice [{dice}] -> {count(act.hits, 'Hit')}, {count(act.wounds_dealt, 'Wound')} "
            f"to {a.target}")
    if log.kind == "confrontation":
        rd = " ".join(_die(d) for d in rea.dice)
        text += f"; {a.target} strikes back [{rd}] -> {count(rea.hits, 'Hit')}, {count(rea.wounds_dealt, 'Wound')}"
    elif log.kind == "dodge" and rea.dodge is not None:
        dg = rea.dodge
        face = "no roll (fails automatically)" if dg.face is None else f"{dg.face} against AGI {dg.attribute.value}"
        text += f"; Dodge die {face}: {'succeeds' if dg.success else 'fails'}"
    text += f"; {a.target}: {rea.result.state.value}"
    data = {
        "target": a.target, "weapon": plan.weapon.name, "distance": plan.distance, "band": plan.band,
        "accuracy": plan.accuracy, "cover": plan.cover.to_json() if plan.cover else None, "exchange": log.kind,
        "witness": [list(p) for p in plan.sight.witness] if plan.sight.witness else None,
        "dice": [{"id": d.id, "face": d.face, "target": d.target, "success": d.success, "critical": d.critical,
                  "hit": d.hit, "cancelled_by": list(d.cancelled_by)} for d in act.dice],
        "reaction_dice": [{"id": d.id, "face": d.face, "target": d.target, "success": d.success,
                           "critical": d.critical, "hit": d.hit, "cancelled_by": list(d.cancelled_by)}
                          for d in rea.dice],
        "dodge": None if rea.dodge is None else {"face": rea.dodge.face, "success": rea.dodge.success},
        "damage": [{"face": d.face, "target": d.target, "wound": d.wound} for d in act.damage or ()],
        "hits": act.hits, "wounds": act.wounds_dealt, "wounds_back": rea.wounds_dealt,
        "target_state": rea.result.state.value, "actor_state": act.result.state.value,
    }
    return Event(a.index, a.actor, "attack", text, data)
