"""Eldfall as a whole game (E-ROUND, E-TURN, E-AP, E-ACTIVATION, E-REACTION): invariants
over many seeded games, hand-made situations, bad input."""

from __future__ import annotations

import dataclasses
import gc
import json
import math
import random
import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skirmish.cli import main
from skirmish.errors import ScenarioError, SkirmishError
from skirmish.game.eldfall import EldfallGame, IllegalChoice, Move, Reaction, parse_settings, play_game
from skirmish.game.eldfall.choices import NOTHING as NOTHING_ACTION, SPECIAL_MOVES
from skirmish.game.eldfall.loop import PLANNER_KIND
from skirmish.game.eldfall.settings import check_playable, load_game
from skirmish.game.policy import Decision, RandomPolicy, load_policy, PolicyError
from skirmish.scenario.load import loads

from conftest import SCENARIOS
from eldfall_fixtures import model, skirmish_text

MILL = str(SCENARIOS / "mill-ambush.toml")


@pytest.fixture
def small(tmp_path):
    p = tmp_path / "small.toml"
    p.write_text(skirmish_text(), encoding="utf-8")
    return str(p)


class Checked(EldfallGame):
    """A game that checks every rule invariant as it is played."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.violations: list[str] = []
        self.spent: dict[tuple[int, int, str], int] = {}
        self.special: dict[int, str] = {}

    def ask(self, side: str, decision: Decision[Any]) -> Any:
        choice = super().ask(side, decision)
        st = self.state
        if decision.kind == "reaction":
            # E-REACTION: only Reactive models, only against the activated model
            if st.unit(decision.actor).side != st.reactive:
                self.violations.append(f"reaction by {decision.actor} of the Active side")
            if choice.kind != "none" and st.unit(decision.actor).ap < 1:
                self.violations.append(f"reaction by {decision.actor} without AP")
            if choice.kind == "attack":  # an Attack of Opportunity: LoS and reach at its path point
                from skirmish.game.eldfall.sight import moved_to
                ctx = decision.context or {}
                mover = ctx["mover"]
                t = moved_to(st.table, st.model(mover), ctx["path"][choice.at])
                if not (t.line_of_sight(decision.actor, mover).visible
                        and t.reach(decision.actor, mover, choice.weapon).in_reach):
                    self.violations.append(f"reaction {decision.actor}->{mover} without LoS or reach at its point")
        if decision.kind == "action":
            mover = decision.actor
            if self._last_kind in SPECIAL_MOVES and choice.kind != "nothing":
                self.violations.append(f"E-ACTION-COMBO: {mover} {choice.kind} after {self._last_kind}")
            if choice.kind in ("attack", "cast"):
                for target, _ in choice.shares:  # E-STK-SPLIT: every target in LoS and reach
                    sight = st.table.line_of_sight(mover, target)
                    reach = st.table.reach(mover, target, choice.weapon)
                    aura = st.model(mover).weapon(choice.weapon).aura  # E-AURA-CAST: Active, LoS not needed
                    if not ((sight.visible or aura) and reach.in_reach):
                        self.violations.append(f"attack {mover}->{target} without LoS or reach")
                if choice.split:
                    from skirmish.game.eldfall.attacks import strike_of
                    m, w = st.model(mover), st.model(mover).weapon(choice.weapon)
                    dice = [n for _, n in choice.split]
                    if sum(dice) != strike_of(m, st.unit(mover), w) or min(dice) < 1 or len(dice) < 2 \
                            or len({t for t, _ in choice.split}) != len(dice):
                        self.violations.append(f"E-STK-SPLIT: {mover} splits {choice.split}")
        return choice

    def apply_move(self, model_id: str, move: Move) -> Any:
        before = self.state.table
        states = self.state.unit(model_id).states
        if move.crouch == "start":  # the movement is made as the toggle leaves the model
            states = states ^ {"Crouched"}
            m = before.model(model_id)
            before = before.with_model(dataclasses.replace(m, states=m.states ^ {"Crouched"}))
        budget = self.budget(model_id, move.kind, states) if move.kind != "idle" else 0.0
        mr = super().apply_move(model_id, move)
        self._last_kind = mr.kind
        if mr.plan is not None:
            again = before.check_move(model_id, list(mr.via), kind=PLANNER_KIND[mr.kind], budget=budget,
                                      declared=True)
            if not again.legal:
                self.violations.append(f"{model_id} {mr.kind} fails the movement checker: {again.violations}")
        t = self.state.table  # every model stands on a surface or hangs on a face, in no other's hitbox
        m = t.model(model_id)
        if m.z > 1e-6 and "Flying" not in m.states and t.on_face(model_id) is None:
            try:
                t.surface_under(model_id)
            except SkirmishError:
                self.violations.append(f"{model_id} {mr.kind} ends on nothing at {mr.path[-1]}")
        for o in t.models:
            if o.id != model_id and math.hypot(o.x - m.x, o.y - m.y) < o.radius + m.radius - 1e-3 and \
                    min(o.z + o.hitbox_height, m.z + m.hitbox_height) - max(o.z, m.z) > 1e-3:
                self.violations.append(f"{model_id} {mr.kind} ends in {o.id}'s hitbox")
        return mr

    _last_kind = "idle"


def _play(path: str, seed: int, spec: str = "random") -> tuple[Checked, Any]:
    table, settings, script = load_game(path)
    policies = {s: load_policy(spec, "eldfall") for s in table.sides}
    g = Checked(table, settings, policies, random.Random(seed), seed=seed, script=script)
    return g, g.play()


@pytest.mark.parametrize("seed", range(6))
def test_e_ap_e_reaction_e_action_combo_invariants_over_seeded_games(small, seed):
    g, record = _play(small, seed)
    assert g.violations == []
    table = g.state.table
    sta = {m.id: m.attributes["STA"] for m in table.models}
    per_turn: dict[tuple[int, int, str], int] = {}
    for e in record.events:
        if e["role"] == "strategic":
            continue
        assert e["ap"] >= 0  # E-AP-SPEND: never overspent
        key = (e["round"], e["turn"], e["model"])
        per_turn[key] = per_turn.get(key, 0) + 1
        side = table.model(e["model"]).side
        if e["role"] == "activation":
            assert side == e["active"]
        else:  # E-REACTION: the Reactive side, against the activated model
            assert side != e["active"]
            mover = next(x for x in record.events if x["sequence"] == e["sequence"] and x["role"] == "activation")
            assert e["action"]["target"] == mover["model"]
    assert all(n <= sta[k[2]] for k, n in per_turn.items())
    assert record.summary["rounds"] <= 5 and set(record.summary["vp"]) == {"red", "blue"}


def test_e_round_same_seed_same_game(small):
    a = _play(small, 11)[1]
    b = _play(small, 11)[1]
    assert a.events == b.events and a.summary == b.summary


@pytest.mark.parametrize("seed", [3, 11])
def test_e_round_a_game_played_without_its_log_is_the_same_game(small, seed):
    table, settings, _ = load_game(small)
    records = [play_game(table, settings, {s: load_policy("random", "eldfall") for s in table.sides},
                         random.Random(seed), seed=seed, log=log) for log in (True, False)]
    logged, quiet = records
    assert quiet.events == () and logged.events
    assert quiet.summary == logged.summary and quiet.turns == logged.turns
    assert quiet.sequences == logged.sequences == sum(e["role"] == "activation" for e in logged.events)


def test_e_round_games_leave_no_reference_cycles():
    """A game's boards, movers, searches and refused moves are freed as soon as they are
    dropped: none is a reference cycle that waits for the garbage collector (which, with
    cycles on every board, took some 6 % of a random game's time)."""
    from skirmish.geometry import kernels
    from skirmish.game.eldfall import with_builtin_power
    from skirmish.scenario.generate import random_table
    kernels.load()
    table = with_builtin_power(random_table(random.Random(1), models=10, scenery=25))

    def play(seed: int, case: str, log: bool) -> None:
        play_game(table, parse_settings(None, table), {s: load_policy(case, "eldfall") for s in table.sides},
                  random.Random(seed), seed=seed, log=log)
    play(1, "random", True)  # (what a first game makes once: kernels' dispatch, caches)
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        for seed, case, log in ((2, "random", True), (3, "random", False), (4, "greedy", False)):
            play(seed, case, log)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_e_round_vp_scores_out_of_play_models(small):
    g, record = _play(small, 4)
    s = record.summary
    for side in ("red", "blue"):
        other = "blue" if side == "red" else "red"
        out = sum(1 for m, st in s["states"].items() if st in ("Incapacitated", "Dead") and g.state.unit(m).side == other)
        assert s["vp"][side] == out
    assert s["winner"] == (None if s["vp"]["red"] == s["vp"]["blue"] else max(s["vp"], key=s["vp"].get))


def _game(text: str, policies: dict[str, Any] | None = None) -> EldfallGame:
    table = loads(text)
    pol = policies or {s: RandomPolicy() for s in table.sides}
    g = EldfallGame(table, parse_settings(None, table), pol, random.Random(1))
    g._upkeep()
    return g


def test_e_reaction_attack_of_opportunity_only_at_path_points_in_reach(tmp_path):
    """A sword reaches 1": the reactor can strike only where the path passes next to it."""
    models = (model("mover", "red", (2, 2), 90) + model("guard", "blue", (4, 8), 180)
              + model("far", "blue", (20, 20), 180))
    g = _game(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g.state = g.state.replace(round=1, turn=1, active="red")
    mr = g.apply_move("mover", Move("walk", (2.0, 6.0 + 0.0, 0.0)))
    from skirmish.game.eldfall.loop import _Sequence
    mr = dataclasses.replace(mr, samples=((2.0, 2.0, 0.0), (2.0, 5.0, 0.0), (2.6, 8.0, 0.0), (2.0, 6.0, 0.0)))
    seq = _Sequence(1, "mover", mr, g._tables_along("mover", mr.samples))
    opts = g.reaction_options(seq, "guard")
    attacks = [o for o in opts if o.kind == "attack"]
    assert attacks == [Reaction("attack", 2, "Sword")]  # only the point beside the guard
    assert Reaction("dodge") in opts


def test_e_reaction_a_melee_reactor_the_mover_runs_past_gets_its_attack_at_the_nearest_point():
    # (a 14" Run sampled at 6 points passed a Sword 0.74" away between two of them: only a Dodge was offered)
    from eldfall_policies import Driven

    models = (model("runner", "red", (2, 5), 0, attrs="AGI = 6, SPD = 7, STA = 2, MEL = 12, ARM = 1, HP = 2")
              + model("guard", "blue", (6, 7), 270))
    t = loads(f"format = 1\n{_weapons()}\n[table]\nsize = [30, 12]\n{models}")
    blue = Driven(reactions={"guard": lambda opts: next(o for o in opts if o.kind == "attack")})
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t),
                    {"red": Driven(["runner"], moves={"runner": Move("run", (16.0, 5.0, 0.0), 0.0)},
                                   actions={"runner": NOTHING_ACTION}), "blue": blue}, random.Random(1))
    g.play()
    react = next(d for d in blue.seen if d.kind == "reaction")
    path = react.context["path"]
    attacks = [o for o in react.options if o.kind == "attack"]
    assert [path[o.at] for o in attacks] == [(6.0, 5.0, 0.0)]  # the path's nearest point to the guard
    assert len(path) == 7 and path == tuple(sorted(path))  # the 6 judged points and it, in order along the path
    ev = next(e for e in g.events if e["role"] == "reaction")
    assert ev["action"]["kind"] == "attack" and ev["model"] == "guard"


