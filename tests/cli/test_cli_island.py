"""``skirmish island invade|distance|play`` and the shared commands (check, measure, play) on an island."""

from __future__ import annotations

import json

import pytest

from conftest import SCENARIOS, cli_refused as refused, cli_run as run

ISLAND = str(SCENARIOS / "island.toml")
MAZE = str(SCENARIOS / "party-hard-maze.toml")


def test_island_invade_json_has_the_documented_shape(capsys):
    code, out, _ = run(capsys, "island", "invade", ISLAND, "--explore", "wetland", "--seed", "1", "--json")
    d = json.loads(out)
    assert code == 0 and {"regions", "fear", "blight", "events"} <= set(d)
    assert set(d["regions"]) == {"coast-1", "coast-2", "coast-3", "wood", "peak", "dunes", "marsh", "reef"}
    for r in d["regions"].values():
        assert set(r) == {"explorers", "towns", "cities", "dahan", "blight", "presence", "ravage", "build"}
    # S-BUILD in coast-1 (marked in the file), S-EXPLORE in the coastal wetland and the wetland next to the city
    assert d["regions"]["coast-1"]["towns"] == 1 and d["regions"]["coast-1"]["ravage"]
    assert d["regions"]["coast-3"]["explorers"] == 1 and d["regions"]["coast-3"]["build"]
    assert d["regions"]["marsh"]["explorers"] == 1 and d["regions"]["marsh"]["build"]
    assert d["blight"] == 4 and d["fear"] == 0 and d["seed"] == 1 and d["explore"] == ["wetland"]
    assert [e["step"] for e in d["events"]] == ["build", "explore", "explore"]
    assert all({"step", "region", "text"} <= set(e) for e in d["events"])


