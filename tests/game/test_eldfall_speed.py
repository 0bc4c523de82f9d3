"""The game's shortcuts against the slow, obviously-correct way: move ends drawn
without the movement range polygon (E-MOVE-KIND), the lower bound that filters them,
the lazy ``random`` policy's uniform choice, and the caches shared between tables
(movement nets, LoS obstacles, Cover: E-COVER) answering as a fresh table does."""

from __future__ import annotations

import collections
import dataclasses
import random

import numpy as np
import pytest
import shapely

from skirmish.game.eldfall.policies import LazyRandomPolicy
from skirmish.game.eldfall.sampling import sample_ends
from skirmish.game.policy import Decision
from skirmish.geometry import los, paths
from skirmish.geometry.distance import cylinder_prism_distance
from skirmish.maps import table as table_mod
from skirmish.maps import table_movement
from skirmish.scenario.adversarial import dense_table
from skirmish.scenario.generate import random_table
from skirmish.scenario.load import load

from conftest import SCENARIOS


def _fresh(table):
    """An equal table sharing no cached object with ``table`` (scenery copied)."""
    return dataclasses.replace(table, scenery=tuple(dataclasses.replace(s) for s in table.scenery))


@pytest.fixture(scope="module")
def mill():
    return load(SCENARIOS / "mill-ambush.toml")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_e_move_kind_sampled_ends_are_legal_and_inside_the_movement_range(mill, seed):
    rng = random.Random(seed)
    m = rng.choice(mill.models)
    budget = float(m.attributes["SPD"])

    def accept(p):
        plan = mill.plan_move(m.id, p, kind="walk", budget=budget, declared=True)
        return p if plan.legal else None

    ends = sample_ends(mill, m.id, rng, 6, budget, accept)
    assert ends, "an open table has somewhere to walk"
    parts = mill.movement_range_parts(m.id, kind="walk", budget=budget)
    for p in ends:
        assert np.hypot(p[0] - m.x, p[1] - m.y) <= budget + 1e-9
        near = min(float(shapely.distance(g, shapely.Point(p[0], p[1]))) for s, g in parts if abs(s.z - p[2]) < 1e-6)
        assert near < 0.02, (p, near)  # the range polygon is conservative within 0.01 in


@pytest.mark.parametrize("seed", [4, 5])
def test_e_move_kind_end_bounds_never_exceed_the_planned_cost(mill, seed):
    rng = random.Random(seed)
    m = rng.choice(mill.models)
    pts = np.array([(m.x + rng.uniform(-8, 8), m.y + rng.uniform(-8, 8)) for _ in range(25)])
    pts = np.clip(pts, 0.6, min(mill.width, mill.depth) - 0.6)
    for q, ends in zip(pts, mill.end_bounds(m.id, pts)):
        zs = {round(z, 6) for z, _ in ends}
        for z, bound in ends:
            plan = mill.plan_move(m.id, (q[0], q[1], z), kind="walk", budget=1e9, declared=True)
            if plan.legal:
                assert bound <= plan.cost + 1e-9
        plan = mill.plan_move(m.id, (q[0], q[1]), kind="walk", budget=1e9, declared=True)
        if plan.legal and np.hypot(*(np.array(plan.points[-1][:2]) - q)) < 1e-9:
            assert round(plan.points[-1][2], 6) in zs  # a reachable end is never filtered out


def test_random_lazy_choice_is_uniform_over_the_slots_that_resolve():
    slots = ("idle", "a", "a", "b", "b", "b", "dead")
    d = Decision("move", "m", slots, open=True, context={"resolve": lambda s, rng: None if s == "dead" else s})
    rng = random.Random(7)
    got = collections.Counter(LazyRandomPolicy().choose(None, d, rng) for _ in range(6000))
    assert "dead" not in got
    for s, k in (("idle", 1), ("a", 2), ("b", 3)):
        assert got[s] / 6000 == pytest.approx(k / 6, abs=0.025)


