"""Built-in Eldfall policies: ``random``, ``greedy`` and ``script``.

- ``random``: a uniformly random option of every decision (the shared RandomPolicy).
- ``greedy``: scores each candidate by the expected Wounds dealt minus those taken in
  the exchange it leads to, from the exact odds (:mod:`skirmish.rules.eldfall.odds`)
  with LoS, reach bands and cover on the table; candidate destinations are the
  game's sample of the movement range plus the walks into base contact with enemies.
- ``script``: plays the scenario's ``[[script]]`` in order (docs/simulation.md).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from ...errors import SkirmishError
from ...game.policy import Decision, RandomPolicy, register_policy
from ...maps.table import Table
from ...rules.eldfall.exchange import Exchange, Side
from ...rules.eldfall.odds import chosen_rolls, exchange_odds
from ...geometry.distance import cylinder_distance
from ...geometry.solids import Cylinder
from ...maps.table import CONTACT_TOLERANCE
from ...rules.eldfall.modifiers import damage_target
from .attacks import (armour_of, attack_geometry, attacking_side, defending_side, strike_of, weapons_in_hand,
                      with_rerolls)
from .choices import NO_REACTION, NOTHING, SPECIAL_MOVES, Action, IllegalChoice, Move, Reaction
from .settings import usable_weapons
from .sight import PathTables, moved_to, sight_along
from .state import facing_toward
from .templates import TemplateTarget, expected_wounds, place
from .templates import targets as template_targets


#: The exact odds of an exchange in which a side rerolls up to k chosen dice enumerate
#: every first roll with every choice after it (:func:`~skirmish.rules.eldfall.odds.
#: chosen_rolls`): about 0.2 s for 2 dice against 1 attacking back, 1 s for 3, refused for
#: 4 or more. Above this many rolls greedy weighs the exchange as if each such side
#: rerolled every failed die instead (``REROLL=all``: exact in a millisecond).
EXACT_REROLL_ROLLS = 2_000


@lru_cache(maxsize=65536)
def _expected(ex: Exchange) -> tuple[Fraction, Fraction]:
    """Expected Wounds (dealt by the attacker, dealt back to it) of an exchange: exact,
    but for a ``REROLL=k`` exchange too big to enumerate quickly
    (:data:`EXACT_REROLL_ROLLS`), which is weighed as ``REROLL=all``."""
    if chosen_rolls(ex) > EXACT_REROLL_ROLLS:
        every = [dataclasses.replace(sd, reroll_dice=0, reroll=True) if sd.reroll_dice else sd
                 for sd in (ex.active, ex.reactive)]
        ex = Exchange(every[0], every[1], ex.dice)
    o = exchange_odds(ex)
    return (o.active.expected_wounds or Fraction(0), o.reactive.expected_wounds or Fraction(0))


#: With nothing to attack, greedy makes Special movement only to end at least this much (in)
#: nearer an enemy.
CLOSE_IN = 0.1


class GreedyPolicy:
    """One-step greedy: the best expected Wounds dealt minus taken, from exact odds."""

    name = "greedy"
    #: takes the move decisions' lazy form (candidates drawn unchecked, checked best first)
    lazy = True
    #: judge Cover (E-COVER) for every candidate; off, Cover is judged only for the chosen Action
    cover = False

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        handler = getattr(self, "_" + decision.kind.replace("-", "_"), None)
        if handler is None:
            return decision.options[0]
        return handler(game, decision, rng)

    # -- which model ---------------------------------------------------------------
    def _activate(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        """The model nearest an enemy acts first (AP left at the End phase are lost anyway)."""
        st = game.state
        ids = [o for o in d.options if o is not None]
        enemies = [st.model(e.id) for e in st.in_play(st.reactive)]
        if not ids or not enemies:
            return None

        def nearest(mid: str) -> float:
            m = st.model(mid)
            return min(math.hypot(e.x - m.x, e.y - m.y) for e in enemies)

        return min(ids, key=lambda i: (nearest(i), i))

    # -- where to move ---------------------------------------------------------------
    def _move(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        st = game.state
        mid: str = d.actor or ""
        m = st.model(mid)
        enemies = [e.id for e in st.in_play(st.enemy_of(m.side))]
        ctx = d.context or {}
        lazy = "draw" in ctx  # candidates drawn unchecked; only the ones it would pick are checked
        budget = _walk_budget(game, mid)
        contacts: list[Move] = []
        # the contact plans first: they need the whole movement net, which the draws then share
        for e in enemies:  # the spots that reach the targets: base contact
            em = st.model(e)
            # a walk into contact is never shorter than the gap between the bases
            if any(not w.ranged for w in usable_weapons(m)) and \
                    math.hypot(em.x - m.x, em.y - m.y) - m.radius - em.radius <= budget + 1e-6:
                try:
                    plan = st.table.plan_move(mid, e, kind="walk", budget=budget, declared=True)
                except SkirmishError:
                    continue
                if plan.legal:
                    end = plan.points[-1]
                    contacts.append(Move("walk", (end[0], end[1], end[2]), facing_toward(end[0], end[1], em.x,
                                                                                          em.y, m.facing)))
        options = _drawn(d, rng) if lazy else list(d.options)
        # Special movement (Run, Climb, Jump) ends in Nothing (E-ACTION-COMBO): no exchange to score
        candidates: list[Move] = [o for o in options if o.kind not in SPECIAL_MOVES] + contacts
        scored = self._score_destinations(game, mid, candidates, enemies, planned=not lazy)
        ranked = sorted(((score, -k, dataclasses.replace(c, face=face) if face is not None else c)
                         for k, (c, (score, face)) in enumerate(zip(candidates, scored)) if score is not None),
                        key=lambda t: (t[0], t[1]), reverse=True)  # best first; the earliest of equals
        legal = ctx["legal"] if lazy else (lambda mv: True)
        # best first, less the Wounds its falls may cost (E-FALL): a score bounds its own value less them
        pick, value = None, -math.inf
        for score, _, c in ranked:
            if score <= -1.0 or score <= value:
                break
            if legal(c):
                v = score - _fall_risk(game, mid, c)
                if v > value:
                    pick, value = c, v
        if pick is not None and (value >= 0 or _fall_risk(game, mid, pick) == 0):
            return pick

        def gap(p: Sequence[float]) -> float:  # (in 3-D: a Climb onto the roof an enemy stands on closes in)
            return min((math.dist((st.model(e).x, st.model(e).y, st.model(e).z), p) for e in enemies), default=0.0)
        # nothing worth a fall to attack: close in by the Run, Climb or Jump that ends nearest an enemy (a
        # Jump may end short of its aim, even where it starts) and risks no fall, or stay
        specials = sorted((gap(game.plan(mid, o).path[-1]), k, o) for k, o in enumerate(options)
                          if o.kind in SPECIAL_MOVES and legal(o))
        risky = specials[0][2] if specials else None
        for g, _, o in specials:
            if g > gap((m.x, m.y, m.z)) - CLOSE_IN:
                break  # (the rest close in by less: a Jump into the wall it stands against)
            if _fall_risk(game, mid, o) == 0:
                return o
        stay = next((o for o in options if o.kind == "idle" and o.crouch is None and legal(o)), None)
        if stay is not None:
            return stay
        if pick is not None:
            return pick
        if risky is not None:
            return risky
        for _, _, c in ranked:
            if legal(c):
                return c
        return d.options[0]

    def _score_destinations(self, game: Any, mid: str, moves: list[Move], enemies: list[str], *,
                            planned: bool = True) -> list[tuple[float | None, float | None]]:
        """Per candidate move: the best expected Wounds dealt minus taken from its end
        (-1 - 0.01 × distance to the nearest enemy when nothing is in reach; None when
        the move is illegal) and the facing toward the best target. Sight from every
        end point to every enemy, and back, is one batch per point
        (:func:`.sight.sight_along`); reach is E-DIST."""
        st = game.state
        m, u = st.model(mid), st.unit(mid)
        ends: list[tuple[float, float, float] | None] = []
        for c in moves:
            if c.kind == "idle":
                ends.append((m.x, m.y, m.z))
                continue
            if not planned and c.to is not None:  # checked later, when it would be picked
                ends.append((float(c.to[0]), float(c.to[1]), float(c.to[2])))
                continue
            try:
                mr = game.plan(mid, c)
            except IllegalChoice:
                ends.append(None)
                continue
            ends.append(mr.path[-1])
        pts = [e for e in ends if e is not None]
        if not pts or not enemies:
            return [(None if e is None else -1.0, None) for e in ends]
        weapons = usable_weapons(m)
        boxes = [st.model(eid).hitbox for eid in enemies]
        dist = np.array([[cylinder_distance(Cylinder(e[0], e[1], e[2], m.radius, m.hitbox_height), b) for b in boxes]
                         for e in pts]).reshape(len(pts), len(enemies))
        # sight only where some weapon reaches (the rest is never looked at)
        reach = np.array([[any(w.band_for(d, CONTACT_TOLERANCE) is not None for w in weapons) for d in row]
                          for row in dist], bool).reshape(dist.shape)
        rows, cols = np.flatnonzero(reach.any(1)), np.flatnonzero(reach.any(0))
        sees = np.zeros(dist.shape, bool)
        seen_by = np.zeros(dist.shape, bool)
        if len(rows):
            pv = sight_along(st.table, m, [pts[i] for i in rows], [enemies[j] for j in cols], both=True)
            assert pv.sees is not None
            sees[np.ix_(rows, cols)] = pv.sees
            seen_by[np.ix_(rows, cols)] = pv.seen_by
        out: list[tuple[float | None, float | None]] = []
        i = -1
        for e in ends:
            if e is None:
                out.append((None, None))
                continue
            i += 1
            best: float | None = None
            face: float | None = None
            near = math.inf
            for j, eid in enumerate(enemies):
                tm, tu = st.model(eid), st.unit(eid)
                d = float(dist[i, j])
                near = min(near, d)
                if not sees[i, j]:
                    continue
                for w in weapons:
                    band = w.band_for(d, CONTACT_TOLERANCE, m.awareness)
                    if band is None:
                        continue
                    if w.template is not None:  # placed, not rolled: the main target's Hits (splash not counted here)
                        # (in reach is not enough: a spray covers its target entirely only nearer than its length)
                        if place(moved_to(st.table, m, e, m.facing), mid, eid, w) is None:
                            continue
                        score = float(strike_of(m, u, w) * TemplateTarget(eid, None, False, damage_target(
                            w.pw or 0, armour_of(tm, tu))).p_wound())
                        if best is None or score > best:
                            best, face = score, facing_toward(e[0], e[1], tm.x, tm.y, m.facing)
                        continue
                    acc = w.bands[band].accuracy
                    active = Side(att=int(m.attributes[w.attribute]), modifiers=(acc,) if acc else (), pw=w.pw,
                                  stk=strike_of(m, u, w), arm=armour_of(m, u), hp=u.hp)
                    reply = defending_side(tm, tu)
                    if tu.ap >= 1 and seen_by[i, j]:
                        for rw in weapons_in_hand(tm, False, reaction=True):
                            rb = rw.band_for(d, CONTACT_TOLERANCE, tm.awareness)
                            if rb is not None:
                                racc = rw.bands[rb].accuracy
                                reply = Side(att=int(tm.attributes[rw.attribute]),
                                             modifiers=(racc,) if racc else (), pw=rw.pw,
                                             arm=armour_of(tm, tu), hp=tu.hp)
                                break
                    dealt, taken = _expected(with_rerolls(Exchange(active, reply), game.settings.reroll))
                    score = float(dealt - taken)
                    if best is None or score > best:
                        best, face = score, facing_toward(e[0], e[1], tm.x, tm.y, m.facing)
            out.append((best if best is not None else -1.0 - 0.01 * near, face))
        return out

    # -- the action ---------------------------------------------------------------------
    def _action(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        """The Action worth most: each attack's expected Wounds dealt minus taken (its
        target's Confrontation, and the other Attacks of Opportunity the mover then meets
        without a Dodge), the Dodge (every Attack of Opportunity met Dodging) and Nothing,
        from exact odds; of equals an attack, then the Dodge."""
        reactions: dict[str, Reaction] = dict((d.context or {}).get("reactions", {}))
        attacks = [o for o in d.options if o.kind in ("attack", "cast")]
        blows = [o for o in d.options if o.kind == "death-blow"]
        if blows:
            return blows[0]
        st = game.state
        actor: str = d.actor or ""
        m, u = st.model(actor), st.unit(actor)
        # each Attack of Opportunity on the mover: its geometry, and what it deals met plainly and Dodging
        met: dict[str, tuple[float, float]] = {}
        for rid, r in reactions.items():
            if r.kind != "attack":
                continue
            rm, ru = st.model(rid), st.unit(rid)
            back = attack_geometry(game_table_at(game, d, r), rid, actor, rm.weapon(r.weapon), with_cover=self.cover)
            side = attacking_side(rm, ru, back, reactive=True)
            plain, dodged = (float(_expected(with_rerolls(Exchange(side, defending_side(m, u, dodge=dodge)),
                                                          game.settings.reroll))[0]) for dodge in (False, True))
            met[rid] = plain, dodged
        best, best_score = None, -math.inf
        for a in attacks:
            w = m.weapon(a.weapon)
            if w is not None and w.template is not None:
                score = sum(_template_score(game, actor, t, w, reactions, n) for t, n in a.shares)
                if score <= 0:  # never one that wounds friends more than enemies
                    continue
                score -= sum(plain for plain, _ in met.values())
                if score > best_score:
                    best, best_score = a, score
                continue
            score = 0.0
            targets = {target for target, _ in a.shares}
            for target, dice in a.shares:  # E-STK-SPLIT: one exchange per target
                geo = attack_geometry(st.table, actor, target, w, with_cover=self.cover, unseen_aura=True)
                tm, tu = st.model(target), st.unit(target)
                r = reactions.get(target, NO_REACTION)
                if r.kind == "dodge":
                    reactive = defending_side(tm, tu, dodge=True, los=r.los)
                elif r.kind == "attack":
                    back = attack_geometry(game_table_at(game, d, r), target, actor, tm.weapon(r.weapon),
                                           with_cover=self.cover)
                    reactive = attacking_side(tm, tu, back, reactive=True)
                else:
                    reactive = defending_side(tm, tu)
                dealt, taken = _expected(with_rerolls(Exchange(attacking_side(m, u, geo, reactive=False), reactive,
                                                               dice), game.settings.reroll))
                score += float(dealt - taken)
            score -= sum(plain for rid, (plain, _) in met.items() if rid not in targets)  # (unopposed)
            if score > best_score:
                best, best_score = a, score
        if best is not None and (best_score >= 0 or not met):
            return best
        dodge = -sum(dodged for _, dodged in met.values())
        if met and Action("dodge") in d.options and (best is None or dodge > best_score):
            return Action("dodge")
        return best if best is not None else NOTHING

    # -- reactions ------------------------------------------------------------------------
    def _reaction(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        """Reactive AP are lost at the End phase: attack at the best path point, else Dodge."""
        st = game.state
        mover = (d.context or {}).get("mover")
        attacks = [o for o in d.options if o.kind == "attack"]
        if attacks and mover is not None:
            path = (d.context or {}).get("path", ())
            rm, ru = st.model(d.actor), st.unit(d.actor)
            mm, mu = st.model(mover), st.unit(mover)

            def value(o: Reaction) -> float:
                p = path[o.at]
                table = moved_to(st.table, mm, p)
                geo = attack_geometry(table, d.actor or "", mover, rm.weapon(o.weapon), with_cover=True)
                return float(_expected(with_rerolls(Exchange(attacking_side(rm, ru, geo, reactive=True),
                                                             defending_side(mm, mu)), game.settings.reroll))[0])
            # judged with Cover (E-COVER at the chosen point): per weapon, the nearest point of each band it
            # reaches the mover in, and its first and last points (a few evaluations, not every point)
            far = PathTables(st.table, mm, path).distances(d.actor or "")
            at = {o: o.at or 0 for o in attacks}  # (an attack's point is always set)
            groups: dict[tuple[str, int | None], list[Reaction]] = {}
            for o in attacks:
                w = rm.weapon(o.weapon)
                band = None if w is None else w.band_for(far[at[o]], CONTACT_TOLERANCE, rm.awareness)
                groups.setdefault((o.weapon or "", band), []).append(o)
            shortlist = {min(os, key=lambda o: far[at[o]]) for os in groups.values()}
            for name in {o.weapon for o in attacks}:
                mine = [o for o in attacks if o.weapon == name]
                shortlist |= {min(mine, key=at.__getitem__), max(mine, key=at.__getitem__)}
            ranked = sorted(shortlist, key=lambda o: (o.weapon or "", at[o]))
            return ranked[0] if len(ranked) == 1 else max(ranked, key=value)
        dodges = [o for o in d.options if o.kind == "dodge"]
        return dodges[0] if dodges else NO_REACTION

    def _deploy(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        """E-DEPLOY: the offered spot nearest the table's centre (forward, toward the enemy)."""
        t = game.state.table
        return min(d.options, key=lambda p: (math.hypot(p[0] - t.width / 2, p[1] - t.depth / 2), p))

    def _dodge_move(self, game: Any, d: Decision[Any], rng: random.Random) -> Any:
        """Step away from the nearest enemy (or stay)."""
        st = game.state
        enemies = [st.model(e.id) for e in st.in_play(st.enemy_of(st.unit(d.actor).side))]
        if not enemies:
            return d.options[0]
        m = st.model(d.actor)
        ctx = d.context or {}
        options = _drawn(d, rng) if "draw" in ctx else list(d.options)
        legal = ctx.get("legal", lambda mv: True)

        def gap(o: Move) -> float:
            x, y = (o.to[0], o.to[1]) if o.to else (m.x, m.y)
            return min(math.hypot(e.x - x, e.y - y) for e in enemies)

        # the widest gap among the moves that risk no fall (E-FALL; staying risks none), the earliest of equals:
        # checked widest first, until one is legal and risks none
        risky = []
        for o in sorted(options, key=lambda o: -gap(o)):
            if legal(o):
                if _fall_risk(game, d.actor or "", o) == 0:
                    return o
                risky.append(o)
        return min(risky, key=lambda o: _fall_risk(game, d.actor or "", o)) if risky else d.options[0]


