"""One attack on the table as placed: geometry (LoS, reach, cover) composed with the
exact odds of the d20 exchange.

``attack(table, a, b)`` answers the question players ask — "can I shoot him, and
what are my odds?" — with its evidence: the LoS verdict with its witness or
certificate, the weapon and reach band with its Accuracy, the target's cover, the
Reaction the target can make (E-REACTION, :mod:`skirmish.rules.eldfall.reactions`)
and the exact odds of Hits, Wounds and both models' end States. A refused attack
raises :class:`AttackRefused`, whose ``kind`` says why (``no_los``, ``out_of_arc``,
``out_of_reach``, ``no_power``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from ..rules.eldfall.exchange import Exchange, Side
from ..rules.eldfall.odds import Distribution, ExchangeOdds, exchange_odds
from ..rules.eldfall.reactions import (
    NO_AP_STATES,
    ReactionKind,
    ReactionOptions,
    choose_reaction,
    reaction_options,
)
from ..rules.eldfall.weapons import Weapon
from .pieces import Model
from .results import Cover, LineOfSight, Reach

if TYPE_CHECKING:
    from .table import Table


class AttackRefused(IllegalActionError):
    """The attack cannot be declared; ``kind`` says why in one word."""

    kind = "refused"


@dataclass(frozen=True)
class Reaction:
    """The Reaction resolved (``kind``), what the target could do (``options``) and the
    evidence: its LoS back to the attacker, and for an attack back the weapon, reach and
    the attacker's cover (judged as for any ranged attack)."""

    kind: ReactionKind
    options: ReactionOptions
    los: LineOfSight
    in_awareness: bool | None
    weapon: Weapon | None = None
    reach: Reach | None = None
    cover: Cover | None = None

    @property
    def dodge_halved(self) -> bool:
        """A Dodge without LoS to the attacker: Agility halved (E-DODGE)."""
        return self.kind == "dodge" and self.options.dodge_halved

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "weapon": None if self.weapon is None else self.weapon.name,
            "band": None if self.reach is None else self.reach.band,
            "accuracy": None if self.reach is None else self.reach.accuracy,
            "cover": None if self.cover is None else self.cover.to_json(),
            "los": self.los.visible,
            "in_awareness": self.in_awareness,
            "dodge_halved": self.dodge_halved,
            "options": list(self.options.kinds),
            "why_not": dict(self.options.why_not),
        }


@dataclass(frozen=True)
class Attack:
    """A legal attack of ``frm`` on ``to`` with ``weapon``, its evidence and exact odds.

    ``exchange`` holds both sides' numbers (paste ``exchange.active.to_text()`` into
    ``skirmish odds``); ``odds`` its exact outcome."""

    frm: str
    to: str
    weapon: Weapon
    los: LineOfSight
    reach: Reach
    cover: Cover | None
    reaction: Reaction
    modifiers: tuple[int, ...]
    exchange: Exchange
    odds: ExchangeOdds

    @property
    def band(self) -> int:
        """The reach band, numbered from 1 (the shortest)."""
        assert self.reach.band is not None
        return self.reach.band

    @property
    def accuracy(self) -> int:
        """The band's Accuracy modifier (0 for melee)."""
        return self.reach.accuracy or 0

    @property
    def wounds_back(self) -> Distribution:
        """Wounds the target deals the attacker (certainly 0 unless it attacks back)."""
        return self.odds.reactive.wounds or Distribution.point(0)

    def summary_lines(self) -> list[str]:
        """A few lines for a panel: the set-up, the Hits, both models' end States."""
        o = self.odds
        cover = "" if self.cover is None else f", cover {self.cover.level} ({self.cover.modifier:+d})"
        out = [f"{self.frm} attacks {self.to}: {self.weapon.name}, band {self.band} (Accuracy {self.accuracy:+d})"
               f"{cover}, reaction: {self.reaction.kind}",
               "Hits: " + ", ".join(f"{k} {float(p):.1%}" for k, p in o.active.hits.items())]
        if o.reactive.state is not None:
            out.append(f"{self.to}: " + ", ".join(f"{s.value} {float(p):.1%}" for s, p in o.reactive.state.items()))
        if self.reaction.kind == "attack" and o.active.state is not None:
            out.append(f"{self.frm}: " + ", ".join(f"{s.value} {float(p):.1%}" for s, p in o.active.state.items()))
        return out

    def to_json(self) -> dict[str, Any]:
        o = self.odds
        return {
            "from": self.frm,
            "to": self.to,
            "weapon": self.weapon.name,
            "los": self.los.to_json(),
            "distance": self.reach.distance,
            "band": self.band,
            "accuracy": self.accuracy,
            "cover": None if self.cover is None else self.cover.to_json(),
            "reaction": self.reaction.to_json(),
            "modifiers": list(self.modifiers),
            "active": self.exchange.active.to_text(),
            "reactive": self.exchange.reactive.to_text(),
            "odds": {
                "kind": o.kind,
                "hits": _dist(o.active.hits),
                "wounds": _dist(o.active.wounds),
                "target_state": _states(o.reactive.state),
                "hits_back": _dist(o.reactive.hits),
                "wounds_back": _dist(self.wounds_back),
                "attacker_state": _states(o.active.state),
            },
        }


