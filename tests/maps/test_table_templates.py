"""AoE templates on the table, hand-made cases: E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY,
E-TMPL-STK, E-MODE, E-LOS (only scenery blocks), E-ARC, E-DODGE."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
import shapely

from skirmish import IllegalActionError, MeasurementRefused, Mode, Model, Scenery, SkirmishError, Table, UnknownIdError
from skirmish.geometry.los import DEFAULT_TOLERANCE
from skirmish.geometry.solids import Prism
from skirmish.maps.template_results import Placement
from skirmish.rules.eldfall.templates import TEMPLATES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "geometry"))
import los_oracle as oracle  # noqa: E402

MM = 1 / 25.4
R_SMALL, R_LARGE = 35 * MM, 60 * MM
RHO_M, RHO_S, RHO_L = 16 * MM, 12.5 * MM, 20 * MM


def model(mid: str, side: str, x: float, y: float, *, size: str = "M", z: float = 0.0, facing: float = 0.0,
          **kw) -> Model:
    return Model(mid, side, size, x, y, z, facing, **kw)


def box(sid: str, x0: float, y0: float, x1: float, y1: float, h: float, *, walkable: bool = False,
        blocks: bool = True) -> Scenery:
    foot = shapely.box(x0, y0, x1, y1)
    return Scenery(sid, Prism(foot, 0.0, h), "rect", (x0, y0, x1, y1), blocks, walkable)


def table(models, scenery=(), mode: str = "assisted") -> Table:
    return Table(30, 30, tuple(models), tuple(scenery), Mode(mode))


def witness_ok(t: Table, seg, target: str, source: str | None = None, point=None) -> bool:
    """The witness starts at the centre point, ε above its surface (or in the attacker's
    front half), ends on the target's hitbox and keeps ε clear of the scenery (E-LOS;
    models never block a template)."""
    lifted = None if point is None else (point[0], point[1], point[2] + DEFAULT_TOLERANCE)
    start_ok = (math.dist(seg[0], lifted) < 1e-9) if lifted is not None else oracle.in_front_half(t, source, seg[0])
    return (start_ok and oracle.in_hitbox(t, target, seg[1])
            and not oracle.clearance_blockers(t, seg, set(t.model_ids), DEFAULT_TOLERANCE))


# -- E-TMPL, E-TMPL-CIRCLE -------------------------------------------------------------

def test_E_TMPL_CIRCLE_tangent_hitbox_counts_as_touching():
    t = table([model("brute", "blue", 10, 10), model("imp", "blue", 10 + R_SMALL + RHO_S, 10, size="S"),
               model("far", "blue", 10, 10 + R_SMALL + RHO_S + 0.01, size="S")])
    r = t.template("circle-small", on="brute")
    assert r.affected_ids == ("brute", "imp")
    hit = {h.id: h for h in r.affected}
    assert hit["brute"].coverage == "covered" and hit["imp"].coverage == "touching"
    assert "touching the edge" in hit["imp"].why
    assert "far" not in r.affected_ids + r.spared_ids  # not under the template at all
    assert r.main_target == "brute" and r.main_target_covered is True and r.main_target_rule == "covered"


def test_E_TMPL_partly_covered_model_is_hit_and_the_outline_is_the_circle():
    t = table([model("brute", "blue", 10, 10), model("imp", "blue", 10 + R_LARGE, 10)])
    r = t.template("circle-large", on="brute")
    assert {h.id: h.coverage for h in r.affected} == {"brute": "covered", "imp": "partly"}
    assert all(math.dist(p, (10, 10)) == pytest.approx(R_LARGE) for p in r.outline) and len(r.outline) >= 64


def test_E_TMPL_CIRCLE_roof_model_4in_up_is_outside_the_band():
    """A circle lies on the main target's surface and reaches ±3": a base 4" up is spared."""
    t = _roof_table()
    r = t.template("circle-large", on="brute")
    spared = {s.id: s for s in r.spared}
    assert "archer" in spared and spared["archer"].reason == "band"
    assert spared["archer"].dz == pytest.approx(4.0) and "outside the band" in spared["archer"].why
    assert "archer" not in r.affected_ids and r.surface_z == 0


