"""One attack: dice, boosts and resolution (C-ATTACK, C-DEFENCE, C-RESOLVE,
C-OVERLOAD, C-ABSORB, as fixed by C-EXACT).

An :class:`Attack` is the setup (potentials and boosts); :func:`resolve` turns the
faces rolled (:class:`Faces`) into a :class:`Resolution` that carries its evidence.

Boosts: the attacker's *raise* and *floor* and the defender's *raise*, *floor* and
*counter* cost 1 Time each. *overload* (attacker) and *absorb* (defender) in the
boosts mean "bought when the die is not at its top face": they cost an attack or a
defence Potential token, paid only when bought and the defence was broken.

>>> a = Attack(attack_potential=4, defence_potential=2, attack_boosts=frozenset({"floor"}))
>>> a.attack_die, a.defence_die, a.attack_class
(8, 6, 2)
>>> r = resolve(a, Faces(attack=1, defence=3))
>>> r.attack_value, r.defence_value, r.repelled, r.damage    # floor: 1 counts as 4
(4, 3, False, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import RuleInputError
from .classes import potential_class, roll_die

ATTACK_BOOSTS = ("raise", "floor", "overload")
DEFENCE_BOOSTS = ("raise", "floor", "counter", "absorb")
#: boosts paid in Time (the rest are paid in Potential, and only when bought)
TIME_BOOSTS = frozenset({"raise", "floor", "counter"})
D20 = 20
D4 = 4


def parse_boosts(text: str | None, allowed: tuple[str, ...], who: str) -> frozenset[str]:
    """``"raise,floor"`` → a set of boosts, refusing unknown names."""
    names = [b.strip().lower() for b in (text or "").split(",") if b.strip()]
    for i, b in enumerate(names):
        if b not in allowed:
            raise RuleInputError(f"{who} boost {b!r} does not exist; {who} boosts are {', '.join(allowed)}")
        if b in names[:i]:  # (C-ATTACK, C-DEFENCE: each boost is bought once; they combine)
            raise RuleInputError(f"{who} boost {b!r} is given twice; each boost is bought once per attack")
    return frozenset(names)


@dataclass(frozen=True)
class Attack:
    """The setup of one attack: the attacker's attack Potential, the target's defence
    Potential, each side's boosts, the target's own attack Potential (for *counter*),
    Superiority's ``advantage`` and the Unlimited variant."""

    attack_potential: int
    defence_potential: int
    attack_boosts: frozenset[str] = field(default=frozenset())
    defence_boosts: frozenset[str] = field(default=frozenset())
    defender_attack_potential: int = 0
    advantage: bool = False
    unlimited: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "attack_boosts", frozenset(self.attack_boosts))
        object.__setattr__(self, "defence_boosts", frozenset(self.defence_boosts))
        for b in self.attack_boosts:
            if b not in ATTACK_BOOSTS:
                raise RuleInputError(f"attack boost {b!r} does not exist; attack boosts are {', '.join(ATTACK_BOOSTS)}")
        for b in self.defence_boosts:
            if b not in DEFENCE_BOOSTS:
                raise RuleInputError(f"defence boost {b!r} does not exist; defence boosts are "
                                     f"{', '.join(DEFENCE_BOOSTS)}")
        # validates the potentials and the raises (class 0, past d20)
        self.attack_die, self.defence_die, self.counter_class  # noqa: B018
        if "overload" in self.attack_boosts and self.attack_potential < 1:
            raise RuleInputError("attack boost overload: buying it costs 1 attack Potential token and the attack "
                                 "potential is 0 (C-OVERLOAD)")
        if "absorb" in self.defence_boosts and self.defence_potential < 1:
            raise RuleInputError("defence boost absorb: buying it costs 1 defence Potential token and the defence "
                                 "potential is 0 (C-ABSORB)")

    @property
    def attack_class(self) -> int:
        return potential_class(self.attack_potential, self.unlimited)

    @property
    def defence_class(self) -> int:
        return potential_class(self.defence_potential, self.unlimited)

    @property
    def counter_class(self) -> int:
        """The target's attack class: the damage of its *counter*."""
        return potential_class(self.defender_attack_potential, self.unlimited)

    @property
    def attack_die(self) -> int:
        return roll_die(self.attack_class, raised="raise" in self.attack_boosts, advantage=self.advantage,
                        who="attack")

    @property
    def defence_die(self) -> int:
        return roll_die(self.defence_class, raised="raise" in self.defence_boosts, who="defence")

    @property
    def attacker_time(self) -> int:
        """Time the attacker spends: 1 for the attack and 1 per Time boost (C-ATTACK)."""
        return 1 + len(self.attack_boosts & TIME_BOOSTS)

    @property
    def defender_time(self) -> int:
        """Time the target spends on its boosts (C-DEFENCE; the plain defence is free)."""
        return len(self.defence_boosts & TIME_BOOSTS)

    @property
    def counter_needs_d4(self) -> bool:
        """A class-0 *counter* whose target rolled no d4: one d4 is rolled for its damage."""
        return "counter" in self.defence_boosts and self.counter_class == 0 and self.defence_die != D4

    def attack_value(self, face: int) -> int:
        """C-EXACT: the face, or max(face, attack potential) with *floor*."""
        _check_face("attack", face, self.attack_die)
        return max(face, self.attack_potential) if "floor" in self.attack_boosts else face

    def defence_value(self, face: int) -> int:
        """C-EXACT: the face, or max(face, defence potential) with *floor*."""
        _check_face("defence", face, self.defence_die)
        return max(face, self.defence_potential) if "floor" in self.defence_boosts else face

    def overload_rolled(self, attack_face: int) -> bool:
        """C-OVERLOAD applies (once the defence is broken): top face, or bought."""
        return attack_face == self.attack_die or "overload" in self.attack_boosts

    def absorb_rolled(self, defence_face: int) -> bool:
        """C-ABSORB applies (once the defence is broken): top face, or bought."""
        return defence_face == self.defence_die or "absorb" in self.defence_boosts

    def overload_threshold(self, defence_face: int) -> int:
        """Overload doubles the damage when the d20 shows more than this."""
        return defence_face + self.defence_potential

    def absorb_threshold(self, attack_value: int) -> int:
        """Absorb blocks when the d20 shows more than this."""
        return attack_value + self.attack_potential