def test_island_invade_human_output_lists_what_happened_region_by_region(capsys):
    code, out, _ = run(capsys, "island", "invade", ISLAND, "--explore", "wetland,mountain", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert "exploring wetland and mountain (seed 1)" in lines[0]
    assert lines[1:3] == ["coast-1:", "  the invaders build a town (1 town, 0 cities here)"]
    # peak is a mountain next to the city in dunes; reef, the other mountain, is next to neither town nor city
    i = lines.index("peak:")
    assert lines[i + 1] == "  an explorer arrives (mountain, next to a town or city)" and "reef:" not in lines
    assert lines[-1] == "next round: ravage in coast-1; build in coast-3, peak, marsh"


def test_island_invade_then_invade_again_ravages_what_was_built(capsys, tmp_path):
    after = tmp_path / "after.toml"
    assert run(capsys, "island", "invade", ISLAND, "--explore", "wetland", "--seed", "1", "--save", str(after))[0] == 0
    code, out, _ = run(capsys, "island", "invade", str(after), "--explore", "jungle", "--seed", "1", "--json")
    d = json.loads(out)
    assert d["round"] == 2  # the saved island is at the next round
    ravage = [e for e in d["events"] if e["step"] == "ravage"]
    # coast-1: a town and an explorer, 3 damage: one of the two dahan dies, a blight (coast-1 had one already:
    # it cascades to coast-2 or wood), the dahan left strikes back for 2
    assert [(e["region"], e["damage"], e["dahan_destroyed"]) for e in ravage] == [("coast-1", 3, 1)]
    cascade = next(e for e in d["events"] if e["step"] == "cascade")
    assert cascade["from"] == "coast-1" and cascade["to"] in ("coast-2", "wood") and d["blight"] == 5


def test_island_invade_is_the_same_for_the_same_seed(capsys):
    outs = {run(capsys, "island", "invade", ISLAND, "--explore", "sands", "--seed", "9", "--json")[1] for _ in range(2)}
    assert len(outs) == 1


def test_island_invade_defaults_to_the_files_explore_order(capsys):
    code, out, _ = run(capsys, "island", "invade", ISLAND, "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["explore"] == ["wetland"]


def test_island_distance(capsys):
    code, out, _ = run(capsys, "island", "distance", ISLAND, "coast-1", "reef", "--json")
    d = json.loads(out)
    assert code == 0 and (d["from"], d["to"], d["distance"]) == ("coast-1", "reef", 3)
    assert d["path"] == ["coast-1", "wood", "peak", "reef"]
    code, out, _ = run(capsys, "island", "distance", ISLAND, "wood", "wood")
    assert out.strip() == "wood -> wood: 0 steps (same region wood)"


def test_island_play_one_game_json_and_log(capsys):
    code, out, _ = run(capsys, "island", "play", ISLAND, "--seed", "4", "--json")
    d = json.loads(out)
    assert code == 0 and d["seed"] == 4 and d["result"] in ("won", "lost") and 1 <= d["rounds_played"] <= 12
    assert [r["round"] for r in d["rounds"]] == list(range(1, d["rounds_played"] + 1))
    assert d["rounds"][-1]["blight"] == d["blight"] and d["rounds"][-1]["fear"] == d["fear"]
    code, out, _ = run(capsys, "island", "play", ISLAND, "--seed", "4")
    assert code == 0 and "seed 4 (replay with --seed 4)" in out and f"the spirits have {d['result']}" in out


def test_s_ravage_every_ravage_event_in_a_game_has_the_documented_fields(capsys):
    """Seed 2, round 7: marsh is marked but its invaders are gone; its event still has
    damage, dahan_destroyed and dahan_left (docs/spiritisland.md)."""
    code, out, _ = run(capsys, "island", "play", ISLAND, "--seed", "2", "--json")
    ravages = [e for r in json.loads(out)["rounds"] for e in r["events"] if e["step"] == "ravage"]
    assert code == 0 and any(e["damage"] == 0 for e in ravages)
    for e in ravages:
        assert {"damage", "dahan_destroyed", "dahan_left"} <= set(e), e
        assert e["damage"] or e["dahan_destroyed"] == 0


def test_island_play_games_report_is_the_same_for_any_worker_count(capsys):
    argv = ("island", "play", ISLAND, "--seed", "7", "--games", "6", "--rounds", "6", "--json")
    one = json.loads(run(capsys, *argv)[1])
    two = json.loads(run(capsys, *argv, "--workers", "2")[1])
    assert one == two and one["games"] == 6 and one["won"] + one["lost"] == 6
    assert sum(one["reasons"].values()) == 6


def test_island_play_games_gives_the_win_share_its_95_percent_wilson_interval(capsys):
    """Seed 7, 6 games: none won; the Wilson interval of 0/6 by hand: [0, z²/n / (1 + z²/n)]
    = [0, 0.3903]."""
    argv = ("island", "play", ISLAND, "--seed", "7", "--games", "6", "--rounds", "6")
    rep = json.loads(run(capsys, *argv, "--json")[1])
    assert rep["won"] == 0 and rep["win_share_ci95"] == [0.0, 0.3903]
    assert "(win share 0.0%; 95% CI 0.0–39.0%)" in run(capsys, *argv)[1]


def test_island_play_policies_and_skirmish_play_dispatch(capsys):
    code, out, _ = run(capsys, "play", ISLAND, "--seed", "3", "--games", "3", "--policy", "random", "--json")
    assert code == 0 and json.loads(out)["games"] == 3
    err = refused(capsys, "island", "play", ISLAND, "--policy", "sky=greedy")
    assert "no side 'sky'; the sides are river, earth" in err


def test_check_and_measure_on_an_island(capsys):
    code, out, _ = run(capsys, "check", ISLAND)
    assert code == 0 and out.startswith('"Spirit island: the reef isle": ok — island of 8 regions (3 coastal)')
    assert "wood    jungle           borders coast-1, coast-2, peak, dunes | dahan 2 | presence: river 2 (sacred site)" in out
    d = json.loads(run(capsys, "check", ISLAND, "--json")[1])
    assert d["ok"] and d["map"] == "regions" and len(d["regions"]) == 8 and d["island"]["blight"] == 4
    d = json.loads(run(capsys, "measure", ISLAND, "explorers@coast-1", "river@peak", "--json")[1])
    assert (d["distance"], d["path"], d["base_contact"]) == (2, ["coast-1", "wood", "peak"], False)
    code, out, _ = run(capsys, "measure", ISLAND, "towns@coast-2", "dahan@coast-2")
    assert "0 steps (same region coast-2)" in out and "contact, line of sight): yes" in out


@pytest.mark.parametrize("argv, message", [
    (("island", "invade", ISLAND, "--explore", "forest"), "--explore 'forest'"),
    (("island", "distance", ISLAND, "coast-1", "nowhere"), "no group of pieces or region with id 'nowhere'"),
    (("island", "invade", MAZE, "--explore", "sands"), "needs an island"),
    (("island", "play", ISLAND, "--rounds", "13"), "has 12 entries, and 13 rounds from round 1 need 13: play --rounds 12 or less"),
    (("island", "play", ISLAND, "--games", "0"), "--games must be 1 or more"),
    (("measure", ISLAND, "coast-1", "atlantis"), "no group of pieces or region with id 'atlantis'"),
])
def test_island_refusals_exit_2_with_the_reason(capsys, argv, message):
    assert message in refused(capsys, *argv)
