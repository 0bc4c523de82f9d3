"""The CLI: check and measure, --json schemas, errors without tracebacks (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skirmish.cli import main

from conftest import ROOT, SCENARIOS, cli_refused

MILL = str(SCENARIOS / "mill-ambush.toml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_prints_a_summary(capsys):
    code, out, _ = run(capsys, "check", MILL)
    assert code == 0
    assert '"Mill ambush": ok' in out and "yumi" in out and "mill-loft" in out


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", MILL, "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and len(data["models"]) == 7


def test_measure_json_schema(capsys):
    """E-DIST / E-CONTACT / E-AWARE / E-ARC through the documented --json schema."""
    code, out, _ = run(capsys, "measure", MILL, "akane", "brute", "--json")
    data = json.loads(out)
    assert code == 0
    for key, kind in (("from", str), ("to", str), ("distance", float), ("base_contact", bool),
                      ("in_awareness", bool), ("arc", str)):
        assert isinstance(data[key], kind), key
    assert data["beyond"] is None and data["arc"] in ("front", "back")


def test_measure_standard_mode_withholds(capsys):
    """E-MODE via --mode: the distance is null and beyond is the limit."""
    code, out, _ = run(capsys, "measure", MILL, "akane", "brute", "--json", "--mode", "standard")
    data = json.loads(out)
    assert data["distance"] is None and data["beyond"] == 7 and data["in_awareness"] is False
    code, out, _ = run(capsys, "measure", MILL, "akane", "brute", "--json", "--mode", "standard", "--declared")
    assert json.loads(out)["distance"] > 7


def test_realism_refusal_exits_2_with_reason(capsys):
    code, out, err = run(capsys, "measure", MILL, "akane", "brute", "--mode", "realism")
    assert code == 2 and out == ""
    assert "realism mode" in err and "Traceback" not in err


def test_bad_file_exits_2_naming_the_place(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\n[table]\nsize = [10, 10]\n[[models]]\nid = "x"\nside = "r"\nsize = "XL"\nat = [5, 5]\n')
    code, _, err = run(capsys, "check", str(bad))
    assert code == 2
    assert f'{bad}: models[0] (id "x"): size: expected one of S, M, L, H, G, C, E, got "XL"' in err


def test_unknown_model_exits_2(capsys):
    code, _, err = run(capsys, "measure", MILL, "akane", "brutus")
    assert code == 2 and "did you mean 'brute'" in err


def test_console_script_runs_as_a_process():
    proc = subprocess.run([sys.executable, "-m", "skirmish", "measure", MILL, "akane", "nobody"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "no model with id 'nobody'" in proc.stderr


@pytest.mark.parametrize("argv, code", [
    (["los", MILL, "--all"], 0),  # (more output than the pipe holds)
    (["los", MILL, "akane", "akane", "--json"], 2),  # an error's JSON
])
def test_a_reader_that_goes_away_is_no_traceback(argv, code):
    # `skirmish ... | head`: the status is the command's, stderr holds no BrokenPipeError
    proc = subprocess.Popen([sys.executable, "-m", "skirmish", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # (before anything is read)
    err = proc.stderr.read().decode()
    assert proc.wait() == code and "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("argv", [
    ["roll", "--active", "ATT=13"], ["fight", str(SCENARIOS / "party-hard-maze.toml"), "--room", "2,1"],
    ["run", MILL], ["play", MILL], ["island", "play", str(SCENARIOS / "island.toml")],
    ["chaos", "play", str(SCENARIOS / "chaosparty" / "first-duel.toml")], ["implant", "roll", "--helps", "1"],
])
def test_a_negative_seed_is_refused_alike_by_every_command(capsys, argv):
    # (Python seeds -n as n: a negative seed would replay another's dice)
    with pytest.raises(SystemExit) as info:
        main([*argv, "--seed", "-3", "--json"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and "Traceback" not in err
    assert json.loads(out) == {"error": "argument --seed: expected a whole number 0 or more, got '-3' (it would "
                                        "replay seed 3)", "kind": "usage"}


MAZE = str(SCENARIOS / "party-hard-maze.toml")
ISLAND = str(SCENARIOS / "island.toml")


@pytest.mark.parametrize("argv, kind", [
    (["los", MILL, "akane", "akane"], "same_model"), (["move", MILL, "akane", "--reach", "akane"], "same_model"),
    (["los", MILL, "akane"], "usage"),
    (["los", MILL, "akane", "brute", "--tolerance", "3furlongs"], "unit"),
    (["move", MILL, "akane", "--to", "3x,4"], "unit"), (["heatmap", MILL, "--side", "red", "--size", "M",
                                                         "--step", "1q"], "unit"),
    (["template", MILL, "circle-small", "--at", "3,4", "--z", "1zz"], "unit"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "--step", "0.01"], "range"),
    (["template", MILL, "circle-small", "--at", "100,100"], "range"),
    (["fight", MAZE, "--room", "2,1", "--max-rounds", "0"], "range"),
    (["island", "play", ISLAND, "--rounds", "0"], "range"), (["odds", "--active", "ATT=13,STK=31"], "range"),
    (["odds", "--active", "ATT=13,MOD=999"], "range"), (["los", MILL, "akane", "brute", "--tolerance", "-1"], "range"),
    (["heatmap", MILL, "--side", "red", "--size", "M", "--step", "-1"], "range"),
    (["move", MILL, "akane", "--to", "nan,1"], "range"),
    (["damage", "--scenario", MILL, "--attacker", "akane", "--target", "brute", "--plain"], "map_kind"),
    (["move", MAZE, "knight", "--reach", "knight"], "same_model"),
    (["run", MAZE], "map_kind"), (["fight", ISLAND, "--room", "1,1"], "map_kind"),
    (["island", "play", MILL], "map_kind"), (["move", MAZE, "rogue", "--to", "3,1", "--kind", "run"], "map_kind"),
])
def test_an_error_s_json_kind_names_its_sort(capsys, argv, kind):
    # one kind for one sort of refusal, whichever command meets it (docs/cli.md)
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2 and json.loads(out)["kind"] == kind, out


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["measure"])
    assert info.value.code == 2


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.startswith("skirmish ")


TOWER = str(SCENARIOS / "eldfall" / "tower-deploy.toml")


def test_e_deploy_check_lists_the_reserve_and_other_commands_name_it(capsys):
    """E-DEPLOY: models without `at` are listed as in reserve (text and JSON); asked about
    by id elsewhere, they are named as in the reserve, not as unknown."""
    code, out, _ = run(capsys, "check", TOWER)
    assert code == 0 and "side blue (3):" in out and "raider           M in reserve" in out
    code, out, _ = run(capsys, "check", TOWER, "--json")
    doc = json.loads(out)
    assert [m["id"] for m in doc["reserve"]] == ["raider", "hunter", "witch"] and "at" not in doc["reserve"][0]
    assert {m["id"] for m in doc["models"]} == {"guard", "archer", "seer"}
    assert doc["game"] == {"rounds": 3, "zones": {"red": "south", "blue": "north"}}
    code, out, _ = run(capsys, "check", TOWER)
    assert "game (`skirmish play`): rounds 3, first by initiative, VP cap 10, zones red south, blue north" in out
    for argv in (["los", TOWER, "guard", "raider"], ["measure", TOWER, "raider", "guard"],
                 ["move", TOWER, "raider", "--to", "3,3"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "'raider' is in the reserve (no `at` in the file)" in err
    code, _, err = run(capsys, "los", TOWER, "guard", "raidr")
    assert code == 2 and "did you mean 'raider'" in err
    code, out, _ = run(capsys, "heatmap", TOWER, "--side", "red", "--size", "M", "--step", "4")
    assert code == 0 and "not counted: 3 enemies in the reserve" in out
    # a side all in the reserve: where would its models be seen from (deployment)? (it was "no side")
    code, out, _ = run(capsys, "heatmap", TOWER, "--side", "blue", "--size", "M", "--step", "4", "--json")
    assert code == 0 and sorted(json.loads(out)["enemies"]) == ["archer", "guard", "seer"]


def test_check_notes_what_a_game_would_leave_unused(capsys, tmp_path):
    # (a weapon rolling a typo'd attribute was never used in play, a typo'd attribute ignored, without a word)
    text = (SCENARIOS / "eldfall" / "tower-deploy.toml").read_text(encoding="utf-8")
    bad = tmp_path / "typos.toml"
    bad.write_text(text.replace('attribute = "ACC"', 'attribute = "AC"').replace('stk = "STA"', 'stk = "STR"')
                   .replace("MEL = 12, ACC = 11", "MLE = 12, ACC = 11", 1)
                   .replace("bands = [[8, 0]]\npw = 9\n", "bands = [[8, 0]]\n"), encoding="utf-8")
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 0
    for note in ("note: archer's Bow rolls AC, which archer does not have: a game never attacks with it",
                 "note: guard's Sword has Strike STR, which guard does not have: it rolls 1 die",
                 "note: guard's MLE is read by no rule and no weapon here (a typo of MEL?)",
                 "note: hunter's Fire Pot has no Power (pw): a game never attacks with it"):
        assert note in out
    assert json.loads(run(capsys, "check", TOWER, "--json")[1])["notes"] == []  # (the bundled file: none)


def test_check_reads_the_game_settings_as_play_does(capsys, tmp_path):
    bad = tmp_path / "bad-game.toml"
    text = (SCENARIOS / "first-steps.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace("format = 1\n", 'format = 1\ngame = "chess"\n', 1), encoding="utf-8")
    code, _, err = run(capsys, "check", str(bad))
    assert code == 2 and "[game]: expected a table of settings, got 'chess'" in err


def _floats(obj):
    if isinstance(obj, float):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _floats(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _floats(v)


@pytest.mark.parametrize("argv", [
    ["play", MILL, "--seed", "7", "--policy", "random"], ["play", MAZE, "--seed", "2"],
    ["play", MAZE, "--seed", "2", "--games", "3"], ["play", MILL, "--seed", "2", "--games", "3", "--policy", "random"],
])
def test_every_float_of_play_s_json_is_rounded_as_every_command_s(capsys, argv):
    # (witnesses went out at 16 places, a mean at 24.333333333333332)
    code, out, _ = run(capsys, *argv, "--json")
    docs = [json.loads(line) for line in out.splitlines()] if "--games" not in argv else [json.loads(out)]
    values = [v for d in docs for v in _floats(d)]
    assert code == 0 and all(v == round(v, 6) for v in values)


def _single(capsys, argv: list[str], *game: str) -> dict:
    """The result of one game played alone: the JSON document (an indented one), or the
    last line of a JSON Lines log."""
    code, out, err = run(capsys, *argv, *game, "--json")
    assert code == 0, err
    return json.loads(out) if out.startswith("{\n") else json.loads(out.splitlines()[-1])


def _job_results(kind: str, i: int) -> dict:
    """What the job of game ``i`` of a ``--games`` run (seed 5, random policies) gives: the
    function each game's worker runs."""
    if kind == "eldfall":
        from skirmish.cli._play_eldfall import play_one
        return dict(play_one((MILL, "random", 5, i)).summary)
    if kind == "partyhard":
        from skirmish.cli._play_partyhard import one_game
        r = one_game((MAZE, "random", 5, i))
        return {"winner": r["winner"], "turns": r["turns"]}
    if kind == "chaos":
        from skirmish.game.chaosparty.runs import _Job, _work
        from skirmish.scenario.chaos import load_duel
        winner, turns, first = _work(_Job(load_duel(str(DUEL)), "random", 5, i))
        return {"winner": winner, "turns": turns, "first": first}
    from skirmish.cli.island import ROUNDS, _one_game
    from skirmish.scenario.load import load
    r = _one_game((load(ISLAND).island, ROUNDS, "random", 5, i))
    return {k: r[k] for k in ("result", "blight", "fear", "terror", "rounds_played")}


