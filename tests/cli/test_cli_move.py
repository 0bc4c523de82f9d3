"""``skirmish move``: plan (--to, --reach), check (--via), range; JSON schema; errors exit 2."""

from __future__ import annotations

import json
import math

import pytest

from skirmish.cli import main
from skirmish.scenario.load import load

from conftest import SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")
FIRST = str(SCENARIOS / "first-steps.toml")
MAZE = str(SCENARIOS / "party-hard-maze.toml")

PLAN_KEYS = {"model", "points", "length", "cost", "budget", "legal", "violations", "stopped_at_contact",
             "fall_rolls", "drops", "notes"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["move", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_to_prints_the_shortest_path_and_the_verdict(capsys):
    code, out, _ = run(capsys, MILL, "akane", "--to", "14,20")
    assert code == 0
    assert out.startswith("akane: shortest path, length ") and "NOT legal" in out and "over budget" in out


def test_to_json_follows_the_schema_and_agrees_with_the_library(capsys):
    doc = run_json(capsys, MILL, "akane", "--to", "14,20", "--kind", "run")
    assert set(doc) == PLAN_KEYS
    plan = load(MILL).plan_move("akane", (14, 20), kind="run")
    assert doc["length"] == pytest.approx(plan.length) and doc["legal"] is plan.legal is True
    assert doc["points"][0] == [8.0, 17.0, 0.0] and doc["points"][-1] == [14.0, 20.0, 0.0]
    assert doc["budget"] == 10.0 and doc["stopped_at_contact"] is None and doc["fall_rolls"] == 0


def test_lengths_may_carry_units(capsys):
    doc = run_json(capsys, MILL, "akane", "--to", "3in,50mm", "--kind", "run")
    assert doc["points"][-1][:2] == pytest.approx([3.0, 50 / 25.4])


def test_a_negative_coordinate_is_a_value_not_an_option(capsys):
    # argparse before Python 3.13 read "-1,5" as an unknown option ("expected one argument")
    doc = run_json(capsys, MILL, "akane", "--to", "-1,5")
    assert doc == run_json(capsys, MILL, "akane", "--to=-1,5")
    plan = load(MILL).plan_move("akane", (-1, 5))
    assert doc["points"][-1] == pytest.approx(list(plan.points[-1]), abs=1e-6) and doc["legal"] is plan.legal
    code, _, err = run(capsys, MILL, "akane", "--to", "-1,a")
    assert code == 2 and "expected a length" in err


def test_via_checks_a_declared_path_and_names_the_first_violation(capsys):
    doc = run_json(capsys, MILL, "akane", "--via", "10,8", "--via", "14,20")
    assert set(doc) == PLAN_KEYS and doc["legal"] is False
    first = doc["violations"][0]
    assert first == {"at": 0, "what": first["what"], "with": "mill"} and "taller than" in first["what"]


def test_reach_stops_in_base_contact(capsys):
    doc = run_json(capsys, FIRST, "akane", "--reach", "brute", "--kind", "run")
    assert doc["stopped_at_contact"] == "brute" and doc["legal"] is True
    x, y, _ = doc["points"][-1]
    t = load(FIRST)
    gap = math.hypot(x - t.model("brute").x, y - t.model("brute").y) - t.model("akane").radius - t.model("brute").radius
    assert abs(gap) <= 1.1e-3
    code, out, _ = run(capsys, FIRST, "akane", "--reach", "brute")
    assert code == 0 and "stops in base contact with brute" in out


def test_range_json_gives_polygons_and_the_area(capsys):
    doc = run_json(capsys, FIRST, "akane", "--range")
    assert set(doc) == {"model", "budget", "area", "polygons", "notes"}
    assert doc["budget"] == 4.0 and 0 < doc["area"] < math.pi * 16
    ring = doc["polygons"][0][0]
    assert ring[0] == ring[-1] and all(len(p) == 2 for p in ring)
    code, out, _ = run(capsys, FIRST, "akane", "--range")
    assert code == 0 and "can end its move within 4 in" in out


def test_a_fall_reports_its_rolls(capsys):
    doc = run_json(capsys, MILL, "yumi", "--to", "20,12", "--kind", "run")  # off the loft roof (z 6)
    assert doc["fall_rolls"] >= 1 and any("E-FALL" in n for n in doc["notes"])
    # the drops are the evidence: their rolls at the listed SPD are fall_rolls (E-FALL)
    from skirmish.rules.eldfall.movement import fall_rolls
    assert doc["drops"] and sum(fall_rolls(d, 4) for d in doc["drops"]) == doc["fall_rolls"]
    code, out, _ = run(capsys, MILL, "yumi", "--to", "20,12", "--kind", "run", "--no-falls")
    assert code == 0 and "falls:" not in out


def test_modes_on_the_command_line(capsys):
    code, _, err = run(capsys, MILL, "akane", "--to", "14,20", "--mode", "realism")
    assert code == 2 and "realism" in err and "Traceback" not in err
    doc = run_json(capsys, MILL, "akane", "--to", "14,20", "--mode", "realism", "--declared")
    assert doc["length"] > 0


@pytest.mark.parametrize("argv, message", [
    (["akane", "--to", "14"], "expected X,Y"),
    (["akane", "--to", "a,b"], "expected a length"),
    (["nobody", "--to", "1,1"], "no model"),
    (["akane", "--to", "1,1", "--budget", "lots"], "--budget"),
    (["akane", "--reach", "akane"], "moving model itself"),
])
def test_errors_exit_2_with_a_message(capsys, argv, message):
    code, out, err = run(capsys, MILL, *argv)
    assert code == 2 and message in err and err.startswith("skirmish move: error:") and not out


def test_one_action_is_required(capsys):
    with pytest.raises(SystemExit) as info:
        main(["move", MILL, "akane"])
    assert info.value.code == 2


def test_the_grid_answers_through_the_protocol(capsys):
    code, out, _ = run(capsys, MAZE, "rogue", "--to", "3,1")
    assert code == 0 and "(3, 1)" in out
    doc = run_json(capsys, MAZE, "rogue", "--to", "3,1")
    assert set(doc) == PLAN_KEYS
    code, _, err = run(capsys, MAZE, "rogue", "--to", "3,1", "--kind", "run")
    assert code == 2 and "grid map does not take" in err
    code, _, err = run(capsys, MAZE, "rogue", "--to", "3in,1")
    assert code == 2 and "whole numbers" in err


def test_e_move_climb_a_model_hanging_on_a_face_is_shown_there_and_climbs_on(capsys, tmp_path):
    """A file may place a model on a face (a Climb stopped there): `check` says so, and
    `move --kind climb` plans from where it hangs; a Walk is refused, naming the face."""
    from conftest import table_text

    f = tmp_path / "face.toml"
    f.write_text(table_text('[[models]]\nid = "c"\nside = "red"\nsize = "M"\nat = [5.37, 8]\nz = 1.8\n'
                            'attributes = { SPD = 6 }\n',
                            '[[scenery]]\nid = "tower"\nrect = [6, 6, 10, 10]\nheight = 3\nwalkable = true\n'))
    assert main(["check", str(f)]) == 0 and "z=1.8 on the face of tower" in capsys.readouterr().out
    doc = run_json(capsys, str(f), "c", "--to", "7,8,3", "--kind", "climb")
    assert doc["legal"] and doc["points"][0] == [5.37, 8.0, 1.8] and doc["points"][1][:2] == [5.37, 8.0]
    assert doc["cost"] == pytest.approx(1.2 + (6 + 16 / 25.4 + 0.003 - 5.37) + (7 - 6 - 16 / 25.4 - 0.003))
    code, _, err = run(capsys, str(f), "c", "--to", "4,8")
    assert code == 2 and "hangs on the face of tower" in err and "Traceback" not in err