def test_E_TMPL_SPRAY_catches_the_roof_model_4in_up():
    """A spray reaches ±5" of the attacker's base: the same roof model at 4" is hit."""
    t = _roof_table()
    r = t.template("spray-large", by="akane", toward="brute")
    assert "archer" in r.affected_ids and "brute" in r.affected_ids
    hit = {h.id: h for h in r.affected}
    assert hit["archer"].dz == pytest.approx(4.0)
    assert witness_ok(t, hit["archer"].witness, "archer", source="akane")
    assert r.surface_z == 0 and r.band == 5


def _roof_table() -> Table:
    return table([model("akane", "red", 6, 10), model("brute", "blue", 10, 10),
                  model("archer", "blue", 12.7, 10, z=4.0, facing=180)],
                 [box("house", 12, 8, 16, 12, 4.0, walkable=True)])


def test_E_TMPL_CIRCLE_a_wall_between_centre_and_model_spares_it():
    wall = box("wall", 10.9, 9, 11.1, 11, 3.0)
    t = table([model("brute", "blue", 10, 10), model("other", "blue", 12, 10)], [wall])
    r = t.template("circle-large", on="brute")
    spared = {s.id: s for s in r.spared}
    assert spared["other"].reason == "no_los" and spared["other"].blockers == ("wall",)
    assert "blocked by wall" in spared["other"].why
    # the engine's certificate agrees with the oracle: no sampled sight line from the centre is clear
    assert all(oracle.blockers(t, ((10, 10, 0.0), (x, y, z)), set(t.model_ids))
               for x in (11.4, 12, 12.6) for y in (9.5, 10, 10.5) for z in (0.1, 1.0, 1.7))
    # without the wall the same model is hit, with a witness from the centre point
    clear = table([model("brute", "blue", 10, 10), model("other", "blue", 12, 10)])
    w = {h.id: h.witness for h in clear.template("circle-large", on="brute").affected}["other"]
    assert witness_ok(clear, w, "other", point=(10, 10, 0.0))


def test_E_TMPL_CIRCLE_models_do_not_block_the_blast():
    """Only scenery blocks a template's LoS: a model standing between centre and victim does not."""
    t = table([model("brute", "blue", 10, 10), model("shield", "blue", 11.4, 10, size="S"),
               model("victim", "blue", 12.1, 10, size="S")])
    r = t.template("circle-large", on="brute")
    assert set(r.affected_ids) == {"brute", "shield", "victim"}


def test_E_TMPL_CIRCLE_the_user_is_never_hit():
    t = table([model("mage", "red", 10 + 1.2, 10), model("brute", "blue", 10, 10)])
    r = t.template("circle-small", on="brute", by="mage")
    assert r.affected_ids == ("brute",)
    assert [(s.id, s.reason) for s in r.spared] == [("mage", "user")]
    with pytest.raises(IllegalActionError, match="never hit"):
        t.template("circle-small", on="mage", by="mage")


def test_E_TMPL_off_centre_placement_may_leave_the_main_target_uncovered():
    t = table([model("brute", "blue", 10, 10)])
    ok = t.template("circle-small", on="brute", at=(10 + (R_SMALL - RHO_M), 10))  # internally tangent
    assert ok.main_target_covered is True
    bad = t.template("circle-small", on="brute", at=(10.8, 10))
    assert bad.main_target_covered is False and bad.main_target_rule is None
    assert bad.hits("brute")  # still partly covered, so still affected


