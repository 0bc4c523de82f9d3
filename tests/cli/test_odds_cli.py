"""The ``odds`` and ``roll`` commands: tables, the --json schemas, seeds and errors."""

from __future__ import annotations

import doctest
import json
import re
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from skirmish.cli import main
from skirmish.rules.eldfall.exchange import Exchange, Side
from skirmish.rules.eldfall.odds import exchange_odds

FRACTION = re.compile(r"^(0|1|[1-9][0-9]*/[1-9][0-9]*)$")
CONF = ["--active", "ATT=13,STK=3,PW=10,ARM=1,HP=3", "--reactive", "ATT=11,PW=9,ARM=2,HP=2"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _check_dist(d: dict[str, str]) -> dict[int, Fraction]:
    assert all(k.isdigit() for k in d) and all(FRACTION.match(v) for v in d.values()), d
    out = {int(k): Fraction(v) for k, v in d.items()}
    assert sum(out.values()) == 1
    return out


def test_odds_json_schema_and_exact_values(capsys) -> None:
    """--json: {"active": {"hits", "wounds"}, "reactive": {...}} with exact fraction strings."""
    code, out, err = run(capsys, "odds", *CONF, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    exact = exchange_odds(Exchange(Side(att=13, stk=3, pw=10, arm=1, hp=3), Side(att=11, pw=9, arm=2, hp=2)))
    for role, side in (("active", exact.active), ("reactive", exact.reactive)):
        assert _check_dist(data[role]["hits"]) == side.hits.as_dict()
        assert _check_dist(data[role]["wounds"]) == side.wounds.as_dict()
        assert Fraction(data[role]["expected_hits"]) == side.expected_hits
        assert {k: Fraction(v) for k, v in data[role]["state"].items()} == {s.value: p for s, p in side.state.items()}
    assert data["kind"] == "confrontation"
    joint = {(e["active"], e["reactive"]): Fraction(e["p"]) for e in data["joint"]["wounds"]}
    assert joint == dict(exact.joint_wounds.items()) and sum(joint.values()) == 1


def test_odds_json_unopposed_example(capsys) -> None:
    """The issue's example: ATT 13 −3 = 10, 2 dice, unopposed: Hits 1/4, 1/2, 1/4 (E-MOD-SUM)."""
    code, out, _ = run(capsys, "odds", "--active", "ATT=13,MOD=-3,STK=2,PW=10", "--reactive", "ARM=2,HP=3", "--json")
    data = json.loads(out)
    assert data["active"]["hits"] == {"0": "1/4", "1": "1/2", "2": "1/4"}
    assert data["reactive"]["hits"] == {"0": "1"} and data["reactive"]["wounds"] == {"0": "1"}
    assert data["kind"] == "unopposed" and data["active"]["attribute"] == 10
    # one die: crit 1/20 wounds on <= 10, a success 2..10 (9/20) on <= 8
    p1 = Fraction(1, 20) * Fraction(10, 20) + Fraction(9, 20) * Fraction(8, 20)
    assert Fraction(data["active"]["wounds"]["2"]) == p1**2


def test_odds_table_has_percent_and_bars(capsys) -> None:
    code, out, _ = run(capsys, "odds", "--active", "ATT=13,MOD=-3,STK=2,PW=10", "--reactive", "ARM=2,HP=3")
    assert code == 0
    assert re.search(r"^\s+0\s+25\.00%\s+#{10}$", out, re.M)
    assert re.search(r"^\s+1\s+50\.00%\s+#{20}$", out, re.M)
    assert "Unopposed" in out and "Wounds dealt by the active model" in out
    code, out, _ = run(capsys, "odds", *CONF)
    assert "Confrontation" in out and "Joint outcome" in out and "Incapacitated" in out


def test_odds_split_targets_json(capsys) -> None:
    """E-STK-SPLIT: several --reactive with SPLIT: one exchange each plus the Active model's fate."""
    code, out, _ = run(capsys, "odds", "--active", "ATT=12,STK=3,PW=10,HP=1,SPLIT=2/1",
                       "--reactive", "ATT=10,PW=20", "--reactive", "DODGE=6,LOS=0,HP=1", "--json")
    data = json.loads(out)
    assert [x["active"]["dice"] for x in data["exchanges"]] == [2, 1]
    assert [x["kind"] for x in data["exchanges"]] == ["confrontation", "dodge"]
    assert data["exchanges"][1]["reactive"]["dodge"] == 3
    assert _check_dist(data["active"]["wounds_taken"]).keys() == {0, 1}
    code, out, _ = run(capsys, "odds", "--active", "ATT=12,STK=3,PW=10,HP=1,SPLIT=2/1",
                       "--reactive", "ATT=10,PW=20", "--reactive", "DODGE=6,LOS=0,HP=1")
    assert "Target 2 of 2" in out


def test_roll_same_seed_same_log(capsys) -> None:
    """A seeded roll is reproducible, in text and JSON."""
    first = run(capsys, "roll", *CONF, "--seed", "7")
    assert first == run(capsys, "roll", *CONF, "--seed", "7")
    assert first[0] == 0 and "Seed 7" in first[1] and "A1" in first[1] and "R1" in first[1]
    j1 = run(capsys, "roll", *CONF, "--seed", "7", "--json")[1]
    assert j1 == run(capsys, "roll", *CONF, "--seed", "7", "--json")[1]
    logs = {run(capsys, "roll", *CONF, "--seed", str(s), "--json")[1] for s in range(8)}
    assert len(logs) > 1


def test_roll_json_log_is_complete(capsys) -> None:
    """The log names every die: face, target, success, critical, cancelling dice, damage,
    Wounds and states (E-CONF, E-ROLL-DMG, E-WOUND)."""
    for seed in range(30):
        code, out, _ = run(capsys, "roll", *CONF, "--seed", str(seed), "--json")
        data = json.loads(out)
        assert data["seed"] == seed and data["kind"] == "confrontation"
        a, r = data["active"], data["reactive"]
        assert len(a["dice"]) == 3 and len(r["dice"]) == 1
        ids = {d["id"] for d in a["dice"]} | {d["id"] for d in r["dice"]}
        for d in a["dice"] + r["dice"]:
            assert set(d) >= {"id", "face", "target", "success", "critical", "cancelled_by", "hit", "rerolled_from"}
            assert set(d["cancelled_by"]) <= ids
            assert d["hit"] == (d["success"] and not d["cancelled_by"] and not d["dodged"])
        assert a["hits"] == sum(d["hit"] for d in a["dice"]) == len(a["damage"])
        assert a["wounds_dealt"] == min(sum(d["wound"] for d in a["damage"]), 2) == r["wounds_taken"]
        assert r["state"] == ("Incapacitated" if r["hp_after"] == 0 else "Wounded" if r["wounds_taken"] else "Unharmed")


def test_roll_without_seed_prints_a_replayable_seed(capsys) -> None:
    code, out, _ = run(capsys, "roll", *CONF)
    seed = re.search(r"--seed (\d+)", out).group(1)
    assert run(capsys, "roll", *CONF, "--seed", seed)[1] == out


def test_roll_split_targets(capsys) -> None:
    code, out, _ = run(capsys, "roll", "--active", "ATT=12,STK=3,PW=10,HP=1,SPLIT=2/1",
                       "--reactive", "ATT=10,PW=20", "--reactive", "ARM=1", "--seed", "4", "--json")
    data = json.loads(out)
    assert [len(x["active"]["dice"]) for x in data["exchanges"]] == [2, 1]
    assert data["active"]["state"] in ("Unharmed", "Incapacitated")


@pytest.mark.parametrize(
    "argv,words",
    [
        (["odds", "--active", "ATT=13,STK"], ["--active", "'STK'", "KEY=VALUE"]),
        (["odds", "--active", "ATT=13", "--reactive", "ATT=11,FOO=2"], ["--reactive", "'FOO'", "known keys"]),
        (["roll", "--active", "ATT=13,STK=two"], ["--active", "'STK=two'", "whole number"]),
        (["odds", "--active", "STK=2"], ["--active", "no ATT"]),
        (["odds", "--active", "ATT=13,STK=2", "--reactive", "ARM=1", "--reactive", "ARM=2"], ["SPLIT=1/1"]),
        (["odds", "--active", "ATT=13", "--reactive", "ATT=4,DODGE=3"], ["--reactive", "not both"]),
    ],
)
def test_errors_exit_2_with_a_clear_message(capsys, argv: list[str], words: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"skirmish {argv[0]}: error: ")
    for w in words:
        assert w in err


def test_error_from_the_real_command_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "skirmish", "odds", "--active", "ATT=1x"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "'ATT=1x'" in proc.stderr


def test_help_lists_the_side_keys(capsys) -> None:
    for cmd in ("odds", "roll"):
        with pytest.raises(SystemExit) as info:
            main([cmd, "--help"])
        out = capsys.readouterr().out
        assert info.value.code == 0
        for key in ("ATT=", "MOD=", "HALVE=", "STK=", "PW=", "ARM=", "HP=", "DODGE=", "REROLL=", "SPLIT="):
            assert key in out


DOCS = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def test_docs_dice_python_examples_run() -> None:
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_docs_dice_console_examples_print_what_they_show(capsys) -> None:
    blocks = re.findall(r"```console\n\$ (skirmish [^\n]+)\n(.*?)```", DOCS.read_text(), flags=re.S)
    assert len(blocks) >= 2
    for command, shown in blocks:
        code, out, _ = run(capsys, *shlex.split(command)[1:])
        assert code == 0 and out == shown, command