def test_movement_nets_are_shared_when_only_facings_change_and_answer_as_fresh(mill):
    m = mill.models[0]
    turned = mill.with_model(dataclasses.replace(m, facing=(m.facing + 90) % 360))
    to = (m.x + 3.0, m.y + 1.0)
    a = mill.plan_move(m.id, to, kind="walk", declared=True)
    assert turned._mv_mover(m.id) is mill._mv_mover(m.id)
    moved = mill.with_model(dataclasses.replace(m, x=m.x + 0.5))
    assert moved._mv_mover(m.id) is not mill._mv_mover(m.id)
    fresh = _fresh(turned)
    assert fresh._mv_mover(m.id) is not mill._mv_mover(m.id)
    b = fresh.plan_move(m.id, to, kind="walk", declared=True)
    assert (a.points, a.legal, a.cost) == (b.points, b.legal, b.cost)


def test_e_los_obstacles_from_cached_rows_answer_as_a_fresh_build():
    t = random_table(random.Random(3), models=6, scenery=12)
    warm = t.line_of_sight_all()
    los._ROWS.clear()
    los._GROWN.clear()
    cold = _fresh(t).line_of_sight_all()
    assert [(s.visible, s.blockers) for s in warm] == [(s.visible, s.blockers) for s in cold]
    obs_a, obs_b = t.los_obstacles, _fresh(t).los_obstacles
    for f in ("owner_axis", "owner_bound", "piece_verts", "halfplanes", "piece_circle"):
        assert np.array_equal(getattr(obs_a, f), getattr(obs_b, f)), f


def test_e_cover_kept_answers_equal_a_fresh_table():
    t = random_table(random.Random(5), models=6, scenery=20)
    a, b = t.models[0].id, t.models[-1].id
    first = t.cover(a, b)
    assert t.cover(a, b) is first  # asked again: kept
    table_mod._COVERS.clear()
    assert _fresh(t).cover(a, b) == first
    turned = t.with_model(dataclasses.replace(t.models[0], facing=(t.models[0].facing + 180) % 360))
    assert turned.cover(a, b) == _fresh(turned).cover(a, b)


def test_e_cover_without_fraction_gives_the_same_level():
    """E-COVER: ``fraction=False`` (the game's call) skips the visible samples where no
    piece within 1" could give Cover: none is near, or no sight line to a sample can meet
    the near ones; level, modifier and piece are the full answer's."""
    skipped = past_near = 0
    for t in (random_table(random.Random(seed), models=8, scenery=25) for seed in (0, 3)):
        for a, b in ((a, b) for a in t.model_ids for b in t.model_ids if a != b):
            full, quick = t.cover(a, b), t.cover(a, b, fraction=False)
            assert (quick.level, quick.modifier, quick.piece) == (full.level, full.modifier, full.piece), (a, b)
            if quick.visible_fraction is None:
                skipped += 1
                mb = t.model(b)
                past_near += any(s.blocks_los and s.top > mb.z + 0.1 and
                                 cylinder_prism_distance(mb.hitbox, s.solid) <= 1.0 for s in t.scenery)
            else:
                assert quick.visible_fraction == full.visible_fraction
    assert skipped and past_near  # both quick paths were taken


def test_surfaces_shared_by_tables_with_the_same_scenery(mill):
    m = mill.models[0]
    other = mill.with_model(dataclasses.replace(m, x=m.x + 0.25))
    assert other.surfaces is mill.surfaces
    assert _fresh(mill).surfaces == mill.surfaces
    assert table_movement._SURFACES


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_e_cover_samples_on_the_far_side_are_hidden_as_the_full_search_finds(seed):
    """The samples skipped as hidden by the target itself are exactly ones the full LoS
    search finds hidden; the visible fraction is unchanged (E-COVER's evidence)."""
    t = random_table(random.Random(seed), models=8, scenery=20)
    rng = random.Random(seed)
    for _ in range(4):
        a, b = rng.sample(t.model_ids, 2)
        for arc in ("front", "all"):
            full, w = t._visible_samples(a, b, arc=arc, prune=False)
            fast, _ = t._visible_samples(a, b, arc=arc)
            assert np.array_equal(full, fast), (a, b, arc)
    m = t.models[0]
    high = t.with_model(dataclasses.replace(m, z=0.0, height=40.0))  # sees the other tops
    b = t.models[1].id
    assert np.array_equal(high._visible_samples(m.id, b, prune=False)[0], high._visible_samples(m.id, b)[0])