def test_E_TMPL_CIRCLE_at_a_point_has_no_main_target_and_lies_on_the_surface_under_it():
    t = _roof_table()
    r = t.template("circle-small", at=(13.0, 10.5))  # on the house's roof, 4" up
    assert r.main_target is None and r.main_target_covered is None and r.main_target_rule is None
    assert r.surface_z == 4.0 and r.affected_ids == ("archer",)
    r0 = t.template("circle-small", at=(13.0, 10.5), z=0.0)  # given surface: the table
    assert r0.surface_z == 0.0 and [s.reason for s in r0.spared] == ["band"]
    with pytest.raises(SkirmishError, match="main target's surface"):
        t.template("circle-small", at=(10, 10), on="brute", z=1.0)


# -- E-TMPL-SPRAY ----------------------------------------------------------------------

def _spray_table(bx: float, by: float = 5.0, size: str = "L", **extra) -> Table:
    return table([model("akane", "red", 5, 5), model("brute", "blue", bx, by, size=size), *extra.get("more", ())],
                 extra.get("scenery", ()))


def test_E_TMPL_SPRAY_far_target_must_be_covered_entirely():
    t = _spray_table(9.5)
    assert t.template("spray-small", by="akane", toward="brute").main_target_rule == "covered"
    off = t.template("spray-small", by="akane", on="brute", direction=20)
    assert off.main_target_covered is False and off.hits("brute")


def test_E_TMPL_SPRAY_too_close_target_needs_both_long_edges_to_cross_it():
    contact = 5 + RHO_M + RHO_L  # brute in base contact with akane
    t = _spray_table(contact)
    r = t.template("spray-small", by="akane", toward="brute")
    assert r.main_target_covered is True and r.main_target_rule == "edges"
    hit = {h.id: h for h in r.affected}
    assert hit["brute"].coverage != "covered"  # it cannot be covered entirely this close
    skew = t.template("spray-small", by="akane", on="brute", direction=45)
    assert skew.hits("brute") and skew.main_target_covered is False


def test_E_TMPL_SPRAY_narrow_end_touches_the_attacker_who_is_spared():
    t = _spray_table(9.5)
    r = t.template("spray-large", by="akane", toward="brute")
    assert [(s.id, s.reason, s.coverage) for s in r.spared] == [("akane", "user", "touching")]
    assert math.dist(r.tip, (5 + RHO_M, 5)) == pytest.approx(0, abs=1e-9) and r.direction == pytest.approx(0)


def test_E_TMPL_SPRAY_band_is_5in_around_the_attacker():
    more = (model("high", "blue", 8.0, 5.0, z=5.5), model("edge", "blue", 8.0, 6.6, z=5.0))
    scen = (box("tower", 7.2, 4.2, 8.8, 7.5, 5.0, walkable=True),)
    t = _spray_table(11.0, more=more, scenery=scen)
    r = t.template("spray-large", by="akane", toward="brute")
    assert {s.id: s.reason for s in r.spared}.get("high") == "band"
    assert "edge" not in {s.id for s in r.spared if s.reason == "band"}


def test_E_TMPL_SPRAY_needs_LoS_from_the_attackers_front_arc():
    """E-ARC: pointed backwards, a model behind the attacker is out of arc, hence spared."""
    t = table([model("akane", "red", 10, 5, facing=0), model("rear", "blue", 7, 5)])
    r = t.template("spray-small", by="akane", direction=180)
    s = {x.id: x for x in r.spared}["rear"]
    assert s.reason == "no_los" and s.los_reason == "out_of_arc" and "front arc" in s.why
    t2 = table([model("akane", "red", 10, 5, facing=180), model("rear", "blue", 7, 5)])
    assert t2.template("spray-small", by="akane", direction=180).hits("rear")


def test_E_TMPL_SPRAY_wall_blocks_the_attacker():
    wall = box("wall", 6.5, 3, 6.8, 7, 3.0)
    t = _spray_table(9.5, scenery=(wall,))
    r = t.template("spray-small", by="akane", toward="brute")
    s = {x.id: x for x in r.spared}["brute"]
    assert s.reason == "no_los" and s.blockers == ("wall",)
    assert r.main_target_covered is True  # covered, but the wall spares it


