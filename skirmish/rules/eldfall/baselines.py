"""Naive baselines for the exact odds: brute-force enumeration and Monte Carlo.

Both exist to check and to measure :func:`skirmish.rules.eldfall.odds.exchange_odds`
(``tools/bench_odds.py``); use that one in real work.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ...errors import RuleInputError
from .exchange import Exchange, Kind, Side
from .modifiers import D20, ModifiedAttribute, damage_target
from .odds import Distribution, ExchangeOdds, JointDistribution, SideOdds, _states


def _face_weights(attribute: ModifiedAttribute, reroll: bool) -> list[tuple[int, int]]:
    """Every final face of one d20 with its weight (out of 20, or 400 with a reroll of
    a failure: a success ``v`` shows up first (20 ways) or after a failure)."""
    if not reroll:
        return [(v, 1) for v in range(1, D20 + 1)]
    failing = sum(not attribute.succeeds(v) for v in range(1, D20 + 1))
    return [(v, (D20 if attribute.succeeds(v) else 0) + failing) for v in range(1, D20 + 1)]


def _hits(mine: ModifiedAttribute, faces: tuple[int, ...], theirs: ModifiedAttribute | None,
          their_faces: tuple[int, ...], dodged: bool) -> tuple[int, int]:
    """Literal E-CONF: a success is a Hit unless an opposing success is critical or
    shows an equal or higher face; a Dodge ignores non-critical Hits."""
    crit = normal = 0
    opposing = [
        (f, theirs.is_critical(f)) for f in their_faces if theirs is not None and theirs.succeeds(f)
    ]
    for f in faces:
        if mine.is_critical(f):
            crit += 1
        elif mine.succeeds(f) and not dodged and not any(c or g >= f for g, c in opposing):
            normal += 1
    return crit, normal


def _wounds(attacker: Side, target: Side, k: int, j: int, cap: int | None) -> list[tuple[int, int]]:
    """Enumerate every face of ``k`` critical and ``j`` other damage dice."""
    assert attacker.pw is not None
    targets = [damage_target(attacker.pw, target.arm, True)] * k + [damage_target(attacker.pw, target.arm, False)] * j
    per_die = []
    for t in targets:
        if attacker.reroll_damage:
            failing = sum(v > t for v in range(1, D20 + 1))
            per_die.append([(v, (D20 if v <= t else 0) + failing) for v in range(1, D20 + 1)])
        else:
            per_die.append([(v, 1) for v in range(1, D20 + 1)])
    acc: dict[int, int] = {}
    for combo in itertools.product(*per_die):
        w = 1
        n = 0
        for (v, weight), t in zip(combo, targets):
            w *= weight
            n += v <= t
        if cap is not None:
            n = min(n, cap)
        acc[n] = acc.get(n, 0) + w
    return sorted(acc.items())


def _no_chosen_rerolls(exchange: Exchange) -> None:
    """These baselines know only REROLL=all; REROLL=k is checked by tests/rules/test_reroll.py."""
    if exchange.active.reroll_dice or exchange.reactive.reroll_dice:
        raise RuleInputError("the baselines model REROLL=all only, not REROLL=k (chosen dice)")


def brute_force_odds(exchange: Exchange, max_outcomes: int = 2_000_000) -> ExchangeOdds:
    """The exact odds by enumerating every face of every die (slow: 20 per die).

    Refuses (RuleInputError) when the attack dice alone have more than
    ``max_outcomes`` face combinations."""
    _no_chosen_rerolls(exchange)
    active, reactive = exchange.active, exchange.reactive
    a_attr = active.attribute
    assert a_attr is not None
    r_attr = reactive.attribute
    dodge_attr = reactive.dodge_attribute
    nA, nB = exchange.active_dice, exchange.reactive_dice
    size = D20 ** (nA + nB + (dodge_attr is not None))
    if size > max_outcomes:
        raise RuleInputError(f"brute force over {size} face combinations refused (limit {max_outcomes})")
    a_faces = _face_weights(a_attr, active.reroll)
    r_faces = _face_weights(r_attr, reactive.reroll) if r_attr is not None else []
    if dodge_attr is not None:
        dodge_faces = [(dodge_attr.succeeds(v), w) for v, w in _face_weights(dodge_attr, reactive.reroll)]
    else:
        dodge_faces = [(False, 1)]
    per_die_den = D20 * D20 if active.reroll else D20
    den = per_die_den**nA * ((D20 * D20 if reactive.reroll else D20) ** (nB + (dodge_attr is not None)))

    outcomes: dict[tuple[int, int, int, int], int] = {}
    for a_combo in itertools.product(a_faces, repeat=nA):
        af = tuple(v for v, _ in a_combo)
        aw = 1
        for _, w in a_combo:
            aw *= w
        for r_combo in itertools.product(r_faces, repeat=nB):
            rf = tuple(v for v, _ in r_combo)
            w = aw
            for _, x in r_combo:
                w *= x
            for dodged, dw in dodge_faces:
                ka, ja = _hits(a_attr, af, r_attr, rf, dodged)
                kb, jb = _hits(r_attr, rf, a_attr, af, False) if r_attr is not None else (0, 0)
                key = (ka, ja, kb, jb)
                outcomes[key] = outcomes.get(key, 0) + w * dw

    hits_a, hits_b, crit_a, crit_b = ([0] * (nA + 1), [0] * (nB + 1), [0] * (nA + 1), [0] * (nB + 1))
    joint_h: dict[tuple[int, int], int] = {}
    for (ka, ja, kb, jb), w in outcomes.items():
        hits_a[ka + ja] += w
        hits_b[kb + jb] += w
        crit_a[ka] += w
        crit_b[kb] += w
        joint_h[(ka + ja, kb + jb)] = joint_h.get((ka + ja, kb + jb), 0) + w

    def damage_table(attacker: Side, target: Side, n: int) -> tuple[dict[tuple[int, int], list[tuple[int, int]]], int]:
        d = (D20 * D20 if attacker.reroll_damage else D20)
        table = {}
        for k in range(n + 1):
            for j in range(n + 1 - k):
                table[(k, j)] = [(x, w * d ** (n - k - j)) for x, w in _wounds(attacker, target, k, j, target.wound_cap)]
        return table, d**n

    ta = damage_table(active, reactive, nA) if active.pw is not None else None
    tb = damage_table(reactive, active, nB) if (nB and reactive.pw is not None) else (({(0, 0): [(0, 1)]}, 1) if nB == 0 else None)

    wounds: list[Distribution | None] = []
    for table, pick in ((ta, lambda o: (o[0], o[1])), (tb, lambda o: (o[2], o[3]))):
        if table is None:
            wounds.append(None)
            continue
        acc: dict[int, int] = {}
        for o, w in outcomes.items():
            for x, v in table[0][pick(o)]:
                acc[x] = acc.get(x, 0) + w * v
        wounds.append(Distribution([acc.get(i, 0) for i in range(max(acc) + 1)], den * table[1]))
    joint_w = None
    if ta is not None and tb is not None:
        accj: dict[tuple[int, int], int] = {}
        for o, w in outcomes.items():
            for x, v in ta[0][(o[0], o[1])]:
                for y, u in tb[0][(o[2], o[3])]:
                    accj[(x, y)] = accj.get((x, y), 0) + w * v * u
        joint_w = JointDistribution(accj, den * ta[1] * tb[1])
    return ExchangeOdds(
        exchange=exchange,
        kind=exchange.kind,
        active=SideOdds(Distribution(hits_a, den), Distribution(crit_a, den), wounds[0], _states(wounds[1], active)),
        reactive=SideOdds(Distribution(hits_b, den), Distribution(crit_b, den), wounds[1], _states(wounds[0], reactive)),
        joint_hits=JointDistribution(joint_h, den),
        joint_wounds=joint_w,
    )


@dataclass(frozen=True)
class MonteCarloOdds:
    """Estimated odds from ``rolls`` simulated exchanges (relative frequencies)."""

    rolls: int
    kind: Kind
    active_hits: dict[int, float]
    active_wounds: dict[int, float] | None
    reactive_hits: dict[int, float]
    reactive_wounds: dict[int, float] | None


def _mc_attack(rng: np.random.Generator, rolls: int, n: int, attr: ModifiedAttribute | None,
               reroll: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if attr is None or n == 0:
        z = np.zeros((rolls, 0), dtype=np.int16)
        return z, z.astype(bool), z.astype(bool)
    t = attr.value
    faces = rng.integers(1, D20 + 1, size=(rolls, n), dtype=np.int16)
    if reroll:
        failed = ~((t >= 1) & (faces <= t))
        again = rng.integers(1, D20 + 1, size=(rolls, n), dtype=np.int16)
        faces = np.where(failed, again, faces)
    success = (t >= 1) & (faces <= t)
    crit = success & ((faces == 1) | ((faces == D20) & (t > D20)))
    return faces, crit, success & ~crit


def _mc_damage(rng: np.random.Generator, k: np.ndarray, j: np.ndarray, n: int, attacker: Side,
               target: Side) -> np.ndarray:
    assert attacker.pw is not None
    rolls = k.shape[0]
    if n == 0:
        return np.zeros(rolls, dtype=np.int64)
    faces = rng.integers(1, D20 + 1, size=(rolls, n), dtype=np.int16)
    idx = np.arange(n)[None, :]
    is_crit = idx < k[:, None]
    rolled = idx < (k + j)[:, None]
    target_no = np.where(is_crit, damage_target(attacker.pw, target.arm, True), damage_target(attacker.pw, target.arm, False))
    if attacker.reroll_damage:
        again = rng.integers(1, D20 + 1, size=(rolls, n), dtype=np.int16)
        faces = np.where(faces > target_no, again, faces)
    wounds = (rolled & (faces <= target_no)).sum(axis=1)
    cap = target.wound_cap
    return wounds if cap is None else np.minimum(wounds, cap)


def _freq(values: np.ndarray) -> dict[int, float]:
    counts = np.bincount(values)
    return {int(i): float(c) / len(values) for i, c in enumerate(counts)}


def monte_carlo_odds(exchange: Exchange, rolls: int, rng: np.random.Generator) -> MonteCarloOdds:
    """Estimate the odds by simulating ``rolls`` exchanges at once with numpy."""
    if rolls < 1:
        raise RuleInputError(f"rolls is 1 or more, got {rolls}")
    _no_chosen_rerolls(exchange)
    active, reactive = exchange.active, exchange.reactive
    nA, nB = exchange.active_dice, exchange.reactive_dice
    fa, ca, na = _mc_attack(rng, rolls, nA, active.attribute, active.reroll)
    fb, cb, nb = _mc_attack(rng, rolls, nB, reactive.attribute, reactive.reroll)
    crits_a, crits_b = ca.sum(axis=1), cb.sum(axis=1)
    best_a = np.where(na, fa, 0).max(axis=1, initial=0)
    best_b = np.where(nb, fb, 0).max(axis=1, initial=0)
    ja = (na & (fa > best_b[:, None])).sum(axis=1) * (crits_b == 0)
    jb = (nb & (fb > best_a[:, None])).sum(axis=1) * (crits_a == 0)
    dodge = reactive.dodge_attribute
    if dodge is not None:
        d = dodge.value
        faces = rng.integers(1, D20 + 1, size=rolls)
        if reactive.reroll:
            faces = np.where((d >= 1) & (faces <= d), faces, rng.integers(1, D20 + 1, size=rolls))
        ja = np.where((d >= 1) & (faces <= d), 0, ja)
    wa = _mc_damage(rng, crits_a, ja, nA, active, reactive) if active.pw is not None else None
    if nB == 0:
        wb: np.ndarray | None = np.zeros(rolls, dtype=np.int64)
    else:
        wb = _mc_damage(rng, crits_b, jb, nB, reactive, active) if reactive.pw is not None else None
    return MonteCarloOdds(
        rolls=rolls,
        kind=exchange.kind,
        active_hits=_freq(crits_a + ja),
        active_wounds=None if wa is None else _freq(wa),
        reactive_hits=_freq(crits_b + jb),
        reactive_wounds=None if wb is None else _freq(wb),
    )


def max_abs_error(estimate: dict[int, float], exact: Distribution) -> float:
    """Largest |estimated − exact| probability over the counts."""
    keys = set(estimate) | set(exact)
    return max(abs(estimate.get(k, 0.0) - float(exact[k])) for k in keys)


__all__ = ["brute_force_odds", "monte_carlo_odds", "MonteCarloOdds", "max_abs_error"]
