"""``skirmish los``: verdicts, --all, --json schema, --fraction, errors (E-LOS, E-ARC, E-LOS-MOVE)."""

from __future__ import annotations

import json

from skirmish.cli import main

from conftest import SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")
FIRST = str(SCENARIOS / "first-steps.toml")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_E_LOS_blocked_verdict_names_the_wall(capsys):
    code, out, _ = run(capsys, "los", FIRST, "akane", "brute")
    assert code == 0 and "NOT VISIBLE" in out and "blocked by wall" in out and "0.1 mm" in out


def test_E_LOS_json_schema(capsys):
    code, out, _ = run(capsys, "los", MILL, "yumi", "brute", "--json")
    d = json.loads(out)
    assert set(d) >= {"from", "to", "visible", "witness", "reason", "blockers", "tolerance", "visible_fraction"}
    assert d["visible"] is True and d["reason"] == "clear" and len(d["witness"]) == 2
    assert all(len(p) == 3 for p in d["witness"]) and d["blockers"] == [] and d["visible_fraction"] is None


def test_E_ARC_out_of_arc_json(capsys):
    code, out, _ = run(capsys, "los", MILL, "akane", "raider-3", "--json")
    d = json.loads(out)
    assert d["visible"] is False and d["reason"] == "out_of_arc" and d["witness"] is None


def test_E_LOS_MOVE_arc_all(capsys):
    code, out, _ = run(capsys, "los", MILL, "akane", "raider-3", "--arc", "all", "--json")
    assert json.loads(out)["reason"] != "out_of_arc"


def test_all_pairs_json_has_every_ordered_pair(capsys):
    code, out, _ = run(capsys, "los", MILL, "--all", "--json")
    pairs = json.loads(out)["pairs"]
    assert len(pairs) == 7 * 6 and len({(p["from"], p["to"]) for p in pairs}) == 42


def test_all_pairs_matrix(capsys):
    code, out, _ = run(capsys, "los", MILL, "--all")
    assert code == 0 and "ordered pairs have line of sight" in out and "raider-3" in out


def test_fraction_and_tolerance(capsys):
    code, out, _ = run(capsys, "los", MILL, "akane", "brute", "--fraction", "--tolerance", "0.05mm", "--json")
    d = json.loads(out)
    assert 0 < d["visible_fraction"] < 1 and abs(d["tolerance"] - 0.05 / 25.4) <= 5e-7  # JSON floats: 6 decimals


def test_errors_exit_2(capsys):
    assert run(capsys, "los", MILL, "akane")[0] == 2
    assert run(capsys, "los", MILL, "akane", "brute", "--all")[0] == 2
    code, _, err = run(capsys, "los", MILL, "akane", "brute", "--tolerance", "lots")
    assert code == 2 and "--tolerance" in err


def test_grid_maps_answer_los_through_the_protocol(capsys):
    """The same command on the Party Hard grid: sight is sharing a room (P-GRID)."""
    maze = str(SCENARIOS / "party-hard-maze.toml")
    code, out, _ = run(capsys, "los", maze, "--all", "--json")
    pairs = json.loads(out)["pairs"]
    assert code == 0 and pairs and all(p["witness"] is None for p in pairs)
    same = next(p for p in pairs if p["visible"])
    code, out, _ = run(capsys, "los", maze, same["from"], same["to"])
    assert "VISIBLE" in out and "same room" in out


def test_all_pairs_on_a_table_without_two_models_says_so(capsys, tmp_path):
    f = tmp_path / "empty.toml"
    f.write_text('format = 1\n[table]\nsize = [12, 12]\n[[scenery]]\nid = "w"\nrect = [1, 1, 2, 2]\nheight = 2\n'
                 '[[models]]\nid = "a"\nside = "red"\nsize = "M"\nat = [6, 6]\n', encoding="utf-8")
    assert main(["los", str(f), "--all"]) == 0
    assert "no pairs to see: the table has 1 model on it" in capsys.readouterr().out
    assert main(["los", str(f), "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"pairs": []}