def test_E_TMPL_SPRAY_point_aim_and_errors():
    t = _spray_table(9.5)
    r = t.template("spray-large", by="akane", toward=(5, 12))
    assert r.direction == pytest.approx(90) and r.main_target is None and r.main_target_covered is None
    with pytest.raises(SkirmishError, match="by="):
        t.template("spray-small", toward="brute")
    with pytest.raises(SkirmishError, match="not placed at a point"):
        t.template("spray-small", by="akane", at=(3, 3))
    with pytest.raises(SkirmishError, match="by its centre"):
        t.template("circle-small", toward="brute")
    with pytest.raises(UnknownIdError, match="circle-small"):
        t.template("circle-smal", on="brute")
    with pytest.raises(UnknownIdError, match="brute"):
        t.template("circle-small", on="brutte")


# -- E-TMPL-STK ------------------------------------------------------------------------

def test_E_TMPL_STK_each_template_resolved_separately_with_counts():
    t = table([model("mage", "red", 3, 3), model("brute", "blue", 10, 10), model("imp", "blue", 11.5, 10, size="S"),
               model("orc", "blue", 20, 20)])
    v = t.templates("circle-small", [Placement(on="brute"), Placement(on="imp"), Placement(on="orc")], by="mage",
                    strike=3)
    assert [r.main_target for r in v.results] == ["brute", "imp", "orc"]
    assert dict(v.counts) == {"brute": 2, "imp": 2, "orc": 1}
    with pytest.raises(IllegalActionError, match="Strike 2"):
        t.templates("circle-small", [Placement(on="brute")] * 3, by="mage", strike=2)
    with pytest.raises(SkirmishError, match="placement 2"):
        t.templates("circle-small", [Placement(on="brute"), Placement(on="nobody")])
    assert json.loads(json.dumps(v.to_json()))["counts"] == {"brute": 2, "imp": 2, "orc": 1}


# -- E-MODE ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["standard", "realism"])
def test_E_MODE_templates_cannot_be_pre_placed(mode):
    t = table([model("mage", "red", 3, 3), model("brute", "blue", 10, 10)], mode=mode)
    with pytest.raises(MeasurementRefused, match="pre-placed"):
        t.template("circle-small", on="brute")
    with pytest.raises(MeasurementRefused):
        t.best_template("circle-small", by="mage")
    with pytest.raises(MeasurementRefused):
        t.templates("circle-small", [Placement(on="brute")])
    r = t.template("circle-small", on="brute", declared=True)  # resolving a declared action
    assert r.hits("brute") and r.declared and r.mode is Mode(mode)
    assert t.template("circle-small", on="brute", mode="assisted").hits("brute")


# -- E-DODGE -----------------------------------------------------------------------------

def test_E_DODGE_affected_models_without_LoS_to_the_user_have_Agility_halved():
    t = table([model("mage", "red", 3, 10), model("brute", "blue", 10, 10, facing=180),
               model("imp", "blue", 11.3, 10, size="S", facing=0)])
    r = t.template("circle-small", on="brute", by="mage", dodge=True)
    halved = {h.id: h.agility_halved for h in r.affected}
    assert halved == {"brute": False, "imp": True}
    assert "Agility halved" in {h.id: h for h in r.affected}["imp"].why
    assert all(h.agility_halved is None for h in t.template("circle-small", on="brute").affected)


# -- JSON --------------------------------------------------------------------------------

def test_E_TMPL_json_schema():
    t = _roof_table()
    d = json.loads(json.dumps(t.template("circle-large", on="brute", by="akane").to_json()))
    assert {"template", "outline", "surface_z", "main_target", "main_target_covered", "affected", "spared"} <= set(d)
    assert d["template"] == "circle-large" and d["main_target"] == "brute" and d["main_target_covered"] is True
    assert all(len(p) == 2 for p in d["outline"])
    assert all({"id", "why"} <= set(a) for a in d["affected"] + d["spared"])
    assert {a["id"] for a in d["spared"]} == {"archer"}


