"""``skirmish implant odds|roll|fight``: flags, JSON schemas and errors (I-POOL, I-FIGHT, I-DAMAGE)."""

from __future__ import annotations

import doctest
import json
import re
import shlex
from fractions import Fraction

import pytest

from skirmish.cli import main
from skirmish.rules.implant import BoldPolicy, CautiousPolicy, fight_odds, fight_setup, pool

from conftest import ROOT


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["implant", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str):
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    return json.loads(out)


def refused(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as e:   # argparse refuses bad flags with exit status 2
        main(["implant", *argv])
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err


def failed(capsys, *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    return err


# -- odds -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("helps,hinders,drama", [(2, 1, 0), (0, 3, 0), (0, 3, 2), (1, 1, 0), (7, 0, 0), (0, 9, 0)])
def test_i_pool_odds_json_schema_with_exact_fractions(capsys, helps, hinders, drama):
    doc = run_json(capsys, "odds", "--helps", str(helps), "--hinders", str(hinders), "--drama-dice", str(drama))
    assert list(doc) == ["dice", "keep", "auto", "outcomes", "yes"]
    odds = pool(helps, hinders, drama_dice=drama).odds()
    assert (doc["dice"], doc["keep"], doc["auto"]) == (odds.pool.dice, odds.pool.keep, odds.pool.auto)
    assert list(doc["outcomes"]) == ["1", "2", "3", "4", "5", "6"]
    assert [Fraction(p) for p in doc["outcomes"].values()] == list(odds.outcomes)
    assert Fraction(doc["yes"]) == odds.yes


def test_i_pool_odds_more_than_five_dice_answer_auto(capsys):
    assert run_json(capsys, "odds", "--helps", "6")["auto"] == "yes"
    doc = run_json(capsys, "odds", "--hinders", "5")
    assert (doc["dice"], doc["keep"], doc["auto"], doc["yes"], doc["outcomes"]["2"]) == (6, "lowest", "no", "0", "1")


def test_i_ladder_odds_text_shows_each_rung_with_its_chance(capsys):
    code, out, _ = run(capsys, "odds", "--helps", "2", "--hinders", "1")
    assert code == 0 and out.startswith("2 helps, 1 hindrance: 2 action dice, keep highest")
    odds = pool(2, 1).odds()
    for r, p in odds.items():   # every rung, 6 down to 1, with its percentage and exact fraction
        assert re.search(rf"^  {r.face}  {r.name}\s+{float(p) * 100:.2f}%\s+{p}\s", out, flags=re.M)
    assert "yes (4 to 6): 75.00% (3/4)" in out


# -- roll -------------------------------------------------------------------------------------------

def test_i_pool_roll_is_seeded_and_shows_the_dice_the_kept_one_and_the_rung(capsys):
    a = run_json(capsys, "roll", "--helps", "1", "--hinders", "4", "--seed", "9")
    assert a == run_json(capsys, "roll", "--helps", "1", "--hinders", "4", "--seed", "9")
    assert list(a) == ["seed", "dice", "keep", "auto", "faces", "kept", "rung"]
    assert a["seed"] == 9 and len(a["faces"]) == 4 and a["kept"] == min(a["faces"]) == a["rung"]["face"]
    code, out, _ = run(capsys, "roll", "--helps", "1", "--hinders", "4", "--seed", "9")
    assert code == 0 and f"keep {a['kept']} -> {a['kept']} {a['rung']['name']}" in out and "--seed 9" in out


def test_i_pool_roll_without_a_seed_prints_the_one_it_drew(capsys):
    doc = run_json(capsys, "roll", "--helps", "2")
    assert isinstance(doc["seed"], int) and doc["kept"] == max(doc["faces"])


def test_i_pool_roll_auto_rolls_nothing(capsys):
    doc = run_json(capsys, "roll", "--hinders", "6", "--seed", "1")
    assert (doc["faces"], doc["kept"], doc["rung"]["face"], doc["auto"]) == ([], None, 2, "no")


# -- fight ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["cautious", "bold"])
def test_i_fight_exact_json_matches_the_library(capsys, policy):
    doc = run_json(capsys, "fight", "--health", "3", "--enemy-health", "2", "--helps", "1", "--hinders", "2",
                   "--initiative", "enemy", "--drama", "1", "--policy", policy)
    expected = fight_odds(fight_setup(3, 2, 1, 2, initiative="enemy", drama=1),
                          {"cautious": CautiousPolicy(), "bold": BoldPolicy()}[policy])
    assert list(doc) == ["setup", "policy", "win", "die", "injured", "unhurt_win", "expected_rolls", "ends"]
    assert doc["setup"] == {"health": 3, "enemy_health": 2, "helps": 1, "hinders": 2, "initiative": "enemy",
                            "drama": 1}
    assert doc["policy"] == policy
    assert (Fraction(doc["win"]), Fraction(doc["die"]), Fraction(doc["injured"])) == \
        (expected.win, expected.die, expected.injured)
    assert Fraction(doc["win"]) + Fraction(doc["die"]) == 1
    assert sum(Fraction(e["p"]) for e in doc["ends"]) == 1
    assert Fraction(doc["expected_rolls"]) == expected.expected_rolls


def test_i_fight_exact_text(capsys):
    code, out, _ = run(capsys, "fight", "--health", "3", "--enemy-health", "3", "--helps", "1", "--drama", "1")
    assert code == 0 and "policy cautious" in out
    for word in ("win", "unhurt", "injured", "die", "expected rolls", "Drama left"):
        assert word in out


def test_i_fight_seeded_json_is_a_replayable_log(capsys):
    argv = ("fight", "--health", "3", "--enemy-health", "3", "--hinders", "1", "--policy", "bold", "--seed", "5")
    doc = run_json(capsys, *argv)
    assert doc == run_json(capsys, *argv)
    assert list(doc) == ["seed", "setup", "policy", "result", "injured", "rolls", "end"]
    assert doc["rolls"] and doc["rolls"][-1]["after"] == doc["end"] and doc["result"] in ("win", "die")
    assert [r["n"] for r in doc["rolls"]] == list(range(1, len(doc["rolls"]) + 1))
    first = doc["rolls"][0]
    assert first["side"] == "attack" and first["kept"] == min(first["faces"])
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.count("\n    -> ") == len(doc["rolls"]) and "Result: the character" in out


def test_i_fight_a_random_policy_plays_seeded_fights(capsys):
    assert run_json(capsys, "fight", "--health", "2", "--enemy-health", "2", "--policy", "random",
                    "--seed", "3")["policy"] == "random"


# -- errors -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ("odds", "--helps", "-1"),
    ("odds", "--hinders", "two"),
    ("roll", "--hinders", "-3", "--seed", "1"),
    ("fight", "--health", "3", "--enemy-health", "2", "--helps", "-2"),
    ("fight", "--health", "0", "--enemy-health", "2"),
    ("fight", "--health", "3"),
    ("fight", "--health", "3", "--enemy-health", "2", "--initiative", "them"),
    ("fight", "--health", "3", "--enemy-health", "2", "--drama", "-1"),
])
def test_i_pool_bad_flags_are_refused_with_exit_2(capsys, argv):
    err = refused(capsys, *argv)
    assert "error: argument" in err or "required" in err


