"""``skirmish chaos odds`` and ``skirmish chaos play``: output, JSON schemas, seeds,
worker counts, and bad inputs refused with exit 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from skirmish.cli import main
from skirmish.rules.chaosparty import Attack, attack_odds

from conftest import SCENARIOS

DUEL = str(SCENARIOS / "chaosparty" / "first-duel.toml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_odds_json_schema_and_values(capsys):
    rc, out, _ = run(capsys, "chaos", "odds", "--attack-potential", "5", "--defence-potential", "3",
                     "--attack-boosts", "raise,floor,overload", "--defence-boosts", "absorb,counter",
                     "--defender-attack-potential", "2", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert list(doc)[:4] == ["repelled", "damage", "expected_damage", "counter"]
    o = attack_odds(Attack(5, 3, frozenset({"raise", "floor", "overload"}), frozenset({"absorb", "counter"}), 2))
    assert Fraction(doc["repelled"]) == o.repelled
    assert {int(k): Fraction(v) for k, v in doc["damage"].items()} == dict(enumerate(o.damage))
    assert sum(Fraction(v) for v in doc["damage"].values()) == 1
    assert Fraction(doc["expected_damage"]) == o.expected_damage and Fraction(doc["counter"]) == o.expected_counter
    assert doc["attack"]["die"] == 12 and doc["attack"]["time"] == 3 and doc["defence"]["time"] == 1
    assert all("/" in v or v in ("0", "1") for v in doc["damage"].values())


def test_odds_human_table(capsys):
    rc, out, _ = run(capsys, "chaos", "odds", "--attack-potential", "4", "--defence-potential", "2")
    assert rc == 0
    assert "rolls d8" in out and "rolls d6" in out
    assert "repelled" in out and "7/16" in out and "expected damage" in out


@pytest.mark.parametrize("argv, message", [
    (["--attack-potential", "0", "--defence-potential", "2", "--attack-boosts", "raise"], "class 0 cannot be raised"),
    (["--attack-potential", "2", "--defence-potential", "0", "--defence-boosts", "raise"], "class 0 cannot be raised"),
    (["--attack-potential", "2", "--defence-potential", "2", "--attack-boosts", "counter"],
     "attack boost 'counter' does not exist"),
    (["--attack-potential", "2", "--defence-potential", "2", "--attack-boosts", "raise,floor,raise"],
     "attack boost 'raise' is given twice"),
    (["--attack-potential", "2", "--defence-potential", "2", "--defence-boosts", "counter"],
     "--defender-attack-potential"),
    (["--attack-potential", "-1", "--defence-potential", "2"], "0 or more"),
    (["--attack-potential", "7", "--defence-potential", "2"], "Unlimited"),
    (["--attack-potential", "0", "--defence-potential", "2", "--attack-boosts", "overload"], "costs 1 attack Potential"),
])
def test_odds_bad_inputs_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, "chaos", "odds", *argv)
    assert rc == 2 and message in err and "Traceback" not in err and not out


def test_odds_counter_rows_hold_every_counter_with_a_chance_and_sum_to_one(capsys):
    """(the counter 0 row was left out and an impossible counter 1 row printed at 0.00%)
    Potential 3 attacking back on a d6 defence (C-CLASS): 9/16 no counter, 7/16 a counter of 2."""
    code = main(["chaos", "odds", "--attack-potential", "4", "--defence-potential", "2", "--defence-boosts",
                 "counter", "--defender-attack-potential", "3"])
    rows = [ln.split() for ln in capsys.readouterr().out.splitlines() if ln.startswith("counter ")]
    assert code == 0 and [(r[1], r[-1]) for r in rows] == [("0", "9/16"), ("2", "7/16")]


def test_odds_unlimited_and_advantage(capsys):
    rc, out, _ = run(capsys, "chaos", "odds", "--attack-potential", "7", "--defence-potential", "2", "--unlimited",
                     "--advantage", "--json")
    assert rc == 0 and json.loads(out)["attack"]["die"] == 20


def test_play_one_game_log_is_seeded(capsys):
    rc, out, _ = run(capsys, "chaos", "play", DUEL, "--seed", "3", "--policy", "red=greedy,blue=random")
    assert rc == 0 and "seed 3" in out and "moves first" in out and "attacks" in out
    _, again, _ = run(capsys, "chaos", "play", DUEL, "--seed", "3", "--policy", "red=greedy,blue=random")
    assert again == out


def test_play_json(capsys):
    rc, out, _ = run(capsys, "chaos", "play", DUEL, "--seed", "2", "--policy", "random", "--json")
    doc = json.loads(out)
    assert rc == 0 and doc["seed"] == 2 and doc["winner"] in ("red", "blue", None)
    kinds = {e["kind"] for e in doc["events"]}
    assert {"bid", "first", "flow", "attack", "end"} <= kinds
    attack = next(e for e in doc["events"] if e["kind"] == "attack" and e.get("attacker"))
    assert {"attacker", "target", "attack_die", "attack_face", "defence_face", "damage", "repelled"} <= set(attack)
    assert [p["id"] for p in doc["final"]["players"]] == ["red", "blue"]
    assert all("attacker" in e for e in doc["events"] if e["kind"] == "attack")


def test_c_class_counter_d4_of_a_class_0_counter_is_shown_in_text_and_json(capsys):
    """A class-0 counter against a defence die other than a d4 rolls its own d4 (C-CLASS):
    its face is the counter's damage, and both outputs show it."""
    rc, out, _ = run(capsys, "chaos", "play", DUEL, "--seed", "1", "--json")
    attacks = [e for e in json.loads(out)["events"] if e["kind"] == "attack" and e["attacker"]]
    assert rc == 0 and all("counter_d4" in e for e in attacks)
    rolled = [e for e in attacks if e["counter_d4"] is not None]
    assert rolled
    for e in rolled:
        assert e["repelled"] and "counter" in e["defence_boosts"] and e["defence_die"] != 4
        assert e["counter_damage"] == e["counter_d4"]
        assert f"counter d4={e['counter_d4']}: {e['attacker']} loses {e['counter_damage']}" in e["text"]
    assert all(e["counter_d4"] is None for e in attacks if "counter" not in e["defence_boosts"])
    _, text, _ = run(capsys, "chaos", "play", DUEL, "--seed", "1")
    assert all(e["text"] in text for e in rolled)


