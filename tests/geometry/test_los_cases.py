"""Line of sight, hand-made cases: E-LOS (with its interpretation), E-ARC, E-LOS-MOVE."""

from __future__ import annotations

import pytest

import skirmish
from skirmish.scenario.load import loads

from conftest import SCENARIOS, table_text
from los_oracle import witness_is_valid

MM = 1 / 25.4


def model(id, at, size="M", side="red", facing=0, extra=""):
    return f'[[models]]\nid = "{id}"\nside = "{side}"\nsize = "{size}"\nat = {list(at)}\nfacing = {facing}\n{extra}\n'


def scenery(id, rect=None, height=3, extra="", polygon=None, circle=None):
    shape = f"rect = {list(rect)}" if rect else (f"polygon = {polygon}" if polygon else f"circle = {list(circle)}")
    return f'[[scenery]]\nid = "{id}"\n{shape}\nheight = {height}\n{extra}\n'


def los(text, a="a", b="b", **kw):
    t = loads(text)
    r = t.line_of_sight(a, b, **kw)
    if r.visible:
        assert witness_is_valid(t, a, b, r.witness, kw.get("arc", "front")), r
    return r


def test_E_LOS_open_ground_is_visible_with_a_valid_witness():
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue")))
    assert r.visible and r.reason == "clear" and r.blockers == ()


def test_E_LOS_wall_blocks_and_is_named():
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), scenery("wall", (9, 6, 9.5, 14))))
    assert not r.visible and r.reason == "blocked" and r.blockers == ("wall",)


def test_E_LOS_two_abutting_walls_that_block_together_are_both_named():
    """A line across the sight lines is covered by one wall and the next together (the
    other's own line is not): the proof uses both, and both are named."""
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"),
                       scenery("low", (9.8, 7, 10.2, 10)) + scenery("long", (9.8, 10, 14, 13))))
    assert not r.visible and r.stage == "separator" and r.blockers == ("low", "long")
    assert r.stage == "separator"  # settled in one step: the wall separates the bases


def test_E_LOS_seeing_over_a_low_wall():
    """A Medium model (45 mm) sees over a 20 mm wall; a Crouched one behind it does not."""
    wall = scenery("low", (9, 6, 9.5, 14), height='"20mm"')
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), wall))
    assert r.visible and max(r.witness[0][2], r.witness[1][2]) > 20 * MM
    hidden = los(table_text(model("a", (4, 10)) + model("b", (10.2, 10), side="blue", extra='states = ["Crouched"]'), wall))
    assert not hidden.visible and hidden.blockers == ("low",)


def test_E_LOS_grazing_a_corner_is_visible():
    """The wall leaves only a 0.3 mm sliver of view past its corner: a witness grazes the corner."""
    r_m = 16 * MM
    text = table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"),
                      scenery("wall", (8, 5, 12, 10 + r_m - 0.3 * MM), height=4))
    r = los(text)
    assert r.visible
    assert min(r.witness[0][1], r.witness[1][1]) > 10 + r_m - 0.3 * MM - 1e-9


def test_E_LOS_exact_tangent_is_proven_either_way():
    """Sight lines tangent to the wall's face keep no clearance: the answer is certified
    either way (a witness keeps ε clear; a certificate names the wall)."""
    r_m = 16 * MM
    text = table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"),
                      scenery("wall", (8, 5, 12, 10 + r_m), height=4))
    r = los(text)
    assert r.visible or (r.blockers == ("wall",) and r.reason == "blocked")


def test_E_LOS_friend_in_the_way_blocks():
    """Other models block, friends too: a Huge friend (wider and taller) hides b."""
    text = table_text(model("a", (4, 10)) + model("friend", (10, 10), size="H") + model("b", (16, 10), side="blue"))
    r = los(text)
    assert not r.visible and r.blockers == ("friend",)


def test_E_LOS_three_in_a_row_the_middle_one_blocks():
    """Issue 20's row: three Medium models 4" apart. Grazing is not seeing: every sight
    line from a to b runs within ε of mid's top or side, so mid blocks (and b's top cap,
    flush with mid's top, is not seen either)."""
    text = """format = 1
name = "row"
[table]
size = [24, 24]
[[models]]
id = "a"
side = "red"
size = "M"
at = [4, 12]
facing = 0
[[models]]
id = "mid"
side = "blue"
size = "M"
at = [8, 12]
[[models]]
id = "b"
side = "blue"
size = "M"
at = [12, 12]
"""
    t = loads(text)
    r = t.line_of_sight("a", "b", fraction=True)
    assert not r.visible and r.reason == "blocked" and r.blockers == ("mid",) and r.certified
    assert r.visible_fraction == 0.0
    assert t.line_of_sight("a", "mid").visible