def _dist(d: Distribution | None) -> dict[str, str] | None:
    return None if d is None else {str(k): str(p) for k, p in d.items()}


def _states(s: Any) -> dict[str, str] | None:
    return None if s is None else {k.value: str(p) for k, p in s.items()}


# ------------------------------------------------------------------ composition


def _can_act(m: Model) -> bool:
    return not (m.states & NO_AP_STATES)


def _usable(m: Model, w: Weapon) -> str:
    """Why ``m`` cannot attack with ``w`` at all ("" when it can)."""
    if w.template is not None:
        return (f"{w.name} places a template ({w.template}, E-TMPL), it is not rolled: resolve it with "
                f"`skirmish template SCENARIO {w.template} --by {m.id} --on TARGET`")
    if w.pw is None:
        return f"{w.name} has no Power (pw) in the scenario; give it one"
    if m.attributes.get(w.attribute) is None:
        return f"{m.id} has no {w.attribute} attribute to attack with {w.name}"
    return ""  # a Strike named after a missing attribute is 1: the base Strike (E-STK-REACT)


def _pick(table: Table, a: str, b: str, name: str | None) -> tuple[Weapon, Reach]:
    """``a``'s weapon against ``b``: the named one, else the first usable weapon that
    reaches (then the first that reaches, then the first)."""
    m = table.model(a)
    if name is not None:
        w = m.weapon(name)
        if w is None:
            have = ", ".join(x.name for x in m.weapons) or "none"
            raise AttackRefused(f"{a} has no weapon {name!r}; it carries: {have}", kind="no_weapon")
        return w, table.reach(a, b, w)
    if not m.weapons:
        raise AttackRefused(f"{a} carries no weapon", kind="no_weapon")
    reaches = [(w, table.reach(a, b, w)) for w in m.weapons]
    for w, r in reaches:
        if r.in_reach and not _usable(m, w):
            return w, r
    for w, r in reaches:
        if r.in_reach:
            return w, r
    return reaches[0]


def _refuse_reach(r: Reach, weapon: Weapon, a: str, b: str) -> None:
    if not r.in_reach:
        raise AttackRefused(f"{b} is {r.distance:.2f} in from {a}, beyond {weapon.name}'s reach of "
                            f"{weapon.reach:g} in (E-REACH)", kind="out_of_reach")


def _side(m: Model, *, weapon: Weapon | None = None, modifiers: Sequence[int] = (), strike: bool = False,
          dodge: bool = False, los: bool = True) -> Side:
    incapacitated = "Incapacitated" in m.states  # at 0 HP: the next Wound kills (E-WOUND)
    kw: dict[str, Any] = {"arm": m.attributes.get("ARM", 0),
                          "hp": None if incapacitated else m.attributes.get("HP"), "incapacitated": incapacitated}
    if weapon is not None:
        kw.update(att=m.attributes[weapon.attribute], modifiers=tuple(x for x in modifiers if x), pw=weapon.pw)
        if strike:
            kw["stk"] = weapon.strike(dict(m.attributes))
    elif dodge:
        kw.update(dodge=m.attributes["AGI"], los=los)
    return Side(**kw)


