"""Jump on the table (E-MOVE-JUMP, E-FALL): one straight 3D line of up to ⌈SPD/2⌉;
hand-made cases, every planned jump passes the checker, rigid motions."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import RuleInputError, SkirmishError
from skirmish.geometry.solids import Prism
from skirmish.maps.pieces import Model, Scenery
from skirmish.maps.table import Table
from skirmish.maps.transform import rigid_motion
from skirmish.rules.eldfall.movement import fall_rolls
from skirmish.scenario.load import loads

from conftest import SCENARIOS, cli_run, table_text

MM = 1 / 25.4
R_M = 16 * MM  # a Medium base's radius
H_M = 45 * MM  # a Medium hitbox's height


def model(mid: str, at: str, spd: int = 6, z: float | None = None, side: str = "red") -> str:
    zline = f"z = {z}\n" if z is not None else ""
    return f'[[models]]\nid = "{mid}"\nside = "{side}"\nsize = "M"\nat = {at}\n{zline}attributes = {{ SPD = {spd} }}\n'


def roof(sid: str, rect: str, height: float) -> str:
    return f'[[scenery]]\nid = "{sid}"\nrect = {rect}\nheight = {height}\nwalkable = true\n'


def table(models: str, scenery: str):
    return loads(table_text(models, scenery, extra='mode = "assisted"'))


def test_E_MOVE_JUMP_across_a_2in_gap_between_roofs() -> None:
    """Roofs 3" high with a 2" gap (x 7..9); SPD 8 jumps ⌈8/2⌉ = 4": from 0.7" inside one
    edge to 0.7" inside the other is 3.4", landing wholly on the far roof."""
    t = table(model("a", "[6.3, 10]", spd=8, z=3.0), roof("ra", "[2, 6, 7, 14]", 3.0) + roof("rb", "[9, 6, 14, 14]", 3.0))
    p = t.plan_move("a", (9.7, 10), kind="jump")
    assert p.legal and p.budget == 4.0 and p.fall_rolls == 0
    assert p.points == ((6.3, 10.0, 3.0), (9.7, 10.0, 3.0))
    assert p.cost == pytest.approx(3.4) and p.length == pytest.approx(3.4)
    # SPD 6 reaches 3" only: the jump ends over the gap's far edge with the base hanging
    short = table(model("a", "[6.3, 10]", spd=6, z=3.0), roof("ra", "[2, 6, 7, 14]", 3.0)
                  + roof("rb", "[9, 6, 14, 14]", 3.0)).plan_move("a", (9.7, 10), kind="jump")
    assert not short.legal and any("E-MOVE-SURFACE" in v.what for v in short.violations)


def test_E_MOVE_JUMP_E_FALL_short_of_a_higher_roof_falls_with_rolls() -> None:
    """From a 6" roof towards a 9" roof 4" away, SPD 4 jumps 2": the jump ends in the air
    over the gap, too low for the hitbox to reach 9", and the model falls to the table:
    floor(fall / 2) Agility rolls (E-FALL)."""
    t = table(model("a", "[5, 10]", spd=4, z=6.0), roof("ra", "[2, 6, 5.7, 14]", 6.0) + roof("rb", "[9, 6, 14, 14]", 9.0))
    p = t.plan_move("a", (10, 10, 9), kind="jump")
    start, end, landed = p.points
    assert math.dist(start, end) == pytest.approx(2.0) and p.cost == pytest.approx(2.0)
    assert end[2] + H_M < 9.0 and landed == (end[0], end[1], 0.0)
    assert p.fall_rolls == fall_rolls(end[2], 4) == 3
    assert any("does not reach" in v.what for v in p.violations)  # the aim was the 9" roof
    declared = t.check_move("a", p.points[1:], kind="jump")
    assert declared.legal and declared.fall_rolls == 3 and declared.points == p.points


def test_E_MOVE_JUMP_hitbox_reaching_the_higher_level_is_pulled_onto_its_edge() -> None:
    """From a 3" roof towards a 5" roof: the hitbox runs into its wall at about 3.9" and
    its top (+1.77") reaches 5", so the model is pulled onto the edge of the top."""
    t = table(model("a", "[5, 10]", spd=6, z=3.0), roof("ra", "[2, 6, 7, 14]", 3.0) + roof("rb", "[8, 6, 14, 14]", 5.0))
    p = t.plan_move("a", (9, 10, 5), kind="jump")
    start, hit, pulled = p.points
    assert hit[0] == pytest.approx(8 - R_M, abs=2e-3) and hit[2] + H_M >= 5.0
    assert pulled == pytest.approx((8 + R_M, 10.0, 5.0), abs=1e-3) and p.fall_rolls == 0
    assert any("pulled onto its edge" in n for n in p.notes)
    assert t.check_move("a", p.points[1:], kind="jump").legal


def test_E_MOVE_JUMP_down_lands_without_rolls_and_longer_lines_are_refused() -> None:
    """A jump down that lands on a surface is measured in 3D and makes no fall rolls
    (interpretation); a declared line longer than ⌈SPD/2⌉ is over budget."""
    t = table(model("a", "[5, 10]", spd=6, z=2.0), roof("ra", "[2, 6, 6, 14]", 2.0))
    p = t.plan_move("a", (7.5, 10), kind="jump")  # 2.5 across, 2 down: 3.2" > 3
    assert not p.legal
    ok = t.plan_move("a", (7.0, 10.0), kind="jump")  # 2 across, 2 down: 2.83"
    assert ok.legal and ok.fall_rolls == 0 and ok.cost == pytest.approx(math.hypot(2, 2))
    bad = t.check_move("a", [(7.5, 10, 0)], kind="jump")
    assert not bad.legal and "over budget" in bad.violations[0].what


def test_E_MOVE_JUMP_refusals() -> None:
    t = table(model("a", "[5, 10]") + model("b", "[9, 10]", side="blue"), "")
    with pytest.raises(RuleInputError, match="not to a model"):
        t.plan_move("a", "b", kind="jump")
    with pytest.raises(RuleInputError, match="movement range"):
        t.movement_range("a", kind="jump")
    p = t.plan_move("a", (9, 10), kind="jump")  # onto the enemy: E-MOVE-END
    assert not p.legal and any("E-MOVE-END" in v.what for v in p.violations)


def test_E_MOVE_JUMP_cli_json(capsys) -> None:
    import json

    code, out, _ = cli_run(capsys, "move", str(SCENARIOS / "first-steps.toml"), "akane", "--to", "3,7", "--kind", "jump", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["points"][0][:2] == [2.0, 6.0] and doc["cost"] == pytest.approx(math.sqrt(2))


def rigid(t: Table, angle: float, mirror: bool):
    """The table turned by ``angle`` degrees (mirrored first) about (30, 30), and the map of points."""
    a = math.radians(angle)
    cy = -30.0 if mirror else 30.0
    tx = 30.0 - (math.cos(a) * 30.0 - math.sin(a) * cy)
    ty = 30.0 - (math.sin(a) * 30.0 + math.cos(a) * cy)

    def move(p):
        x, y = p[0], (-p[1] if mirror else p[1])
        return (math.cos(a) * x - math.sin(a) * y + tx, math.sin(a) * x + math.cos(a) * y + ty)

    return rigid_motion(t, angle, tx, ty, mirror=mirror), move


# -- invariants on random roofs ------------------------------------------------------------------

def roofs(seed: int) -> Table:
    rng = random.Random(seed)
    sc = []
    for i in range(4):
        x, y = 30 + rng.uniform(-5, 5), 30 + rng.uniform(-5, 5)
        w, d, h = rng.uniform(1.5, 4), rng.uniform(1.5, 4), rng.choice([1.0, 2.5, 3.0, 4.5])
        poly = shapely.geometry.polygon.orient(shapely.box(x - w / 2, y - d / 2, x + w / 2, y + d / 2), 1.0)
        coords = tuple(tuple(p) for p in np.asarray(poly.exterior.coords)[:-1])
        sc.append(Scenery(f"r{i}", Prism(poly, 0.0, h), "polygon", coords, walkable=True))
    for _ in range(200):
        x, y = 30 + rng.uniform(-6, 6), 30 + rng.uniform(-6, 6)
        m = Model("m", "red", "M", x, y, attributes={"SPD": rng.randint(3, 8)})
        if all(shapely.distance(s.solid.footprint, shapely.Point(x, y)) > m.radius + 0.05 for s in sc):
            return Table(60.0, 60.0, (m,), tuple(sc))
    return Table(60.0, 60.0, (Model("m", "red", "M", 5.0, 5.0, attributes={"SPD": 5}),), tuple(sc))


def aims(t: Table, seed: int, n: int) -> list[tuple[float, float]]:
    rng = random.Random(seed + 1)
    m = t.models[0]
    return [(m.x + rng.uniform(-5, 5), m.y + rng.uniform(-5, 5)) for _ in range(n)]


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 100_000))
def test_E_MOVE_JUMP_every_planned_jump_passes_the_checker(seed: int) -> None:
    t = roofs(seed)
    for q in aims(t, seed, 4):
        p = t.plan_move("m", q, kind="jump")
        if len(p.points) < 2:
            continue
        c = t.check_move("m", p.points[1:], kind="jump")
        assert len(c.points) == len(p.points) and np.allclose(c.points, p.points, atol=1e-9)
        assert c.fall_rolls == p.fall_rolls
        assert c.cost <= c.budget + 1e-9
        ends_badly = [v for v in p.violations if "does not reach" not in v.what]
        assert c.legal == (not ends_badly), (c.violations, p.violations)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 100_000))
def test_E_MOVE_JUMP_first_contact_is_the_halving_one_midpoint_at_a_time(seed: int) -> None:
    """The first contact of a jump's line with a piece, found five halvings per call
    (``Jump._bisect``), is the one 40 halvings one midpoint at a time find (the oracle)."""
    from skirmish.maps.table_jump import Jump

    t = roofs(seed)
    j = Jump(t, t._mv_mover("m"), 8.0)
    rng = random.Random(seed)
    hits = 0
    for _ in range(30):
        a = j.start
        c = rng.choice(t.scenery).solid.footprint.centroid  # (towards a roof: most lines run into one)
        b = np.array([c.x + rng.uniform(-1, 1), c.y + rng.uniform(-1, 1), a[2] + rng.uniform(-1, 2)])
        got, who = j._first_hit(a, b)
        if who is None:
            assert got == 1.0
            continue
        hits += 1
        # the coarse samples as _first_hit takes them, then one midpoint at a time
        n = max(2, int(math.ceil(float(np.linalg.norm(b - a)) / 0.01)) + 1)
        ts = np.linspace(0.0, 1.0, n)
        k = int(np.flatnonzero(j._blocked(who, a + ts[:, None] * (b - a)))[0])
        hit = _halved(j, who, a, b, (ts[k - 1] if k else 0.0), ts[k])
        # then back to where it first touches (no gap), from the start when it is free of that
        assert got == (hit if j._blocked(who, a[None], 0.0)[0] else _halved(j, who, a, b, 0.0, hit, gap=0.0))
    assert hits


def _halved(j: Any, piece: Any, a: np.ndarray, b: np.ndarray, lo: float, hi: float, gap: float = -1e-3) -> float:
    """The oracle of ``Jump._bisect``: 40 halvings of [lo, hi] along a→b, one midpoint at a
    time with the full test (heights, then plan distance to within ``gap``); the last clear fraction."""
    for _ in range(40):
        mid = (lo + hi) / 2
        if j._blocked(piece, (a + mid * (b - a))[None, :], gap)[0]:
            hi = mid
        else:
            lo = mid
    return lo


@pytest.mark.parametrize("seed", range(4))
def test_E_MOVE_JUMP_halvings_on_any_span_of_a_sloped_line_are_the_ones_made_one_at_a_time(seed: int) -> None:
    """``Jump._bisect`` on any span of a line rising or falling across the pieces' heights
    (so that the hitbox's heights overlap a piece's at one end only, at both, or at
    neither) ends where 40 halvings tested one midpoint at a time with the full test
    (heights, then plan distance) end."""
    from skirmish.maps.table_jump import Jump

    t = roofs(seed)
    j = Jump(t, t._mv_mover("m"), 8.0)
    rng = random.Random(seed)
    both = 0
    for _ in range(60):
        s = rng.choice(t.scenery)
        c = s.solid.footprint.centroid
        a = np.array([c.x + rng.uniform(-3, 3), c.y + rng.uniform(-3, 3), rng.uniform(0.0, 5.0)])
        b = np.array([c.x + rng.uniform(-1, 1), c.y + rng.uniform(-1, 1), rng.uniform(0.0, 5.0)])
        lo, hi = sorted((rng.uniform(0, 1), rng.uniform(0, 1)))
        both += bool(j._overlaps(s, a + np.array([lo, hi])[:, None] * (b - a)).all())
        assert j._bisect(s, a, b, lo, hi) == _halved(j, s, a, b, lo, hi)
        assert j._bisect(s, a, b, lo, hi, gap=0.0) == _halved(j, s, a, b, lo, hi, gap=0.0)  # (touching: _touched)
    assert 0 < both < 60


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.integers(0, 100_000))
def test_E_MOVE_JUMP_first_contact_compiled_is_the_shapely_one_bit_for_bit(seed: int) -> None:
    """``Jump._first_hit`` compiled (GEOS's point-to-segment arithmetic, the parity of the
    edges crossed inside) gives its shapely twin's parameter and piece, bit for bit: roofs,
    a round piece, a piece with a hole; lines from the model, and from above falling deep
    into a piece (the base centre inside its footprint)."""
    from skirmish.geometry import kernels
    from skirmish.maps.table_jump import Jump

    t = roofs(seed)
    ring = shapely.Point(22, 30).buffer(2.5).difference(shapely.Point(22, 30).buffer(1.2))
    barrel = shapely.Point(38, 30).buffer(0.8)
    t = Table(60.0, 60.0, t.models, (*t.scenery, Scenery("ring", Prism(ring, 0.0, 2.0), "polygon", ()),
                                     Scenery("barrel", Prism(barrel, 0.0, 1.2), "polygon", ())))
    j = Jump(t, t._mv_mover("m"), 8.0)
    rng = random.Random(seed)
    keep, hits = kernels.wanted, 0
    try:
        for k in range(80):
            c = rng.choice(t.scenery).solid.footprint.centroid
            a = j.start if k % 2 else np.array([c.x + rng.uniform(-4, 4), c.y + rng.uniform(-4, 4), rng.uniform(0, 8)])
            b = np.array([c.x + rng.uniform(-2, 2), c.y + rng.uniform(-2, 2), rng.uniform(0, 6)])
            kernels.wanted = lambda work: True
            fast = j._first_hit(a, b)
            kernels.wanted = lambda work: False
            assert fast == j._first_hit(a, b)
            hits += fast[1] is not None
    finally:
        kernels.wanted = keep
    assert hits


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(0, 100_000), st.floats(0, 360), st.booleans())
def test_E_MOVE_JUMP_rigid_motions_move_the_answer_with_the_table(seed: int, angle: float, mirror: bool) -> None:
    t = roofs(seed)
    moved, move = rigid(t, angle, mirror)

    for q in aims(t, seed, 3):
        p1 = t.plan_move("m", q, kind="jump")
        p2 = moved.plan_move("m", move(q), kind="jump")
        assert p2.cost == pytest.approx(p1.cost, abs=1e-4) and p2.fall_rolls == p1.fall_rolls
        assert p2.legal == p1.legal
        for a1, a2 in zip(p1.points, p2.points):
            assert move(a1) == pytest.approx(a2[:2], abs=1e-4) and a1[2] == pytest.approx(a2[2], abs=1e-4)


# -- Climb (E-MOVE-CLIMB) ------------------------------------------------------------------------

def test_E_MOVE_CLIMB_a_3in_wall_with_SPD_6_stops_on_the_face_at_its_top() -> None:
    """SPD 6 climbs ⌈6/2⌉ = 3": an M model touching a 3" wall climbs it to its top and
    stops on the face (E-MOVE-CLIMB may stop on a vertical face); stepping onto the top
    would need 3" + the base's width."""
    foot = 8 - R_M - 0.003
    t = table(model("a", f"[{foot}, 10]", spd=6), roof("house", "[8, 6, 14, 14]", 3.0))
    c = t.check_move("a", [(foot, 10, 3.0)], kind="climb")
    assert c.legal and c.cost == pytest.approx(3.0) and c.budget == 3.0
    assert any("stops on the vertical face at z 3" in n for n in c.notes)
    onto = t.plan_move("a", (9.0, 10, 3), kind="climb")
    assert not onto.legal and "over budget" in onto.violations[-1].what
    assert onto.cost == pytest.approx(3.0 + (9.0 - foot))
    # SPD 10 (5") gets onto the roof: climb 3", step over the edge, walk on
    p = table(model("a", f"[{foot}, 10]", spd=10), roof("house", "[8, 6, 14, 14]", 3.0)).plan_move(
        "a", (9.0, 10, 3), kind="climb")
    assert p.legal and p.points[-1] == (9.0, 10.0, 3.0) and p.cost == pytest.approx(p.length)


def test_E_MOVE_CLIMB_down_a_face_makes_no_fall_rolls_and_walks_need_no_ladder() -> None:
    t = table(model("a", "[10, 10]", spd=16, z=3.0), roof("house", "[8, 6, 14, 14]", 3.0))
    p = t.plan_move("a", (5, 10, 0), kind="climb")
    assert p.legal and p.fall_rolls == 0 and p.points[-1] == (5.0, 10.0, 0.0)
    assert p.cost == pytest.approx(p.length) and p.cost == pytest.approx(2 + 3 + 3)
    assert t.check_move("a", p.points[1:], kind="climb").legal


def test_E_MOVE_CLIMB_refusals() -> None:
    t = table(model("a", "[5, 10]", spd=12), roof("house", "[8, 6, 14, 14]", 3.0))
    same = t.plan_move("a", (3, 3), kind="climb")
    assert not same.legal and "walk there instead" in same.violations[0].what
    nowhere = t.check_move("a", [(5, 10, 2.0)], kind="climb")  # not against a face
    assert not nowhere.legal and "not against a face" in nowhere.violations[0].what
    two = t.check_move("a", [(7.3, 10, 0), (7.3, 10, 1), (7.3, 10.5, 1), (7.3, 10.5, 2)], kind="climb")
    assert not two.legal and "climbs one face" in two.violations[0].what
    with pytest.raises(RuleInputError, match="movement range"):
        t.movement_range("a", kind="climb")


def climb_aims(t: Table, seed: int, n: int) -> list[tuple[float, float, float]]:
    rng = random.Random(seed + 7)
    out = []
    for s in t.scenery:
        for _ in range(n):
            c = s.solid.footprint.representative_point()
            out.append((c.x + rng.uniform(-0.3, 0.3), c.y + rng.uniform(-0.3, 0.3), s.solid.z1))
    return out


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 100_000))
def test_E_MOVE_CLIMB_every_planned_climb_passes_the_checker(seed: int) -> None:
    """Planned climbs pass the checker with the same cost; their cost is their length
    (horizontal and vertical parts at face value) and the vertical part is at a face."""
    t = roofs(seed)
    t = t.with_model(Model("m", "red", "M", t.models[0].x, t.models[0].y, attributes={"SPD": 30}))
    for q in climb_aims(t, seed, 1):
        p = t.plan_move("m", q, kind="climb")
        if len(p.points) < 2:
            continue
        c = t.check_move("m", p.points[1:], kind="climb")
        assert c.legal == p.legal and c.cost == pytest.approx(p.cost)
        if p.legal:
            assert p.cost == pytest.approx(p.length, abs=1e-6)
            assert p.points[-1] == pytest.approx(q) or math.dist(p.points[-1], q) < 1e-6
            vert = [(a, b) for a, b in zip(p.points, p.points[1:]) if a[:2] == b[:2] and a[2] != b[2]]
            assert len(vert) == 1
            gap = min(shapely.distance(s.solid.footprint, shapely.Point(vert[0][0][:2])) for s in t.scenery)
            assert gap == pytest.approx(R_M + 0.003, abs=0.01)


