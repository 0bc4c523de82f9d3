"""Exact odds of an exchange: Hits, Wounds, the joint outcome and the states.

Every probability is exact. Inside, each die is a vector of integer weights over
its outcomes (out of 20, or 400 with a reroll), and pools are combined with
exact integer polynomial arithmetic; ``fractions.Fraction`` appears only at the
boundary (:class:`Distribution`).

The Confrontation (E-CONF, exact interpretation) is computed by conditioning on the
opponent's best non-critical success ``x`` (its highest non-critical success, 0 if
none). Writing, for one side with ``n`` dice, ``c`` for the weight of a critical
face, ``H(x)`` for the weight of the non-critical successes above ``x`` and
``L(x) = D - c - H(x)`` for everything else (fail or non-critical ≤ x)::

    P(k crits, j non-crits > x)         = n!/(k! j! r!) c^k H(x)^j L(x)^r,  r = n-k-j
    P(no crit and best = x)     E(x)    = L(x)^n - L(x-1)^n
    P(k crits)                  C(k)    = C(n,k) c^k (D-c)^(n-k)

and the outcomes (A = Active, B = Reactive, k crits, j non-critical Hits) are

* A scores ``(k, j) != (0, 0)``, B nothing: ``sum_x P_A(k, j > x) E_B(x)``
  (B has no crit, best(B) = x; B's non-crits are all cancelled);
* the same the other way round;
* both nothing: ``sum_x E_A(x) E_B(x)`` (equal bests cancel each other);
* both crit: ``C_A(kA) C_B(kB)`` with every non-critical die cancelled.

Damage: a Hit's die wounds on ≤ PW − ARM (≤ PW for a Critical Hit, E-CRIT), so the
Wounds of ``k`` critical and ``j`` other Hits are a convolution of two binomials,
capped by the target's HP (E-WOUND).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial, gcd

from ...errors import RuleInputError
from .exchange import Exchange, Kind, Side, engagement
from .modifiers import D20, ModifiedAttribute, damage_target
from .rerolls import CRIT, FAIL, MAX_LOOKAHEAD_ROLLS, Chooser, die_codes
from .wounds import ModelState, state_after, wound_cap

# --------------------------------------------------------------------------- values


def _reduce(weights: Sequence[int], denominator: int) -> tuple[tuple[int, ...], int]:
    g = denominator
    for w in weights:
        g = gcd(g, w)
        if g == 1:
            break
    if g > 1:
        return tuple(w // g for w in weights), denominator // g
    return tuple(weights), denominator


class Distribution:
    """An exact probability distribution of a count 0..n: ``weights[k] / denominator``.

    Indexing gives a ``Fraction`` (0 outside the range); equality compares the
    probabilities."""

    __slots__ = ("weights", "denominator")

    weights: tuple[int, ...]
    denominator: int

    def __init__(self, weights: Sequence[int], denominator: int) -> None:
        if denominator <= 0 or any(w < 0 for w in weights) or sum(weights) != denominator:
            raise RuleInputError("a distribution's weights are ≥ 0 and sum to its denominator")
        w, d = _reduce(list(weights), denominator)
        while len(w) > 1 and w[-1] == 0:
            w = w[:-1]
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "denominator", d)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Distribution is immutable")

    @classmethod
    def point(cls, k: int = 0) -> Distribution:
        """Certainly ``k``."""
        return cls([0] * k + [1], 1)

    def __getitem__(self, k: int) -> Fraction:
        if 0 <= k < len(self.weights):
            return Fraction(self.weights[k], self.denominator)
        return Fraction(0)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.weights)))

    def __len__(self) -> int:
        return len(self.weights)

    def items(self) -> Iterator[tuple[int, Fraction]]:
        """``(count, probability)`` for count 0..max."""
        return ((k, self[k]) for k in self)

    def as_dict(self) -> dict[int, Fraction]:
        """``{count: probability}`` for count 0..max."""
        return dict(self.items())

    @property
    def mean(self) -> Fraction:
        """The expected count."""
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.denominator)

    def at_least(self, k: int) -> Fraction:
        """P(count ≥ k)."""
        return Fraction(sum(self.weights[max(k, 0):]), self.denominator)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.weights == other.weights and self.denominator == other.denominator

    def __hash__(self) -> int:
        return hash((self.weights, self.denominator))

    def __repr__(self) -> str:
        return "Distribution({" + ", ".join(f"{k}: {p}" for k, p in self.items()) + "})"


class JointDistribution:
    """An exact joint distribution of two counts (Active, Reactive): ``p(a, b)``."""

    __slots__ = ("weights", "denominator", "_index")

    weights: tuple[tuple[tuple[int, int], int], ...]
    denominator: int
    _index: dict[tuple[int, int], int]

    def __init__(self, weights: Mapping[tuple[int, int], int], denominator: int) -> None:
        keys = sorted(k for k, w in weights.items() if w)
        values = [weights[k] for k in keys]
        if sum(values) != denominator or any(w < 0 for w in values):
            raise RuleInputError("a joint distribution's weights are ≥ 0 and sum to its denominator")
        values_r, d = _reduce(values, denominator)
        object.__setattr__(self, "weights", tuple(zip(keys, values_r)))
        object.__setattr__(self, "denominator", d)
        object.__setattr__(self, "_index", dict(self.weights))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("JointDistribution is immutable")

    def p(self, a: int, b: int) -> Fraction:
        """P(Active count = a and Reactive count = b)."""
        return Fraction(self._index.get((a, b), 0), self.denominator)

    def items(self) -> Iterator[tuple[tuple[int, int], Fraction]]:
        """``((a, b), probability)`` for every outcome of non-zero probability."""
        return ((k, Fraction(w, self.denominator)) for k, w in self.weights)

    def marginal(self, which: int) -> Distribution:
        """The distribution of the Active (0) or Reactive (1) count."""
        n = max((k[which] for k, _ in self.weights), default=0)
        w = [0] * (n + 1)
        for k, v in self.weights:
            w[k[which]] += v
        return Distribution(w, self.denominator)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointDistribution):
            return NotImplemented
        return self.weights == other.weights and self.denominator == other.denominator

    def __hash__(self) -> int:
        return hash((self.weights, self.denominator))

    def __repr__(self) -> str:
        return "JointDistribution({" + ", ".join(f"{k}: {p}" for k, p in self.items()) + "})"


@dataclass(frozen=True)
class SideOdds:
    """One side's exact odds: the Hits and Critical Hits it scores, the Wounds it deals
    (capped by the target's HP; None when it has no PW) and the state its own model
    ends in after the opponent's Wounds (None when those are unknown)."""

    hits: Distribution
    critical_hits: Distribution
    wounds: Distribution | None
    state: Mapping[ModelState, Fraction] | None

    @property
    def expected_hits(self) -> Fraction:
        return self.hits.mean

    @property
    def expected_wounds(self) -> Fraction | None:
        return None if self.wounds is None else self.wounds.mean


@dataclass(frozen=True)
class ExchangeOdds:
    """The exact odds of an exchange, with the exchange they answer."""

    exchange: Exchange
    kind: Kind
    active: SideOdds
    reactive: SideOdds
    joint_hits: JointDistribution
    joint_wounds: JointDistribution | None


# ------------------------------------------------------------------- per-die weights


@dataclass(frozen=True)
class DieWeights:
    """One attack die as integer weights out of ``denominator`` (20, or 400 when a
    failed die is rerolled once): ``fail``, ``critical`` and ``noncritical[v]`` for a
    non-critical success showing ``v`` (index 0..20)."""

    denominator: int
    fail: int
    critical: int
    noncritical: tuple[int, ...]


def attack_die(attribute: ModifiedAttribute, reroll: bool = False) -> DieWeights:
    """The weights of one attack die against ``attribute`` (E-ROLL-ATK, E-CRIT,
    E-MOD-ZERO, E-MOD-OVER); with ``reroll`` a failed die is rolled once more and the
    second result replaces it (E-ROLL-REROLL)."""
    crit = 0
    nc = [0] * (D20 + 1)
    for v in range(1, D20 + 1):
        if attribute.is_critical(v):
            crit += 1
        elif attribute.succeeds(v):
            nc[v] = 1
    fail = D20 - crit - sum(nc)
    if not reroll:
        return DieWeights(D20, fail, crit, tuple(nc))
    # P(v) = 1/20 + fail/20 * 1/20 for a success face; P(fail) = (fail/20)^2.
    scale = D20 + fail
    return DieWeights(D20 * D20, fail * fail, crit * scale, tuple(w * scale for w in nc))


def success_weight(target: int, reroll: bool = False) -> tuple[int, int]:
    """``(weight, denominator)`` of one d20 showing ≤ ``target`` (a damage die, or an
    attribute roll's target with 0 already meaning failure), with an optional reroll
    of a failure."""
    s = min(max(target, 0), D20)
    if not reroll:
        return s, D20
    return s * D20 + (D20 - s) * s, D20 * D20


def attribute_roll_odds(attribute: ModifiedAttribute, reroll: bool = False) -> Fraction:
    """E-ROLL-ATTR: the chance an attribute roll succeeds (E-MOD-ZERO: 0 at value 0)."""
    s, d = success_weight(attribute.value, reroll)
    return Fraction(s, d)


# ------------------------------------------------------------------ the exact engine


class _Pool:
    """Tables for ``n`` dice of one side (see the module docstring)."""

    __slots__ = ("n", "die", "H", "L", "E", "C", "fact")

    def __init__(self, n: int, die: DieWeights) -> None:
        self.n, self.die = n, die
        D, c = die.denominator, die.critical
        H = [0] * (D20 + 1)
        run = 0
        for x in range(D20, -1, -1):
            H[x] = run
            run += die.noncritical[x]
        self.H = H
        self.L = [D - c - h for h in H]
        Ln = [l**n for l in self.L]
        self.E = [Ln[0]] + [Ln[x] - Ln[x - 1] for x in range(1, D20 + 1)]
        self.C = [comb(n, k) * c**k * (D - c) ** (n - k) for k in range(n + 1)] if c else [(D - c) ** n]
        self.fact = [factorial(i) for i in range(n + 1)]

    def scored(self, opponent_best: Sequence[int]) -> dict[tuple[int, int], int]:
        """``{(k, j): sum_x P(k crits, j non-crits > x) * opponent_best[x]}``."""
        n, c = self.n, self.die.critical
        xs = [x for x in range(D20 + 1) if opponent_best[x]]
        # S[j][r] = sum_x H(x)^j L(x)^r E_opp(x)
        S = [[0] * (n + 1 - j) for j in range(n + 1)]
        for x in xs:
            h, l = self.H[x], self.L[x]
            lp = [1] * (n + 1)
            for r in range(1, n + 1):
                lp[r] = lp[r - 1] * l
            hj = opponent_best[x]
            for j in range(n + 1):
                row = S[j]
                for r in range(n + 1 - j):
                    row[r] += hj * lp[r]
                hj *= h
                if not hj:
                    break
        out: dict[tuple[int, int], int] = {}
        f = self.fact
        ck = 1
        for k in range(n + 1):
            for j in range(n + 1 - k):
                s = S[j][n - k - j]
                if s:
                    out[(k, j)] = f[n] // (f[k] * f[j] * f[n - k - j]) * ck * s
            ck *= c
            if not ck:
                break
        return out


def _hit_outcomes(exchange: Exchange) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """Exact weights of ``(A crits, A non-crit Hits, B crits, B non-crit Hits)``."""
    active, reactive = exchange.active, exchange.reactive
    assert active.attribute is not None
    if "best" in (active.reroll_rule.mode, reactive.reroll_rule.mode):
        return _chosen_hit_outcomes(exchange)
    a_die = attack_die(active.attribute, active.reroll)
    A = _Pool(exchange.active_dice, a_die)
    if exchange.kind == "confrontation":
        assert reactive.attribute is not None
        B = _Pool(exchange.reactive_dice, attack_die(reactive.attribute, reactive.reroll))
    else:
        B = _Pool(0, DieWeights(1, 1, 0, (0,) * (D20 + 1)))
    denominator = A.die.denominator**A.n * B.die.denominator**B.n
    out: dict[tuple[int, int, int, int], int] = {}
    for (k, j), w in A.scored(B.E).items():
        if k or j:
            out[(k, j, 0, 0)] = w
    for (k, j), w in B.scored(A.E).items():
        if k or j:
            out[(0, 0, k, j)] = w
    out[(0, 0, 0, 0)] = sum(ea * eb for ea, eb in zip(A.E, B.E))
    for ka in range(1, len(A.C)):
        for kb in range(1, len(B.C)):
            w = A.C[ka] * B.C[kb]
            if w:
                out[(ka, 0, kb, 0)] = w
    dodge = _dodge_weight(reactive)
    if dodge is not None:
        s, d = dodge
        dodged: dict[tuple[int, int, int, int], int] = {}
        for (ka, ja, kb, jb), w in out.items():
            dodged[(ka, ja, kb, jb)] = dodged.get((ka, ja, kb, jb), 0) + w * (d - s)
            dodged[(ka, 0, kb, jb)] = dodged.get((ka, 0, kb, jb), 0) + w * s
        out, denominator = dodged, denominator * d
    return {k: w for k, w in out.items() if w}, denominator


def _dodge_weight(reactive: Side) -> tuple[int, int] | None:
    """The Dodge's success weight and denominator (a failed Dodge die is rerolled under
    any reroll rule), None without a Dodge."""
    dodge_attr = reactive.dodge_attribute
    if dodge_attr is None:
        return None
    return success_weight(dodge_attr.value, reactive.reroll_rule.mode != "none")


def _merge_successes(dist: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Die codes with every non-critical success merged into one (face 1)."""
    merged: dict[int, int] = {}
    for c, w in dist:
        key = c if c in (FAIL, CRIT) else 1
        merged[key] = merged.get(key, 0) + w
    return tuple(sorted(merged.items()))


#: Most distinct first rolls (sorted, both sides) the exact REROLL=k odds enumerate.
MAX_CHOSEN_ROLLS = 20_000


def _chooser(exchange: Exchange) -> Chooser:
    """The :mod:`.rerolls` chooser of an exchange's dice and rules."""
    active, reactive = exchange.active, exchange.reactive
    assert active.attribute is not None
    b_attr = reactive.attribute if exchange.kind == "confrontation" else None
    a_dist = die_codes(active.attribute)
    if b_attr is None:  # no opposing dice: every non-critical success is alike
        a_dist = _merge_successes(a_dist)
    return Chooser(a_dist, active.reroll_rule, exchange.active_dice,
                   die_codes(b_attr) if b_attr is not None else None, reactive.reroll_rule, exchange.reactive_dice)


def chosen_rolls(exchange: Exchange) -> int:
    """How many distinct first rolls (sorted, both sides) the exact odds of ``exchange``
    enumerate, each with every choice after it, because a side rerolls up to k chosen
    dice (E-ROLL-REROLL, ``REROLL=k``); 0 where neither side does (the odds are then
    found without enumerating). Above :data:`MAX_CHOSEN_ROLLS` they are refused."""
    if "best" not in (exchange.active.reroll_rule.mode, exchange.reactive.reroll_rule.mode):
        return 0
    return _first_rolls(_chooser(exchange))


def _first_rolls(chooser: Chooser) -> int:
    rolls = comb(len(chooser.a_dist) + chooser.a_dice - 1, chooser.a_dice)
    if chooser.b_dist is not None:
        rolls *= comb(len(chooser.b_dist) + chooser.b_dice - 1, chooser.b_dice)
    return rolls


def _chosen_hit_outcomes(exchange: Exchange) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """:func:`_hit_outcomes` when a side rerolls up to k chosen dice (E-ROLL-REROLL):
    an exact enumeration of every roll and choice (:mod:`.rerolls`)."""
    chooser = _chooser(exchange)
    rolls = _first_rolls(chooser)
    if rolls > MAX_CHOSEN_ROLLS:
        sample = ", or `skirmish roll` to sample" if chooser.lookahead_rolls() <= MAX_LOOKAHEAD_ROLLS else ""
        raise RuleInputError(
            f"REROLL=k: the exact odds enumerate every roll, and {exchange.active_dice} against "
            f"{exchange.reactive_dice} dice make {rolls} of them (at most {MAX_CHOSEN_ROLLS}); "
            f"use fewer dice or REROLL=all{sample}"
        )
    return chooser.hit_outcomes(_dodge_weight(exchange.reactive))


class _Damage:
    """Wound vectors of one side's Hits against a target, all over ``D^n``."""

    def __init__(self, attacker: Side, target: Side, n: int) -> None:
        assert attacker.pw is not None
        self.n = n
        self.cap = target.wound_cap
        self.crit, self.D = success_weight(damage_target(attacker.pw, target.arm, True), attacker.reroll_damage)
        self.normal, _ = success_weight(damage_target(attacker.pw, target.arm, False), attacker.reroll_damage)
        self._cache: dict[tuple[int, int], list[int]] = {}
        self._binomials: dict[tuple[int, int], list[int]] = {}

    def _binomial(self, n: int, w: int) -> list[int]:
        key = (n, w)
        got = self._binomials.get(key)
        if got is None:
            D = self.D
            got = self._binomials[key] = [comb(n, i) * w**i * (D - w) ** (n - i) for i in range(n + 1)]
        return got

    def vector(self, k: int, j: int) -> list[int]:
        key = (k, j)
        got = self._cache.get(key)
        if got is not None:
            return got
        a = self._binomial(k, self.crit)
        b = self._binomial(j, self.normal)
        v = [0] * (k + j + 1)
        for i, x in enumerate(a):
            if x:
                for m, y in enumerate(b):
                    v[i + m] += x * y
        pad = self.D ** (self.n - k - j)
        if pad != 1:
            v = [x * pad for x in v]
        if self.cap is not None and len(v) > self.cap + 1:
            v = v[: self.cap] + [sum(v[self.cap :])]
        self._cache[key] = v
        return v


def _add_scaled(acc: list[int], v: list[int], w: int) -> None:
    """``acc += w * v`` (growing ``acc`` as needed)."""
    if len(v) > len(acc):
        acc += [0] * (len(v) - len(acc))
    for i, x in enumerate(v):
        if x:
            acc[i] += w * x


def _states(wounds: Distribution | None, side: Side) -> dict[ModelState, Fraction] | None:
    if wounds is None:
        return None
    acc: dict[ModelState, int] = {}
    for k, w in enumerate(wounds.weights):
        if w:
            s = state_after(k, side.hp, side.incapacitated)
            acc[s] = acc.get(s, 0) + w
    return {s: Fraction(acc[s], wounds.denominator) for s in ModelState if s in acc}


def exchange_odds(exchange: Exchange) -> ExchangeOdds:
    """The exact odds of one exchange (E-ROLL-ATK, E-CONF, E-CRIT, E-DODGE,
    E-ROLL-DMG, E-ROLL-REROLL, E-WOUND)."""
    outcomes, den = _hit_outcomes(exchange)
    active, reactive = exchange.active, exchange.reactive
    nA, nB = exchange.active_dice, exchange.reactive_dice

    hits_a = [0] * (nA + 1)
    hits_b = [0] * (nB + 1)
    crit_a = [0] * (nA + 1)
    crit_b = [0] * (nB + 1)
    detail_a: dict[tuple[int, int], int] = {}
    detail_b: dict[tuple[int, int], int] = {}
    joint_h: dict[tuple[int, int], int] = {}
    for (ka, ja, kb, jb), w in outcomes.items():
        hits_a[ka + ja] += w
        hits_b[kb + jb] += w
        crit_a[ka] += w
        crit_b[kb] += w
        detail_a[(ka, ja)] = detail_a.get((ka, ja), 0) + w
        detail_b[(kb, jb)] = detail_b.get((kb, jb), 0) + w
        key = (ka + ja, kb + jb)
        joint_h[key] = joint_h.get(key, 0) + w

    dmg_a = _Damage(active, reactive, nA) if active.pw is not None else None
    if nB == 0:
        dmg_b: _Damage | None = None
        b_deals = True  # deals nothing, certainly
    else:
        dmg_b = _Damage(reactive, active, nB) if reactive.pw is not None else None
        b_deals = dmg_b is not None

    def marginal(detail: dict[tuple[int, int], int], dmg: _Damage) -> Distribution:
        acc: list[int] = []
        for (k, j), w in detail.items():
            _add_scaled(acc, dmg.vector(k, j), w)
        return Distribution(acc, den * dmg.D**dmg.n)

    wounds_a = marginal(detail_a, dmg_a) if dmg_a is not None else None
    if dmg_b is not None:
        wounds_b: Distribution | None = marginal(detail_b, dmg_b)
    else:
        wounds_b = Distribution.point(0) if b_deals else None

    joint_w: JointDistribution | None = None
    if dmg_a is not None and b_deals:
        scale_a = dmg_a.D**dmg_a.n
        scale_b = dmg_b.D**dmg_b.n if dmg_b is not None else 1
        row: list[int] = []  # outcomes where the Reactive side scores nothing
        col: list[int] = []  # outcomes where only the Reactive side scores
        acc: dict[tuple[int, int], int] = {}
        for (ka, ja, kb, jb), w in outcomes.items():
            if not (kb or jb):
                _add_scaled(row, dmg_a.vector(ka, ja), w)
            elif not (ka or ja):
                assert dmg_b is not None
                _add_scaled(col, dmg_b.vector(kb, jb), w)
            else:  # both scored: Criticals on both sides
                assert dmg_b is not None
                vb = dmg_b.vector(kb, jb)
                for a, x in enumerate(dmg_a.vector(ka, ja)):
                    if x:
                        wx = w * x
                        for b, y in enumerate(vb):
                            if y:
                                acc[(a, b)] = acc.get((a, b), 0) + wx * y
        for a, x in enumerate(row):
            acc[(a, 0)] = acc.get((a, 0), 0) + x * scale_b
        for b, y in enumerate(col):
            acc[(0, b)] = acc.get((0, b), 0) + y * scale_a
        joint_w = JointDistribution(acc, den * scale_a * scale_b)

    return ExchangeOdds(
        exchange=exchange,
        kind=exchange.kind,
        active=SideOdds(Distribution(hits_a, den), Distribution(crit_a, den), wounds_a, _states(wounds_b, active)),
        reactive=SideOdds(Distribution(hits_b, den), Distribution(crit_b, den), wounds_b, _states(wounds_a, reactive)),
        joint_hits=JointDistribution(joint_h, den),
        joint_wounds=joint_w,
    )


def odds(active: Side, reactive: Side) -> ExchangeOdds:
    """Shorthand: the exact odds of ``active`` attacking ``reactive`` with its whole Strike.

    >>> from skirmish.rules.eldfall.exchange import Side
    >>> o = odds(Side(att=13, modifiers=(-3,), stk=2, pw=10), Side(arm=2, hp=3))
    >>> o.kind, o.active.hits
    ('unopposed', Distribution({0: 1/4, 1: 1/2, 2: 1/4}))
    >>> o.active.wounds[2], o.active.expected_wounds
    (Fraction(1681, 40000), Fraction(41, 100))
    """
    return exchange_odds(Exchange(active, reactive))


@dataclass(frozen=True)
class EngagementOdds:
    """E-STK-SPLIT: the odds of each exchange of a split Attack, and of the Wounds the
    Active model takes from all of them together (capped, E-WOUND) and its state."""

    exchanges: tuple[ExchangeOdds, ...]
    active_wounds_taken: Distribution | None
    active_state: Mapping[ModelState, Fraction] | None


def _convolve(a: Distribution, b: Distribution) -> Distribution:
    out = [0] * (len(a.weights) + len(b.weights) - 1)
    for i, x in enumerate(a.weights):
        for j, y in enumerate(b.weights):
            out[i + j] += x * y
    return Distribution(out, a.denominator * b.denominator)


def engagement_odds(active: Side, reactives: Sequence[Side]) -> EngagementOdds:
    """The exact odds of an Attack against one or more targets (E-STK-SPLIT)."""
    per = tuple(exchange_odds(ex) for ex in engagement(active, reactives))
    total: Distribution | None = Distribution.point(0)
    for ex in per:
        if total is None or ex.reactive.wounds is None:
            total = None
            break
        total = _convolve(total, ex.reactive.wounds)
    if total is not None:
        cap = wound_cap(active.hp, active.incapacitated)
        w = list(total.weights)
        if cap is not None and len(w) > cap + 1:
            w = w[:cap] + [sum(w[cap:])]
        total = Distribution(w, total.denominator)
    return EngagementOdds(per, total, _states(total, active))