def test_e_los_answers_kept_per_table_mix_with_new_pairs(mill):
    """A call that mixes pairs already answered on the table with new ones answers them
    all, as a fresh table does."""
    ids = mill.model_ids
    first = mill.line_of_sight_pairs([(ids[0], o) for o in ids[1:]])
    mixed = [(ids[1], ids[2]), (ids[0], ids[3]), (ids[2], ids[1])]
    got = mill.line_of_sight_pairs(mixed)
    assert got == _fresh(mill).line_of_sight_pairs(mixed)
    assert got[1] is first[2]  # kept


def _net_arrays(net):
    return (net.levels, net.offset, net.xy, net.level, net.start, net.eu, net.ev, net.w, net.kind, net.aux, net.hops,
            net.dist, net.pred)


def _same_net(a, b):
    for x, y in zip(_net_arrays(a), _net_arrays(b)):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y)
        else:
            assert x == y


def test_e_move_a_friends_move_keeps_the_net_and_it_answers_as_a_fresh_build(mill):
    """Friends never enter the movement net (they are moved through): after a friend
    moves, the mover's net is shared, and equals the one a fresh table builds; an
    enemy's move builds a new one."""
    m = mill.models[0]
    friend = next(o for o in mill.models if o.side == m.side and o.id != m.id)
    enemy = next(o for o in mill.models if o.side != m.side)
    net = mill._mv_mover(m.id).net()
    shifted = mill.with_model(dataclasses.replace(friend, x=friend.x + 0.75))
    assert shifted._mv_mover(m.id) is not mill._mv_mover(m.id)  # the end tests change with the friend
    assert shifted._mv_mover(m.id).net() is net
    table_movement._NETS.clear()
    table_movement._MOVERS.clear()
    _same_net(_fresh(shifted)._mv_mover(m.id).net(), net)
    to = (m.x + 3.0, m.y + 1.0)
    a = shifted.plan_move(m.id, to, kind="walk", declared=True)
    b = _fresh(shifted).plan_move(m.id, to, kind="walk", declared=True)
    assert (a.points, a.legal, a.cost) == (b.points, b.legal, b.cost)
    pushed = mill.with_model(dataclasses.replace(enemy, x=enemy.x + 0.75))
    assert pushed._mv_mover(m.id).net() is not net


@pytest.mark.parametrize("which", ["random", "dense", "mill"])
def test_e_cover_piece_hides_as_the_whole_table_without_it_shows(mill, which):
    """E-COVER's "partly hides it": the samples asked again without the piece (the hidden
    ones whose sight lines may meet it; all where something stands on it) decide as the
    whole table without the piece does (every sample solved afresh: the oracle), on
    tables with floating pieces."""
    t = {"random": lambda: random_table(random.Random(2), models=8, scenery=25),
         "dense": lambda: dense_table(random.Random(1), width=24, depth=24, models=14, pieces=22),
         "mill": lambda: mill}[which]()
    rng = random.Random(7)
    asked = 0
    # on the dense table, blue-1 and blue-2 see parts of red-3 and red-7 past building-8 that
    # it hides only together with other pieces (the second round of re-solved samples)
    extra = {"dense": [("blue-1", "red-3"), ("blue-2", "red-7")]}.get(which, [])
    for a, b in rng.sample([(a, b) for a in t.model_ids for b in t.model_ids if a != b], 40) + extra:
        answers, weights, pts = t._sample_answers(a, b)
        mask = np.array([r is not None and r.visible for r in answers], float)
        seen = float(mask @ weights / weights.sum())
        if not 0 < seen < 1:
            continue
        for s in t.scenery:
            if not s.blocks_los or cylinder_prism_distance(t.model(b).hitbox, s.solid) > 3.0:
                continue
            without = dataclasses.replace(t, scenery=tuple(o for o in t.scenery if o.id != s.id))
            oracle = without.visible_fraction(a, b) > seen + 1e-9
            assert t._seen_without(s, a, b, answers, mask, weights, seen, pts) == oracle, (a, b, s.id)
            # sample by sample: every sample the piece hides is one asked again
            opened = (without._visible_samples(a, b)[0] > 0) & (mask == 0)
            assert not (opened & ~t._may_clear(s, a, answers, pts)).any(), (a, b, s.id)
            # (the lines that may meet the piece found once for every solved sample: the same)
            meets = t._lines_may_meet(s, a, pts, np.array([r is not None for r in answers]))
            assert np.array_equal(t._may_clear(s, a, answers, pts, meets), t._may_clear(s, a, answers, pts))
            assert t._seen_without(s, a, b, answers, mask, weights, seen, pts, meets) == oracle
            asked += oracle
    assert asked  # some piece did hide part of a target