def test_E_MOVE_CLIMB_walks_planned_within_its_budget_answer_as_unbounded_ones(monkeypatch) -> None:
    """A Climb plans its walks within its budget (``plan_move``'s ``bounded``): every climb
    the game offers (onto a top, up a face as far as it goes, and on from the face) is
    legal exactly when its walks planned without a bound make it legal, along the same path."""
    from skirmish.game.eldfall.choices import climb_jump_aims
    from skirmish.maps import table_climb

    walk = table_climb.Climb._walk

    def plans(t: Table, aims: list[tuple[float, float, float]], bounded: bool) -> list[tuple]:
        monkeypatch.setattr(table_climb.Climb, "_walk", walk if bounded else (
            lambda self, start, pts, *, plan, bounded=True: walk(self, start, pts, plan=plan, bounded=False)))
        out = [t.plan_move("m", q, kind="climb") for q in aims]
        return [(p.legal, p.points, p.cost) if p.legal else (False,) for p in out]

    legal = hung = 0
    for seed in range(8):
        base, rng = roofs(seed), random.Random(seed)
        for spd in (3, 5, 8):
            m = base.models[0]
            t = base.with_model(Model("m", "red", "M", m.x, m.y, attributes={"SPD": spd}))
            aims = climb_jump_aims(t, "m", "climb", -(-spd // 2), rng, 0) + climb_aims(t, seed, 2)
            got = plans(t, aims, True)
            assert got == plans(t, aims, False)
            legal += sum(g[0] for g in got)
            for q, g in zip(aims, got):  # on from where a climb stopped on a face
                if g[0] and not any(abs(u.z - q[2]) < 1e-6 for u in t.surfaces):
                    on = t.with_model(Model("m", "red", "M", q[0], q[1], q[2], attributes={"SPD": spd}))
                    more = climb_jump_aims(on, "m", "climb", -(-spd // 2), rng, 0)
                    assert plans(on, more, True) == plans(on, more, False)
                    hung += 1
    assert legal and hung


def test_E_MOVE_CLIMB_cli_json(capsys, tmp_path) -> None:
    import json

    f = tmp_path / "wall.toml"
    f.write_text(table_text(model("a", "[5, 10]", spd=16), roof("house", "[8, 6, 14, 14]", 3.0)))
    code, out, _ = cli_run(capsys, "move", str(f), "a", "--to", "9,10,3", "--kind", "climb", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["legal"] and doc["points"][-1] == [9.0, 10.0, 3.0]
    assert doc["cost"] == pytest.approx(doc["length"]) and doc["budget"] == 8.0


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.floats(0, 360), st.booleans())
def test_E_MOVE_CLIMB_rigid_motions_move_the_answer_with_the_table(angle: float, mirror: bool) -> None:
    """The climb onto a roof straight ahead, on a rotated (and mirrored) table: same cost,
    same legality, the points moved with the table."""
    t = loads(table_text(model("a", "[25, 30]", spd=16), roof("house", "[28, 26, 34, 34]", 3.0), size="[60, 60]"))
    moved, move = rigid(t, angle, mirror)

    p1 = t.plan_move("a", (30, 30, 3), kind="climb")
    p2 = moved.plan_move("a", (*move((30, 30)), 3), kind="climb")
    assert p1.legal and p2.legal and p2.cost == pytest.approx(p1.cost, abs=1e-6)
    assert len(p1.points) == len(p2.points)
    for a1, a2 in zip(p1.points, p2.points):
        assert move(a1) == pytest.approx(a2[:2], abs=1e-6) and a1[2] == pytest.approx(a2[2])


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 100_000))
def test_E_MOVE_JUMP_a_jump_found_once_per_table_answers_as_a_fresh_one(seed: int) -> None:
    """A table finds each jump once (planned, then its path checked): every later plan
    and check gives what a fresh copy of the table gives, and a caller that changes a
    plan's lists changes nothing kept."""
    import dataclasses

    t = roofs(seed)
    for q in aims(t, seed, 4):
        first = t.plan_move("m", q, kind="jump")
        again = t.plan_move("m", q, kind="jump")
        assert first == again == dataclasses.replace(t).plan_move("m", q, kind="jump")
        if len(first.points) > 1:
            c = t.check_move("m", first.points[1:], kind="jump")
            assert c == dataclasses.replace(t).check_move("m", first.points[1:], kind="jump")
        jumper = t._mv_jumper(t._mv_mover("m"), first.budget)
        points, _, violations, _, notes, _ = jumper._landed(first.points[0])
        points.append((0.0, 0.0, 0.0)), violations.clear(), notes.append("x")
        assert jumper._landed(first.points[0])[0] != points


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_e_move_jump_first_contact_tests_only_points_near_each_piece_and_finds_what_every_point_finds(seed):
    """E-MOVE-JUMP: where a jump first runs into a piece is found testing only the sampled
    points within reach of the piece's box: the same parameter and piece as testing every
    sampled point (the slow way)."""
    from skirmish.maps.table_jump import STEP, Jump
    from skirmish.scenario.generate import random_table

    t = random_table(random.Random(seed), models=6, scenery=30)
    rng = random.Random(seed)
    hits = 0
    for m in t.models:
        mv = t._mv_mover(m.id)
        j = Jump(t, mv, 6.0)
        for _ in range(8):
            a = j.start
            b = a + np.array([rng.uniform(-6, 6), rng.uniform(-6, 6), rng.choice([0.0, 0.5, 2.0])])
            got = j._first_hit(a, b)
            n = max(2, int(math.ceil(float(np.linalg.norm(b - a)) / STEP)) + 1)
            ts = np.linspace(0.0, 1.0, n)
            pts = a + ts[:, None] * (b - a)
            best, who = 1.0, None
            for s in j.pieces:
                if s.id in j.ignore:
                    continue
                hit = np.flatnonzero(j._blocked(s, pts))
                if len(hit) and ts[hit[0]] < best:
                    best, who = j._bisect(s, a, b, float(ts[hit[0] - 1]) if hit[0] else 0.0, float(ts[hit[0]])), s
            assert got == (best if who is None else j._touched(who, a, b, best), who)
            hits += who is not None
    assert hits >= 3


def test_E_MOVE_CLIMB_to_a_spot_another_model_stands_on_names_it() -> None:
    """The aim is taken: the refusal says who stands there (not that no face can be
    reached), and a free spot beside it is climbed to."""
    foot = 8 - R_M - 0.003
    t = table(model("a", f"[{foot}, 10]", spd=16) + model("b", "[10, 10]", z=3.0, side="blue"),
              roof("house", "[8, 6, 14, 14]", 3.0))
    p = t.plan_move("a", (10.2, 10, 3), kind="climb")
    assert not p.legal and p.violations[0].what.startswith("its base cannot end at (10.2, 10, z 3)")
    assert "b stands there" in p.violations[0].what
    assert t.plan_move("a", (10, 12, 3), kind="climb").legal


def _on_face(spd: int, z: float) -> tuple[Table, float]:
    """An M model hanging on the west face of a 3" house at height ``z`` (a Climb stopped there)."""
    foot = 8 - R_M - 0.003
    t = table(model("a", f"[{foot}, 10]", spd=spd), roof("house", "[8, 6, 14, 14]", 3.0))
    a = t.model("a")
    return t.with_model(Model(a.id, a.side, a.size, a.x, a.y, z, attributes=a.attributes)), foot


def test_E_MOVE_CLIMB_a_climb_that_stops_on_the_face_climbs_on_from_there() -> None:
    """SPD 4 climbs ⌈4/2⌉ = 2": up the 3" face as far as that goes, and on from the face
    in the next Activation: up the rest and over the edge, or down to its foot; nothing
    but a Climb moves a model on a face (E-MOVE-SURFACE)."""
    foot = 8 - R_M - 0.003
    t = table(model("a", f"[{foot}, 10]", spd=4), roof("house", "[8, 6, 14, 14]", 3.0))
    first = t.plan_move("a", (foot, 10, 1.9), kind="climb")
    assert first.legal and first.cost == pytest.approx(1.9) and first.points[-1] == (foot, 10.0, 1.9)
    assert any("stops on the vertical face at z 1.9" in n for n in first.notes)
    air = t.plan_move("a", (5.0, 3.0, 1.0), kind="climb")
    assert not air.legal and "not against a face" in air.violations[0].what
    inside = t.plan_move("a", (10.0, 10.0, 1.0), kind="climb")  # (its foot would be inside the house)
    assert not inside.legal and "not against a face" in inside.violations[0].what
    far = t.plan_move("a", (10.0, 6.0 - R_M - 0.003, 1.0), kind="climb")  # (the south face, 5" of walk away)
    assert not far.legal and "where the model cannot walk" in far.violations[0].what
    hung, _ = _on_face(4, 1.9)
    low, piece = hung.on_face("a")
    assert (low.z, piece) == (0.0, "house") and t.on_face("a") is None
    up = hung.plan_move("a", (foot, 10, 3.0), kind="climb")  # the rest of the face: 1.1"
    assert up.legal and up.cost == pytest.approx(1.1) and up.points == ((foot, 10.0, 1.9), (foot, 10.0, 3.0))
    onto = hung.plan_move("a", (9.0, 10, 3), kind="climb", budget=5)  # 1.1" up, the edge, 1" on
    assert onto.legal and onto.points[1:3] == ((foot, 10.0, 3.0), pytest.approx((8 + R_M + 0.003, 10.0, 3.0)))
    assert onto.cost == pytest.approx(1.1 + (8 + R_M + 0.003 - foot) + (9 - 8 - R_M - 0.003))
    assert hung.check_move("a", onto.points[1:], kind="climb", budget=5).cost == pytest.approx(onto.cost)
    assert not hung.plan_move("a", (9.0, 10, 3), kind="climb").legal  # (over the 2" budget)
    down = hung.plan_move("a", (6.0, 10, 0), kind="climb", budget=5)
    assert down.legal and down.fall_rolls == 0 and down.points[1] == (foot, 10.0, 0.0)
    assert down.cost == pytest.approx(1.9 + foot - 6.0)
    for kind in ("walk", "run", "jump"):
        with pytest.raises(SkirmishError, match="hangs on the face of house at z = 1.9"):
            hung.plan_move("a", (6.0, 10), kind=kind)
    with pytest.raises(SkirmishError, match="only a Climb moves it on"):
        hung.end_bounds("a", np.array([[6.0, 10.0]]))
    sideways = hung.check_move("a", [(foot, 11, 1.9), (foot, 11, 3.0)], kind="climb")
    assert not sideways.legal and "goes on up or down it first" in sideways.violations[0].what


def test_E_MOVE_CLIMB_on_the_face_at_its_top_only_steps_over_the_edge() -> None:
    hung, foot = _on_face(4, 3.0)
    p = hung.plan_move("a", (9.0, 10, 3), kind="climb")
    over = 8 + R_M + 0.003 - foot
    assert p.legal and p.points[1] == pytest.approx((8 + R_M + 0.003, 10.0, 3.0))
    assert p.cost == pytest.approx(over + 9 - (8 + R_M + 0.003)) and p.cost <= 2
    assert hung.check_move("a", p.points[1:], kind="climb").legal


def test_E_MOVE_CLIMB_a_model_on_a_top_that_is_not_walkable_hangs_on_no_face() -> None:
    t = table(model("a", "[4, 10]", spd=4), '[[scenery]]\nid = "block"\nrect = [8, 6, 14, 14]\nheight = 3\n')
    a = t.model("a")
    t = t.with_model(Model(a.id, a.side, a.size, 10.0, 10.0, 3.0, attributes=a.attributes))  # (a file refuses it)
    assert t.on_face("a") is None
    with pytest.raises(SkirmishError, match="mark block walkable = true"):
        t.plan_move("a", (11, 10), kind="walk")


def test_E_MOVE_CLIMB_violations_come_in_the_order_found_in_every_process() -> None:
    """(two violations of one segment came in a set's order, which changes from process to
    process with string hashing)"""
    code = ("from skirmish.scenario.load import loads\n"
            f"t = loads({table_text(model('a', '[7.367, 10]', spd=4), roof('house', '[8, 6, 14, 14]', 3.0))!r})\n"
            "print([v.what for v in t.plan_move('a', (5.0, 3.0, 1.0), kind='climb').violations])\n")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(k)}).stdout for k in range(3)}
    assert len(runs) == 1 and "not against a face" in runs.pop().split("', '")[0]


