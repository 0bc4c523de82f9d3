"""Best template placement against brute force, and invariants of template resolution
(E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY): rigid motions of the table change no result."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish import IllegalActionError, Model, Table
from skirmish.geometry.templates import TOUCH_TOLERANCE, circle_lattice
from skirmish.maps.template_results import TemplateResult
from skirmish.maps.transform import rigid_motion
from skirmish.rules.eldfall.templates import TEMPLATES
from skirmish.scenario.generate import random_table

MM = 1 / 25.4


def small_table(seed: int, models: int = 14, scenery: int = 14) -> Table:
    return random_table(random.Random(seed), models=models, scenery=scenery, width=20, depth=20, roof_share=0.3)


def crowded(seed: int) -> Table:
    """A 13" x 13" table with 18 models and 10 pieces of scenery: clusters and walls."""
    return random_table(random.Random(seed), models=18, scenery=10, width=13, depth=13, roof_share=0.2)


def score(t: Table, r: TemplateResult, user: str, we: float = 1.0, wf: float = 1.0) -> float | None:
    """The documented score of a placement, or None when it is not legal (main target not
    covered, or not hit)."""
    if not r.main_target_covered or not r.hits(r.main_target):
        return None
    side = t.side_of(user)
    friends = sum(t.side_of(m) == side for m in r.affected_ids)
    return we * (len(r.affected_ids) - friends) - wf * friends


def enemies_of(t: Table, user: str) -> list[str]:
    return [m for m in t.model_ids if t.side_of(m) != t.side_of(user)]


def brute_circle(t: Table, name: str, user: str, target: str, stride: int, we: float = 1.0,
                 wf: float = 1.0) -> float | None:
    """Every point of the search lattice (spacing 0.05 in) whose indices are multiples of
    ``stride``: an equal (stride 1) or coarser grid, resolved one by one."""
    m, u = t.model(target), t.model(user)
    R = TEMPLATES[name].radius - m.radius + TOUCH_TOLERANCE
    pts, ij = circle_lattice((m.x, m.y), (u.x, u.y), R, 0.05)
    pts = pts[(ij[:, 0] % stride == 0) & (ij[:, 1] % stride == 0)]
    best = None
    for x, y in pts:
        s = score(t, t.template(name, at=(x, y), on=target, by=user), user, we, wf)
        if s is not None and (best is None or s > best):
            best = s
    return best


@pytest.mark.slow
@pytest.mark.parametrize("seed, name, stride", [(0, "circle-small", 1), (6, "circle-small", 1),
                                                (4, "circle-large", 2), (7, "circle-large", 2)])
def test_E_TMPL_CIRCLE_best_is_never_worse_than_the_brute_force_grid(seed, name, stride):
    """On crowded generated tables, against the search's own lattice (stride 1: equal
    resolution) or its sub-lattice (stride 2: a grid twice as coarse), resolved point by point."""
    t = crowded(seed)
    user = t.model_ids[0]
    for target in enemies_of(t, user)[:2]:
        best = t.best_template(name, by=user, on=target)
        assert best.result.main_target_covered and best.result.hits(target)
        assert best.score == score(t, best.result, user)
        brute = brute_circle(t, name, user, target, stride)
        assert brute is not None and best.score >= brute


@pytest.mark.parametrize("seed, target", [pytest.param(129, "blue-1", marks=pytest.mark.slow), pytest.param(137, "blue-4", marks=pytest.mark.slow)])
def test_E_TMPL_CIRCLE_best_finds_what_only_part_of_a_face_sees(seed, target):
    """Tables where an enemy is seen from only part of a face (the face's own candidates do
    not see it): the search must refine that face to match the grid."""
    t = random_table(random.Random(seed), models=20, scenery=14, width=13, depth=13, roof_share=0.2)
    user = t.model_ids[0]
    best = t.best_template("circle-large", by=user, on=target)
    brute = brute_circle(t, "circle-large", user, target, 2)
    assert brute is not None and best.score >= brute
    assert best.search.los_pairs > best.search.candidates  # the lattice was searched


def test_E_TMPL_CIRCLE_best_with_other_weights_beats_the_grid_too():
    t = crowded(5)
    user = t.model_ids[1]
    for target in enemies_of(t, user)[:2]:
        best = t.best_template("circle-large", by=user, on=target, enemy_weight=2, friend_weight=0.5)
        assert best.score >= brute_circle(t, "circle-large", user, target, 3, 2, 0.5)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_E_TMPL_CIRCLE_best_is_exact_over_continuous_placements_without_scenery(seed):
    """Without scenery LoS never varies, so the arrangement alone must find the optimum:
    no random centre anywhere in the feasible disc does better."""
    rng = random.Random(seed)
    t = random_table(rng, models=16, scenery=0, width=12, depth=12)
    user = t.model_ids[0]
    target = enemies_of(t, user)[0]
    name = rng.choice(["circle-small", "circle-large"])
    best = t.best_template(name, by=user, on=target, spacing=10.0)  # no lattice: the arrangement alone
    m = t.model(target)
    R = TEMPLATES[name].radius - m.radius
    nrng = np.random.default_rng(seed)
    for _ in range(150):
        a, r = nrng.uniform(0, 2 * math.pi), R * math.sqrt(nrng.uniform())
        s = score(t, t.template(name, at=(m.x + r * math.cos(a), m.y + r * math.sin(a)), on=target, by=user), user)
        assert s is not None and s <= best.score


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_E_TMPL_SPRAY_best_is_never_worse_than_a_fine_sweep(seed):
    """Every enemy as the main target, every whole degree: no direction does better."""
    t = crowded(10 + seed)
    for user in t.model_ids[:2]:
        try:
            best = t.best_template("spray-small", by=user)
        except IllegalActionError:
            continue
        r = best.result
        assert r.main_target_covered and r.hits(r.main_target) and best.score == score(t, r, user)
        sweep = None
        for target in enemies_of(t, user):
            if t.distance(user, target) > TEMPLATES["spray-small"].length:
                continue  # beyond the spray's reach: never its main target
            a, b = t.model(user), t.model(target)
            bearing = math.degrees(math.atan2(b.y - a.y, b.x - a.x))
            for deg in np.arange(0, 360, 1.0):
                if abs((deg - bearing + 180) % 360 - 180) > 75:
                    continue  # the spray cannot even touch its main target from there
                s = score(t, t.template("spray-small", by=user, on=target, direction=float(deg)), user)
                if s is not None and (sweep is None or s > sweep):
                    sweep = s
        assert sweep is None or best.score >= sweep


def test_E_TMPL_best_avoids_friends_and_finds_the_cluster():
    """Hand-made: two enemies beside the main target on one side, a friend on the other:
    the best circle shifts toward the enemies; with friends free it takes everyone."""
    R, rho = 35 * MM, 16 * MM
    models = (Model("mage", "red", "M", 2, 2), Model("brute", "blue", "M", 10, 10),
              Model("orc", "blue", "M", 10 + 2.2, 10), Model("imp", "blue", "S", 10 + 1.9, 11.1),
              Model("pal", "red", "M", 10 - 2.2, 10))
    t = Table(20, 20, models)
    best = t.best_template("circle-small", by="mage", on="brute")
    assert set(best.result.affected_ids) == {"brute", "orc", "imp"} and best.score == 3
    assert best.result.center[0] > 10 and math.dist(best.result.center, (10, 10)) <= R - rho + 1e-3
    # the default main target is the best enemy; the answer is a legal placement
    any_target = t.best_template("circle-small", by="mage")
    assert any_target.score == 3 and any_target.result.main_target_covered
    # the search says what it did
    assert best.search.candidates > 0 and best.search.targets == ("brute",)


def test_E_TMPL_best_rejects_impossible_targets():
    t = Table(20, 20, (Model("mage", "red", "M", 2, 2), Model("drake", "blue", "C", 10, 10)))
    with pytest.raises(IllegalActionError, match="cannot cover"):
        t.best_template("circle-small", by="mage", on="drake")
    with pytest.raises(IllegalActionError, match="never hit"):
        t.best_template("circle-small", by="mage", on="mage")
    with pytest.raises(IllegalActionError, match="within 1"):
        t.best_template("circle-large", by="mage", reach=1.0)
    far = Table(40, 40, (Model("mage", "red", "M", 2, 2), Model("orc", "blue", "M", 30, 30)))
    with pytest.raises(IllegalActionError, match="beyond"):
        far.best_template("spray-large", by="mage", on="orc")


# -- invariants --------------------------------------------------------------------------

def signature(r: TemplateResult) -> tuple:
    return (tuple((h.id, h.coverage) for h in r.affected), tuple((s.id, s.reason) for s in r.spared),
            r.main_target, r.main_target_covered, r.main_target_rule, round(r.surface_z, 9))


BASE = small_table(42, models=16, scenery=16)
USER = BASE.model_ids[0]
TARGETS = enemies_of(BASE, USER)[:4]


def resolve_all(t: Table, move=lambda x, y: (x, y)) -> list[tuple]:
    out = []
    for target in TARGETS:
        out.append(signature(t.template("circle-small", on=target, by=USER)))
        out.append(signature(t.template("circle-large", on=target)))
        out.append(signature(t.template("spray-large", by=USER, toward=target)))
    for x, y in ((5.0, 5.0), (10.0, 12.5), (15.0, 8.0)):
        out.append(signature(t.template("circle-large", at=move(x, y))))
    return out


EXPECTED = resolve_all(BASE)
BEST = (BASE.best_template("circle-large", by=USER).score, BASE.best_template("circle-small", by=USER).score,
        BASE.best_template("spray-large", by=USER).score)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.floats(0, 360), st.floats(-40, 40), st.floats(-40, 40), st.booleans())
def test_E_TMPL_rigid_motion_of_the_table_changes_no_result(angle, dx, dy, mirror):
    moved = rigid_motion(BASE, angle, dx, dy, mirror=mirror)

    def move(x: float, y: float) -> tuple[float, float]:
        if mirror:
            y = -y
        a = math.radians(angle)
        return (math.cos(a) * x - math.sin(a) * y + dx, math.sin(a) * x + math.cos(a) * y + dy)

    assert resolve_all(moved, move) == EXPECTED
    assert (moved.best_template("circle-large", by=USER).score, moved.best_template("circle-small", by=USER).score,
            moved.best_template("spray-large", by=USER).score) == BEST
