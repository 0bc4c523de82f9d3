"""The CLI on a grid of rooms: check, measure, fight, damage (and move, when present)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest

from skirmish.cli import build_parser, main

from conftest import ROOT, SCENARIOS

MAZE = str(SCENARIOS / "party-hard-maze.toml")
MILL = str(SCENARIOS / "mill-ambush.toml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    return err


# -- check ---------------------------------------------------------------------------------------------

def test_check_draws_the_grid_and_lists_the_pieces(capsys):
    code, out, _ = run(capsys, "check", MAZE)
    assert code == 0
    assert '"Party Hard: the maze": ok — grid of 17 rooms (6 columns x 4 rows), 2 players, 10 pieces' in out
    assert "  0 . . . # V ." in out and "V (4, 0): Vault of Echoes, vault: 3 Anima" in out
    assert "fight on in (2, 1): red: knight, mage | creatures: wisp, shade" in out
    assert "knight       (2, 1)   #1  ATK 2 DEF 2 HP 5 EN 3" in out


def test_check_json_of_a_grid(capsys):
    code, out, _ = run(capsys, "check", MAZE, "--json")
    d = json.loads(out)
    assert code == 0 and d["ok"] and d["map"] == "grid" and d["size"] == [6, 4]
    assert len(d["rooms"]) == 17 and len(d["pieces"]) == 10 and d["fights"] == [[2, 1]]
    rogue = next(p for p in d["pieces"] if p["id"] == "rogue")
    assert rogue["room"] == [4, 1] and rogue["fighter"]["abilities"] == ["Void Arrow", "Drain"]


def test_check_refuses_a_broken_grid_naming_the_place(tmp_path, capsys):
    bad = tmp_path / "maze.toml"
    bad.write_text('format = 1\nmap = "grid"\n[grid]\nrooms = ["..."]\n[[characters]]\nid = "rogue"\n'
                   'player = "blue"\nroom = [5, 0]\nstats = { attack = 1, defense = 1, health = 1, energy = 1 }\n')
    err = refused(capsys, "check", str(bad))
    assert f'{bad}: characters[0] (id "rogue"): room: no room at [5, 0]' in err


# -- measure ------------------------------------------------------------------------------------------------

def test_measure_counts_steps_between_rooms(capsys):
    code, out, _ = run(capsys, "measure", MAZE, "rogue", "ooze")
    assert code == 0 and out.startswith("rogue -> ooze: 8 steps ((4, 1) to (0, 3))")
    assert "path: (4, 1) -> (3, 1) -> (2, 1) -> (2, 0)" in out and "Void Arrow: out of reach" in out


def test_measure_json_schema_on_a_grid(capsys):
    code, out, _ = run(capsys, "measure", MAZE, "cleric", "shade", "--json")
    d = json.loads(out)
    assert code == 0 and d["unit"] == "steps" and d["distance"] == 1
    assert (d["from_room"], d["to_room"], d["path"]) == ([2, 0], [2, 1], [[2, 0], [2, 1]])
    assert d["base_contact"] is False and d["line_of_sight"] is False and d["adjacent"] and d["can_reinforce"]
    assert [r["weapon"] for r in d["reach"]] == ["Mending Light", "Rally", "Matter Shard"]
    assert not any(r["in_reach"] for r in d["reach"])


def test_measure_in_the_same_room(capsys):
    code, out, _ = run(capsys, "measure", MAZE, "knight", "shade")
    assert "0 steps (same room (2, 1))" in out and "Void Sweep: in reach (same room)" in out


def test_measure_errors_on_a_grid(capsys):
    assert "did you mean 'ooze'" in refused(capsys, "measure", MAZE, "rogue", "oze")
    assert "measurement modes (E-MODE) apply to the table" in refused(capsys, "measure", MAZE, "rogue", "ooze",
                                                                      "--mode", "standard")


def test_check_and_measure_keep_the_tables_answers(capsys):
    code, out, _ = run(capsys, "measure", MILL, "akane", "brute", "--json")
    assert code == 0 and set(json.loads(out)) == {"from", "to", "distance", "beyond", "base_contact", "in_awareness",
                                                   "arc", "mode", "declared", "nearest_points", "reach", "unit"}
    code, out, _ = run(capsys, "check", MILL, "--json")
    assert set(json.loads(out)) == {"ok", "name", "mode", "table", "scenery", "models", "reserve", "script", "game", "notes"}


# -- fight -----------------------------------------------------------------------------------------------------

def test_fight_prints_the_log_and_replays_from_its_seed(capsys):
    code, out, _ = run(capsys, "fight", MAZE, "--room", "2,1", "--seed", "4")
    assert code == 0 and out.startswith("Seed 4 (replay with --seed 4)\nFight in (2, 1): red attacks the creatures")
    assert "Round 1\n  red's turn\n" in out and "the creatures' turn" in out
    assert "(base: Attack (Void Shard))" in out and "Result: red wins" in out and "rewards: 2 abilities, 2 items" in out
    assert run(capsys, "fight", MAZE, "--room", "2,1", "--seed", "4")[1] == out


def test_fight_json(capsys):
    code, out, _ = run(capsys, "fight", MAZE, "--room", "2,1", "--seed", "4", "--reinforce", "cleric@2", "--json")
    d = json.loads(out)
    assert code == 0 and d["seed"] == 4 and d["room"] == [2, 1]
    assert (d["attackers"], d["defenders"], d["rows"]) == ("red", "creatures",
                                                           {"red": ["knight", "mage"], "creatures": ["wisp", "shade"]})
    joins = [e for e in d["events"] if e["event"] == "join"]
    assert joins == [{"event": "join", "round": 2, "side": "red", "actor": "cleric", "reason": "", "room": [2, 0],
                      "place": 3, "before": None, "after": None}]
    act = next(e for e in d["events"] if e["event"] == "action")
    assert act["targets"][0]["breakdown"]["explain"].endswith(f"= {act['targets'][0]['breakdown']['raw']}")
    assert d["winner"] in ("red", "creatures", None) and d["outcome"] in ("victory", "stalemate")


def test_fight_retreat_and_opening(capsys):
    code, out, _ = run(capsys, "fight", MAZE, "--room", "2,1", "--seed", "1", "--retreat", "mage@2")
    assert code == 0 and "Round 2\n  red's turn\n    mage starts retreating" in out
    assert "Round 3\n  red's turn\n    mage retreats to (2, 0)" in out and "mage (ATK" in out.split("standing:")[1]
    code, out, _ = run(capsys, "fight", MAZE, "--room", "2,1", "--seed", "1", "--opening", "mage")
    assert "knight does not act (only 1-2 attackers act in the first turn)" in out


@pytest.mark.parametrize("argv, message", [
    (["--room", "9,9"], "no room at (9, 9)"),
    (["--room", "two"], "--room: expected column,row"),
    (["--room", "0,3"], "no characters here"),
    (["--room", "2,1", "--reinforce", "rogue"], "reinforcements come from adjacent rooms (P-REINF)"),
    (["--room", "2,1", "--reinforce", "cleric@x"], "--reinforce: 'cleric@x'"),
    (["--room", "2,1", "--retreat", "mage"], "--retreat: 'mage': expected ID@ROUND"),
    (["--room", "2,1", "--retreat", "nobody@1"], "no model with id 'nobody'"),
    (["--room", "2,1", "--opening", "knight,mage,cleric"], "P-TURN"),
    # P-REINF: a character of a fighting player joins its own side (was "must join red or creatures; name the side")
    (["--room", "2,1", "--reinforce", "cleric:blue"], "cleric belongs to red, which fights here, so it can only join "
                                                       "red: write cleric:red or just cleric, not cleric:blue"),
    (["--room", "2,1", "--reinforce", "cleric:creatures"], "so it can only join red"),
    # one player alone in a room: no fight at all (was "name the attacking player (either may attack)")
    (["--room", "4,1"], "room (4, 1): no fight here: it holds only blue's characters and no creatures"),
    (["--room", "4,1", "--attacker", "blue"], "room (4, 1): no fight here: blue has no one to fight"),
])
def test_fight_errors_exit_2(capsys, argv, message):
    assert message in refused(capsys, "fight", MAZE, *argv)


def test_fight_needs_a_grid(capsys):
    assert "fights are resolved on a grid of rooms" in refused(capsys, "fight", MILL, "--room", "0,0")


# -- damage -----------------------------------------------------------------------------------------------------

def test_damage_the_worked_example(capsys):
    code, out, _ = run(capsys, "damage", "--ability", "Void Arrow", "--attack", "1", "--weapon", "Void Shard", "--armor",
                       "Matter Shield")
    assert code == 0 and "1 (base: Attack (Void Arrow)) + 1 (weapon Void Shard) + 1 (weapon element = void) + 1 (void against " \
                         "matter) - 1 (Defense) = 3" in out and "damage: 3" in out
    code, out, _ = run(capsys, "damage", "--ability", "Void Arrow", "--attack", "1", "--weapon", "Void Shard", "--armor",
                       "Matter Shield", "--json")
    d = json.loads(out)
    assert d["kind"] == "damage" and d["amount"] == 3 and d["breakdown"]["total"] == 3 and d["absorption"] is None


def test_P_DMG_damage_cli_takes_the_attack_for_void_arrow(capsys):
    """Before the fix, --attack was ignored for an ability: Void Arrow always dealt 1."""
    outs = [json.loads(run(capsys, "damage", "--ability", "Void Arrow", "--attack", str(a), "--json")[1])["amount"]
            for a in (1, 4)]
    assert outs == [1, 4]


def test_damage_with_a_shield_burn_and_streak(capsys):
    code, out, _ = run(capsys, "damage", "--base", "2", "--element", "void", "--streak", "3", "--health", "4",
                       "--energy", "3", "--burns", "1", "--shield", "max", "--json")
    d = json.loads(out)
    assert d["amount"] == 4 and d["absorption"] == {"damage": 4, "burned": 1, "shielded": 2, "health_lost": 2,
                                                    "health_before": 4, "health_after": 2, "energy_before": 3,
                                                    "energy_after": 0}


def test_damage_healing_and_effects(capsys):
    code, out, _ = run(capsys, "damage", "--base", "2", "--element", "ether", "--heal", "--defense", "1")
    assert code == 0 and "healing: 1" in out
    code, out, _ = run(capsys, "damage", "--ability", "void arrow", "--armor", "matter shield", "--powerless")
    assert "damage: 0" in out and "Powerless: no bonus against the opposite element" in out


def test_damage_from_a_scenario(capsys):
    code, out, _ = run(capsys, "damage", "--scenario", MAZE, "--attacker", "knight", "--target", "shade", "--json")
    d = json.loads(out)
    assert code == 0 and d["breakdown"]["base_from"] == "Attack (Void Shard)" and d["amount"] == 2
    code, out, _ = run(capsys, "damage", "--scenario", MAZE, "--attacker", "knight", "--target", "shade",
                       "--ability", "Void Sweep")
    assert "Void Sweep (void, base 1)" in out


def test_P_DMG_damage_0_abilities_deal_no_damage_in_the_calculator(capsys):
    """Interpretation 20: Drain and Jolt (damage 0) deal nothing — the rogue's Void Shard and its
    +1 match made Drain deal 2 to the ranger. Drain still burns, Jolt still Shocks."""
    code, out, _ = run(capsys, "damage", "--scenario", MAZE, "--attacker", "rogue", "--target", "ranger",
                       "--ability", "drain", "--json")
    d = json.loads(out)
    assert code == 0 and d["amount"] == 0 and d["breakdown"]["weapon_bonus"] == 0 and d["breakdown"]["match"] == 0
    assert d["absorption"]["burned"] == 2 and d["absorption"]["health_lost"] == 0
    code, out, _ = run(capsys, "damage", "--scenario", MAZE, "--attacker", "rogue", "--target", "ranger",
                       "--ability", "drain")
    assert "Drain (void, damage 0: no damage)" in out and "damage: 0" in out and "it only burns 2 Energy" in out
    code, out, _ = run(capsys, "damage", "--ability", "Jolt", "--weapon", "Ether Shard")
    assert "damage: 0" in out and "it only puts shock" in out


@pytest.mark.parametrize("argv, message", [
    ([], "name the attack: exactly one of --ability NAME, --plain or --base N --element E"),
    (["--ability", "Void Arow"], "did you mean 'Void Arrow'"),
    (["--ability", "Hex"], "deals no damage and heals nothing"),
    (["--plain", "--ability", "Void Arrow"], "got --ability, --plain"),
    (["--base", "1"], "--base N needs --element E"),
    (["--plain", "--attack", "9", "--weapon", "Void Shard"], "--attack: a stat is 0..6 (P-STAT)"),
    (["--plain", "--weapon", "Matter Shield"], "--weapon: Matter Shield is a armor, not a weapon"),
    (["--plain"], "P-WEAPON"),
    (["--ability", "void arrow", "--attack", "1", "--energy", "2", "--shield", "3"],
     "shield 3: at most 1 (Energy 2, damage 1)"),
    (["--ability", "void arrow", "--shock", "--energy", "2", "--shield", "1"], "Shock"),
    (["--scenario", MAZE, "--attacker", "knight", "--target", "shade", "--attack", "3"], "--attack: with --scenario"),
    (["--scenario", MAZE, "--attacker", "knight"], "--scenario needs --attacker ID and --target ID"),
    (["--scenario", MAZE, "--attacker", "knight", "--target", "knight"], "a piece does not attack itself"),
])
def test_damage_errors_exit_2(capsys, argv, message):
    assert message in refused(capsys, "damage", *argv)


# -- move (another command, answered by the grid through the protocol) ------------------------------------------

def test_move_on_the_grid_when_the_command_exists(capsys):
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    if "move" not in sub.choices:
        pytest.skip("skirmish move is not installed yet")
    code, out, _ = run(capsys, "move", MAZE, "rogue", "--to", "3,1")
    flat = out.replace("3.0", "3").replace("1.0", "1").replace(" ", "")
    assert code == 0 and ("(3,1)" in flat or "[3,1]" in flat)
    code, out, err = run(capsys, "move", MAZE, "ooze", "--to", "0,2")
    assert "creatures do not move" in out + err


def test_fight_as_a_process():
    proc = subprocess.run([sys.executable, "-m", "skirmish", "fight", MAZE, "--room", "2,1", "--seed", "4"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and "Result:" in proc.stdout


# -- the docs are executable ----------------------------------------------------------------------------------

DOCS = [ROOT / "docs" / "partyhard.md", ROOT / "docs" / "grid-format.md"]


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_docs_python_examples_pass(page, monkeypatch):
    import doctest
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


SHELL = [(p.name, line) for p in DOCS for line in re.findall(r"^\$ (skirmish .+)$", p.read_text(), flags=re.M)]


@pytest.mark.parametrize("page, line", SHELL, ids=[f"{p}: {x[:40]}" for p, x in SHELL])
def test_docs_shell_lines_run_and_print_what_they_show(page, line, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(line)[1:]) == 0
    out = capsys.readouterr().out
    text = (ROOT / "docs" / page).read_text()
    shown = text.split(f"$ {line}\n", 1)[1].split("```", 1)[0].splitlines()
    assert shown and all(s in out.splitlines() for s in shown if s != "..." and "(...)" not in s)


def test_damage_by_hand_says_when_the_targets_health_is_the_default(capsys):
    code, out, _ = run(capsys, "damage", "--base", "3", "--element", "void", "--burns", "1")
    assert code == 0 and "Health (6 -> 3)" in out and "the target's Health 6 is the default" in out
    code, out, _ = run(capsys, "damage", "--base", "3", "--element", "void", "--burns", "1", "--health", "4")
    assert code == 0 and "Health (4 -> 1)" in out and "default" not in out


@pytest.mark.parametrize("command", [["render", "-o", "g.png"], ["measure", "knight", "rogue"], ["check"]])
def test_mode_on_a_grid_is_refused_by_every_command_alike(capsys, command):
    """E-MODE applies to the table: every command that takes --mode refuses it on a grid
    (render ignored it)."""
    code, _, err = run(capsys, command[0], MAZE, *command[1:], "--mode", "realism")
    assert code == 2 and "measurement modes (E-MODE) apply to the table" in err
