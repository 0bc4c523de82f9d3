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
    assert nets and all(math.isfinite(reach) for _, reach, _ in nets), "the bounded questions built a bounded net"
    for got, want in zip(eb, ew):
        assert [z for z, _ in got] == [z for z, _ in want]
        for (_, gb), (_, wb) in zip(got, want):
            assert (gb <= budget + 1e-9) == (wb <= budget + 1e-9)
            if wb <= budget + 1e-9:
                assert gb == wb
    aimed, _ = _tables(seed)  # (no end bounds asked first: each plan builds a net for its point alone)
    for (x, y), ends in zip(pts, ew):
        for z, _ in ends[:1]:
            want = whole.plan_move(mid, (float(x), float(y), z), budget=budget, declared=True)
            for t in (bounded, aimed):
                got = t.plan_move(mid, (float(x), float(y), z), budget=budget, declared=True, bounded=True)
                assert got.legal == want.legal
                if want.legal:
                    assert got.points == want.points
                    assert got.length == want.length
    assert all(math.isfinite(reach) for _, reach, _ in nets), "no bounded question needed the whole net"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 5), budget=st.floats(0.5, 12.0),
       aim=st.none() | st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)))
def test_e_move_bounded_net_keeps_every_cost_within_its_reach(seed: int, pick: int, budget: float,
                                                              aim: tuple[float, float] | None) -> None:
    """The bounded net holds the whole net's nodes within its reach (and some beyond), in
    the same order; their costs up to the reach are the whole net's, bit for bit; beyond,
    never less (it holds a subset of the whole net's edges). With an aim: the same for the
    costs of the ways on to the aim (a node's cost plus its straight distance there)."""
    t, _ = _tables(seed)
    mv = t._mv_mover(t.models[pick % len(t.models)].id)
    if aim is not None:  # (somewhere within the budget of the start)
        aim = (mv.start[0] + budget * aim[0], mv.start[1] + budget * aim[1])
    part, full = mv._build_net(True, budget, aim), mv._build_net(True)
    # each of the bounded net's nodes is the whole net's node at the same place and level, in order
    same = (part.xy[:, None, 0] == full.xy[None, :, 0]) & (part.xy[:, None, 1] == full.xy[None, :, 1]) & (
        part.level[:, None] == full.level[None, :])
    matched, k = [], 0
    for row in same:  # (matched in order: each after the one before)
        k = k + int(np.argmax(row[k:])) if row[k:].any() else -1
        assert k >= 0, "a node of the bounded net is none of the whole net's, or out of order"
        matched.append(k)
        k += 1
    at = np.array(matched, int)
    on = np.zeros(len(full.xy)) if aim is None else np.hypot(full.xy[:, 0] - aim[0], full.xy[:, 1] - aim[1])
    near = np.hypot(full.xy[:, 0] - full.xy[full.start, 0], full.xy[:, 1] - full.xy[full.start, 1]) + on <= budget
    assert set(np.flatnonzero(near).tolist()) <= set(at.tolist()), "every node within the reach is kept"
    inside = full.dist[at] + on[at] <= budget
    assert np.array_equal(part.dist[inside], full.dist[at][inside])
    assert np.all(part.dist[~inside] >= full.dist[at][~inside])
    assert np.all((full.dist + on)[np.setdiff1d(np.arange(len(full.dist)), at)] > budget)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 5), qseed=st.integers(0, 2 ** 31))
def test_e_move_straight_way_is_the_nets_shortest_path(seed: int, pick: int, qseed: int) -> None:
    """Where the straight way keeps every clearance on the model's own surface,
    ``plan_move`` takes it without building the movement net: the plan the net gives
    (checked by planning the same points with the shortcut turned off), and the
    straight-line ``end_bounds`` never exceed a planned cost nor drop a reachable end."""
    from skirmish.maps import table_movement

    fast, slow = _tables(seed)
    mid = fast.models[pick % len(fast.models)].id
    m = fast.model(mid)
    rng = np.random.default_rng(qseed)
    a = rng.uniform(0, 2 * math.pi, 16)
    r = 10.0 * np.sqrt(rng.uniform(0, 1, 16))
    pts = np.clip(np.column_stack([m.x + r * np.cos(a), m.y + r * np.sin(a)]), 0.0, 36.0)
    straight = fast.end_bounds(mid, pts, straight=True)
    netted = slow.end_bounds(mid, pts)
    original = table_movement.TableMovement._mv_straight
    for (x, y), ends, want_ends in zip(pts, straight, netted):
        assert {z for z, _ in want_ends} <= {z for z, _ in ends}  # (every reachable end is kept)
        for z, bound in ends:
            got = fast.plan_move(mid, (float(x), float(y), z), budget=1e9, declared=True)
            table_movement.TableMovement._mv_straight = lambda self, mv, to: None  # type: ignore[method-assign]
            try:
                want = slow.plan_move(mid, (float(x), float(y), z), budget=1e9, declared=True)
            finally:
                table_movement.TableMovement._mv_straight = original  # type: ignore[method-assign]
            assert got.legal == want.legal and got.points == want.points and got.length == want.length
            if want.legal:
                assert bound <= want.cost + 1e-9