def test_e_los_pairs_solved_with_raw_rows_answer_as_alone(mill):
    """``line_of_sight_with``: the raw rows answer as their own batch does, and the pairs
    solved with them are kept with the answers a fresh table gives (E-LOS)."""
    ids = mill.model_ids
    pairs = [(ids[0], o) for o in ids[1:]]
    views = [mill._viewer(o) for o in ids[1:]]
    src, dst = [mill._viewer(ids[0])] * len(views), views
    facings = [mill.model(ids[0]).facing_vector] * len(views)
    t = _fresh(mill)
    raw = t.line_of_sight_with(pairs, src, dst, facings)
    alone = los.line_of_sight_batch(t.los_obstacles, src, dst, facings)
    assert [(r.visible, r.stage, r.blockers) for r in raw] == [(r.visible, r.stage, r.blockers) for r in alone]
    assert all((a, b, "front", los.DEFAULT_TOLERANCE) in t._los_memo for a, b in pairs)
    assert t.line_of_sight_pairs(pairs) == _fresh(mill).line_of_sight_pairs(pairs)


def test_e_los_board_grown_from_the_last_equals_one_grown_afresh():
    """A board that differs from a recent one in models that moved (one onto a roof) gets
    its grown obstacles and arrays from that one: the same values as built afresh."""
    t = random_table(random.Random(3), models=8, scenery=20)
    eps = los.DEFAULT_TOLERANCE
    t.los_obstacles.grown(eps).tree  # grown and assembled, as a game's board is
    roof = next(s for s in t.scenery if s.walkable and s.blocks_los)
    c = roof.solid.footprint.representative_point()
    m0, m1 = t.models[0], t.models[1]
    moved = t.with_model(dataclasses.replace(m0, x=m0.x + 0.5, y=m0.y - 0.25)).with_model(
        dataclasses.replace(m1, x=c.x, y=c.y, z=roof.solid.z1))
    ungrown = moved.los_obstacles
    got = ungrown.grown(eps)
    assert "_base" in got.__dict__  # taken from the last board
    _assert_grown_as_afresh(got, ungrown, eps)


@pytest.mark.parametrize("which", ["mill", "random"])
def test_e_move_spaces_kept_per_piece_size_give_the_capsules_made_afresh(mill, which):
    """The capsules a mover keeps clear of on a surface, made from the pieces' rows kept
    per surface and base size (and a Flying mover's), are those of its obstacles made
    afresh, owner for owner (E-MOVE)."""
    t = mill if which == "mill" else random_table(random.Random(4), models=8, scenery=25)
    flying = dataclasses.replace(t.models[0], states=frozenset({"Flying"}))
    seen = 0
    for table in (t, t.with_model(flying)):
        for m in table.models[:4]:
            mv = table._mv_mover(m.id)
            for k in mv.reachable_levels():
                sp = mv.space(k)
                for free in (sp.trav, sp.check, sp.end, sp._pieces.end):
                    caps, owner = paths.capsule_rows(free.support, free.clearance, free.obstacles)
                    assert np.array_equal(free.caps, caps) and np.array_equal(free.owner, owner)
                    seen += 1
    assert seen >= 24


