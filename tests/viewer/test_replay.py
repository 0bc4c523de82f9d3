"""Replaying a logged game (``skirmish play --json``): the log parsed into steps, applied
to the scenario, checked against the game that was played; bad logs refused clearly;
replay mode's layers, text and key stepping (pure: no OpenGL here, frames are in
test_replay_frames.py)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.cli import main
from skirmish.game.eldfall import EldfallGame
from skirmish.game.eldfall.replay import ReplayError, parse_log, read_log, replay
from skirmish.game.eldfall.settings import load_game
from skirmish.game.policy import parse_policy_specs
from skirmish.scenario.load import load
from skirmish.viewer import palette as P
from skirmish.viewer.replay_view import REPLAY_HELP, ReplaySession, step_extras, step_lines, step_scene
from skirmish.viewer.scene import Dot, Fill, Line

from conftest import SCENARIOS, cli_refused


def logged(scenario: str, *argv: str) -> str:
    """What ``skirmish play SCENARIO --json ARGV`` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", str(SCENARIOS / scenario), "--json", *argv]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def mill():
    return load(SCENARIOS / "mill-ambush.toml")


@pytest.fixture(scope="module")
def mill_log_text():
    return logged("mill-ambush.toml", "--seed", "4", "--policy", "random")


@pytest.fixture(scope="module")
def mill_replay(mill, mill_log_text):
    return replay(mill, parse_log(mill_log_text, "game.jsonl"))


@pytest.fixture
def log_file(tmp_path, mill_log_text):
    p = tmp_path / "game.jsonl"
    p.write_text(mill_log_text)
    return p


# -- parsing and applying -----------------------------------------------------------------------------

def test_every_line_but_the_result_is_a_step(mill_log_text, mill_replay):
    lines = [json.loads(ln) for ln in mill_log_text.splitlines()]
    assert len(mill_replay) == len(lines) - 1
    for k, (s, obj) in enumerate(zip(mill_replay.log.steps, lines), start=1):
        assert (s.number, s.line, s.model, s.role, s.round, s.turn) == (
            k, k, obj["model"], obj["role"], obj["round"], obj["turn"])
    o = mill_replay.log.outcome
    assert o is not None and dict(o.vp) == lines[-1]["vp"] and o.winner == lines[-1]["winner"]


def test_step_0_is_the_scenarios_set_up(mill, mill_replay):
    start = mill_replay.state_at(0)
    for m in mill.models:
        assert start.models[m.id].at == (m.x, m.y, m.z) and start.models[m.id].facing == m.facing % 360
    assert mill_replay.table_at(0) == mill


def test_positions_after_step_k_are_the_logged_path_ends(mill_replay):
    moved = 0
    for k in range(1, len(mill_replay) + 1):
        s, before, after = mill_replay.step(k), mill_replay.state_at(k - 1), mill_replay.state_at(k)
        ends = {}
        if s.movement is not None:
            ends[s.model] = s.movement.end
            moved += s.movement.kind != "idle"
            assert math.dist(s.movement.path[0], before.models[s.model].at) < 0.01  # it starts where it stood
        if s.dodge_move is not None:
            ends[s.model] = s.dodge_move.end
        for mid, p in after.models.items():
            assert p.at == ends.get(mid, before.models[mid].at), (k, mid)
        t = mill_replay.table_at(k)
        for mid, p in after.models.items():
            m = t.model(mid)
            assert (m.x, m.y, m.z, m.facing) == (*p.at, p.facing)
    assert moved >= 3  # the log moves models, so this test can fail


def test_conditions_follow_the_logged_states_to_the_result(mill_replay):
    last = mill_replay.state_at(len(mill_replay)).models
    for mid, cond in mill_replay.log.outcome.states.items():
        assert last[mid].condition == cond and cond != "Active"  # today's logs name Unharmed / Wounded
    for k in range(1, len(mill_replay) + 1):
        for mid, cond in mill_replay.step(k).states.items():
            assert mill_replay.state_at(k).models[mid].condition == cond
            m = mill_replay.table_at(k).model(mid)
            assert ("Dead" in m.states) == (cond == "Dead")
            assert ("Incapacitated" in m.states) == (cond == "Incapacitated")