def test_E_MOVE_CLIMB_E_MOVE_ENEMY_a_climb_passes_no_enemy_and_stops_in_no_hitbox_or_piece() -> None:
    """(a climb tested only its walks: it went through an enemy hanging on the face, stopped
    with its hitbox in a friend's at the foot or inside a balcony over it)"""
    foot = 8 - R_M - 0.003
    house = roof("house", "[8, 6, 14, 14]", 4.0)
    t = table(model("a", f"[{foot}, 10]", spd=12) + model("b", f"[{foot}, 10]", side="blue", z=2.0), house)
    assert t.on_face("b")[1] == "house"
    through = t.plan_move("a", (9.0, 10, 4.0), kind="climb")
    assert not through.legal and "passes through the enemy b" in through.violations[0].what
    assert "inside b's hitbox" in t.plan_move("a", (foot, 10, 2.5), kind="climb").violations[0].what
    friend = table(model("a", f"[{foot}, 10]", spd=12) + model("f", f"[{foot}, 10]", z=2.0), house)
    assert friend.plan_move("a", (9.0, 10, 4.0), kind="climb").legal  # (a friend is climbed past)
    assert "inside f's hitbox" in friend.plan_move("a", (foot, 10, 2.5), kind="climb").violations[0].what
    above = table(model("a", f"[{foot}, 10]", spd=12, z=3.5) + model("f", f"[{foot - 0.4}, 10]"), house)
    down = above.plan_move("a", (foot, 10, 1.2), kind="climb")  # (down onto the head of a friend at the foot)
    assert not down.legal and "inside f's hitbox" in down.violations[0].what
    balcony = '[[scenery]]\nid = "balcony"\nrect = [6, 9, 8, 11]\nbase = 2\nheight = 0.5\n'
    b = table(model("a", "[5, 10]", spd=12), house + balcony).plan_move("a", (foot, 10, 2.2), kind="climb")
    assert not b.legal and "passes through balcony" in b.violations[0].what


