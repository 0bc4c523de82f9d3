"""A whole Chaos Party game: the bidding (C-FIRST), then turns of Flow (C-FLOW) and
one attack (C-ATTACK … C-ABSORB) until one player is left (C-BUILD) or the turn
limit is reached (a draw; so is an attack that leaves no player standing).

Every choice is a :class:`~skirmish.game.policy.Decision` put to the player's policy;
every die comes from the ``random.Random`` passed in, so one seed gives one game.

Decision kinds (``options``; ``context``):

- ``bid``: None (pass) or a number of Time tokens; ``{"highest": n | None}``
- ``pay``: the character that returns one Time token to the store (after winning the bid)
- ``flow``: None (stop) or a :class:`~skirmish.rules.chaosparty.flow.FlowMove`; ``{"moves_left": k}``
- ``attack``: an :class:`AttackChoice` (attacking is compulsory when one is possible)
- ``defence``: a frozenset of defence boosts; ``{"attack": Attack, "attack_face": f}``
- ``overload``, ``absorb``: False or True (buy it with a Potential token);
  ``{"attack": Attack, "attack_face": f, "defence_face": g, "damage": n}``
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from ...errors import RuleInputError, SkirmishError
from ...rules.chaosparty.attack import D4, D20, Attack, Faces, Resolution, resolve
from ...rules.chaosparty.build import Duel
from ...rules.chaosparty.flow import FLOW_DIE, apply_move, legal_moves
from ...rules.chaosparty.tokens import Character, Tokens
from ...rules.chaosparty.turn import (
    has_advantage,
    legal_bids,
    open_targets,
    return_time,
    seat_order_from,
    time_on_characters,
)
from ...wording import count
from ..policy import Decision, Policy, ask, policy_rng
from .state import AttackChoice, Event, GameRecord, GameState

GAME = "chaosparty"


class Game:
    """One game in progress (use :func:`play_game`)."""

    def __init__(self, duel: Duel, policies: Mapping[str, Policy], rng: random.Random):
        missing = [p.id for p in duel.players if p.id not in policies]
        if missing:
            raise SkirmishError(f"no policy for player(s) {', '.join(missing)}")
        self.policies, self.rng = policies, rng  # (the dice)
        self.policy_rng = policy_rng(rng)
        self.state = GameState(duel, duel.players, duel.bag)
        self.events: list[Event] = []

    # ------------------------------------------------------------------ plumbing

    def ask(self, pid: str, kind: str, options: Sequence[Any], actor: str | None = None,
            context: Mapping[str, Any] | None = None) -> Any:
        decision = Decision(kind, actor or pid, tuple(options), False, context)
        return ask(self.policies[pid], self.state, decision, self.policy_rng, who=f"player {pid}")

    def log(self, pid: str | None, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(self.state.turn, pid, kind, text, data))

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def to_bag(self, tokens: Tokens) -> None:
        self.state = replace(self.state, bag=self.state.bag.merged(tokens))

    def set_character(self, c: Character) -> None:
        self.state = self.state.with_player(self.state.owner(c.id).with_character(c))

    # ------------------------------------------------------------------ C-FIRST

    def bidding(self) -> str:
        seats = [p.id for p in self.state.players]
        bidders, highest, leader, i = list(seats), None, None, 0
        while bidders and not (leader is not None and bidders == [leader]):
            pid = bidders[i % len(bidders)]
            held = time_on_characters(self.state.player(pid))
            bid = self.ask(pid, "bid", (None, *legal_bids(highest, held)), context={"highest": highest})
            if bid is None:
                bidders.remove(pid)
                self.log(pid, "bid", f"{pid} passes", bid=None)
                i = i % max(len(bidders), 1)
            else:
                highest, leader = bid, pid
                self.log(pid, "bid", f"{pid} bids {bid}", bid=bid)
                i = (bidders.index(pid) + 1) % len(bidders)
        first = leader if leader is not None else seats[0]
        paid = highest or 0
        for _ in range(paid):
            p = self.state.player(first)
            cid = self.ask(first, "pay", tuple(c.id for c in p.alive if c.time > 0))
            self.state = self.state.with_player(return_time(p, cid))
            self.log(first, "pay", f"{cid} returns 1 time to the store", character=cid)
        self.log(first, "first", f"{first} moves first (bid {paid})", bid=paid)
        return first

    # ------------------------------------------------------------------ C-FLOW

    def flow(self, pid: str) -> None:
        k = self.roll(FLOW_DIE)
        done: list[str] = []
        variants = self.state.duel.variants
        for used in range(k):
            p = self.state.player(pid)
            move = self.ask(pid, "flow", (None, *legal_moves(p, variants)), context={"moves_left": k - used})
            if move is None:
                break
            p, bag = apply_move(p, self.state.bag, move, self.rng, variants)
            self.state = replace(self.state.with_player(p), bag=bag)
            done.append(str(move))
        text = f"flow d4={k}: " + ("; ".join(done) if done else "no moves")
        self.log(pid, "flow", text, roll=k, moves=done)

    # ------------------------------------------------------------------ C-ATTACK .. C-ABSORB

    def setup(self, attacker: Character, target: Character, attack_boosts: frozenset[str] = frozenset(),
              defence_boosts: frozenset[str] = frozenset()) -> Attack:
        v = self.state.duel.variants
        return Attack(attacker.attack, target.defence, attack_boosts, defence_boosts, target.attack,
                      advantage=v.superiority and has_advantage(attacker, target), unlimited=v.unlimited)

    def attack_options(self, pid: str) -> tuple[AttackChoice, ...]:
        st = self.state
        targets = [c for q in open_targets(st.players, pid, st.attacked, st.duel.multiplayer)
                   for c in st.player(q).alive]
        out = []
        for a in st.player(pid).alive:
            for t in targets:
                for boosts in _subsets(("raise", "floor")):
                    try:
                        cost = self.setup(a, t, boosts).attacker_time
                    except RuleInputError:
                        continue
                    if a.time >= cost:
                        out.append(AttackChoice(a.id, t.id, boosts))
        return tuple(out)

    def attack(self, pid: str) -> None:
        options = self.attack_options(pid)
        if not options:
            self.log(pid, "attack", f"{pid} has no attack (no Time, or no target open)", attacker=None)
            return
        choice: AttackChoice = self.ask(pid, "attack", options)
        a = self.state.player(pid).character(choice.attacker)
        target_player = self.state.owner(choice.target)
        t = target_player.character(choice.target)
        plan = self.setup(a, t, choice.boosts)
        a, spent = a.plus("time", -plan.attacker_time), Tokens(time=plan.attacker_time)
        self.set_character(a)
        self.to_bag(spent)
        a_face = self.roll(plan.attack_die)
        d_options = []
        for boosts in _subsets(("raise", "floor", "counter")):
            try:
                cost = replace(plan, defence_boosts=boosts).defender_time
            except RuleInputError:
                continue
            if t.time >= cost:
                d_options.append(boosts)
        d_boosts = self.ask(target_player.id, "defence", d_options, actor=t.id,
                            context={"attack": plan, "attack_face": a_face, "attacker": a.id})
        plan = replace(plan, defence_boosts=d_boosts)
        if plan.defender_time:
            t = t.plus("time", -plan.defender_time)
            self.set_character(t)
            self.to_bag(Tokens(time=plan.defender_time))
        d_face = self.roll(plan.defence_die)
        broken = plan.defence_value(d_face) < plan.attack_value(a_face)
        ctx: dict[str, Any] = {"attack": plan, "attack_face": a_face, "defence_face": d_face,
               "damage": plan.attack_class or a_face, "attacker": a.id, "target": t.id}
        ov_d20 = ab_d20 = c_d4 = None
        if broken and a_face != plan.attack_die and a.attack >= 1:
            if self.ask(pid, "overload", (False, True), actor=a.id, context=ctx):
                plan = replace(plan, attack_boosts=plan.attack_boosts | {"overload"})
        if broken and plan.overload_rolled(a_face):
            ov_d20 = self.roll(D20)
            if ov_d20 > plan.overload_threshold(d_face):
                ctx["damage"] = 2 * ctx["damage"]
        if broken and d_face != plan.defence_die and t.defence >= 1:
            if self.ask(target_player.id, "absorb", (False, True), actor=t.id, context=ctx):
                plan = replace(plan, defence_boosts=plan.defence_boosts | {"absorb"})
        if broken and plan.absorb_rolled(d_face):
            ab_d20 = self.roll(D20)
        if not broken and plan.counter_needs_d4:
            c_d4 = self.roll(D4)
        r = resolve(plan, Faces(a_face, d_face, ov_d20, ab_d20, c_d4))
        if r.overload_bought:
            a = self.state.owner(a.id).character(a.id).plus("attack", -1)
            self.set_character(a)
            self.to_bag(Tokens(potential=1))
        if r.absorb_bought:
            t = self.state.owner(t.id).character(t.id).plus("defence", -1)
            self.set_character(t)
            self.to_bag(Tokens(potential=1))
        t_left, t_lost = self.state.owner(t.id).character(t.id).lose(r.damage)
        self.set_character(t_left)
        self.to_bag(t_lost)
        a_left, a_lost = self.state.owner(a.id).character(a.id).lose(r.counter_damage)
        self.set_character(a_left)
        self.to_bag(a_lost)
        self.state = replace(self.state, attacked=self.state.attacked | {target_player.id})
        self.log(pid, "attack", describe(choice, plan, a_face, d_face, r, ov_d20, ab_d20, c_d4),
                 attacker=a.id, target=t.id, attack_boosts=sorted(plan.attack_boosts),
                 defence_boosts=sorted(plan.defence_boosts), attack_die=plan.attack_die, attack_face=a_face,
                 attack_value=r.attack_value, defence_die=plan.defence_die, defence_face=d_face,
                 defence_value=r.defence_value, repelled=r.repelled, overload_d20=ov_d20, overload=r.overload,
                 absorb_d20=ab_d20, absorb=r.absorb, damage=r.damage, counter_d4=c_d4,
                 counter_damage=r.counter_damage)
        for c in (t_left, a_left):  # both stood before the attack; Time paid may take one apart too
            if c.lost:
                self.log(self.state.owner(c.id).id, "lost", f"{c.id} is lost", character=c.id)

    # ------------------------------------------------------------------ the game

    def play(self) -> GameRecord:
        first = self.bidding()
        seats = [p.id for p in self.state.players]
        order = seat_order_from(first, seats)
        self.state = replace(self.state, order=order)
        limit = self.state.duel.max_turns
        winner: str | None = None
        while self.state.turn < limit:
            for pid in order:
                if len(self.state.standing) <= 1 or self.state.turn >= limit:
                    break
                if self.state.player(pid).defeated:
                    continue
                self.flow(pid)
                if self.state.player(pid).defeated:  # a Flow may take a character apart
                    self.log(pid, "lost", f"{pid} has no characters left", character=None)
                else:
                    self.attack(pid)
                self.state = replace(self.state, turn=self.state.turn + 1)
            self.state = replace(self.state, attacked=frozenset())
            if len(self.state.standing) <= 1:
                break
        standing = self.state.standing
        if len(standing) == 1:
            winner = standing[0]
            self.log(winner, "end", f"{winner} wins after {count(self.state.turn, 'turn')}", winner=winner)
        elif not standing:  # one attack took apart both sides' last characters (C-BUILD: both lose)
            self.log(None, "end", f"draw: no player has characters left after {count(self.state.turn, 'turn')}",
                     winner=None)
        else:
            self.log(None, "end", f"draw: the turn limit ({limit}) is reached", winner=None)
        return GameRecord(winner, self.state.turn, tuple(self.events), self.state, first)


def play_game(duel: Duel, policies: Mapping[str, Policy], rng: random.Random) -> GameRecord:
    """Play ``duel`` to the end with one policy per player id."""
    return Game(duel, policies, rng).play()


def _subsets(names: Sequence[str]) -> list[frozenset[str]]:
    return [frozenset(c) for k in range(len(names) + 1) for c in combinations(names, k)]


def describe(choice: AttackChoice, plan: Attack, a_face: int, d_face: int, r: Resolution,
             ov_d20: int | None, ab_d20: int | None, counter_d4: int | None = None) -> str:
    """One attack as a line of the log (``counter_d4``: the d4 rolled for a class-0 counter)."""
    boosts = f" ({', '.join(sorted(plan.attack_boosts))})" if plan.attack_boosts else ""
    dboosts = f" ({', '.join(sorted(plan.defence_boosts))})" if plan.defence_boosts else ""
    text = (f"{choice.attacker} attacks {choice.target}{boosts}: d{plan.attack_die}={a_face} -> {r.attack_value}"
            f" vs d{plan.defence_die}{dboosts}={d_face} -> {r.defence_value}: ")
    if r.repelled:
        text += "repelled"
        if counter_d4 is not None:
            text += f", counter d4={counter_d4}: {choice.attacker} loses {r.counter_damage}"
        elif r.counter_damage:
            text += f", counter: {choice.attacker} loses {r.counter_damage}"
        return text
    text += f"broken, damage {r.base_damage}"
    if r.overload is not None:
        text += f", overload d20={ov_d20} {'doubles' if r.overload else 'fails'}"
    if r.absorb is not None:
        text += f", absorb d20={ab_d20} {f'blocks {r.blocked}' if r.absorb else 'fails'}"
    return text + f": {choice.target} loses {r.damage}"
