"""``skirmish play`` on a grid: the log, the --json event stream and its last line, --games."""

from __future__ import annotations

import json
import re

import pytest

from skirmish.cli import main

from conftest import SCENARIOS

MAZE = str(SCENARIOS / "party-hard-maze.toml")
ROOMS = {r.at for r in __import__("skirmish").load(MAZE).rooms}
EVENT_KINDS = {"start", "move", "skip", "attack", "lay-out", "fight-start", "fight-action", "fight-note", "retreat",
               "fight-end", "rewards", "loot", "restore", "teleport", "buy", "discard", "give", "open", "out", "turn", "end"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # (an argument's own type refused it, as argparse does)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_the_maze_to_the_end(capsys):
    code, out, _ = run(capsys, "play", MAZE, "--seed", "2")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "Seed 2 (replay with --seed 2)" and lines[1].startswith("Start: players red, blue")
    assert lines[-1].startswith("Result: red wins after 19 turns")
    assert any("fight in (2, 1) (start)" in line for line in lines)
    # English, not Python: "Anima red 20, blue 0" (was {'red': 20, 'blue': 0}), "1 item" (was "1 items")
    assert "{" not in lines[-1] and re.search(r"; Anima red \d+, blue \d+$", lines[-1])
    rewards = [line for line in lines if " rewards " in line]
    assert rewards and not any(re.search(r"\b1 (items|abilities)\b", line) for line in rewards)


def test_play_json_one_object_per_event_and_the_summary_last(capsys):
    code, out, _ = run(capsys, "play", MAZE, "--seed", "2", "--json", "--policy", "red=greedy,blue=random")
    objs = [json.loads(line) for line in out.splitlines()]
    *events, last = objs
    assert code == 0 and {e["event"] for e in events} <= EVENT_KINDS
    assert all(set(e["anima"]) == {"red", "blue"} and all(v >= 0 for v in e["anima"].values()) for e in events)
    turns = [e for e in events if e["event"] == "turn"]
    assert turns and all("rooms" in e for e in turns)
    for e in turns:
        for room, counts in e["rooms"].items():
            c, r = map(int, room.split(","))
            assert (c, r) in ROOMS and all(0 < n <= 4 for n in counts.values())
    assert {"fight-start", "fight-action", "fight-end", "move"} <= {e["event"] for e in events}
    assert set(last) == {"seed", "game", "winner", "turns", "characters", "anima"} and last["seed"] == 2
    assert set(last["characters"]) == {"knight", "mage", "cleric", "rogue", "ranger"}
    assert set(last["characters"]["knight"]) == {"player", "alive", "abilities", "items"}
    assert last["anima"] == events[-1]["anima"]


def test_play_json_replays_with_the_same_seed(capsys):
    a = run(capsys, "play", MAZE, "--seed", "4", "--json", "--policy", "random")[1]
    b = run(capsys, "play", MAZE, "--seed", "4", "--json", "--policy", "random")[1]
    assert a == b


def test_play_games_reports_shares_turns_and_restores(capsys):
    code, out, _ = run(capsys, "play", MAZE, "--games", "3", "--seed", "1", "--policy", "random", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["games"] == 3 and set(rep["wins"]) == {"red", "blue"}
    assert sum(rep["wins"].values()) + rep["draws"] == 3 and abs(sum(rep["win_share"].values()) + rep["draw_share"] - 1) < 1e-5  # (shares to 6 places)
    assert set(rep["restored"]) == {"knight", "mage", "cleric", "rogue", "ranger"} and rep["mean_turns"] >= 1
    code, text, _ = run(capsys, "play", MAZE, "--games", "3", "--seed", "1", "--policy", "random")
    assert "3 games, seed 1, policy random" in text and "mean turns" in text


def test_play_games_reports_each_shares_95_percent_wilson_interval(capsys):
    """Seed 3, 4 random games: red 3, blue 1, no draw. The Wilson intervals worked by hand
    (z = 1.96): 3/4 → [0.3006, 0.9544], 1/4 → [0.0456, 0.6994], 0/4 → [0, 0.4899]."""
    code, out, _ = run(capsys, "play", MAZE, "--games", "4", "--seed", "3", "--policy", "random", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["wins"] == {"red": 3, "blue": 1} and rep["draws"] == 0
    assert rep["win_share_ci95"] == {"red": [0.3006, 0.9544], "blue": [0.0456, 0.6994]}
    assert rep["draw_share_ci95"] == [0.0, 0.4899]
    code, text, _ = run(capsys, "play", MAZE, "--games", "4", "--seed", "3", "--policy", "random")
    assert "red        wins     3  (75.0%; 95% CI 30.1–95.4%)" in text
    assert "blue       wins     1  (25.0%; 95% CI 4.6–69.9%)" in text


@pytest.mark.parametrize("seed", [2, 5])
def test_P_RETREAT_P_FIGHT_END_the_text_names_every_fallen_character_and_every_retreat(capsys, seed):
    """Each fight line names the defeated of both sides (with their side) and every retreat with its room,
    as the JSON's fight-end says (seed 2, T14: the winner's knight fell and its mage retreated to (2, 0),
    and the text said only "blue: 2 defeated")."""
    text = [ln for ln in run(capsys, "play", MAZE, "--seed", str(seed))[1].splitlines() if " fight in " in ln]
    ends = [o for o in map(json.loads, run(capsys, "play", MAZE, "--seed", str(seed), "--json")[1].splitlines())
            if o.get("event") == "fight-end"]
    assert len(text) == len(ends)
    side = {}
    for line, end in zip(text, ends):
        for part in re.findall(r" — (.*?)(?:; joined|->)", line)[0].split(", "):
            name, ids = part.split(": ")
            side.update({i: name for i in ids.split()})
        for joined in re.findall(r"joined: ([^-;]+)", line):
            side.update({i.strip(): "?" for i in joined.split(",")})
        fell = re.search(r"; defeated: (.*?)(?:; retreated|$)", line)
        named = dict((i, s) for group, s in re.findall(r"([^()]+?) \((\w+)\)(?:, |$)", fell.group(1))
                     for i in group.split(", ")) if fell else {}
        assert sorted(named) == sorted(end["defeated"]), line
        assert all(side[i] in (s, "?") for i, s in named.items()), line
        left = re.search(r"; retreated: (.*)$", line)
        moved = dict(re.findall(r"(\S+) -> \((\d+, \d+)\)", left.group(1))) if left else {}
        assert moved == {i: f"{c}, {r}" for i, (c, r) in end["retreated"].items()}, line
    if seed == 2:   # the audit's fight: the winner's losses and its retreat are in the text
        t14 = next(ln for ln in text if ln.startswith("T14 "))
        assert "red wins" in t14 and "knight (red)" in t14 and "retreated: mage -> (2, 0)" in t14


@pytest.mark.parametrize("argv, message", [
    (["--policy", "nosuch"], "unknown policy 'nosuch' for partyhard"),
    (["--policy", "green=greedy"], "no side 'green'"),
    (["--seed", "-1"], "--seed: expected a whole number 0 or more"),
    (["--games", "0"], "--games must be 1 or more"),
])
def test_play_bad_arguments_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "play", MAZE, *argv)
    assert code == 2 and out == "" and message in err