def attack(table: Table, a: str, b: str, *, weapon: str | None = None, reaction: ReactionKind | None = None,
           reaction_weapon: str | None = None, modifiers: Sequence[int] = ()) -> Attack:
    """``a`` attacks ``b`` as the table stands (E-ACTION-ATTACK, E-LOS, E-REACH, E-COVER,
    E-REACTION, E-CONF, E-DODGE): the evidence and the exact odds.

    ``weapon``: the attacker's weapon (default: the first usable one that reaches);
    ``reaction``: what the target does (default: attack back if it can, else Dodge if
    it can, else nothing); ``reaction_weapon``: the weapon it attacks back with;
    ``modifiers``: further fixed modifiers of the attacker's roll (E-MOD-SUM).
    Raises :class:`AttackRefused` (with ``kind``) when the attack cannot be declared.
    """
    if a == b:
        raise AttackRefused(f"{a!r} cannot attack itself: pick two different models", kind="same_model")
    ma, mb = table.model(a), table.model(b)
    if not _can_act(ma):
        raise AttackRefused(f"{a} is {', '.join(sorted(ma.states & NO_AP_STATES))}: it has no AP to attack (E-AP)",
                            kind="cannot_act")
    if "Dead" in mb.states:
        raise AttackRefused(f"{b} is already Dead", kind="target_dead")
    if ma.side == mb.side:
        raise AttackRefused(f"{b} is on {a}'s side ({ma.side}); an Attack targets an enemy (E-ACTION-ATTACK)",
                            kind="not_enemy")
    sight = table.line_of_sight(a, b)
    if not sight.visible:
        if sight.reason == "out_of_arc":
            raise AttackRefused(f"{a} has no line of sight to {b} (out of arc): {b} is wholly behind {a}'s front "
                                f"arc (E-ARC); turn {a} first", kind="out_of_arc")
        why = f"blocked by {', '.join(sight.blockers)}" if sight.blockers else "no sight line"
        raise AttackRefused(f"{a} has no line of sight to {b} ({why}) (E-LOS)", kind="no_los")
    w, r = _pick(table, a, b, weapon)
    _refuse_reach(r, w, a, b)
    why = _usable(ma, w)
    if why:
        raise AttackRefused(why, kind="template" if w.template is not None else
                            "no_power" if w.pw is None else "no_attribute")
    cover = table.cover(a, b) if w.ranged else None

    back = table.line_of_sight(b, a)
    aware = table.in_awareness(b, a)
    rw: Weapon | None = None
    rr: Reach | None = None
    back_why = ""
    if reaction_weapon is not None and mb.weapon(reaction_weapon) is None:  # (a name it does not carry: a typo)
        have = ", ".join(x.name for x in mb.weapons) or "none"
        raise AttackRefused(f"reaction weapon: {b} has no weapon {reaction_weapon!r}; it carries: {have}",
                            kind="no_weapon")
    if mb.weapons:
        try:
            rw, rr = _pick(table, b, a, reaction_weapon)
        except AttackRefused as exc:
            back_why = str(exc)
        else:
            back_why = ("" if rr.in_reach else f"{rw.name} does not reach {a} ({rr.distance:.2f} in, reach "
                        f"{rw.reach:g} in)") or _usable(mb, rw)
    else:
        back_why = f"{b} carries no weapon"
    options = reaction_options(can_act=_can_act(mb), has_los=back.visible, in_awareness=aware,
                               can_attack_back=not back_why, attack_back_why=back_why,
                               has_agility=mb.attributes.get("AGI") is not None)
    try:
        kind = choose_reaction(options, reaction)
    except IllegalActionError as exc:
        raise AttackRefused(f"{b}: {exc}", kind="reaction") from None

    mods = tuple(modifiers)
    active = _side(ma, weapon=w, modifiers=(r.accuracy or 0, cover.modifier if cover else 0, *mods), strike=True)
    if kind == "attack":
        assert rw is not None and rr is not None
        back_cover = table.cover(b, a) if rw.ranged else None
        react = Reaction(kind, options, back, aware, rw, rr, back_cover)
        reactive = _side(mb, weapon=rw, modifiers=(rr.accuracy or 0, back_cover.modifier if back_cover else 0))
    else:
        react = Reaction(kind, options, back, aware)
        reactive = _side(mb, dodge=kind == "dodge", los=back.visible)
    exchange = Exchange(active, reactive)
    return Attack(a, b, w, sight, r, cover, react, mods, exchange, exchange_odds(exchange))