def test_template_table_has_documented_assumed_spray_widths():
    for name, spec in TEMPLATES.items():
        if spec.kind == "spray":
            assert set(spec.assumed) == {"near_width", "far_width"} and 0 < spec.near_width < spec.far_width
    assert TEMPLATES["circle-small"].size == pytest.approx(70 * MM)
    assert TEMPLATES["spray-large"].length == pytest.approx(260 * MM)


# -- evidence on generated tables ---------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_E_LOS_template_evidence_checks_out_against_the_oracle(seed):
    """Every affected model's witness is a clear segment (scenery only) from the centre point
    or the attacker's front half; for every model spared for no LoS, no sampled segment
    keeps clear of the scenery grown by the certificate's tolerance."""
    import random

    from skirmish.geometry.los import DEFAULT_TOLERANCE
    from skirmish.scenario.generate import random_table

    t = random_table(random.Random(seed), models=16, scenery=14, width=16, depth=16, roof_share=0.3)
    rng = random.Random(seed)
    everyone = set(t.model_ids)
    checked = 0
    for mid in t.model_ids:
        results = [t.template("circle-large", on=mid)]
        results += [t.template("spray-large", by=mid, toward=o) for o in t.model_ids
                    if t.side_of(o) != t.side_of(mid) and t.distance(mid, o) < 8][:2]
        for r in results:
            centre = None if r.kind == "spray" else (*r.center, r.surface_z)
            for h in r.affected:
                assert witness_ok(t, h.witness, h.id, source=r.by, point=centre), (r, h)
                if r.kind == "spray":  # the sight line runs forward (E-ARC)
                    a = t.model(r.by)
                    fx, fy = a.facing_vector
                    assert (h.witness[1][0] - a.x) * fx + (h.witness[1][1] - a.y) * fy >= -1e-7
                checked += 1
            for s in r.spared:
                if s.reason != "no_los" or s.los_reason != "blocked":
                    continue
                c = t.model(s.id).hitbox
                for _ in range(60):
                    ang, rad = rng.uniform(0, 2 * math.pi), c.radius * math.sqrt(rng.random())
                    end = (c.x + rad * math.cos(ang), c.y + rad * math.sin(ang), rng.uniform(c.z, c.top))
                    if centre is not None:
                        seg = ((centre[0], centre[1], centre[2] + DEFAULT_TOLERANCE), end)
                    else:
                        a = t.model(r.by)
                        fx, fy = a.facing_vector
                        if (end[0] - a.x) * fx + (end[1] - a.y) * fy < 0:
                            continue
                        ha = a.hitbox
                        for _ in range(20):
                            aa, rr = rng.uniform(0, 2 * math.pi), ha.radius * math.sqrt(rng.random())
                            p = (ha.x + rr * math.cos(aa), ha.y + rr * math.sin(aa))
                            if (p[0] - a.x) * fx + (p[1] - a.y) * fy >= 0:
                                break
                        seg = ((*p, rng.uniform(ha.z, ha.top)), end)
                    assert oracle.clearance_blockers(t, seg, everyone, 2 * DEFAULT_TOLERANCE), (r, s, seg)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("turns", [1e20, -80.0, 360.0 * 7 + 280.0])
def test_E_TMPL_SPRAY_a_direction_is_one_angle_whatever_turns_it_carries(turns):
    """Any angle is taken as its remainder in [0, 360): the template drawn and its label
    agree (1e20 degrees used to label 280° while the geometry pointed elsewhere)."""
    assert Placement(direction=turns).direction == pytest.approx(turns % 360.0)
    t = table([model("akane", "red", 10, 5, facing=0), model("b", "blue", 7, 5)])
    got = t.template("spray-small", by="akane", direction=turns)
    want = t.template("spray-small", by="akane", direction=turns % 360.0)
    assert got.direction == want.direction
    assert got.tip == pytest.approx(want.tip, abs=1e-9)
    assert len(got.outline) == len(want.outline)
    assert all(a == pytest.approx(b, abs=1e-9) for a, b in zip(got.outline, want.outline))
