"""The fight loop (P-TURN, P-REINF, P-LINE, P-STREAK, P-SHIELD, P-EFFECT, P-HEAL).

A round: the attackers' turn, then the defenders'; at its end every fighter still
in the room regains 1 Energy. In round 1 only 1–2 attackers act; after that every
fighter acts on its side's turn. A side's turn: its retreating characters (declared
a turn earlier) leave; its reinforcements join; it may declare new retreats; then
its fighters act in row order, each one action. The fight ends when one side has
no one left in the room. Choices come from a :class:`~.policy.Policy` and ties
from the ``random.Random`` passed in; the same seed gives the same log.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

from ...errors import IllegalActionError, RuleInputError
from .damage import absorb, attack_breakdown, max_shield
from .decks import creature_rewards
from .effects import SHOCK, Effect, Slot
from .fighter import Fighter
from .items import Ability
from .log import ActionLog, EffectLog, Event, FightLog, Note, Rewards, Room, TargetLog
from .policy import GreedyPolicy, Policy
from .state import ROW_CAP, Exit, FightSetup, FightState, Reinforcement, check_action
from .streak import Streak


def put_effect(target: Fighter, effect: Effect, source: str) -> tuple[Fighter, EffectLog]:
    """P-EFFECT: put ``effect`` on its slot, replacing what was there, unless immune
    (or it is already there: effects of one name do not stack)."""
    if effect.name in target.immune:
        return target, EffectLog(target.id, str(effect), "immune", source)
    prev = target.effects.get(effect.slot)
    if prev == effect:
        return target, EffectLog(target.id, str(effect), "already", source)
    return (target.with_effects(target.effects.apply(effect)),
            EffectLog(target.id, str(effect), "applied", source, None if prev is None else str(prev)))


class _Fight:
    """The mutable bookkeeping of one :func:`resolve_fight` call (never escapes it)."""

    def __init__(self, setup: FightSetup, rng: random.Random, policies: Mapping[str, Policy]):
        self.setup, self.rng, self.policies = setup, rng, policies
        self.att, self.dfn = setup.attackers.name, setup.defenders.name
        self.fighters: dict[str, Fighter] = {}
        self.rows: dict[str, list[str]] = {}
        self.pending: dict[str, list[Reinforcement]] = {}
        self.exits: dict[str, tuple[Exit, ...]] = {}
        for s in setup.sides:
            self.rows[s.name] = [f.id for f in s.fighters if f.alive]
            self.fighters.update({f.id: f for f in s.fighters})
            self.pending[s.name] = list(s.reinforcements)
            self.exits[s.name] = s.exits
        self.start = dict(self.fighters)
        #: every fighter that is or was in the fight -> the fight side it stands on
        self.member: dict[str, str] = {f.id: s.name for s in setup.sides for f in s.fighters}
        self.newcomers: set[str] = set()
        self.retreating: set[str] = set()
        self.retreated: dict[str, Room] = {}
        self.moved_to: dict[Room, dict[str, int]] = {}
        self.defeated: list[str] = []
        self.streaks: dict[str, Streak] = {}
        self.events: list[Event] = []
        self.round = 1

    # -- views ------------------------------------------------------------------------------
    def state(self) -> FightState:
        return FightState(self.round, self.att, self.dfn, MappingProxyType(dict(self.fighters)),
                          MappingProxyType({k: tuple(v) for k, v in self.rows.items()}),
                          frozenset(self.newcomers), frozenset(self.retreating),
                          MappingProxyType(dict(self.streaks)), MappingProxyType(dict(self.exits)))

    def side_of(self, fid: str) -> str:
        return next(s for s, row in self.rows.items() if fid in row)

    def over(self) -> bool:
        return not self.rows[self.att] or not self.rows[self.dfn]

    def note(self, side: str, kind: str, actor: str, **kw: object) -> None:
        self.events.append(Note(self.round, side, kind, actor, **kw))  # type: ignore[arg-type]

    # -- one side's turn ----------------------------------------------------------------------
    def turn(self, side: str) -> None:
        policy = self.policies[side]
        self.streaks[side] = Streak()
        self.leave(side)
        if self.over():
            return
        self.join(side)
        self.declare_retreats(side, policy)
        row = list(self.rows[side])
        able = tuple(f for f in row if f not in self.newcomers and f not in self.retreating)
        for fid in row:
            if fid in self.newcomers:
                self.note(side, "skip", fid, reason="newcomer")
            elif fid in self.retreating:
                self.note(side, "skip", fid, reason="retreating")
        acting = able
        if self.round == 1 and side == self.att and able:
            acting = tuple(policy.opening(self.state(), side, able, self.rng))
            if not 1 <= len(acting) <= 2 or any(a not in able for a in acting) or len(set(acting)) != len(acting):
                raise IllegalActionError(f"the opening turn is taken by 1 or 2 of {', '.join(able)} (P-TURN), "
                                         f"got {', '.join(acting) or 'none'}")
            for fid in able:
                if fid not in acting:
                    self.note(side, "skip", fid, reason="opening")
        for fid in [f for f in row if f in acting]:
            if fid in self.rows[side] and not self.over():
                self.act(side, fid, policy)
        self.newcomers -= set(row)

    def leave(self, side: str) -> None:
        for fid in [f for f in self.rows[side] if f in self.retreating]:
            f = self.fighters[fid]
            room = self.exit_for(side, f.side)
            if room is None:
                self.note(side, "stuck", fid, reason="no free adjacent room")
                continue
            self.rows[side].remove(fid)
            self.retreating.discard(fid)
            self.retreated[fid] = room
            self.moved_to.setdefault(room, {})
            self.moved_to[room][f.side] = self.moved_to[room].get(f.side, 0) + 1
            self.note(side, "leave", fid, room=room)

    def exit_for(self, side: str, player: str) -> Room | None:
        for e in self.exits[side]:
            if e.free_for(player, self.moved_to.get(e.room, {}).get(player, 0)):
                return e.room
        return None

    def join(self, side: str) -> None:
        for r in list(self.pending[side]):
            if r.round > self.round:
                continue
            living = sum(1 for fid in self.rows[side] if not self.fighters[fid].is_creature)
            if living >= ROW_CAP:
                if not any(isinstance(e, Note) and e.kind == "wait" and e.actor == r.fighter.id and e.round == self.round
                           for e in self.events):
                    self.note(side, "wait", r.fighter.id, reason=f"{side} already has {ROW_CAP} living characters")
                continue
            self.pending[side].remove(r)
            self.fighters[r.fighter.id] = r.fighter
            self.member[r.fighter.id] = side
            self.rows[side].append(r.fighter.id)
            self.newcomers.add(r.fighter.id)
            self.note(side, "join", r.fighter.id, room=r.from_room, place=len(self.rows[side]))

    def declare_retreats(self, side: str, policy: Policy) -> None:
        ids = policy.retreats(self.state(), side, self.rng)
        for fid in ids:
            st = self.state()
            if fid not in self.rows[side]:
                raise IllegalActionError(f"{fid!r} cannot retreat: it is not in {side}'s row")
            if not st.can_retreat(fid):
                f = self.fighters[fid]
                why = ("creatures do not retreat" if f.is_creature else "it is already retreating"
                       if fid in self.retreating else "no free adjacent room to retreat to")
                raise IllegalActionError(f"{fid!r} cannot retreat: {why}")
            self.retreating.add(fid)
            self.note(side, "retreat", fid)

    # -- one action ----------------------------------------------------------------------------
    def act(self, side: str, fid: str, policy: Policy) -> None:
        st = self.state()
        action = policy.act(st, fid, self.rng)
        check_action(st, fid, action)
        f = self.fighters[fid]
        before = f.energy
        if action.kind == "rest":
            gain = 1 if f.regenerates else 0
            self.fighters[fid] = f.with_energy(f.energy + gain)
            self.events.append(ActionLog(self.round, side, fid, action, "rest", None, 0, before,
                                         self.fighters[fid].energy, 0))
            return
        if action.kind == "cleanse":
            eff = f.effects.get(action.slot) if action.slot else None
            assert eff is not None and action.slot is not None
            self.fighters[fid] = f.with_effects(f.effects.remove(action.slot))
            self.events.append(ActionLog(self.round, side, fid, action, "remove effect", None, 0, before, before, 0,
                                         effects=(EffectLog(fid, str(eff), "removed", "cleanse"),)))
            return
        ab: Ability | None = f.ability(action.ability or "") if action.kind == "ability" else None
        cost = f.cost_of(ab) if ab else 0
        f = f.with_energy(f.energy - cost)
        self.fighters[fid] = f
        if ab is not None:
            element, name = ab.element, ab.name
        elif f.is_creature:
            element, name = f.attack_element, "attack"
        else:
            assert f.weapon is not None
            element, name = f.weapon_element, f.weapon.name
        damaging = ab is None or ab.damaging
        streak = self.streaks[side]
        position = streak.position(element) if damaging else 0
        self.streaks[side] = streak.after_attack(element) if damaging else streak.after_ability(element)
        targets = tuple(self.hit(side, f, ab, tid, i, position) for i, tid in enumerate(action.targets))
        self.events.append(ActionLog(self.round, side, fid, action, name, None if element is None else element.value,
                                     cost, before, self.fighters[fid].energy, position, targets))
        for t in targets:
            if t.defeated:
                tside = self.side_of(t.target)
                self.rows[tside].remove(t.target)
                self.retreating.discard(t.target)
                self.newcomers.discard(t.target)
                self.defeated.append(t.target)
                self.note(tside, "defeated", t.target, reason=f"by {fid}")

    def hit(self, side: str, f: Fighter, ab: Ability | None, tid: str, index: int, position: int) -> TargetLog:
        """What one action does to one target, in order: damage (burn, shield, Health)
        or healing, Energy burned or restored, then effects."""
        t = self.fighters[tid]
        effects: list[EffectLog] = []
        breakdown, absorption, healed, restored, burned = None, None, 0, 0, 0
        burns = ab.burns if ab else 0
        if ab is None or ab.damaging:
            breakdown = attack_breakdown(f, t, ab, streak=max(position, 1))
            d = breakdown.total
            tside = self.side_of(tid)
            shield = self.policies[tside].shield(self.state(), tid, d, burns, self.rng)
            top = max_shield(d, t.energy, burns=burns, shocked=t.effects.shocked)
            if not (isinstance(shield, int) and 0 <= shield <= top):
                raise IllegalActionError(f"{tid}: shield {shield!r}: between 0 and {top} (P-SHIELD)")
            absorption = absorb(d, health=t.health, energy=t.energy, shield=shield, burns=burns,
                                shocked=t.effects.shocked)
            t = t.with_health(absorption.health_after).with_energy(absorption.energy_after)
        else:
            if ab.heal is not None:
                breakdown = attack_breakdown(f, t, ab)
                healed = min(breakdown.total, t.max_health - t.health)
                t = t.with_health(t.health + healed)
            if burns:
                burned = min(burns, t.energy)
                t = t.with_energy(t.energy - burned)
        if ab is not None and ab.restore and t.regenerates:
            restored = min(ab.restore, t.max_energy - t.energy)
            t = t.with_energy(t.energy + restored)
            if t.effects.shocked:
                t = t.with_effects(t.effects.remove(Slot.ENERGY))
                effects.append(EffectLog(tid, str(SHOCK), "removed", "restore"))
        effect = ab.effect if ab is not None else (f.attack_effect if f.is_creature else None)
        if effect is not None and t.alive:
            t, log = put_effect(t, effect, "ability" if ab else "creature")
            effects.append(log)
        if index == 0 and (ab is None or ab.damaging) and f.weapon is not None and f.weapon.effect and t.alive:
            t, log = put_effect(t, f.weapon.effect, "weapon")
            effects.append(log)
        self.fighters[tid] = t
        return TargetLog(tid, breakdown, absorption, healed, restored, burned, tuple(effects), not t.alive,
                         t.health, t.energy)

    # -- end of round, end of fight ---------------------------------------------------------------
    def regen(self) -> None:
        for side in (self.att, self.dfn):
            for fid in self.rows[side]:
                f = self.fighters[fid]
                if f.regenerates and f.energy < f.max_energy:
                    self.fighters[fid] = f.with_energy(f.energy + 1)
                    self.note(side, "regen", fid, before=f.energy, after=f.energy + 1)

    def finish(self) -> FightLog:
        winner: str | None = None
        rewards: Rewards | None = None
        if not self.over():
            outcome, reason = "stalemate", f"no decision after {self.setup.max_rounds} rounds"
        else:
            winner = self.att if self.rows[self.att] else self.dfn
            loser = self.dfn if winner == self.att else self.att
            outcome = "victory"
            losers = [self.fighters[fid] for fid, side in self.member.items() if side == loser]
            beaten = sum(1 for f in losers if f.id in self.defeated)
            fled = sum(1 for f in losers if f.id in self.retreated)
            reason = f"{loser}: " + ", ".join(p for p, n in ((f"{beaten} defeated", beaten),
                                                            (f"{fled} retreated", fled)) if n)
            rewards = self.rewards(winner, loser, losers)
            for fid in self.rows[winner] + list(self.retreated):
                f = self.fighters[fid]
                g = f.restored() if f.is_creature else f.with_energy(f.max_energy)
                if g != f:
                    self.fighters[fid] = g
                    self.note(self.member[fid], "restore", fid, before=f.energy, after=g.energy,
                              reason="the fight is over: Energy is restored"
                              + (", Health too (creatures that hold their room)" if f.is_creature else ""))
        return FightLog(self.att, self.dfn, self.setup.room, MappingProxyType(self.start),
                        MappingProxyType({s.name: tuple(f.id for f in s.fighters if f.alive) for s in self.setup.sides}),
                        tuple(self.events), self.round, winner, outcome, reason,  # type: ignore[arg-type]
                        MappingProxyType(dict(self.fighters)), tuple(self.defeated),
                        MappingProxyType(dict(self.retreated)), rewards)

    def rewards(self, winner: str, loser: str, losers: list[Fighter]) -> Rewards | None:
        if all(self.fighters[fid].is_creature for fid in self.rows[winner]):
            return None  # creatures that hold their room take nothing
        if any(f.is_creature for f in losers):
            return creature_rewards(f for f in losers if f.is_creature and f.id in self.defeated)
        if any(f.id in self.defeated for f in losers):
            return Rewards(1, 0, f"a character of {loser} was defeated: one ability")
        return Rewards(0, 0, f"{loser} retreated without losing a character: no reward")


def resolve_fight(setup: FightSetup, rng: random.Random, policy: Policy | Mapping[str, Policy] | None = None) -> FightLog:
    """Fight it out; return the log. ``policy`` chooses for both sides, or give one per
    side name; the default is :class:`GreedyPolicy`.

    >>> from skirmish.rules.partyhard import BUILTIN_ITEMS, Element, Fighter, Stats, SideSetup
    >>> hero = Fighter.new("hero", "red", Stats(attack=3, defense=1, health=4, energy=2),
    ...                    items=(BUILTIN_ITEMS["void-shard"],))
    >>> slime = Fighter.new("slime", "creatures", Stats(attack=2, defense=0, health=3, energy=0),
    ...                     kind="creature", attack_element=Element.MATTER)
    >>> log = resolve_fight(FightSetup(SideSetup("red", (hero,)), SideSetup("creatures", (slime,))), random.Random(1))
    >>> log.winner, log.rounds, [str(a.action) for a in log.actions()]
    ('red', 1, ['weapon hit on slime'])
    """
    if not isinstance(rng, random.Random):
        raise RuleInputError(f"pass a random.Random, got {type(rng).__name__}")
    if policy is None:
        policy = GreedyPolicy()
    if isinstance(policy, Mapping):
        missing = [s.name for s in setup.sides if s.name not in policy]
        if missing:
            raise RuleInputError(f"no policy for side {missing[0]!r}")
        policies = dict(policy)
    else:
        policies = {s.name: policy for s in setup.sides}
    fight = _Fight(setup, rng, policies)
    while True:
        for side in (fight.att, fight.dfn):
            fight.turn(side)
            if fight.over():
                return fight.finish()
        fight.regen()
        if fight.round >= setup.max_rounds:
            return fight.finish()
        fight.round += 1