@pytest.mark.parametrize("which", ["mill", "random"])
def test_e_move_end_and_way_tested_in_parts_agree_with_the_spaces_made_whole(mill, which):
    """Where a base may end (E-MOVE-END, E-MOVE-SURFACE) and whether a straight way is
    clear, tested on the pieces' shared space and then the models' discs, without making
    the mover's own spaces, give what its whole ``end`` and ``trav`` spaces give (the oracle)."""
    t = mill if which == "mill" else random_table(random.Random(4), models=8, scenery=25)
    rng = np.random.default_rng(7)
    for m in t.models[:4]:
        mv = t._mv_mover(m.id)
        for k in mv.reachable_levels():
            sp = mv.space(k)
            x0, y0, x1, y1 = sp.surface.support.bounds
            pts = np.column_stack([rng.uniform(x0, x1, 300), rng.uniform(y0, y1, 300)])
            assert np.array_equal(sp.end_free(pts), sp.end.point_free(pts, tol=1e-7))
            for p in pts[:40]:
                q = p[None]
                gap = sp.end.clearance_at(q)[0] if len(sp.end.caps) else np.zeros(0)
                bad = set(np.flatnonzero(gap < -table_movement.CONTACT).tolist())
                _, hit = sp.end.footprint_hits(q)
                polys = [i for i, o in enumerate(sp.end.obstacles) if o.polygon is not None]
                bad |= {int(j) for j in np.flatnonzero(np.isin(sp.end.owner, [polys[h] for h in hit.tolist()]))}
                owners = sorted({int(sp.end.owner[j]) for j in bad})
                assert sp.end_owners(q) == (owners, bool(len(hit)))
                assert [sp.end_name(o) for o in owners if o >= 0] == [sp.end.names[o] for o in owners if o >= 0]
            start = np.repeat(np.array([mv.start], float), len(pts), 0)
            assert np.array_equal(sp.way_clear(start, pts, relax0=start, relax1=pts),
                                  sp.trav.segments_clear(start, pts, relax0=start, relax1=pts))


def _assert_grown_as_afresh(got, ungrown, eps):
    fresh = los._grow_all(ungrown, eps)
    assert got.members == fresh.members
    _assert_same_obstacles(got, fresh)


def _assert_same_obstacles(got, fresh):
    """The same solids, and the same arrays as assembled afresh from them."""
    assert got.names == fresh.names
    for f in ("z0", "z1", "grounded", "sealed"):
        assert np.array_equal(getattr(got.solids, f), getattr(fresh.solids, f)), f
    assert got.solids.circles == fresh.solids.circles and got.solids.parts == fresh.solids.parts
    assert all(a.equals_exact(b, 0.0) for a, b in zip(got.owner_geom, fresh.owner_geom))
    want = los._assemble(fresh.solids)
    assert np.array_equal(got.piece_verts, fresh.piece_verts)  # (a round piece's drawn from its circle)
    for f in los._Arrays._fields:
        assert np.array_equal(getattr(got, f), getattr(want, f), equal_nan=True), f


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_e_los_boards_of_a_walk_grown_from_each_other_equal_grown_afresh(seed):
    """Board after board, models moving (onto roofs too, one at a time or two), each grown
    from the last as a game grows them: the same obstacles as grown afresh."""
    rng = random.Random(seed)
    t = random_table(rng, models=8, scenery=20)
    eps = los.DEFAULT_TOLERANCE
    roofs = [s for s in t.scenery if s.walkable and s.blocks_los]
    derived = 0
    for _ in range(12):
        t.los_obstacles.grown(eps).tree  # this board searched: grown and assembled
        for m in rng.sample(t.models, rng.choice([1, 2])):
            if roofs and rng.random() < 0.3:
                c = rng.choice(roofs).solid.footprint.representative_point()
                m2 = dataclasses.replace(m, x=c.x, y=c.y, z=rng.choice(roofs).solid.z1)
            else:
                m2 = dataclasses.replace(m, x=m.x + rng.uniform(-0.5, 0.5), y=m.y + rng.uniform(-0.5, 0.5), z=0.0)
            t = t.with_model(m2)
        got = t.los_obstacles.grown(eps)
        derived += "_base" in got.__dict__
        _assert_grown_as_afresh(got, t.los_obstacles, eps)
    assert derived