DUEL = SCENARIOS / "chaosparty" / "first-duel.toml"


@pytest.mark.parametrize("kind, argv", [
    ("eldfall", ["play", MILL]), ("partyhard", ["play", MAZE]), ("chaos", ["chaos", "play", str(DUEL)]),
    ("island", ["island", "play", ISLAND]),
])
def test_game_i_of_a_run_is_the_game_played_alone_with_game_i(capsys, kind, argv):
    # (an Eldfall or Party Hard game played alone with --seed S was no game of --games N --seed S)
    argv = [*argv, "--seed", "5", "--policy", "random"]
    for i in range(3):
        alone = _single(capsys, argv, "--game", str(i))
        assert alone["game"] == i and alone["seed"] == 5
        job = _job_results(kind, i)
        assert {k: alone[k] for k in job} == job
    assert _single(capsys, argv) == _single(capsys, argv, "--game", "0")  # (without --game: game 0)


def test_game_and_games_together_are_refused(capsys):
    code, out, _ = run(capsys, "play", MILL, "--seed", "5", "--games", "2", "--game", "1", "--json")
    assert code == 2 and json.loads(out)["kind"] == "usage"


@pytest.mark.parametrize("argv", [("chaos", "play", "nowhere.toml"), ("island", "play", "nowhere.toml"),
                                  ("implant", "fight", "--health", "3", "--enemy-health", "2", "--policy", "x")])