def test_E_MOVE_CLIMB_from_a_face_it_climbs_only_a_face_that_rises_from_its_foot() -> None:
    """(it climbed on from a house's face up a crate's flush face, and then hung on
    nothing: the crate does not rise from the table) One face, from its foot; Flying is
    never on a face."""
    foot = 6 - R_M - 0.003
    crate = '[[scenery]]\nid = "crate"\nrect = [6, 8, 8, 12]\nheight = 2\nbase = 3\nwalkable = true\n'
    t = table(model("a", f"[{foot}, 10]", spd=12), roof("house", "[6, 6, 14, 14]", 3.0) + crate)
    a = t.model("a")
    hung = t.with_model(Model(a.id, a.side, a.size, foot, 10, 3.0, attributes=a.attributes))
    assert hung.on_face("a")[1] == "house"
    on = hung.plan_move("a", (foot, 10, 4.5), kind="climb")
    assert not on.legal and "not against a face" in on.violations[0].what
    flying = t.with_model(Model(a.id, a.side, a.size, foot, 10, 2.0, attributes=a.attributes,
                                states=frozenset({"Flying"})))
    assert flying.on_face("a") is None


@pytest.mark.parametrize("off", [0.0, 1e-16, -1e-16, 4e-16])
def test_E_MOVE_CLIMB_a_legal_stop_on_a_face_is_where_the_model_then_hangs(off: float) -> None:
    """(the checker took a base 2 GAP off the face, a hair further than the face a model
    hangs on: a legal stop left it on nothing) One test of touching a face for both."""
    e = 6.43
    x = e - R_M - 0.006 + off
    t = table(model("a", "[4, 10]", spd=10), roof("house", f"[{e}, 6, {e + 5}, 14]", 3.0))
    stop = t.check_move("a", [(x, 10, 0), (x, 10, 1.5)], kind="climb")
    a = t.model("a")
    hung = t.with_model(Model(a.id, a.side, a.size, x, 10, 1.5, attributes=a.attributes))
    assert stop.legal == (hung.on_face("a") is not None)


def test_E_MOVE_CLIMB_from_a_roof_a_climb_down_may_stop_on_the_face() -> None:
    t = table(model("a", "[9, 10]", spd=12, z=3.0), roof("house", "[8, 6, 14, 14]", 3.0))
    foot = 8 - R_M - 0.003
    p = t.plan_move("a", (foot, 10, 1.5), kind="climb")
    assert p.legal and p.points[-2:] == ((foot, 10.0, 3.0), (foot, 10.0, 1.5))
    assert t.check_move("a", p.points[1:], kind="climb").cost == pytest.approx(p.cost)