def _fall_risk(game: Any, mid: str, move: Move) -> float:
    """The Wounds ``move``'s falls are expected to cost (0 for a game that cannot tell)."""
    risk = getattr(game, "fall_risk", None)
    if risk is None or move.kind == "idle":
        return 0.0
    try:
        return float(risk(mid, game.plan(mid, move)))
    except IllegalChoice:
        return math.inf


def _template_score(game: Any, actor: str, target: str, w: Any, reactions: dict[str, Reaction],
                    count: int | None = None) -> float:
    """Expected Wounds ``count`` templates (None: the Strike) on ``target`` deal to enemies
    minus those they deal to friends (E-TMPL: every model under it; the declared Dodges count)."""
    st = game.state
    placed = place(st.table, actor, target, w)
    if placed is None:
        return -math.inf
    dodging = {rid: r.los for rid, r in reactions.items() if r.kind == "dodge"}
    m, u = st.model(actor), st.unit(actor)
    foes, friends = expected_wounds(template_targets(placed, st, w, dodging), st, u.side,
                                    strike_of(m, u, w) if count is None else count,
                                    reroll=game.settings.reroll >= 1)
    return float(foes - friends)


def _drawn(d: Decision[Any], rng: random.Random) -> list[Move]:
    """A lazy move decision's candidates: its concrete options (idle, an Engaged model's
    walks) and, per kind, as many drawn (unchecked) moves as the decision has slots of
    that kind (a slot is a Move without a destination)."""
    counts: dict[str, int] = {}
    for o in d.options:
        if o.kind != "idle" and o.to is None:
            counts[o.kind] = counts.get(o.kind, 0) + 1
    out = [o for o in d.options if o.kind == "idle" or o.to is not None]
    for kind, n in counts.items():
        out += (d.context or {})["draw"](kind, n, rng)
    return out