def _decked_table(rng):
    """A random table with a floating deck and a raised crate added (models walk under them)."""
    from skirmish.geometry.solids import Prism
    from skirmish.maps.pieces import Scenery

    t = random_table(rng, models=8, scenery=20)
    deck = shapely.box(2.0, 2.0, 8.0, 4.0)
    crate = shapely.box(10.0, 2.0, 11.0, 3.0)
    return dataclasses.replace(t, scenery=(*t.scenery, Scenery("deck", Prism(deck, 2.0, 2.5), "polygon", (), walkable=True),
                                           Scenery("crate", Prism(crate, 1.2, 2.0), "polygon", ())))


#: Under the deck, under the crate, beside the deck (:func:`_decked_table`).
_SPOTS = [(5.0, 3.0), (10.5, 2.5), (8.6, 3.0)]


def _stepped(rng, t, m, jitter, z=None):
    """Model ``m`` moved as a game moves it: from the ground, sometimes onto a roof or to one
    of :data:`_SPOTS`; else (and from a roof) up to ``jitter`` inches about, at height ``z``
    (None: its own)."""
    roofs = [s for s in t.scenery if s.walkable and s.blocks_los and s.solid.z0 == 0.0]
    u = rng.random() if m.z == 0.0 else 1.0
    if roofs and u < 0.1:
        c = rng.choice(roofs).solid.footprint.representative_point()
        return dataclasses.replace(m, x=c.x, y=c.y, z=rng.choice(roofs).solid.z1)
    if u < 0.3:
        x, y = rng.choice(_SPOTS)
        return dataclasses.replace(m, x=x, y=y, z=0.0)
    return dataclasses.replace(m, x=m.x + rng.uniform(-jitter, jitter), y=m.y + rng.uniform(-jitter, jitter),
                               z=m.z if z is None else z)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_e_los_boards_built_from_each_other_equal_built_afresh(seed):
    """Board after board, models moving on the ground (next to and under a floating deck
    and a raised crate too) and onto roofs, each board's obstacles built from a recent
    one as a game builds them (``los._built_like``): the same solids and arrays as built
    afresh."""
    rng = random.Random(seed)
    t = _decked_table(rng)
    derived = bounded = 0
    for _ in range(20):
        t.los_obstacles.grown(los.DEFAULT_TOLERANCE).tree  # this board searched, as in a game
        for m in rng.sample(t.models, rng.choice([1, 2])):
            t = t.with_model(_stepped(rng, t, m, 0.5))  # (one on a roof steps about there)
        got = t.los_obstacles
        derived += "_base" in got.__dict__
        solids = [(m.id, m.hitbox) for m in t.models] + [(s.id, s.solid) for s in t.scenery if s.blocks_los]
        _assert_same_obstacles(got, los._build(solids, 1e-6))
        kept = los._BOUNDS.find((id(got.solids.geoms),), (got.solids.geoms,))  # (what the next board reads)
        if kept is not None:
            assert np.array_equal(kept, shapely.bounds(np.array(got.owner_geom, dtype=object)))
            bounded += 1
    assert derived >= 3 and bounded >= 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_e_los_lines_ending_on_a_model_that_moved_answer_alike_on_the_board_before(seed):
    """Sight lines that all end on the model that moved (a reaction batch) are solved on a
    board built lately that differs only in where it stands (``Table.los_obstacles_ending_on``),
    never where it stands by a floating deck or crate or on a roof there or here: the
    same answers, witnesses and blockers as on the board's own obstacles."""
    rng = random.Random(seed)
    t = _decked_table(rng)
    t.los_obstacles.grown(los.DEFAULT_TOLERANCE)
    reused = 0
    for _ in range(24):
        m = rng.choice(t.models)
        m2 = _stepped(rng, t, m, 1.0, z=0.0)  # (one on a roof steps down beside it)
        t = t.with_model(m2)
        obs = t.los_obstacles_ending_on(m.id)
        reused += "los_obstacles" not in t.__dict__  # (not built: a recent board serves)
        others = [o for o in t.models if o.id != m.id]
        src = los.Viewers.of([t._viewer(o.id) for o in others] * 2)
        dst = los.Viewers.of([t._viewer(m.id)] * len(others) + [t._viewer(m.id)] * len(others))
        facings = [o.facing_vector for o in others] + [None] * len(others)
        got = los.line_of_sight_batch(obs, src, dst, facings)
        want = los.line_of_sight_batch(t.los_obstacles, src, dst, facings)  # (this board's own, built now)
        assert [(a.visible, a.stage, a.witness, a.blockers) for a in got] == \
            [(a.visible, a.stage, a.witness, a.blockers) for a in want]
        if obs is not t.los_obstacles:  # (neither stand is by a floating solid)
            floating = [s.solid.footprint for s in t.scenery if s.blocks_los and s.solid.z0 > 1e-6]
            for x, y, r in (obs.solids.circles[t.model_ids.index(m.id)], (m2.x, m2.y, m2.radius)):
                assert all(f.distance(shapely.Point(x, y)) > r + 1e-6 for f in floating)
    assert reused >= 4


