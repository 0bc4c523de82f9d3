"""``skirmish attack``: the --json schema, refusals as JSON, one answer from the table."""

from __future__ import annotations

import json
from fractions import Fraction

from skirmish.cli import main
from skirmish.maps.table_attack import attack
from skirmish.scenario.load import load

from conftest import SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # usage errors exit as argparse's do
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_e_action_attack_json_schema(capsys):
    code, out, _ = run(capsys, "attack", MILL, "raider-1", "yumi", "--weapon", "short bow", "--json")
    d = json.loads(out)
    assert code == 0
    assert {"from", "to", "weapon", "los", "band", "accuracy", "cover", "reaction", "odds"} <= set(d)
    assert d["from"] == "raider-1" and d["weapon"] == "Short Bow" and d["band"] == 1 and d["accuracy"] == 0
    assert d["los"]["visible"] and len(d["los"]["witness"]) == 2
    assert d["reaction"]["kind"] == "attack" and d["reaction"]["weapon"] == "Longbow"
    assert {"hits", "wounds", "target_state", "wounds_back"} <= set(d["odds"])
    for key in ("hits", "wounds", "target_state", "wounds_back"):
        assert sum(Fraction(p) for p in d["odds"][key].values()) == 1  # exact fraction strings


def test_e_action_attack_cli_and_library_agree(capsys):
    table = load(MILL)
    r = attack(table, "yumi", "brute", reaction="dodge")
    _, out, _ = run(capsys, "attack", MILL, "yumi", "brute", "--reaction", "dodge", "--json")
    d = json.loads(out)
    assert d["odds"]["wounds"] == {str(k): str(p) for k, p in r.odds.active.wounds.items()}
    assert d["reaction"]["kind"] == "dodge"


def test_attack_text_names_band_accuracy_and_reaction(capsys):
    code, out, _ = run(capsys, "attack", MILL, "yumi", "brute")
    assert code == 0
    assert "band 1 of 3" in out and "Accuracy +1" in out and "reaction: brute Dodges" in out
    assert "cannot attack back" in out


def test_attack_refusal_json_has_error_and_kind(capsys):
    code, out, err = run(capsys, "attack", MILL, "kenji", "raider-2", "--json")
    assert code == 2
    d = json.loads(out)
    assert d["kind"] == "no_los" and "line of sight" in d["error"] and "line of sight" in err


def test_attack_refusal_text_out_of_reach(capsys):
    code, out, err = run(capsys, "attack", MILL, "akane", "brute")
    assert code == 2 and out == "" and "beyond Sword's reach" in err


def test_every_error_is_json_with_json(capsys):
    """One convention: with --json every error is also JSON on stdout, exit non-zero,
    usage errors included (with the command's own usage on stderr)."""
    for argv, kind in [(["los", MILL, "yumi", "nobody", "--json"], "unknown_id"),
                       (["measure", MILL, "akane", "akane", "--json"], "same_model"),
                       (["los", MILL, "yumi", "brute", "--bogus", "--json"], "usage"),
                       (["odds", "--active", "ATT=x", "--json"], "rule_input")]:
        code, out, err = run(capsys, *argv)
        assert code == 2 and json.loads(out)["kind"] == kind and "error" in err
    code, out, err = run(capsys, "los", MILL, "yumi", "brute", "--mode", "realism")
    assert code == 2 and "usage: skirmish los" in err and out == ""