def test_i_pool_a_negative_factor_names_the_flag_and_the_fix(capsys):
    err = refused(capsys, "odds", "--helps", "-1")
    assert "--helps: expected a whole number 0 or more, got '-1'" in err


def test_i_fight_an_unknown_policy_is_a_clear_error(capsys):
    err = failed(capsys, "fight", "--health", "3", "--enemy-health", "2", "--policy", "reckless")
    assert "skirmish implant fight: error: unknown policy 'reckless' for implant" in err and "bold, cautious" in err


def test_i_fight_exact_odds_refuse_a_policy_that_rolls_its_own_dice(capsys):
    err = failed(capsys, "fight", "--health", "3", "--enemy-health", "2", "--policy", "random")
    assert "deterministic" in err and "--seed" in err


# -- docs/implant.md is executable ------------------------------------------------------------------

DOC = ROOT / "docs" / "implant.md"
DOC_LINES = re.findall(r"^\$ (skirmish .+)$", DOC.read_text(), flags=re.M)


def test_docs_implant_python_examples_pass(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("line", DOC_LINES)
def test_docs_implant_shell_lines_run_and_print_what_they_show(line, capsys):
    assert main(shlex.split(line)[1:]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = DOC.read_text().split(f"$ {line}\n", 1)[1].split("```", 1)[0].splitlines()
    assert all(s in out for s in shown if not s.startswith("$ "))


def test_i_fight_odds_too_long_to_solve_exactly_are_refused_at_once(capsys):
    """(--enemy-health 1000 ran for minutes; 99999 would never end) The exact odds stop at
    MAX_LEVELS levels, with the Healths named and the way out (a seeded fight)."""
    from skirmish.errors import RuleInputError
    from skirmish.rules.implant.chain import MAX_LEVELS, level_bound

    err = failed(capsys, "fight", "--health", "3", "--enemy-health", "1000")
    assert "Health 3 against enemy Health 1000" in err and "--seed" in err
    assert run(capsys, "fight", "--health", "3", "--enemy-health", "1000", "--seed", "1")[0] == 0
    big = fight_setup(3, 400, 0, 0)
    assert level_bound(big) > MAX_LEVELS >= level_bound(fight_setup(3, 300, 0, 0))
    with pytest.raises(RuleInputError, match="levels to solve exactly"):
        fight_odds(big, CautiousPolicy())
