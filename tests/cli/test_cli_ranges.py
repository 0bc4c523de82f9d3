"""Inputs that cannot hang it: every numeric input has a documented range, refused
with a clear error (exit 2) instead of minutes of work or nonsense accepted."""

from __future__ import annotations

import json

import pytest

import skirmish
from skirmish.cli import main
from skirmish.errors import RuleInputError, ScenarioError
from skirmish.rules.eldfall.exchange import MAX_STRIKE, Side, parse_side

from conftest import SCENARIOS, table_text

MILL = str(SCENARIOS / "mill-ambush.toml")
FIRST = str(SCENARIOS / "first-steps.toml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, needle", [
    (["odds", "--active", "ATT=13,STK=1000"], "at most 30"),
    (["roll", "--active", "ATT=13,STK=100000000"], "at most 30"),
    (["template", MILL, "circle-small", "--by", "raider-3", "--best", "--spacing", "0.0001"], "at least 0.01"),
    (["template", FIRST, "circle-small", "--at", "1e300,5"], "farther than the template's size"),
    (["template", MILL, "circle-small", "--by", "raider-3", "--best", "--spacing", "0.0001"],
     "--spacing must be a length of at least 0.01 in"),
    (["template", MILL, "circle-small", "--by", "raider-3", "--best", "--enemy-weight", "-1"],
     "--enemy-weight must be a finite number >= 0"),
    (["template", MILL, "circle-small", "--by", "raider-3", "--best", "--strike", "0"],
     "--best places one template; --strike counts"),
    (["template", MILL, "circle-small", "--by", "raider-3", "--on", "akane", "--strike", "0"],
     "--strike must be a whole number >= 1"),
    (["view", FIRST, "--width", "-5"], "200..8192"),
    (["render", FIRST, "-o", "x.png", "--size", "10"], "200..8192"),
    (["measure", MILL, "akane", "akane"], "itself"),
    (["play", FIRST, "--seed", "-1"], "--seed: expected a whole number 0 or more, got '-1' (it would replay seed 1)"),
    (["run", MILL, "--seed", "-3"], "0 or more"),
    (["chaos", "play", str(SCENARIOS / "chaosparty" / "first-duel.toml"), "--seed", "-2"], "0 or more"),
    (["island", "invade", str(SCENARIOS / "island.toml"), "--explore", "wetland", "--seed", "-1"], "0 or more"),
    (["move", MILL, "akane", "--to", "1e20,5"], "--to: 1e20,5 is further off the 30 x 30 in table"),
    (["move", MILL, "akane", "--via", "1e308,5"], "--via 1e308,5: the point is further off"),
    (["move", MILL, "akane", "--to", "5,5,1e9"], "above 240 in"),
    (["move", MILL, "akane", "--budget", "1e20", "--range"], "--budget: at most 10000 in"),
    (["los", MILL, "yumi", "brute", "--tolerance", "1e150"], "--tolerance: the clearance is above 0 and at most 1 in"),
    (["los", MILL, "--all", "--tolerance", "2in"], "at most 1 in"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "--tolerance", "0"], "--tolerance: the clearance is above 0"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "--step", "0"], "--step"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "-o", "h.png", "--px", "10"], "--px 10: the table's longer side in the picture is 200..8192"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "--px", "300"], "--px sizes the picture: give -o FILE.png too"),
])
def test_out_of_range_inputs_are_refused(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and needle in err and "Traceback" not in err


def test_e_stk_strike_range():
    assert Side(att=10, stk=MAX_STRIKE).strike == MAX_STRIKE
    with pytest.raises(RuleInputError):
        parse_side(f"ATT=10,STK={MAX_STRIKE + 1}")
    with pytest.raises(RuleInputError):
        parse_side("ATT=100")


def test_table_side_at_most_20_feet():
    with pytest.raises(ScenarioError, match="at most 240"):
        skirmish.loads(table_text(size="[1e308, 10]"), "big.toml")
    assert skirmish.loads(table_text(size="[240, 240]"), "ok.toml").width == 240


@pytest.mark.parametrize("z", ["3", "1e12"])
def test_e_hitbox_a_model_in_the_air_is_refused_unless_flying(z):
    m = f'[[models]]\nid = "x"\nside = "red"\nsize = "M"\nat = [5, 5]\nz = {z}\n'
    with pytest.raises(ScenarioError, match="nothing under it|at most"):
        skirmish.loads(table_text(m), "air.toml")
    if z == "3":
        t = skirmish.loads(table_text(m + 'states = ["Flying"]\n'), "air.toml")
        assert t.model("x").z == 3
        roof = '[[scenery]]\nid = "roof"\nrect = [4, 4, 6, 6]\nheight = 3\nwalkable = true\n'
        assert skirmish.loads(table_text(m, roof), "roof.toml").model("x").z == 3


def test_check_refuses_a_script_with_an_unknown_actor(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text((SCENARIOS / "mill-ambush.toml").read_text().replace('actor = "yumi"', 'actor = "nobody"', 1))
    code, out, err = run(capsys, "check", str(bad), "--json")
    assert code == 2 and json.loads(out)["kind"] == "scenario" and "nobody" in err


def test_e_los_library_tolerance_range():
    t = skirmish.load(MILL)
    for bad in (0.0, 1.5, float("nan"), 1e150):
        with pytest.raises(skirmish.SkirmishError, match="at most 1 in"):
            t.line_of_sight("yumi", "brute", tolerance=bad)
    assert t.line_of_sight("yumi", "brute", tolerance=1.0).visible is False  # (25 mm clear of everything)


def test_e_mode_render_in_realism_names_the_modes_it_can_draw(capsys, tmp_path):
    """A picture pre-measures (E-MODE): render has no --declared, so it is not suggested."""
    code, _, err = run(capsys, "render", MILL, "-o", str(tmp_path / "x.png"), "--mode", "realism", "--range", "akane")
    assert code == 2 and "draw it with --mode assisted" in err and "--declared" not in err
    assert not (tmp_path / "x.png").exists()
    # (standard refuses a template too: it was told to draw it "with --mode assisted or standard")
    code, _, err = run(capsys, "render", MILL, "-o", str(tmp_path / "x.png"), "--mode", "standard", "--template",
                       "circle-large", "--on", "yumi")
    assert code == 2 and "draw it with --mode assisted (where every pre-measure is allowed)" in err