@pytest.mark.parametrize("front, behind", [("L", "M"), ("M", "L"), ("M", "M"), ("S", "S")])
def test_E_LOS_equal_height_model_behind_a_blocker_is_hidden(front, behind):
    """M behind L (both 45 mm tall), and the like: no sight line keeps ε clear."""
    text = table_text(model("a", (4, 10), size=front) + model("mid", (10, 10), size=front)
                      + model("b", (16, 10), size=behind, side="blue"))
    if front == "M" and behind == "L":  # L is wider than the M in front: seen past its sides
        assert los(text).visible
        return
    r = los(text)
    assert not r.visible and r.blockers == ("mid",) and r.certified


def test_E_LOS_a_taller_model_behind_the_blocker_is_seen_over_it():
    """A Huge model (50 mm) behind a Large one (45 mm) shows its head."""
    text = table_text(model("a", (4, 10), size="L") + model("mid", (10, 10), size="L")
                      + model("b", (16, 10), size="H", side="blue"))
    r = los(text)
    assert r.visible and max(r.witness[0][2], r.witness[1][2]) > 45 * MM


@pytest.mark.parametrize("gap_mm, visible", [(0.2, True), (0.05, False), (1.0, True)])
def test_E_LOS_slot_between_two_walls(gap_mm, visible):
    """A slot of 0.2 mm keeps exactly ε on either side of the sight line through its
    middle: visible. At 0.05 mm no line keeps ε clear: blocked, both walls named."""
    gap = gap_mm * MM
    walls = scenery("w1", (9, 0, 9.5, 10 - gap / 2), height=4) + scenery("w2", (9, 10 + gap / 2, 9.5, 20), height=4)
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), walls))
    assert r.visible == visible and r.certified
    if not visible:
        assert set(r.blockers) == {"w1", "w2"}


@pytest.mark.parametrize("shift", [-1e-6, 0.0, 1e-6])
def test_E_LOS_corner_graze_at_exactly_eps_is_certified_either_way(shift):
    """The only sight lines pass a wall's corner at exactly ε: either verdict, certified."""
    r_m = 16 * MM
    text = table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"),
                      scenery("wall", (8, 5, 12, 10 + r_m - 0.1 * MM + shift), height=4))
    r = los(text)
    assert r.certified and (r.visible or r.blockers == ("wall",))


def test_E_ARC_back_arc_is_out_of_arc():
    text = table_text(model("a", (10, 10), facing=180) + model("b", (16, 10), side="blue"))
    r = los(text)
    assert not r.visible and r.reason == "out_of_arc" and r.blockers == ()


def test_E_ARC_target_straddling_the_arc_line_is_seen_in_its_front_part():
    text = table_text(model("a", (10, 10), facing=90) + model("b", (16, 10), side="blue"))
    r = los(text)
    assert r.visible and r.witness[1][1] >= 10 - 1e-9


def test_E_LOS_MOVE_all_round_vision_while_moving():
    text = table_text(model("a", (10, 10), facing=180) + model("b", (16, 10), side="blue"))
    assert los(text, arc="all").visible


def test_E_LOS_is_not_symmetric():
    text = table_text(model("a", (10, 10), facing=0) + model("b", (16, 10), side="blue", facing=0))
    t = loads(text)
    assert t.line_of_sight("a", "b").visible and not t.line_of_sight("b", "a").visible


def test_E_LOS_gap_wider_than_tolerance_is_found():
    """Two walls with a 1 mm gap on the line between the models: the witness runs through it."""
    gap = 1 * MM
    walls = scenery("w1", (9, 0, 9.5, 10 - gap / 2), height=4) + scenery("w2", (9, 10 + gap / 2, 9.5, 20), height=4)
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), walls))
    assert r.visible
    (x0, y0, _), (x1, y1, _) = r.witness
    y_at_wall = y0 + (y1 - y0) * (9.25 - x0) / (x1 - x0)
    assert abs(y_at_wall - 10) < gap / 2