def test_an_error_names_the_subcommand_as_typed(capsys, argv):
    # (`skirmish chaos play` failed as `skirmish chaos: error:`, naming no subcommand)
    err = cli_refused(capsys, *argv)
    assert err.startswith(f"skirmish {argv[0]} {argv[1]}: error: ")


def test_a_command_imports_its_own_module_alone_and_import_skirmish_stays_light():
    """(every command imported every command's module, and `import skirmish` the whole
    engine: `skirmish roll` spent a second starting)"""
    code = ("import sys; from skirmish.cli import main; import skirmish; light = 'skirmish.maps.table' not in "
            "sys.modules; main(['odds', '--active', 'ATT=12', '--json']); "
            "print(light, 'skirmish.maps.table' in sys.modules, "
            "sorted(m for m in sys.modules if m.startswith('skirmish.cli.') and not m.startswith('skirmish.cli._')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "True False ['skirmish.cli.odds']"
    # the library's names (and subpackages) are there at first use
    code = ("import skirmish; t = skirmish.load('scenarios/first-steps.toml'); "
            "print(type(t) is skirmish.Table, hasattr(skirmish.rules.eldfall, 'weapons'), 'Table' in dir(skirmish))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["True", "True", "True"]


def test_the_parser_of_one_command_is_the_whole_parser_s_for_that_command():
    from skirmish.cli import build_parser

    everything = build_parser()
    assert len(everything.commands) > 10
    for name in ("roll", "move", "play"):
        alone = build_parser([name, "--help"])
        assert list(alone.commands) == [name]
        assert alone.commands[name].format_help() == everything.commands[name].format_help()
    for top in (["--help"], ["rol"], [], ["--version"]):  # (help, an error listing every choice, version)
        light = build_parser(top)
        assert list(light.commands) == list(everything.commands)
        assert light.format_help() == everything.format_help()


def test_every_command_module_is_listed_and_the_top_level_help_imports_none():
    import pkgutil

    import skirmish.cli as cli
    from skirmish.cli._commands import COMMANDS

    assert sorted(COMMANDS) == sorted(m.name for m in pkgutil.iter_modules(cli.__path__) if not m.name[0] == "_")
    code = ("import sys; from skirmish.cli import main\ntry: main(['--help'])\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('skirmish.cli.') and not m.startswith('skirmish.cli._')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_ctrl_c_while_the_command_loads_is_no_traceback(monkeypatch, capsys):
    """(a Ctrl-C in the second the commands' modules took to import printed Python's traceback)"""
    import skirmish.cli as cli

    def interrupted(name: str):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.importlib, "import_module", interrupted)
    assert main(["roll", "--help"]) == 130
    assert capsys.readouterr() == ("", "")


def test_a_terminal_is_told_why_a_first_run_waits_for_the_kernels(monkeypatch, capsys):
    from skirmish import cli
    from skirmish.geometry import compiling

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    try:
        assert main(["odds", "--active", "ATT=12", "--json"]) == 0
        assert compiling._notice is not None
        compiling._notice()
        assert capsys.readouterr().err == cli.COMPILE_NOTICE + "\n"
    finally:
        compiling.on_first_compile(None)