def test_e_move_an_open_straight_walk_builds_no_movement_net() -> None:
    """The shortcut is taken: on an open table a walk in a straight line is planned (and
    its end drawn) without a movement net; one round a wall needs the net."""
    from skirmish.scenario.load import loads

    t = loads('format = 1\ntable = { size = [24, 24] }\n'
              'scenery = [{ id = "wall", polygon = [[10, 4], [11, 4], [11, 20], [10, 20]], height = 3 }]\n'
              'models = [{ id = "a", side = "red", size = "M", at = [5, 12], attributes = { SPD = 6 } }]\n')
    plan = t.plan_move("a", (8.0, 14.0, 0.0), budget=6.0, declared=True)
    assert plan.legal and [p[:2] for p in plan.points] == [(5.0, 12.0), (8.0, 14.0)]
    assert t.end_bounds("a", np.array([[8.0, 14.0]]), straight=True) == [[(0.0, math.hypot(3, 2))]]
    assert not t._mv_mover("a")._nets
    round_wall = t.plan_move("a", (14.0, 12.0, 0.0), budget=30.0, declared=True)
    assert round_wall.legal and len(round_wall.points) > 2 and t._mv_mover("a")._nets


def test_e_move_a_bounded_plan_out_of_reach_is_illegal_with_its_reasons_and_no_path() -> None:
    """A bounded plan (a caller that uses legal plans only) to a point its net cannot
    reach stays illegal, as the whole plan is, and says why (over the budget; or the base
    cannot end there) without searching for the nearest point it could reach."""
    from skirmish.scenario.load import loads

    t = loads('format = 1\ntable = { size = [40, 24] }\n'  # a U open to the east, the point inside
              'scenery = [{ id = "west", polygon = [[10, 3], [11, 3], [11, 21], [10, 21]], height = 3 },\n'
              '           { id = "north", polygon = [[10, 20], [32, 20], [32, 21], [10, 21]], height = 3 },\n'
              '           { id = "south", polygon = [[10, 3], [32, 3], [32, 4], [10, 4]], height = 3 }]\n'
              'models = [{ id = "a", side = "red", size = "M", at = [5, 12], attributes = { SPD = 6 } },\n'
              '          { id = "b", side = "blue", size = "M", at = [16, 12] }]\n')
    far = (15.0, 15.0, 0.0)  # inside the U: the way in runs round it, far beyond a 6 in Walk
    bounded = t.plan_move("a", far, budget=6.0, declared=True, bounded=True)  # (first: a whole net serves both)
    whole = t.plan_move("a", far, budget=6.0, declared=True)
    assert not whole.legal and len(whole.points) > 2  # the whole plan walks round toward it
    assert not bounded.legal and [p[:2] for p in bounded.points] == [(5.0, 12.0)]
    assert "over budget" in bounded.violations[-1].what and "cannot be reached" in bounded.violations[-1].what
    on_b = t.plan_move("a", (16.0, 12.0, 0.0), budget=6.0, declared=True, bounded=True)
    assert not on_b.legal and "base cannot end" in on_b.violations[-1].what


def test_e_move_a_bounded_plan_tries_no_finish_over_the_budget_and_plans_the_rest_alike() -> None:
    """A bounded plan tries no finish that costs more than the budget: a point behind a
    wall, within the Movement in a straight line but not round the wall, is out of reach
    ("cannot be reached within the Movement"); every point it reaches gets the very path
    the whole plan finds."""
    from skirmish.scenario.load import loads

    t = loads('format = 1\ntable = { size = [40, 24] }\n'
              'scenery = [{ id = "wall", polygon = [[10, 6], [11, 6], [11, 18], [10, 18]], height = 3 }]\n'
              'models = [{ id = "a", side = "red", size = "M", at = [8, 12], attributes = { SPD = 6 } }]\n')
    behind = t.plan_move("a", (13.0, 12.0, 0.0), budget=6.0, declared=True, bounded=True)
    assert not behind.legal and [p[:2] for p in behind.points] == [(8.0, 12.0)]
    assert "cannot be reached within the Movement (6 in)" in behind.violations[-1].what
    assert not t.plan_move("a", (13.0, 12.0, 0.0), budget=6.0, declared=True).legal
    for to in [(9.0, 17.0, 0.0), (12.0, 18.5, 0.0), (8.5, 5.5, 0.0), (12.5, 5.0, 0.0), (3.0, 12.0, 0.0)]:
        for budget in (6.0, 12.0):
            b = t.plan_move("a", to, budget=budget, declared=True, bounded=True)
            w = t.plan_move("a", to, budget=budget, declared=True)
            assert b.legal == w.legal
            if w.legal:
                assert b.points == w.points and b.cost == w.cost