def test_E_LOS_gap_narrower_than_tolerance_gives_a_proven_answer():
    """A 0.05 mm gap (narrower than ε = 0.1 mm): either a valid witness through it, or a
    certificate naming both walls."""
    gap = 0.05 * MM
    walls = scenery("w1", (9, 0, 9.5, 10 - gap / 2), height=4) + scenery("w2", (9, 10 + gap / 2, 9.5, 20), height=4)
    text = table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), walls)
    r = los(text)  # a witness is checked inside los()
    assert r.visible or (set(r.blockers) == {"w1", "w2"} and r.tolerance == pytest.approx(0.1 * MM))


def test_E_LOS_no_gap_at_all_is_blocked():
    walls = scenery("w1", (9, 0, 9.5, 10), height=4) + scenery("w2", (9, 10, 9.5, 20), height=4)
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), walls))
    assert not r.visible and set(r.blockers) <= {"w1", "w2"}


def test_E_LOS_roof_edge():
    """A model on a 3" roof sees a far model, but not one hugging the building's wall."""
    hut = scenery("hut", (8, 6, 14, 14), height=3, extra="walkable = true")
    text = table_text(model("a", (9, 10), extra="z = 3") + model("far", (20, 10), side="blue")
                      + model("hug", (14 + 16 * MM, 10), side="blue"), hut)
    t = loads(text)
    assert t.line_of_sight("a", "far").visible
    r = t.line_of_sight("a", "hug")
    assert not r.visible and r.blockers == ("hut",)
    # from the roof's edge the hugging model is seen again
    near_edge = loads(text.replace("at = [9, 10]", f"at = [{14 - 16 * MM}, 10]"))
    assert near_edge.line_of_sight("a", "hug").visible


def test_E_LOS_building_solid_blocks_a_model_on_its_roof_from_below():
    hut = scenery("hut", (8, 6, 14, 14), height=3, extra="walkable = true")
    text = table_text(model("roof", (11, 10), extra="z = 3") + model("b", (15, 10), side="blue", facing=180), hut)
    t = loads(text)
    assert not t.line_of_sight("b", "roof").visible  # b's head at 1.77 in is below the roof at 3 in
    assert t.line_of_sight("b", "roof").blockers == ("hut",)


def test_E_LOS_bridge_overhead_does_not_block():
    bridge = scenery("bridge", (9, 5, 11, 15), height=0.3, extra="base = 3")
    r = los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), bridge))
    assert r.visible


def test_E_LOS_model_on_a_bridge_seen_only_past_the_deck():
    bridge = scenery("bridge", (8, 5, 12, 15), height=0.3, extra="base = 3\nwalkable = true")
    text = table_text(model("a", (4, 10)) + model("b", (10, 10), side="blue", extra="z = 3.3"), bridge)
    r = los(text)
    assert r.visible and r.witness[1][2] > 3.3 - 1e-9 or not r.visible


def test_E_LOS_sealed_segment_on_the_table_top_does_not_slip_under_a_base():
    """Small models either side of a Huge one: only segments along z = 0 could pass,
    under the Huge model's base; solids are sealed to their surface, so it blocks."""
    text = table_text(model("a", (4, 10), size="S") + model("huge", (10, 10), size="H") + model("b", (16, 10), size="S", side="blue"))
    r = los(text)
    assert not r.visible and r.blockers == ("huge",)


def test_E_LOS_sealed_on_a_roof_too():
    """The same on a rooftop: no segment slips between a model and the roof it stands on."""
    roof = scenery("roof", (2, 6, 18, 14), height=3, extra="walkable = true")
    text = table_text(model("a", (4, 10), size="S", extra="z = 3") + model("huge", (10, 10), size="H", extra="z = 3")
                      + model("b", (16, 10), size="S", side="blue", extra="z = 3"), roof)
    r = los(text)
    assert not r.visible and "huge" in r.blockers


def test_E_LOS_sealed_wall_on_the_table_top():
    """Two crouched models (3 mm hitboxes) and a 2 mm-high kerb that stands on the table:
    the sight lines over the kerb are clear; below it nothing slips through."""
    kerb = scenery("kerb", (9, 5, 9.5, 15), height='"2mm"')
    crouch = 'states = ["Crouched"]'
    r = los(table_text(model("a", (4, 10), extra=crouch) + model("b", (16, 10), side="blue", extra=crouch), kerb))
    assert r.visible and min(r.witness[0][2], r.witness[1][2]) >= 0
    taller = scenery("kerb", (9, 5, 9.5, 15), height='"4mm"')
    assert not los(table_text(model("a", (4, 10), extra=crouch) + model("b", (16, 10), side="blue", extra=crouch), taller)).visible