def test_e_reaction_attack_los_from_the_reaction_batch_holds_on_the_path_table():
    """E-REACTION: an Attack of Opportunity takes its LoS from the reaction batch (solved on
    the board as it stands); the witness keeps the clearance on the table with the mover
    at the attack's path point, runs from the reactor's front half to the mover there,
    and that table's own LoS is visible too."""
    from skirmish.game.eldfall import parse_settings, play_game, with_builtin_power
    from skirmish.game.eldfall.loop import EldfallGame
    from skirmish.game.policy import load_policy

    table = with_builtin_power(random_table(random.Random(1), models=10, scenery=25))
    real = EldfallGame._sight_at
    seen: list[tuple] = []

    def record(self, seq, i, reactor):
        got = real(self, seq, i, reactor)
        seen.append((seq.tables[i], reactor, seq.mover, got))
        return got

    EldfallGame._sight_at = record
    try:
        for seed in (1, 2):
            play_game(table, parse_settings(None, table), {s: load_policy("random", "eldfall") for s in table.sides},
                      random.Random(seed), seed=seed)
    finally:
        EldfallGame._sight_at = real
    given = [(t, r, m, s) for t, r, m, s in seen if s is not None]
    assert len(given) >= 5
    for t, r, m, s in given:
        assert s.visible and t.line_of_sight(r, m).visible
        (a, b) = s.witness
        rm, mm = t.model(r), t.model(m)
        fx, fy = rm.facing_vector
        assert (a[0] - rm.x) * fx + (a[1] - rm.y) * fy >= -1e-7  # from the front half (E-ARC)
        assert np.hypot(b[0] - mm.x, b[1] - mm.y) <= mm.radius + 1e-7  # to the mover's hitbox there
        assert mm.z - 1e-7 <= b[2] <= mm.z + mm.hitbox_height + 1e-7
        own = (t.model_ids.index(r), t.model_ids.index(m))
        assert los.segment_is_clear(t.los_obstacles.grown(los.DEFAULT_TOLERANCE), s.witness, exclude=own)


def test_e_reaction_path_tables_are_made_when_asked_for_and_are_moved_to():
    """E-REACTION: the tables with the mover at each path point are made only when asked
    for, and are the tables ``moved_to`` gives (the same objects), by index, from the end
    and by slice."""
    from skirmish.game.eldfall.sight import PathTables, moved_to

    t = random_table(random.Random(2), models=6, scenery=10)
    m = t.models[0]
    pts = [(m.x + 0.5 * k, m.y, m.z) for k in range(4)]
    tabs = PathTables(t, m, pts)
    assert len(tabs) == 4 and not tabs._made
    assert tabs[2] is moved_to(t, m, pts[2]) and list(tabs._made) == [2]
    assert tabs[-1] is tabs[3] and tabs[1:3] == (tabs[1], tabs[2])
    assert tabs[0] is t  # (the mover where it stands: the table itself)
    assert tabs[2].model(m.id).x == pts[2][0]
    with pytest.raises(IndexError):
        tabs[4]


