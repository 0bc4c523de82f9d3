"""A movement net built only as far as a budget reaches (``plan_move(bounded=True)``,
``end_bounds(within=)``) answers every question within that budget exactly as the whole
net does (E-MOVE-*): the same legal plans, the same illegal verdicts, the same bounds up to
the budget. Checked against the whole net on random tables with roofs, ladders and drops."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.scenario.generate import random_table


def _tables(seed: int):
    # two equal tables that share no cache: one asks bounded questions, the other the whole net
    return (random_table(random.Random(seed), models=6, scenery=14),
            random_table(random.Random(seed), models=6, scenery=14))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 5), budget=st.floats(0.5, 12.0),
       qseed=st.integers(0, 2 ** 31))
def test_e_move_bounded_net_answers_within_the_budget_like_the_whole_net(seed: int, pick: int, budget: float,
                                                                          qseed: int) -> None:
    bounded, whole = _tables(seed)
    mid = bounded.models[pick % len(bounded.models)].id
    m = bounded.model(mid)
    rng = np.random.default_rng(qseed)
    a = rng.uniform(0, 2 * math.pi, 24)
    r = (budget + 2.0) * np.sqrt(rng.uniform(0, 1, 24))
    pts = np.clip(np.column_stack([m.x + r * np.cos(a), m.y + r * np.sin(a)]), 0.0, 36.0)

    eb = bounded.end_bounds(mid, pts, within=budget)
    ew = whole.end_bounds(mid, pts)
    nets = bounded._mv_mover(mid)._nets
    assert nets and all(math.isfinite(reach) for _, reach in nets), "the bounded questions built a bounded net"
    for got, want in zip(eb, ew):
        assert [z for z, _ in got] == [z for z, _ in want]
        for (_, gb), (_, wb) in zip(got, want):
            assert (gb <= budget + 1e-9) == (wb <= budget + 1e-9)
            if wb <= budget + 1e-9:
                assert gb == wb
    for (x, y), ends in zip(pts, ew):
        for z, _ in ends[:1]:
            got = bounded.plan_move(mid, (float(x), float(y), z), budget=budget, declared=True, bounded=True)
            want = whole.plan_move(mid, (float(x), float(y), z), budget=budget, declared=True)
            assert got.legal == want.legal
            if want.legal:
                assert got.points == want.points
                assert got.length == want.length
    assert all(math.isfinite(reach) for _, reach in nets), "no bounded question needed the whole net"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 5), budget=st.floats(0.5, 12.0))
def test_e_move_bounded_net_keeps_every_cost_within_its_reach(seed: int, pick: int, budget: float) -> None:
    """Costs of the bounded net up to its reach are the whole net's, bit for bit; beyond,
    never less (it holds a subset of the whole net's edges)."""
    t, _ = _tables(seed)
    mv = t._mv_mover(t.models[pick % len(t.models)].id)
    part, full = mv._build_net(True, budget), mv._build_net(True)
    assert len(part.dist) == len(full.dist) and np.array_equal(part.xy, full.xy)
    inside = full.dist <= budget
    assert np.array_equal(part.dist[inside], full.dist[inside])
    assert np.all(part.dist[~inside] >= full.dist[~inside])