def test_see_through_scenery_does_not_block():
    hedge = scenery("hedge", (9, 6, 9.5, 14), height=3, extra="blocks_los = false")
    assert los(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), hedge)).visible


def test_non_convex_ruin_blocks_across_its_inner_seams():
    """An L-shaped ruin (cut into convex pieces inside) blocks lines crossing its corner."""
    ruin = scenery("ruin", polygon="[[8, 4], [20, 4], [20, 6], [10, 6], [10, 16], [8, 16]]", height=4)
    t = loads(table_text(model("a", (6, 2), facing=45) + model("b", (14, 10), side="blue"), ruin))
    assert len(t.scenery_piece("ruin").solid.convex_pieces) > 1
    r = t.line_of_sight("a", "b")
    assert not r.visible and r.blockers == ("ruin",)


def test_scalar_and_batch_agree_on_the_bundled_scenarios():
    for path in SCENARIOS.glob("*.toml"):
        t = skirmish.load(path)
        batch = t.line_of_sight_all()
        for r in batch[:: max(1, len(batch) // 40)]:
            assert t.line_of_sight(r.frm, r.to) == r


def test_invalid_requests_are_refused():
    t = skirmish.load(SCENARIOS / "first-steps.toml")
    with pytest.raises(skirmish.SkirmishError, match="to itself"):
        t.line_of_sight("akane", "akane")
    with pytest.raises(skirmish.UnknownIdError):
        t.line_of_sight("akane", "nobody")
    with pytest.raises(skirmish.SkirmishError, match="tolerance"):
        t.line_of_sight("akane", "brute", tolerance=0)


TWO_WALL_ENDS = """format = 1
name = "two wall ends"
mode = "assisted"
[table]
size = [36, 36]
[[scenery]]
id = "w1"
polygon = [[20.6225, 13.2782], [20.2684, 12.9878], [16.9712, 17.0066], [17.3252, 17.2971]]
height = 3.6517
[[scenery]]
id = "w2"
polygon = [[12.5049, 2.7199], [12.4119, 3.0859], [16.5676, 4.1415], [16.6606, 3.7754]]
height = 3.4443
[[models]]
id = "a"
side = "red"
size = "L"
at = [17.0103, 28.7238]
facing = 275.93
[[models]]
id = "b"
side = "red"
size = "M"
at = [15.9596, 0.8009]
facing = 253.92
"""


def test_E_LOS_two_wall_ends_in_line_are_certified():
    """Issue 12's table: two wall ends nearly in line with every sight line from a to b.
    Every sight line past one end meets the other wall: blocked, certified, both named."""
    r = loads(TWO_WALL_ENDS).line_of_sight("a", "b")
    assert not r.visible and r.certified and r.blockers == ("w1", "w2")


def test_search_limit_is_reported_not_hidden(monkeypatch):
    """Were the search to stop at its safety limit, the answer would say so (certified
    False), never claim a proof."""
    import skirmish.geometry.los as los_mod

    t = loads(TWO_WALL_ENDS)
    monkeypatch.setattr(los_mod, "MAX_BUNDLES_PER_PAIR", 0)
    r = t.line_of_sight("a", "b")
    assert not r.visible and r.stage == "undecided" and not r.certified and r.to_json()["certified"] is False
    monkeypatch.undo()
    assert loads(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"))).line_of_sight("a", "b").certified


def _direct_surface_samples(c, n, offset):
    """The samples of E-COVER's visible fraction, written out point by point (the oracle)."""
    import math

    k = max(2, n // 2)
    rs = c.radius + offset
    pts, w = [], []
    for i in range(k):
        for j in range(n):
            a = (j + 0.5) * 2 * math.pi / n
            pts.append((c.x + rs * math.cos(a), c.y + rs * math.sin(a), c.z + (i + 0.5) * c.height / k))
            w.append(2 * math.pi * c.radius * c.height / (n * k))
    rings = max(1, n // 4)
    for i in range(rings):
        r0, r1 = c.radius * i / rings, c.radius * (i + 1) / rings
        for j in range(n):
            a = (j + 0.5) * 2 * math.pi / n + (i % 2) * math.pi / n
            pts.append((c.x + (r0 + r1) / 2 * math.cos(a), c.y + (r0 + r1) / 2 * math.sin(a), c.top + offset))
            w.append(math.pi * (r1 ** 2 - r0 ** 2) / n)
    return pts, w


@pytest.mark.parametrize("n, offset", [(16, 0.0), (16, 0.01), (8, 0.001), (4, 0.0), (12, 0.02)])
def test_E_COVER_surface_samples_are_the_pattern_moved_to_each_cylinder(n, offset):
    import numpy as np

    from skirmish.geometry.los import surface_samples
    from skirmish.geometry.solids import Cylinder

    for c in (Cylinder(3.0, 4.0, 0.0, 0.625, 1.4), Cylinder(-7.5, 30.25, 2.5, 0.625, 1.4), Cylinder(10.0, 1.0, 1.0, 1.0, 2.5)):
        pts, w = surface_samples(c, n, offset=offset)
        want, want_w = _direct_surface_samples(c, n, offset)
        assert np.allclose(pts, want, rtol=0, atol=1e-12) and np.allclose(w, want_w, rtol=0, atol=1e-12)
        assert w.sum() == pytest.approx(2 * np.pi * c.radius * c.height + np.pi * c.radius ** 2)
        w[:] = 0.0  # a caller's copy: the next call is unchanged
        assert surface_samples(c, n, offset=offset)[1].sum() > 0


def test_E_LOS_a_batch_of_viewer_rows_answers_as_the_viewers_do():
    """E-LOS: ends given as rows of one array (``Viewers``: Cover's samples, the
    reactions' path points) get the answers the same ends give one object each."""
    import random

    import numpy as np

    from skirmish.geometry.los import Viewer, Viewers, line_of_sight_batch
    from skirmish.scenario.generate import random_table

    t = random_table(random.Random(7), models=8, scenery=14)
    rng = random.Random(1)
    src = [t._viewer(m.id) for m in t.models]
    pts = [Viewer(rng.uniform(0, 36), rng.uniform(0, 36), 0.0, rng.uniform(0, 3), 0.0, -1) for _ in range(60)]
    sources = [rng.choice(src) for _ in pts]
    facings = [None if rng.random() < 0.3 else t.models[s.owner].facing_vector for s in sources]
    rows_s, rows_t = Viewers.of(sources), Viewers.of(pts)
    assert Viewers.of(rows_s) is rows_s and len(rows_t) == 60 and rows_t[5] == pts[5] and rows_s[7] == sources[7]
    assert list(rows_t[2:4]) == pts[2:4] and list(Viewers.repeat(src[0], 3)) == [src[0]] * 3
    assert list(rows_s[:10] + sources[10:]) == sources
    assert np.array_equal((Viewers.of([]) + ()).rows, np.zeros((0, 6)))
    want = line_of_sight_batch(t.los_obstacles, sources, pts, facings)
    got = line_of_sight_batch(t.los_obstacles, rows_s, rows_t, facings)
    assert got == want and any(a.visible for a in got) and not all(a.visible for a in got)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_E_LOS_pairs_asked_only_whether_any_is_visible_answer_or_are_moot(seed):
    """E-LOS, ``any_of``: a pair outside any group gets its own answer; a pair of a group
    gets its own answer or, where another pair of its group is visible, MOOT; so whether
    a group sees is told exactly (the reactions' Dodge asks only that)."""
    import random

    import numpy as np

    from skirmish.geometry import los
    from skirmish.scenario.adversarial import dense_table

    t = dense_table(random.Random(seed))
    ids = t.model_ids
    pairs = [(a, b) for a in ids for b in ids if a != b]
    src = [t._viewer(a) for a, _ in pairs]
    dst = [t._viewer(b) for _, b in pairs]
    facings = [t.model(a).facing_vector for a, _ in pairs]
    own = los.line_of_sight_batch(t.los_obstacles, src, dst, facings)
    rng = random.Random(seed)
    groups = np.array([-1 if rng.random() < 0.2 else ids.index(b) for _, b in pairs])  # "does anyone see b?"
    got = los.line_of_sight_batch(t.los_obstacles, src, dst, facings, any_of=groups)
    moot = [r is los.MOOT for r in got]
    assert any(moot), "some grouped pair is left unsolved"
    for g, r, want in zip(groups.tolist(), got, own):
        assert r == want or (g >= 0 and r is los.MOOT)
    for g in set(groups.tolist()) - {-1}:
        k = np.flatnonzero(groups == g)
        assert any(got[i].visible for i in k) == any(own[i].visible for i in k)
        assert not any(moot[i] for i in k) or any(got[i].visible for i in k)