class _Recorded(EldfallGame):
    """The game, photographed after every logged Activation Sequence and phase roll:
    (events logged so far, every model's position and facing)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.photos: list[tuple[int, dict]] = []

    def _photo(self) -> None:
        self.photos.append((len(self.events), {m.id: (m.x, m.y, m.z, m.facing) for m in self.state.table.models}))

    def _log_sequence(self, *a, **kw):
        super()._log_sequence(*a, **kw)
        self._photo()

    def _phase_event(self, *a, **kw):
        super()._phase_event(*a, **kw)
        self._photo()


@pytest.mark.parametrize("scenario,seed", [("mill-ambush.toml", 1), ("mill-ambush.toml", 5), ("mill-ambush.toml", 7),
                                           ("first-steps.toml", 0)])
def test_e_turn_facing_replay_stands_where_the_played_game_stood(scenario, seed):
    """The oracle is the game itself: after every Activation Sequence and phase roll,
    every model's position and facing in the replay is the played game's table, turns
    after a Hit (E-TURN-FACING) and Dodge moves included (seed 7 of mill-ambush has a
    model Hit that then makes its Dodge move: the move's facing wins)."""
    table, settings_, script = load_game(str(SCENARIOS / scenario))
    game = _Recorded(table, settings_, parse_policy_specs("random", table.sides, "eldfall"), random.Random(seed),
                     seed=seed)
    rec = game.play()
    text = "\n".join(json.dumps(e) for e in rec.events) + "\n" + json.dumps(rec.summary) + "\n"
    rp = replay(table, parse_log(text))
    turned = 0
    for n, photo in game.photos:
        placed = rp.state_at(n).models
        for mid, (x, y, z, facing) in photo.items():
            p = placed[mid]
            assert math.dist(p.at, (x, y, z)) < 1e-3, (n, mid)
            assert abs((p.facing - facing + 180) % 360 - 180) < 0.05, (n, mid, p.facing, facing)
        turned += any(e.hits for k in range(1, n + 1) for e in rp.step(k).exchanges)
    assert turned  # some Hit was taken, so the turn after it was checked


@settings(max_examples=15, deadline=None)
@given(cut=st.integers(min_value=1, max_value=36))
def test_a_truncated_log_replays_the_same_up_to_its_end(mill, mill_log_text, mill_replay, cut):
    whole = mill_log_text.splitlines()
    part = replay(mill, parse_log("\n".join(whole[:cut])))
    assert (part.log.outcome is None) == (cut < len(whole))  # (the summary is the last line)
    for k in range(len(part) + 1):
        assert part.state_at(k) == mill_replay.state_at(k)


# -- bad logs -----------------------------------------------------------------------------------------

def _first_move(text: str) -> tuple[list[dict], int]:
    objs = [json.loads(ln) for ln in text.splitlines()]
    i = next(i for i, o in enumerate(objs) if o.get("role") == "activation" and o["movement"]["kind"] != "idle")
    return objs, i


def _text(objs) -> str:
    return "\n".join(json.dumps(o) for o in objs) + "\n"


def _broken(text: str, how: str) -> tuple[str, str]:
    """The log broken one way, and what the error must say."""
    objs, i = _first_move(text)
    line = i + 1
    o = objs[i]
    if how == "not-json":
        lines = text.splitlines()
        lines[i] = lines[i][:-3]
        return "\n".join(lines), f"line {line}: not JSON"
    if how == "no-path":
        del o["movement"]["path"]
        return _text(objs), f"line {line}: 'movement.path' is missing"
    if how == "bad-point":
        o["movement"]["path"][1] = ["a", 1]
        return _text(objs), f"line {line}: 'movement.path[1]' must be a point"
    if how == "bad-round":
        o["round"] = "one"
        return _text(objs), f"line {line}: 'round' must be a whole number, got \"one\""
    if how == "bad-role":
        o["role"] = "spectator"
        return _text(objs), f"line {line}: 'role' is 'spectator'"
    if how == "bad-state":
        o["result"]["states"][o["model"]] = "Sleepy"
        return _text(objs), f"line {line}: 'result.states.{o['model']}' is 'Sleepy'"
    if how == "unknown-model":
        o["model"] = "gandalf"
        return _text(objs), f"line {line}: model names model 'gandalf', which is not in the scenario"
    if how == "unknown-target":
        o["action"]["target"] = "sauron"
        return _text(objs), f"line {line}: action.target names model 'sauron'"
    if how == "wrong-start":
        o["movement"]["path"][0] = [0.5, 0.5, 0.0]
        return _text(objs), f"line {line}: movement.path of {o['model']} starts at (0.5, 0.5, 0)"
    if how == "after-result":
        return text + text.splitlines()[0] + "\n", f"line {len(objs) + 1}: a line after the game's result"
    if how == "empty":
        return "\n\n", "no activation, reaction or phase roll"
    raise AssertionError(how)


BROKEN = ["not-json", "no-path", "bad-point", "bad-round", "bad-role", "bad-state", "unknown-model", "unknown-target",
          "wrong-start", "after-result", "empty"]


@pytest.mark.parametrize("how", BROKEN)
def test_a_bad_log_is_refused_naming_the_line_and_field(mill, mill_log_text, how):
    text, says = _broken(mill_log_text, how)
    with pytest.raises(ReplayError) as exc:
        replay(mill, parse_log(text, "game.jsonl"))
    assert says in str(exc.value)
    assert exc.value.kind == "replay"


@pytest.mark.parametrize("how", ["not-json", "unknown-model", "wrong-start"])
@pytest.mark.parametrize("command", ["render", "view"])
def test_cli_bad_log_exits_2_with_the_message(capsys, tmp_path, mill_log_text, how, command):
    text, says = _broken(mill_log_text, how)
    log = tmp_path / "bad.jsonl"
    log.write_text(text)
    extra = ["-o", str(tmp_path / "x.png")] if command == "render" else []
    err = cli_refused(capsys, command, str(SCENARIOS / "mill-ambush.toml"), "--replay", str(log), *extra)
    assert says in err and str(log) in err
    assert not (tmp_path / "x.png").exists()


def test_cli_refuses_a_step_the_log_lacks_and_a_missing_log(capsys, tmp_path, log_file, mill_replay):
    n = len(mill_replay)
    err = cli_refused(capsys, "render", str(SCENARIOS / "mill-ambush.toml"), "--replay", str(log_file),
                      "--step", str(n + 1), "-o", str(tmp_path / "x.png"))
    assert f"--step {n + 1}" in err and f"1..{n}" in err
    err = cli_refused(capsys, "render", str(SCENARIOS / "mill-ambush.toml"), "--replay", str(tmp_path / "none.jsonl"),
                      "-o", str(tmp_path / "x.png"))
    assert "cannot read the game log" in err
    err = cli_refused(capsys, "render", str(SCENARIOS / "mill-ambush.toml"), "--step", "3", "-o",
                      str(tmp_path / "x.png"))
    assert "--replay" in err
    assert "--replay" in cli_refused(capsys, "view", str(SCENARIOS / "mill-ambush.toml"), "--step", "3")
    err = cli_refused(capsys, "view", str(SCENARIOS / "mill-ambush.toml"), "--replay", str(log_file), "--step", "-1")
    assert "--step -1" in err
    err = cli_refused(capsys, "render", str(SCENARIOS / "party-hard-maze.toml"), "--replay", str(log_file), "-o",
                      str(tmp_path / "x.png"))
    assert "--replay" in err and "continuous table" in err


def test_an_older_log_naming_active_models_still_replays(mill, mill_log_text):
    """Logs written before the game named Unharmed and Wounded said "Active" for both."""
    old = replay(mill, parse_log(mill_log_text.replace('"Unharmed"', '"Active"'), "old.jsonl"))
    assert any("Active" in old.step(k).states.values() for k in range(1, len(old) + 1))
    for k in range(1, len(old) + 1):
        for mid, cond in old.step(k).states.items():
            assert old.state_at(k).models[mid].condition == ("Unharmed" if cond == "Active" else cond)


def test_a_log_on_another_scenario_is_refused(log_file):
    first = load(SCENARIOS / "first-steps.toml")
    with pytest.raises(ReplayError, match="not in the scenario"):
        replay(first, read_log(str(log_file)))


# -- replay mode: layers, text, keys --------------------------------------------------------------------

def _attack_step(rp, role: str) -> int:
    return next(k for k in range(1, len(rp) + 1) if rp.step(k).role == role and rp.step(k).action.kind == "attack"
                and any(e.witness for e in rp.step(k).exchanges))


def test_an_attack_step_draws_its_path_and_the_logged_witness(mill_replay):
    k = next(k for k in range(1, len(mill_replay) + 1) if mill_replay.step(k).role == "activation"
             and mill_replay.step(k).movement.kind != "idle")
    s = mill_replay.step(k)
    lines = [p for p in step_scene(mill_replay, k)["overlays"] if isinstance(p, Line)]
    path = [ln for ln in lines if ln.color == P.REPLAY_PATH]
    assert path and [tuple(xy) for xy in path[0].points] == [p[:2] for p in s.movement.path]
    k = _attack_step(mill_replay, "activation")
    wit = next(e.witness for e in mill_replay.step(k).exchanges if e.witness)
    sight = [ln for ln in step_scene(mill_replay, k)["overlays"] if isinstance(ln, Line) and ln.color == P.LOS_VISIBLE]
    assert [tuple(xy) for xy in sight[0].points] == [wit[0][:2], wit[1][:2]]


def test_an_attack_of_opportunity_marks_the_path_point_it_was_judged_at(mill_replay):
    k = _attack_step(mill_replay, "reaction")
    at = mill_replay.step(k).action.at
    dots = [p for p in step_scene(mill_replay, k)["overlays"] if isinstance(p, Dot) and p.color == P.SELECTED]
    assert (dots[0].x, dots[0].y) == at[:2]


def test_the_step_text_has_round_turn_model_action_and_dice(mill_replay):
    k = _attack_step(mill_replay, "activation")
    s = mill_replay.step(k)
    text = "\n".join(step_lines(mill_replay, k))
    assert s.model in text and f"action: attack → {s.action.target}" in text
    e = next(e for e in s.exchanges if e.dice)
    assert "d20 " + " ".join(f"{d.face}{'!' if d.critical else ''}{'+' if d.hit else '-'}" for d in e.dice) in text
    legend = [i.label for i in step_extras(mill_replay, k).legend]
    assert legend[0].startswith(f"Step {k} of {len(mill_replay)} · round {s.round}, turn {s.turn}")


def test_e_tmpl_a_template_step_draws_each_template_it_placed():
    """In the tower game (seed 5) the guard's flamer and the hunter's fire pots are
    placed: each such step draws every logged outline under the models and names it."""
    tower = load(SCENARIOS / "eldfall" / "tower-deploy.toml")
    text = logged("eldfall/tower-deploy.toml", "--seed", "5", "--policy", "greedy")
    rp = replay(tower, parse_log(text, "game.jsonl"))
    ks = [k for k in range(1, len(rp) + 1) if rp.step(k).templates]
    assert ks
    logged_outlines = [[tuple(p) for p in e["template"]["outline"]] for line in text.splitlines()
                       for e in json.loads(line).get("result", {}).get("exchanges", []) if e.get("kind") == "template"]
    drawn = []
    for k in ks:
        fills = [p for p in step_scene(rp, k)["underlay"] if isinstance(p, Fill)]
        assert len(fills) == len(rp.step(k).templates)
        drawn += [list(o) for _, o in rp.step(k).templates]
        assert "template placed: " + rp.step(k).templates[0][0] in step_lines(rp, k)
    assert drawn == logged_outlines


def test_replay_session_keys_step_through_the_log(mill, mill_replay):
    sess = ReplaySession(mill_replay)
    assert sess.step == 0 and sess.table == mill
    for k in range(1, 6):
        sess.key("right")
        assert sess.step == k and sess.table == mill_replay.table_at(k)
        assert sess.info_lines()[1] == step_lines(mill_replay, k)
    v = sess.overlay_version
    sess.key("left")
    assert sess.step == 4 and sess.table == mill_replay.table_at(4) and sess.overlay_version > v
    sess.key("end")
    assert sess.step == len(mill_replay)
    sess.key("right")  # past the end: stays
    assert sess.step == len(mill_replay)
    sess.key("home")
    sess.key("left")
    assert sess.step == 0 and sess.table == mill
    assert not sess.dirty  # stepping is not an edit: quitting does not ask to save
    assert all(line in sess.help_lines() for line in REPLAY_HELP)


def test_replay_modules_are_pure_and_do_not_import_pyglet():
    import subprocess
    import sys

    code = ("import sys\nimport skirmish.game.eldfall.replay, skirmish.viewer.replay_view\n"
            "assert 'pyglet' not in sys.modules, sorted(m for m in sys.modules if 'pyglet' in m)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_party_hard_log_given_to_replay_is_named_as_one(capsys, tmp_path):
    """`skirmish play` on a grid prints event lines: --replay says what it got."""
    assert main(["play", str(SCENARIOS / "party-hard-maze.toml"), "--seed", "2", "--json"]) == 0
    log = tmp_path / "ph.jsonl"
    log.write_text(capsys.readouterr().out, encoding="utf-8")
    with pytest.raises(ReplayError, match="a Party Hard game log"):
        read_log(str(log))


SPRAY = """format = 1
[weapons.sword]
name = "Sword"
reach = 1
pw = 10
stk = "STA"
[weapons.flamer]
name = "Flamer"
template = "spray-small"
pw = 12
stk = 2
[table]
size = [24, 24]
[game]
first = "red"
rounds = 1
""" + "".join(f'[[models]]\nid = "{i}"\nside = "{side}"\nsize = "M"\nat = [{x}, {y}]\nfacing = {f}\nweapons = ["{w}"]\n'
              f"attributes = {{ AGI = 5, SPD = 4, STA = {stk}, MEL = 10, ARM = 0, HP = 2 }}\n"
              for i, side, x, y, f, w, stk in [("fl", "red", 4, 12, 0, "flamer", 2), ("b1", "blue", 8, 12, 180, "sword", 1),
                                              ("b2", "blue", 10, 12.6, 180, "sword", 1),
                                              ("b3", "blue", 8, 16, 180, "sword", 1)])


def test_e_tmpl_e_stk_split_a_step_rings_every_model_it_attacked_orange_where_it_was_hit(tmp_path):
    """(only the main target was ringed, orange when any exchange of the step hit: a spray
    that missed b1 and wounded b2 drew b1 hit and b2 not at all)"""
    path = tmp_path / "spray.toml"
    path.write_text(SPRAY, encoding="utf-8")
    table = load(path)
    others = 0
    for seed in range(1, 6):
        rp = replay(table, parse_log(logged_file(path, "--seed", str(seed), "--policy", "greedy"), "game.jsonl"))
        for k in range(1, len(rp) + 1):
            step = rp.step(k)
            if step.action is None or step.action.target is None or step.action.kind == "nothing":
                continue
            at = rp.table_at(k)
            rings = {}
            for ln in step_scene(rp, k)["overlays"]:
                if isinstance(ln, Line) and ln.closed and ln.color in (P.HIT, P.TARGET):
                    cx, cy = ln.points.mean(axis=0)
                    who = min(at.models, key=lambda m: math.hypot(m.x - cx, m.y - cy)).id
                    rings[who] = ln.color
            attacked = {step.action.target} | {e.target for e in step.exchanges if e.target != step.model}
            assert set(rings) == attacked, (seed, k)
            for who, color in rings.items():
                assert (color == P.HIT) == any(e.hits for e in step.exchanges if e.target == who), (seed, k, who)
            others += len(attacked - {step.action.target})
    assert others  # (some template caught a model besides its main target)


def logged_file(path, *argv: str) -> str:
    """What ``skirmish play PATH --json ARGV`` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", str(path), "--json", *argv]) == 0
    return out.getvalue()
