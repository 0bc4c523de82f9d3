"""``skirmish template``: placements, --best, several templates, --json schema, errors
(E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY, E-TMPL-STK, E-MODE)."""

from __future__ import annotations

import doctest
import json
import re
import shlex

import pytest

from skirmish.cli import main

from conftest import ROOT, SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")
FIRST = str(SCENARIOS / "first-steps.toml")

RESULT_KEYS = {"template", "kind", "by", "placement", "outline", "surface_z", "band", "main_target",
               "main_target_covered", "main_target_rule", "affected", "spared", "mode", "declared"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_E_TMPL_CIRCLE_centred_on_a_target(capsys):
    code, out, err = run(capsys, "template", FIRST, "circle-small", "--on", "brute")
    assert code == 0 and not err
    assert "main target brute: covered entirely" in out and "brute" in out.split("affected")[1]


def test_E_TMPL_json_schema_is_exactly_the_documented_one(capsys):
    code, out, _ = run(capsys, "template", MILL, "circle-large", "--on", "raider-2", "--by", "yumi", "--json")
    d = json.loads(out)
    assert code == 0 and set(d) == RESULT_KEYS
    assert d["template"] == "circle-large" and d["main_target"] == "raider-2" and d["main_target_covered"] is True
    assert d["surface_z"] == 3 and d["placement"] == {"center": [18.0, 12.0], "z": 3.0}
    assert all(isinstance(p, list) and len(p) == 2 for p in d["outline"])
    for a in d["affected"]:
        assert set(a) == {"id", "why", "coverage", "dz", "witness", "agility_halved"}
    for s in d["spared"]:
        assert set(s) == {"id", "why", "reason", "coverage", "dz", "blockers"}


def test_E_TMPL_CIRCLE_on_a_model_hanging_on_a_face_lies_at_its_height_not_on_a_surface(capsys, tmp_path):
    """(E-MOVE-CLIMB: a model on a face stands on no surface; the text said it did)"""
    from conftest import table_text

    f = tmp_path / "face.toml"
    f.write_text(table_text('[[models]]\nid = "c"\nside = "red"\nsize = "M"\nat = [5.37, 8]\nz = 1.8\n'
                            '[[models]]\nid = "b"\nside = "blue"\nsize = "M"\nat = [2, 8]\n',
                            '[[scenery]]\nid = "tower"\nrect = [6, 6, 10, 10]\nheight = 3\nwalkable = true\n'))
    code, out, _ = run(capsys, "template", str(f), "circle-small", "--on", "c")
    assert code == 0 and "centred at (5.37, 8.00) at the height of c's base, z 1.8 (it stands on no surface)" in out
    code, out, _ = run(capsys, "template", str(f), "circle-small", "--on", "b")
    assert code == 0 and "centred at (2.00, 8.00) on the surface at z 0;" in out


def test_E_TMPL_CIRCLE_at_a_point_without_main_target(capsys):
    code, out, _ = run(capsys, "template", MILL, "circle-large", "--at", "10.5,13.5", "--z", "3", "--json")
    d = json.loads(out)
    assert code == 0 and d["main_target"] is None and d["main_target_covered"] is None and d["surface_z"] == 3
    assert "kenji" in [a["id"] for a in d["affected"]]  # on the lower roof, 3" up, under the template


def test_E_TMPL_SPRAY_toward_a_model_and_a_point(capsys):
    code, out, _ = run(capsys, "template", FIRST, "spray-small", "--by", "akane", "--toward", "brute")
    assert code == 0 and "blocked by wall" in out and "the user" in out
    code, out, _ = run(capsys, "template", MILL, "spray-large", "--by", "akane", "--toward", "20,9", "--json")
    d = json.loads(out)
    assert code == 0 and d["kind"] == "spray" and d["by"] == "akane" and d["main_target"] is None
    assert set(d["placement"]) == {"by", "direction", "tip"} and d["band"] == 5


def test_E_TMPL_best_json_adds_score_and_placement(capsys):
    code, out, _ = run(capsys, "template", MILL, "circle-large", "--by", "yumi", "--best", "--json")
    d = json.loads(out)
    assert code == 0 and set(d) == RESULT_KEYS | {"score", "enemies_hit", "friends_hit", "weights", "search"}
    assert d["main_target_covered"] is True and d["score"] >= 1 and "center" in d["placement"]
    code, out, _ = run(capsys, "template", MILL, "spray-large", "--by", "raider-3", "--best")
    assert code == 0 and out.startswith("best placement for raider-3: score 1") and "main target akane" in out


def test_E_TMPL_STK_several_templates_with_counts(capsys):
    code, out, _ = run(capsys, "template", MILL, "circle-small", "--by", "yumi", "--on", "brute", "--on", "brute",
                       "--on", "raider-3", "--strike", "3", "--json")
    d = json.loads(out)
    assert code == 0 and len(d["templates"]) == 3 and d["counts"]["brute"] == 2 and d["strike"] == 3
    code, out, _ = run(capsys, "template", MILL, "circle-small", "--on", "brute", "--on", "raider-3")
    assert code == 0 and "template 2 of 2" in out and "templates per model" in out


@pytest.mark.parametrize("argv, message", [
    (["circle-smal", "--on", "brute"], "no template called"),
    (["spray-small", "--toward", "brute"], "--by"),
    (["circle-small", "--best"], "--by"),
    (["circle-small", "--on", "brutte"], "did you mean"),
    (["circle-small", "--at", "12"], "X,Y"),
    (["circle-small", "--toward", "brute"], "--on ID or --at"),
    (["circle-small", "--on", "brute", "--mode", "standard"], "cannot be pre-placed"),
    (["circle-small", "--on", "brute", "--on", "raider-1", "--strike", "1"], "Strike 1"),
    (["circle-small"], "--on ID"),
])
def test_errors_exit_2_with_a_clear_message(capsys, argv, message):
    code, out, err = run(capsys, "template", MILL, *argv)
    assert code == 2 and not out and message in err and err.startswith("skirmish template: error:")


def test_E_MODE_declared_resolves_in_realism(capsys):
    code, out, _ = run(capsys, "template", MILL, "circle-small", "--on", "brute", "--mode", "realism",
                       "--declared", "--json")
    d = json.loads(out)
    assert code == 0 and d["mode"] == "realism" and d["declared"] is True


def test_help_shows_examples(capsys):
    with pytest.raises(SystemExit):
        main(["template", "--help"])
    out = capsys.readouterr().out
    assert "--best" in out and "circle-small" in out and "docs/templates.md" in out


DOC = ROOT / "docs" / "templates.md"


def test_docs_python_examples_pass(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize("line", re.findall(r"^\$ (skirmish .+)$", DOC.read_text(), flags=re.M))
def test_docs_shell_lines_run(line, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(line)[1:]) == 0 and capsys.readouterr().out