def game_table_at(game: Any, d: Decision[Any], r: Reaction) -> Table:
    """The table with the mover at the path point of a reactive attack (from the decision's context)."""
    path = (d.context or {}).get("path")
    st = game.state
    if not path or r.at is None:
        return st.table
    return moved_to(st.table, st.model(d.actor), path[r.at])


def _walk_budget(game: Any, mid: str) -> float:
    return float(game.budget(mid, "walk"))  # E-MOVE-KIND with the States (EldfallGame.budget)


_RANDOM = RandomPolicy()


class LazyRandomPolicy:
    """``random`` for Eldfall: a uniformly random option of every decision. Where the game
    offers option slots to be drawn only when chosen (``lazy``; the move and dodge-move
    decisions, ``context["resolve"]``), a slot is chosen uniformly, then resolved; a slot
    that resolves to nothing is dropped with every slot like it and the choice redrawn
    among the rest (so the choice is uniform over the slots that have a legal move)."""

    name = "random"
    lazy = True

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        resolve = (decision.context or {}).get("resolve")
        if resolve is None:
            return _RANDOM.choose(game, decision, rng)
        pool = list(decision.options)
        while pool:
            slot = pool[rng.randrange(len(pool))]
            got = resolve(slot, rng)
            if got is not None:
                return got
            pool = [o for o in pool if o != slot]
        raise IllegalChoice(decision.actor, f"{decision.kind}: no option resolves to a legal choice")