def d20_above(threshold: int) -> Fraction:
    """P(d20 − threshold > 0)."""
    return Fraction(d20_faces_above(threshold), D20)


def d20_faces_above(threshold: int) -> int:
    """How many d20 faces are above ``threshold``."""
    return min(D20, max(0, D20 - threshold))


def _check_face(who: str, face: int, die: int) -> None:
    if not 1 <= face <= die:
        raise RuleInputError(f"{who} face {face}: the {who} die is a d{die}, faces 1..{die}")


@dataclass(frozen=True)
class Faces:
    """The faces rolled for one attack. The d20s (and the counter's d4) are needed
    only when the rule that uses them applies."""

    attack: int
    defence: int
    overload_d20: int | None = None
    absorb_d20: int | None = None
    counter_d4: int | None = None


@dataclass(frozen=True)
class Resolution:
    """What one attack did, with the numbers that decided it.

    ``overload``/``absorb``: None when not rolled, else whether the d20 succeeded;
    ``overload_bought``/``absorb_bought``: a Potential token was paid for it.
    ``damage`` is what the target loses, ``counter_damage`` what the attacker loses."""

    attack_value: int
    defence_value: int
    repelled: bool
    base_damage: int
    overload: bool | None
    absorb: bool | None
    blocked: int
    damage: int
    counter_damage: int
    overload_bought: bool
    absorb_bought: bool


def resolve(attack: Attack, faces: Faces) -> Resolution:
    """C-RESOLVE with C-OVERLOAD and C-ABSORB as C-EXACT states them.

    Repelled when defence value ≥ attack value (then a *counter* deals the target's
    attack class). Otherwise damage = the attacker's class (class 0: the attack d4's
    face), doubled by a successful overload, less the defender's class (class 0: the
    defence d4's face) after a successful absorb, never below 0."""
    av = attack.attack_value(faces.attack)
    dv = attack.defence_value(faces.defence)
    if dv >= av:
        counter = 0
        if "counter" in attack.defence_boosts:
            counter = attack.counter_class or _counter_d4(attack, faces)
        return Resolution(av, dv, True, 0, None, None, 0, 0, counter, False, False)
    base = attack.attack_class or faces.attack
    damage = base
    overload: bool | None = None
    if attack.overload_rolled(faces.attack):
        d20 = _need(faces.overload_d20, "overload_d20", "the overload", D20)
        overload = d20 > attack.overload_threshold(faces.defence)
        damage = 2 * base if overload else base
    absorb: bool | None = None
    blocked = 0
    if attack.absorb_rolled(faces.defence):
        d20 = _need(faces.absorb_d20, "absorb_d20", "the absorb", D20)
        absorb = d20 > attack.absorb_threshold(av)
        if absorb:
            blocked = min(damage, attack.defence_class or faces.defence)
            damage -= blocked
    return Resolution(av, dv, False, base, overload, absorb, blocked, damage, 0,
                      faces.attack != attack.attack_die and "overload" in attack.attack_boosts,
                      faces.defence != attack.defence_die and "absorb" in attack.defence_boosts)


def _counter_d4(attack: Attack, faces: Faces) -> int:
    """Counter damage of a class-0 attacker: the target's defence d4 when it rolled
    one (no second roll, C-CLASS), else a d4 rolled for the counter."""
    if attack.defence_die == D4:
        return faces.defence
    return _need(faces.counter_d4, "counter_d4", "a class-0 counter", D4)


def _need(face: int | None, name: str, what: str, die: int) -> int:
    if face is None:
        raise RuleInputError(f"Faces.{name} is needed: {what} is rolled")
    if not 1 <= face <= die:
        raise RuleInputError(f"Faces.{name} = {face}: a d{die} shows 1..{die}")
    return face
