"""``skirmish run``: one logged play-through, --json lines, --trials reports."""

from __future__ import annotations

import json

import pytest

from skirmish.cli import main

from conftest import SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")


def test_single_run_is_logged_and_replayable(capsys):
    assert main(["run", MILL, "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert "Seed 3" in first and "yumi attacks brute" in first and "End states:" in first
    main(["run", MILL, "--seed", "3"])
    assert capsys.readouterr().out == first


def test_json_lines(capsys):
    assert main(["run", MILL, "--seed", "3", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["kind"] == "attack" and "dice" in lines[0] and lines[-1]["seed"] == 3


def test_trials_json(capsys):
    assert main(["run", MILL, "--seed", "1", "--trials", "300", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["trials"] == 300 and set(report["states"]["brute"]) == {"Unharmed", "Wounded", "Incapacitated", "Dead"}
    assert report["actions"][0]["wounds_exact"] is not None
    for a in report["actions"]:
        assert a["wounds_mean_se"] >= 0 and a["wounds_back_mean_se"] >= 0


def test_trials_text_gives_each_mean_its_standard_error(capsys):
    assert main(["run", MILL, "--seed", "1", "--trials", "300", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(["run", MILL, "--seed", "1", "--trials", "300"]) == 0
    text = capsys.readouterr().out
    first = report["actions"][0]
    assert f"{first['wounds_mean']:.3f} (SE {first['wounds_mean_se']:.3f})" in text
    assert "standard error" in text


def test_no_script_is_an_error(capsys):
    assert main(["run", str(SCENARIOS / "first-steps.toml")]) == 2
    assert "has no [[script]]" in capsys.readouterr().err


@pytest.mark.parametrize("argv, says", [
    (["run", MILL, "--trials", "0"], "--trials must be between 1 and 100,000,000, got 0"),
    (["run", MILL, "--trials", "99999999999"], "several runs with different --seed"),
    (["play", MILL, "--games", "99999999999"], "--games must be at most 1,000,000"),
    (["play", MILL, "--games", "0"], "--games must be 1 or more"),
    (["chaos", "play", str(SCENARIOS / "chaosparty" / "first-duel.toml"), "--games", "1000001"], "at most 1,000,000"),
    (["island", "play", str(SCENARIOS / "island.toml"), "--games", "1000001"], "at most 1,000,000"),
    (["play", str(SCENARIOS / "party-hard-maze.toml"), "--games", "1000001"], "at most 1,000,000"),
])
def test_run_counts_out_of_range_are_refused_before_any_work(capsys, argv, says):
    """A count too big to hold (it used to build its job list until memory ran out) or
    below 1: exit 2 at once, kind "range" in the JSON."""
    assert main(argv + ["--json"]) == 2
    out = capsys.readouterr()
    assert says in out.err and json.loads(out.out)["kind"] == "range"


def test_trial_i_of_a_run_is_replayed_alone_with_trial_i(capsys):
    # (a trial of --trials could not be seen: --seed S alone plays the script seeded S, not trial 0)
    from collections import Counter
    alone = []
    for i in range(6):
        code = main(["run", MILL, "--seed", "3", "--trial", str(i), "--json"])
        out = capsys.readouterr().out
        last = json.loads(out.splitlines()[-1])
        assert code == 0 and last["trial"] == i and last["seed"] == 3
        alone.append(last["states"])
    assert main(["run", MILL, "--seed", "3", "--trials", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for model, shares in report["states"].items():  # (shares of the 6 trials)
        assert {k: round(v * 6) for k, v in shares.items() if v} == dict(Counter(s[model] for s in alone))
    assert main(["run", MILL, "--seed", "3", "--trials", "6", "--trial", "1"]) == 2
    capsys.readouterr()
    # --seed S alone is trial 0 (as `play --seed S` is game 0; it was the script seeded S)
    assert main(["run", MILL, "--seed", "3", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["run", MILL, "--seed", "3", "--trial", "0", "--json"]) == 0
    assert capsys.readouterr().out == first and json.loads(first.splitlines()[-1])["trial"] == 0
    assert main(["run", MILL, "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("Seed 3 (replay with --seed 3)")