register_policy("eldfall", "random", LazyRandomPolicy)
register_policy("eldfall", "greedy", GreedyPolicy)


#: The ``[[script]]`` actions the script policy plays (templates and measures are skipped).
PLAYED = ("move", "attack")


class ScriptPolicy:
    """Plays the scenario's ``[[script]]`` (docs/simulation.md) inside the game's
    rounds: a side activates the script's next actor while it is one of its own with
    AP, and stops its turn otherwise. A move is a Walk (Run with ``run = true``), an
    attack follows in the same Activation when the same actor attacks next, and the
    script's ``reaction`` becomes the target's Reaction (an attack back at the end of
    the path). Templates and measures are not played (skipped). The position in the
    script is the game's ``script_pos``, shared by both sides."""

    name = "script"

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        script = getattr(game, "script", None)
        actions = script.actions if script is not None else ()
        k = decision.kind
        if k == "activate":
            return self._activate(game, decision, actions)
        nxt = actions[game.script_pos] if game.script_pos < len(actions) else None
        if k == "move":
            return self._move(game, decision, nxt)
        if k == "action":
            return self._action(game, decision, nxt)
        if k == "reaction":
            return self._reaction(game, decision, nxt)
        return decision.options[0]  # dodge-move: stay

    def _activate(self, game: Any, d: Decision[Any], actions: Any) -> Any:
        st = game.state
        while game.script_pos < len(actions):
            a = actions[game.script_pos]
            if a.do not in PLAYED or not st.unit(a.actor).in_play:
                game.script_pos += 1
                continue
            return a.actor if a.actor in d.options else None
        return None

    def _move(self, game: Any, d: Decision[Any], a: Any) -> Any:
        st = game.state
        m = st.model(d.actor)
        if a is not None and a.actor == d.actor and a.do == "move":
            game.script_pos += 1
            kind: Literal["run", "walk"] = "run" if a.run else "walk"
            to = a.to if a.to is not None else (a.via[-1] if a.via else None)
            if isinstance(to, str):
                plan = st.table.plan_move(d.actor, to, kind=kind, declared=True)
                end = plan.points[-1]
                tm = st.model(to)
                return Move(kind, (end[0], end[1], end[2]), facing_toward(end[0], end[1], tm.x, tm.y, m.facing))
            if to is None:
                return Move("idle")
            return Move(kind, (float(to[0]), float(to[1]), m.z))
        if a is not None and a.actor == d.actor and a.do == "attack" and a.target:
            tm = st.model(a.target)
            return Move("idle", None, facing_toward(m.x, m.y, tm.x, tm.y, m.facing))
        return Move("idle")

    def _action(self, game: Any, d: Decision[Any], a: Any) -> Any:
        if a is None or a.actor != d.actor or a.do != "attack" or d.options == (NOTHING,):
            return NOTHING  # after a Run the attack waits for the next Activation
        game.script_pos += 1
        for o in d.options:
            if o.kind in ("attack", "cast") and o.target == a.target and (a.weapon is None or
                                                                 _same(o.weapon, a.weapon)):
                return o
        return NOTHING

    def _reaction(self, game: Any, d: Decision[Any], a: Any) -> Any:
        special = (d.context or {}).get("movement") in ("run", "climb", "jump")
        if a is None or a.do != "attack" or a.target != d.actor or a.reaction == "none" or special:
            return NO_REACTION
        options = [o for o in d.options if o.kind == a.reaction and
                   (a.reaction_weapon is None or o.kind != "attack" or _same(o.weapon, a.reaction_weapon))]
        if not options:
            return NO_REACTION
        return max(options, key=lambda o: o.at or 0)


def _same(a: str | None, b: str | None) -> bool:
    norm = lambda s: "-".join((s or "").casefold().replace("_", " ").replace("-", " ").split())  # noqa: E731
    return norm(a) == norm(b)


register_policy("eldfall", "script", ScriptPolicy)