def test_e_reaction_path_distances_are_the_moved_tables_distances():
    """E-DIST, E-AWARE, E-REACH: the distances along a path (no table made) are what each
    moved table measures, so the reactions' reach and Awareness read the same."""
    from skirmish.game.eldfall.sight import PathTables
    from skirmish.maps.table import reach_at, reach_band, within_awareness

    t = random_table(random.Random(5), models=6, scenery=10)
    m = t.models[0]
    rng = random.Random(3)
    pts = [(m.x + rng.uniform(-6, 6), m.y + rng.uniform(-6, 6), m.z + rng.choice([0.0, 0.0, 2.5])) for _ in range(12)]
    tabs = PathTables(t, m, pts)
    tabs.distances(t.models[1].id)
    assert not tabs._made
    for o in t.models[1:]:
        for i, d in enumerate(tabs.distances(o.id)):
            moved = tabs[i]
            assert d == moved.distance(o.id, m.id)
            assert within_awareness(o, d) == moved.in_awareness(o.id, m.id)
            for w in o.weapons:
                assert reach_at(o, m.id, w, d) == moved.reach(o.id, m.id, w)
                assert (reach_band(o, w, d) is not None) == moved.reach(o.id, m.id, w).in_reach


def test_e_reaction_options_with_points_left_unsolved_are_those_of_every_point_solved(monkeypatch):
    """E-REACTION: the reactions' batch leaves unsolved the points where no weapon of a
    reactor reaches the mover once it sees the mover elsewhere (only the Dodge asks
    there); the games played are move for move those with every point solved."""
    from skirmish.game.eldfall import loop, parse_settings, play_game, with_builtin_power
    from skirmish.game.policy import load_policy

    table = with_builtin_power(random_table(random.Random(1), models=10, scenery=25))
    real = loop.sight_along
    moot = [0]

    def counted(*a, **k):
        got = real(*a, **k)
        full = real(*a, **{**k, "exact": None})
        assert np.all(got.seen_by <= full.seen_by) and np.array_equal(got.seen_by.any(0), full.seen_by.any(0))
        assert np.array_equal(got.seen_by[k["exact"]], full.seen_by[k["exact"]])
        moot[0] += int((got.seen_by != full.seen_by).sum())
        return full  # (the games below are played with every point solved)

    def play(seed):
        return play_game(table, parse_settings(None, table), {s: load_policy("random", "eldfall")
                                                              for s in table.sides}, random.Random(seed), seed=seed)
    lazy = [play(seed).events for seed in (1, 2)]
    monkeypatch.setattr(loop, "sight_along", counted)
    assert [play(seed).events for seed in (1, 2)] == lazy
    assert moot[0] > 0  # some point was left unsolved


def test_e_activation_a_changed_state_is_the_state_built_anew():
    """E-ACTIVATION: a state with a model moved or units changed (made without running
    ``__init__`` again) equals the state built anew with those values, keeps its units
    read-only, and carries nothing found on the state it came from but, for a model
    moved (the same units), what the units alone give."""
    from types import MappingProxyType

    from skirmish.game.eldfall import parse_settings
    from skirmish.game.eldfall.state import GameState

    t = random_table(random.Random(3), models=6, scenery=8)
    st = GameState.start(t, parse_settings(None, t), t.sides[0])
    st.unit_states  # (found on this state)
    m = t.models[0]
    moved = st.moved(m.id, m.x + 1.0, m.y, m.z, 370.0)
    want = dataclasses.replace(st, table=t.with_model(dataclasses.replace(m, x=m.x + 1.0, facing=10.0)))
    assert moved == want and moved.model(m.id).facing == 10.0 and st.model(m.id) is m
    assert moved.__dict__["unit_states"] is st.unit_states  # (the same units)
    assert [moved.in_play(s) for s in st.sides] == [want.in_play(s) for s in st.sides]
    u = dataclasses.replace(st.unit(m.id), ap=2, states=st.unit(m.id).states | {"Crouched"})
    changed = st.with_units({u.id: u})
    assert changed.unit(u.id) is u and st.unit(u.id) is not u and isinstance(changed.units, MappingProxyType)
    assert "Crouched" in changed.model(u.id).states  # (mirrored onto the table's model, E-SIZE)
    assert changed == dataclasses.replace(st, units={**st.units, u.id: u}, table=changed.table)
    assert "unit_states" not in changed.__dict__
    with pytest.raises(TypeError):
        changed.units[u.id] = u  # type: ignore[index]