def test_play_many_games_same_for_any_worker_count(capsys):
    argv = ["chaos", "play", DUEL, "--seed", "4", "--policy", "random", "--games", "4", "--json"]
    rc1, one, _ = run(capsys, *argv, "--workers", "1")
    rc2, two, _ = run(capsys, *argv, "--workers", "2")
    assert rc1 == rc2 == 0 and one == two
    doc = json.loads(one)
    assert doc["games"] == 4 and sum(doc["wins"].values()) + doc["draws"] == 4
    assert sum(Fraction(v) for v in doc["shares"].values()) + Fraction(doc["draw_share"]) == 1
    rc, text, _ = run(capsys, "chaos", "play", DUEL, "--seed", "4", "--policy", "random", "--games", "4")
    assert rc == 0 and "wins" in text and "draws" in text


def test_play_many_games_gives_each_share_its_95_percent_wilson_interval(capsys):
    from skirmish.scale import ci95_text, wilson_interval
    rc, out, _ = run(capsys, "chaos", "play", DUEL, "--seed", "1", "--games", "20", "--json")
    doc = json.loads(out)
    assert rc == 0 and set(doc["shares_ci95"]) == set(doc["shares"])
    for side, (low, high) in doc["shares_ci95"].items():
        assert 0 <= low <= Fraction(doc["shares"][side]) <= high <= 1
        assert [low, high] == [round(v, 4) for v in wilson_interval(doc["wins"][side], 20)]
    low, high = doc["draw_share_ci95"]
    assert 0 <= low <= Fraction(doc["draw_share"]) <= high <= 1
    assert doc["shares_ci95"] == {"red": [0.4329, 0.8188], "blue": [0.1812, 0.5671]}  # docs/chaosparty.md
    rc, text, _ = run(capsys, "chaos", "play", DUEL, "--seed", "1", "--games", "3")  # (the text's form)
    for line in (ln for ln in text.splitlines() if " wins " in ln):
        assert line.endswith(f"({ci95_text(int(line.split()[2]), 3)})")


@pytest.mark.parametrize("argv, message", [
    (["nope.toml"], "no such file"),
    ([DUEL, "--policy", "gredy"], "did you mean 'greedy'"),
    ([DUEL, "--policy", "green=random"], "no side 'green'"),
    ([DUEL, "--games", "0"], "--games must be 1 or more"),
    ([DUEL, "--games", "2", "--workers", "0"], "--workers must be 1 or more"),
    ([str(SCENARIOS / "first-steps.toml")], "a scenario with a map, not a Chaos Party duel"),
    ([str(SCENARIOS / "party-hard-maze.toml")], "`skirmish play` plays it"),
])
def test_play_bad_inputs_exit_2(capsys, argv, message):
    rc, _, err = run(capsys, "chaos", "play", *argv)
    assert rc == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("extra", [["--seed", "3", "--policy", "red=greedy,blue=random"],
                                   ["--seed", "4", "--policy", "random", "--games", "4", "--json"]])
def test_play_command_plays_a_duel_file_as_chaos_play_does(capsys, extra):
    """`skirmish play` plays every seed game's whole games: a duel file goes to `chaos play`."""
    rc, out, err = run(capsys, "play", DUEL, *extra)
    assert rc == 0 and err == ""
    assert out == run(capsys, "chaos", "play", DUEL, *extra)[1]


@pytest.mark.parametrize("command", [["los", "--all"], ["render", "-o", "x.png"]])
def test_a_duel_file_given_to_a_map_command_is_named_as_a_duel(capsys, command):
    rc, _, err = run(capsys, command[0], DUEL, *command[1:])
    assert rc == 2 and "a Chaos Party duel" in err and "skirmish chaos play" in err and "Traceback" not in err


def test_check_validates_a_duel_file_without_playing_it(capsys, tmp_path):
    # (check refused duel files: one could only be validated by playing it)
    rc, out, _ = run(capsys, "check", DUEL)
    assert rc == 0 and out.startswith("First duel: ok — Chaos Party duel, 2 players") and "red-blade 3/3/5/1" in out
    rc, out, _ = run(capsys, "check", DUEL, "--json")
    doc = json.loads(out)
    assert rc == 0 and doc["ok"] and [p["id"] for p in doc["players"]] == ["red", "blue"]
    bad = tmp_path / "bad.toml"
    bad.write_text(open(DUEL, encoding="utf-8").read().replace("[[players]]", "[[players]]\ncolour = 1", 1),
                   encoding="utf-8")
    rc, _, err = run(capsys, "check", str(bad))
    assert rc == 2 and "colour" in err