def test_e_reaction_no_moment_is_added_where_the_judged_points_bring_as_much():
    models = model("mover", "red", (2, 2), 90) + model("guard", "blue", (4, 8), 180)
    g = _game(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g.state = g.state.replace(round=1, turn=2, active="red")
    mr = g.apply_move("mover", Move("walk", (2.0, 6.0, 0.0)))  # ends nearest the guard: nothing to add
    assert g._with_near_moments("mover", mr)[0] is mr


def test_e_reaction_dodge_without_los_inside_awareness_is_halved(tmp_path):
    """The guard faces away: no LoS at any point, but the mover comes within its AGI."""
    models = model("mover", "red", (2, 2), 90) + model("guard", "blue", (6, 4), 0, attrs="AGI = 6, SPD = 4, "
                                                                                   "STA = 2, MEL = 12, ARM = 1, HP = 2")
    g = _game(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g.state = g.state.replace(round=1, turn=1, active="red")
    mr = g.apply_move("mover", Move("walk", (2.0, 5.0, 0.0)))
    from skirmish.game.eldfall.loop import _Sequence
    seq = _Sequence(1, "mover", mr, g._tables_along("mover", mr.samples))
    assert g.reaction_options(seq, "guard") == (Reaction("none"), Reaction("dodge", los=False))
    # the Dodge's Agility is halved (E-DODGE)
    from skirmish.game.eldfall.attacks import defending_side
    side = defending_side(g.state.model("guard"), g.state.unit("guard"), dodge=True, los=False)
    assert side.dodge_attribute.value == 3


def test_e_reaction_beyond_awareness_without_los_no_reaction():
    models = model("mover", "red", (2, 2), 90) + model("guard", "blue", (20, 4), 0)
    g = _game(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g.state = g.state.replace(round=1, turn=1, active="red")
    mr = g.apply_move("mover", Move("walk", (2.0, 5.0, 0.0)))
    from skirmish.game.eldfall.loop import _Sequence
    seq = _Sequence(1, "mover", mr, g._tables_along("mover", mr.samples))
    assert g.reaction_options(seq, "guard") == (Reaction("none"),)


def test_e_action_combo_run_then_only_nothing(small):
    g = _game(open(small).read())
    assert g.action_options("r1", "run") == (g.action_options("r1", "run")[0],)
    assert g.action_options("r1", "run")[0].kind == "nothing"
    assert {o.kind for o in g.action_options("r1", "walk")} >= {"nothing", "dodge"}


def test_illegal_policy_choice_is_refused_with_model_and_reason(small):
    class Cheater:
        def choose(self, game, decision, rng):
            if decision.kind == "move":
                return Move("walk", (13.5, 13.5, 0.0))  # far beyond a 4" Walk
            return decision.options[0]

    table, settings, _ = load_game(small)
    g = EldfallGame(table, settings, {"red": Cheater(), "blue": Cheater()}, random.Random(2))
    before = g.state.table
    with pytest.raises(IllegalChoice) as info:
        g.play()
    assert info.value.model in ("r1", "r2", "b1", "b2") and "over budget" in info.value.reason
    moved = info.value.model
    assert g.state.table.model(moved).x == before.model(moved).x  # never applied


def test_a_game_record_is_a_frozen_value(small):
    table, settings, _ = load_game(small)
    rec = EldfallGame(table, settings, {"red": RandomPolicy(), "blue": RandomPolicy()}, random.Random(4)).play()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.summary = {}  # type: ignore[misc]
    assert isinstance(rec.events, tuple) and isinstance(rec.turns, tuple) and rec.turns[0][:2] == (1, 1)


@pytest.mark.parametrize("bad, why", [
    (Move("idle", face=float("nan")), "a finite number of degrees"),  # (NaN went into the facing and the log)
    (Move("idle", face=float("inf")), "a finite number of degrees"),
    (Move("idle", face="north"), "got 'north'"),
    (Move("walk", to=("a", 3, 0)), "could not convert"),
    (Move("dodge", to=(3.2, 4.0, 0.0)), "comes only after a Dodge"),  # (it was played as a walk)
])
def test_a_policy_s_move_that_is_no_move_is_refused_and_never_applied(small, bad, why):
    class Odd:
        def choose(self, game, decision, rng):
            return bad if decision.kind == "move" else decision.options[0]

    table, settings, _ = load_game(small)
    g = EldfallGame(table, settings, {"red": Odd(), "blue": Odd()}, random.Random(2))
    before = g.state.table
    with pytest.raises(IllegalChoice, match=why) as info:
        g.play()
    assert g.state.table.model(info.value.model) == before.model(info.value.model)
    assert repr(bad).startswith("Move(")


def test_the_lazy_legal_helper_judges_a_move_for_its_decision(small):
    # (legal() passed a walk in a dodge-move decision that the game then refused)
    seen = {}

    class Probe:
        lazy = True

        def choose(self, game, decision, rng):
            if decision.kind in ("move", "dodge-move") and decision.kind not in seen:
                walks = decision.context["draw"]("walk", 4, rng)
                seen[decision.kind] = [decision.context["legal"](mv) for mv in walks]
            return load_policy("random", "eldfall").choose(game, decision, rng)

    table, settings, _ = load_game(small)
    for seed in range(8):
        EldfallGame(table, settings, {"red": Probe(), "blue": Probe()}, random.Random(seed)).play()
        if "dodge-move" in seen:
            break
    assert any(seen["move"]) and seen.get("dodge-move") is not None and not any(seen["dodge-move"])
    assert Move("walk", to=[1.0, 2.0, 0.0]) == Move("walk", to=(1.0, 2.0, 0.0))  # (a list is a tuple: hashable)


@pytest.mark.parametrize("kw, says", [
    ({"rng": None}, "rng: pass a random.Random"), ({"rng": 3}, "rng: pass a random.Random"),
    ({"settings": None}, "settings: pass a GameSettings"),
    ({"policies": {"red": "random", "blue": "random"}}, "has no choose(game, decision, rng)"),
    ({"policies": "extra"}, "a policy for side green, which no model has"),
])
def test_E_SETUP_play_game_refuses_what_it_cannot_play_with(small, kw, says):
    from skirmish.errors import SkirmishError
    from skirmish.game.eldfall import play_game

    table, settings, _ = load_game(small)
    args = {"settings": settings, "rng": random.Random(1),
            "policies": {s: load_policy("random", "eldfall") for s in ("red", "blue")}}
    if kw.get("policies") == "extra":
        kw = {"policies": {**args["policies"], "green": load_policy("random", "eldfall")}}
    args.update(kw)
    with pytest.raises(SkirmishError, match=re.escape(says)):
        play_game(table, args["settings"], args["policies"], args["rng"])


def test_closed_decision_choice_outside_options_is_refused(small):
    class Bad:
        def choose(self, game, decision, rng):
            return "nobody" if decision.kind == "activate" else decision.options[0]

    table, settings, _ = load_game(small)
    g = EldfallGame(table, settings, {"red": Bad(), "blue": Bad()}, random.Random(2))
    with pytest.raises(IllegalChoice, match=r"activate: not one of its 3 legal options \((.+, ){2}None\)") as info:
        g.play()
    assert info.value.choice == "nobody" and info.value.model in table.all_sides()  # (the shared check's options)


def test_bad_input_missing_attributes_and_sides():
    text = skirmish_text().replace("STA = 2, ", "", 1)
    with pytest.raises(ScenarioError, match="has no STA"):
        check_playable(loads(text))
    one_side = skirmish_text().replace('side = "blue"', 'side = "red"')
    with pytest.raises(ScenarioError, match="exactly two sides"):
        check_playable(loads(one_side))
    nopw = skirmish_text().replace("pw = 10\n", "").replace("pw = 9\n", "")
    with pytest.raises(ScenarioError, match="no weapon it can attack with"):
        check_playable(loads(nopw))
    # (the --games report counts drawn games under "draw": a side of that name lost its wins there)
    with pytest.raises(ScenarioError, match="a side is named 'draw'"):
        check_playable(loads(skirmish_text().replace('side = "blue"', 'side = "draw"')))


def test_cli_games_reads_the_scenario_again_once_it_is_edited(small, capsys):
    # (the process kept the first file it read: the second run played the old sides)
    assert main(["play", small, "--policy", "random", "--seed", "3", "--games", "2", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["wins"]) == {"red", "blue", "draw"}
    with open(small, encoding="utf-8") as f:
        text = f.read()
    with open(small, "w", encoding="utf-8") as f:
        f.write(text.replace('side = "blue"', 'side = "green"') + "\n")
    assert main(["play", small, "--policy", "random", "--seed", "3", "--games", "2", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["wins"]) == {"red", "green", "draw"}


def test_cli_unknown_policy_plays_nothing(small, capsys):
    assert main(["play", small, "--policy", "red=grumpy", "--seed", "1"]) == 2
    err = capsys.readouterr()
    assert "unknown policy 'grumpy'" in err.err and err.out == ""
    with pytest.raises(PolicyError):
        load_policy("grumpy", "eldfall")


@pytest.mark.parametrize("extra", [(), ("--games", "2", "--workers", "2")])
def test_cli_a_plugged_policy_that_raises_stops_with_its_own_traceback_only(small, capsys, tmp_path, monkeypatch, extra):
    # (a user's policy that raised printed the engine's whole traceback and exit 1)
    (tmp_path / "raising_policy_mod.py").write_text(
        "class Boom:\n    def choose(self, game, decision, rng):\n        return 1 / 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["play", small, "--policy", "red=raising_policy_mod:Boom", "--seed", "1", *extra]) == 2
    out, err = capsys.readouterr()
    first, *rest = err.splitlines()
    assert out == "" and first == ("skirmish play: error: policy 'raising_policy_mod:Boom' failed on the 'activate' "
                                   "decision for red: ZeroDivisionError: division by zero")
    assert rest[0] == "the policy's traceback (most recent call last):" and "Traceback" not in err
    assert 'raising_policy_mod.py", line 3, in choose' in rest[1] and rest[-1] == "ZeroDivisionError: division by zero"
    assert "skirmish/" not in err  # none of the engine's frames
    assert main(["play", small, "--policy", "red=raising_policy_mod:Boom", "--seed", "1", "--json", *extra]) == 2
    assert json.loads(capsys.readouterr().out)["kind"] == "policy_failed"


def test_cli_one_game_json_schema(small, capsys):
    assert main(["play", small, "--policy", "random", "--seed", "5", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    last = lines[-1]
    assert set(last) == {"seed", "game", "winner", "vp", "rounds", "states"} and last["seed"] == 5 and last["game"] == 0
    acts = [e for e in lines[:-1] if e["role"] in ("activation", "reaction")]
    assert acts
    for e in acts:
        assert {"round", "turn", "active", "sequence", "model", "role", "ap", "movement", "action", "result"} <= set(e)
        assert {"kind", "length", "path"} <= set(e["movement"])
        assert {"kind", "target", "weapon"} <= set(e["action"])
        assert "states" in e["result"]


def test_cli_one_game_human_log(small, capsys):
    assert main(["play", small, "--policy", "red=random,blue=random", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Round 1, turn 1" in out and "Result after" in out and "Seed 5" in out


def test_cli_games_text_report_counts_the_wins(small, capsys):
    # (it said only "Wins: red 3.3%" for 30 games)
    assert main(["play", small, "--policy", "random", "--seed", "3", "--games", "4"]) == 0
    wins = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Wins: "))
    counts = [int(part.split()[1]) for part in wins[len("Wins: "):].split(", ")]
    assert sum(counts) == 4 and "%)" in wins


def test_cli_games_report_same_for_any_workers(small, capsys):
    assert main(["play", small, "--policy", "random", "--seed", "3", "--games", "2", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["play", small, "--policy", "random", "--seed", "3", "--games", "2", "--workers", "2",
                 "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two and one["games"] == 2
    assert set(one) == {"games", "seed", "wins", "wins_ci95", "vp_mean", "rounds_mean", "survival"}
    assert abs(sum(one["wins"].values()) - 1) < 1e-9
    for side, (lo, hi) in one["wins_ci95"].items():  # each share inside its 95 % interval
        assert 0 <= lo <= one["wins"][side] <= hi <= 1


def test_wilson_interval_against_the_exact_binomial_coverage():
    """Oracle: the exact binomial chance that the 95 % Wilson interval covers p, over a grid
    of p: about 95 % on average (its known near-nominal coverage), never far below."""
    from math import comb

    from skirmish.scale import wilson_interval

    for n in (10, 40, 200):
        cover = [sum(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
                     if wilson_interval(k, n)[0] <= p <= wilson_interval(k, n)[1])
                 for p in (i / 100 for i in range(2, 99))]
        assert 0.935 < sum(cover) / len(cover) < 0.965 and min(cover) > 0.83, (n, sum(cover) / len(cover), min(cover))
    from skirmish.errors import RuleInputError

    with pytest.raises(RuleInputError, match="within 0..2, got 3"):  # (RuleInputError is a ValueError too)
        wilson_interval(3, 2)
    with pytest.raises(RuleInputError, match="n \\(the trials\\) must be 1 or more"):
        wilson_interval(0, 0)


def test_script_policy_plays_the_mill_script(capsys):
    assert main(["play", MILL, "--policy", "script", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "yumi stays" in out and "attacks brute with Longbow" in out and "akane runs" in out


def test_script_policy_without_a_script_for_its_side_plays_nothing(small, capsys, tmp_path):
    # (it played a whole game of "(no activations)" and called it a draw)
    assert main(["play", small, "--policy", "red=script,blue=random", "--seed", "3"]) == 2
    err = capsys.readouterr()
    assert "policy script (side red) plays the scenario's [[script]], and it has no move or attack by a model of " \
           "that side" in err.err and err.out == ""
    # a script the policy would skip whole (a pre-measure), or one for the other side only
    text = open(small, encoding="utf-8").read()
    for k, (script, sides) in enumerate((('do = "measure"\nactor = "r1"\ntarget = "b1"', "red, blue"),
                                         ('do = "move"\nactor = "b1"\nto = [10, 4]', "red"))):
        path = tmp_path / f"s{k}.toml"  # (a file is read once per process)
        path.write_text(f"{text}\n[[script]]\n{script}\n", encoding="utf-8")
        assert main(["play", str(path), "--policy", "script", "--seed", "3"]) == 2
        assert f"policy script (side {sides}) plays" in capsys.readouterr().err


def _weapons() -> str:
    from eldfall_fixtures import WEAPONS
    return WEAPONS


class _Always:
    """Activates while it can, always walks nowhere, always attacks when it can."""

    def choose(self, game, decision, rng):
        if decision.kind == "action":
            attacks = [o for o in decision.options if o.kind == "attack"]
            return attacks[0] if attacks else decision.options[0]
        return decision.options[0]


def test_e_morale_panicked_side_rolls_and_a_failure_runs_to_its_own_edge():
    """E-MORALE: blue starts with 3 models, two already Dead: fewer than half in play, so
    Panicked."""
    models = (model("r1", "red", (3, 12), 0) + model("b1", "blue", (12, 12), 180,
                                                        attrs="AGI = 6, SPD = 4, STA = 3, MEL = 12, ARM = 1, HP = 2, "
                                                              "MOR = 1")
              + model("b2", "blue", (20, 20), 180, extra='states = ["Dead"]')
              + model("b3", "blue", (20, 4), 180, extra='states = ["Dead"]'))
    text = f"format = 1\n{_weapons()}\n[game]\nfirst = \"blue\"\nrounds = 1\n[table]\nsize = [24, 24]\n{models}"
    table = loads(text)
    g = EldfallGame(table, parse_settings({"first": "blue", "rounds": 1}, table),
                    {"red": _Always(), "blue": _Always()}, random.Random(3))
    assert g.home_edge("blue") == "east" and g.home_edge("red") == "west"
    record = g.play()
    blue = [e for e in record.events if e["model"] == "b1" and e["role"] == "activation"]
    assert blue and all(e["morale"] is not None for e in blue)
    for e in blue:
        face = e["morale"]["face"]
        if not e["morale"]["success"]:  # MOR 1: fails on 2..20
            assert e["movement"]["kind"] == "run" and e["action"]["kind"] == "nothing"
            start, end = e["movement"]["path"][0][0], e["movement"]["path"][-1][0]
            assert end >= min(start, 24 - 0.63 - 0.3)  # toward the east edge (or already at it)
            assert f"b1 panics (Morale roll {face} ✗)" in e["text"]
        else:  # (a passed roll was in the JSON only)
            assert f"b1 passes its Morale roll ({face} ✓)" in e["text"]
    assert any(not e["morale"]["success"] for e in blue)
    red = [e for e in record.events if e["model"] == "r1" and e["role"] == "activation"]
    assert all(e["morale"] is None for e in red)  # red is not Panicked, and has no MOR


class _Blow:
    """Stays put and takes a Death Blow when one is offered; stops after one activation."""

    def __init__(self):
        self.done = False

    def choose(self, game, decision, rng):
        if decision.kind == "activate":
            if self.done:
                return None
            self.done = True
            return decision.options[0]
        if decision.kind == "action":
            blows = [o for o in decision.options if o.kind == "death-blow"]
            return blows[0] if blows else decision.options[0]
        return decision.options[0]


def test_e_action_other_death_blow_kills_an_incapacitated_enemy_in_contact():
    models = (model("r1", "red", (5, 5), 0) + model("b1", "blue", (5 + 0.63 * 2 + 0.0005, 5), 180,
                                                    extra='states = ["Incapacitated"]')
              + model("b2", "blue", (20, 20), 180))
    table = loads(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g = EldfallGame(table, parse_settings({"first": "red", "rounds": 1}, table),
                    {"red": _Blow(), "blue": _Blow()}, random.Random(1))
    record = g.play()
    first = next(e for e in record.events if e["role"] == "activation")
    assert first["model"] == "r1" and first["action"] == {"kind": "death-blow", "target": "b1", "weapon": None}
    assert g.state.unit("b1").condition == "Dead" and record.summary["states"]["b1"] == "Dead"
    assert record.summary["vp"]["red"] == 1


def test_e_state_incapacitated_recovery_roll_in_own_strategic_phase():
    """E-STATE-INCAPACITATED: the Recovery roll, in the model's own Strategic phase."""
    models = (model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 20, MEL = 12, ARM = 1, HP = 2",
                    extra='states = ["Incapacitated"]') + model("r2", "red", (5, 12), 0)
              + model("b1", "blue", (20, 20), 180))
    table = loads(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g = EldfallGame(table, parse_settings({"first": "red", "rounds": 1}, table),
                    {"red": _Blow(), "blue": _Blow()}, random.Random(1))
    record = g.play()
    rec = [e for e in record.events if e["role"] == "strategic" and e["model"] == "r1"]
    assert rec and rec[0]["roll"]["kind"] == "recovery" and rec[0]["roll"]["success"]  # STA 20 always succeeds
    u = g.state.unit("r1")
    assert u.in_play and u.hp == 1 and "Weakened" in u.states


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(1, 23), st.floats(1, 23)), min_size=2, max_size=4),
       st.tuples(st.floats(1, 23), st.floats(1, 23)))
def test_e_reaction_the_best_reach_and_awareness_anywhere_on_a_path_are_offered_at_some_moment(corners, at):
    """Oracle: the path walked densely (every 0.01"): whatever best band of each weapon, and
    whether the Awareness, a reactor has at some point of it, it has at one of the moments."""
    import math

    from skirmish.game.eldfall.choices import path_samples
    from skirmish.game.eldfall.sight import PathTables
    from skirmish.maps.table import reach_band, within_awareness

    assume(math.dist(corners[0], at) > 1.3)  # (bases apart at the start)
    models = model("mover", "red", corners[0], 90) + model("guard", "blue", at, 180, '["bow", "sword"]')
    g = _game(f"format = 1\n{_weapons()}\n[table]\nsize = [24, 24]\n{models}")
    g.state = g.state.replace(round=1, turn=1, active="red")
    path = tuple((float(x), float(y), 0.0) for x, y in corners)
    mr = dataclasses.replace(g.apply_move("mover", Move("idle")), path=path, samples=path_samples(path))
    moments = g._with_near_moments("mover", mr)[0].samples
    dense = [(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), 0.0) for a, b in zip(path, path[1:])
             for t in (i / max(1, int(math.dist(a, b) / 0.01)) for i in range(int(math.dist(a, b) / 0.01) + 1))]
    mover, guard = g.state.model("mover"), g.state.model("guard")

    def best(points):
        ds = PathTables(g.state.table, mover, points).distances("guard")
        bands = {w.name: min((b for d in ds if (b := reach_band(guard, w, d)) is not None), default=None)
                 for w in guard.weapons}
        return bands, any(within_awareness(guard, d) for d in ds)

    want_bands, want_aware = best(dense)
    got_bands, got_aware = best(moments)
    assert got_aware == want_aware
    for name, band in want_bands.items():  # (a dense point may sit a hair nearer than the exact nearest)
        assert got_bands[name] == band or (band is not None and got_bands[name] == band + 1
                                           and _on_a_band_edge(guard, name, PathTables(g.state.table, mover, dense)
                                                               .distances("guard")))


def _on_a_band_edge(guard, name, ds):
    w = guard.weapon(name)
    return any(abs(min(ds) - lim) < 1e-3 for lim in [b.max_range for b in w.bands])
