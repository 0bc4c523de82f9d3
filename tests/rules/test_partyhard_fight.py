"""The Party Hard fight loop: P-TURN, P-REINF, P-LINE, P-STREAK in play, effects, rest, retreat, the log."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import IllegalActionError, RuleInputError
from skirmish.rules.partyhard import (
    BUILTIN_ABILITIES,
    BUILTIN_ITEMS,
    Action,
    Element,
    Exit,
    Fighter,
    FightSetup,
    FightState,
    GreedyPolicy,
    Note,
    Reinforcement,
    ScriptedPolicy,
    SideSetup,
    Slot,
    Stats,
    legal_actions,
    resolve_fight,
    windows,
)

M, E, V = Element.MATTER, Element.ETHER, Element.VOID


def char(fid: str, side: str = "red", stats=(2, 0, 4, 3), items=(), abilities=(), effects=()) -> Fighter:
    return Fighter.new(fid, side, Stats(*stats), items=tuple(BUILTIN_ITEMS[i] for i in items),
                       abilities=tuple(BUILTIN_ABILITIES[a] for a in abilities), effects=effects)


def beast(fid: str, stats=(1, 0, 3, 0), element=M, **kw) -> Fighter:
    return Fighter.new(fid, "creatures", Stats(*stats), kind="creature", attack_element=element, **kw)


@dataclass(frozen=True)
class Forced(GreedyPolicy):
    """The greedy player, but with some actions fixed: (round, actor) -> Action."""

    plan: dict = field(default_factory=dict, hash=False, compare=False)

    def act(self, state: FightState, actor: str, rng: random.Random) -> Action:
        return self.plan.get((state.round, actor)) or super().act(state, actor, rng)


def fight(att, dfn, policy=None, seed=0, att_kw=None, dfn_kw=None, **kw):
    setup = FightSetup(SideSetup("red", tuple(att), **(att_kw or {})),
                       SideSetup("creatures" if all(f.is_creature for f in dfn) else "blue", tuple(dfn), **(dfn_kw or {})),
                       **kw)
    return resolve_fight(setup, random.Random(seed), policy)


def actions(log, round=None, side=None):
    return [a for a in log.actions() if (round is None or a.round == round) and (side is None or a.side == side)]


def notes(log, kind):
    return [e for e in log.events if isinstance(e, Note) and e.kind == kind]


TOUGH = (0, 6, 6, 0)  # hits for 0, survives long: keeps a fight going


# -- P-TURN ---------------------------------------------------------------------------------------------

def test_P_TURN_attackers_open_with_one_or_two_then_everyone_acts():
    team = [char(f"h{i}", items=["void-shard"]) for i in range(3)]
    log = fight(team, [beast("rock", stats=TOUGH)], max_rounds=2)
    assert len(actions(log, 1, "red")) == 2
    skipped = [n.actor for n in notes(log, "skip") if n.reason == "opening"]
    assert len(skipped) == 1 and skipped[0] not in {a.actor for a in actions(log, 1, "red")}
    assert len(actions(log, 1, "creatures")) == 1
    assert len(actions(log, 2, "red")) == 3
    assert log.events[0].side == "red"                                # the attackers act first


def test_P_TURN_the_opening_is_one_or_two_attackers():
    team = [char(f"h{i}", items=["void-shard"]) for i in range(3)]
    with pytest.raises(IllegalActionError, match="P-TURN"):
        fight(team, [beast("rock", stats=TOUGH)], ScriptedPolicy(opening_ids=("h0", "h1", "h2")))
    log = fight(team, [beast("rock", stats=TOUGH)], ScriptedPolicy(opening_ids=("h2",)), max_rounds=1)
    assert [a.actor for a in actions(log, 1, "red")] == ["h2"]


def test_P_TURN_an_ability_needs_the_energy_and_creatures_pay_none():
    broke = char("broke", stats=(2, 0, 4, 0), abilities=["void-arrow"], items=["void-shard"])
    st_ = FightState(1, "red", "creatures", {"broke": broke, "b": beast("b")}, {"red": ("broke",), "creatures": ("b",)})
    kinds = {(a.kind, a.ability) for a in legal_actions(st_, "broke")}
    assert ("ability", "Void Arrow") not in kinds and ("weapon", None) in kinds and ("rest", None) in kinds
    caster = beast("caster", abilities=(BUILTIN_ABILITIES["matter-blast"],))
    st2 = FightState(1, "red", "creatures", {"broke": broke, "caster": caster},
                     {"red": ("broke",), "creatures": ("caster",)})
    assert Action("ability", "Matter Blast", ("broke",)) in legal_actions(st2, "caster")   # 0 Energy, cost 2


def test_P_TURN_rest_and_regeneration():
    """Rest: +1 Energy; every combat turn: +1 more (an item may take both away)."""
    tired = char("tired", stats=(0, 6, 6, 3), effects=())
    tired = tired.with_energy(0)
    plan = {(1, "tired"): Action("rest")}
    log = fight([tired], [beast("rock", stats=TOUGH)], Forced(plan=plan), max_rounds=1)
    rest = actions(log, 1, "red")[0]
    assert (rest.energy_before, rest.energy_after) == (0, 1)
    assert [(n.before, n.after) for n in notes(log, "regen") if n.actor == "tired"] == [(1, 2)]
    crowned = Fighter.new("c", "red", Stats(0, 6, 6, 3), items=(BUILTIN_ITEMS["hungry-crown"],)).with_energy(0)
    log2 = fight([crowned], [beast("rock", stats=TOUGH)], Forced(plan={(1, "c"): Action("rest")}), max_rounds=2)
    assert log2.final["c"].energy == 0 and not [n for n in notes(log2, "regen") if n.actor == "c"]


def test_P_TURN_removing_a_negative_effect_from_itself():
    weak = char("weak", items=["void-shard"], effects=("powerless",))
    log = fight([weak], [beast("rock", stats=TOUGH)], Forced(plan={(1, "weak"): Action("cleanse", slot=Slot.ATTACK)}),
                max_rounds=1)
    a = actions(log, 1, "red")[0]
    assert a.effects[0].outcome == "removed" and not log.final["weak"].effects.powerless
    with pytest.raises(IllegalActionError, match="no negative effect"):
        fight([char("fine")], [beast("rock")], Forced(plan={(1, "fine"): Action("cleanse", slot=Slot.ATTACK)}))


def test_P_TURN_an_illegal_choice_is_refused():
    with pytest.raises(IllegalActionError, match="Energy"):
        fight([char("h", stats=(2, 0, 4, 0), abilities=["void-arrow"])], [beast("b")],
              Forced(plan={(1, "h"): Action("ability", "Void Arrow", ("b",))}))


# -- P-LINE in a fight ------------------------------------------------------------------------------------

def test_P_LINE_several_targets_are_consecutive_places():
    assert ("a", "c") not in windows(("a", "b", "c", "d"), 2)
    assert windows(("a", "b", "c", "d"), 2)[:3] == [("a", "b"), ("b", "c"), ("c", "d")]
    sweeper = char("s", stats=(2, 0, 4, 6), abilities=["void-sweep"])
    row = [beast(f"b{i}") for i in range(4)]
    with pytest.raises(IllegalActionError, match="P-LINE"):
        fight([sweeper], row, Forced(plan={(1, "s"): Action("ability", "Void Sweep", ("b0", "b1", "b3"))}))
    log = fight([sweeper], row, Forced(plan={(1, "s"): Action("ability", "Void Sweep", ("b1", "b2", "b3"))}),
                max_rounds=1)
    assert [t.target for t in actions(log, 1, "red")[0].targets] == ["b1", "b2", "b3"]


def test_P_LINE_the_row_closes_up_when_a_fighter_falls():
    row = [beast("b0", stats=(0, 0, 1, 0)), beast("b1", stats=TOUGH), beast("b2", stats=TOUGH)]
    plan = {(1, "h"): Action("weapon", None, ("b0",)),
            (2, "h"): Action("ability", "Ether Wave", ("b1", "b2"))}
    log = fight([char("h", stats=(3, 6, 6, 6), items=["void-shard"], abilities=["ether-wave"])], row,
                Forced(plan=plan), max_rounds=2)
    assert "b0" in log.defeated and [t.target for t in actions(log, 2, "red")[0].targets] == ["b1", "b2"]


# -- P-STREAK in a fight ------------------------------------------------------------------------------------

def test_P_STREAK_a_sides_attacks_of_one_element_in_one_turn():
    a = char("a", items=["void-shard"])
    b = char("b", items=["void-shard"])
    c = char("c", items=["matter-shard"])
    rock = beast("rock", stats=TOUGH)
    hit = Action("weapon", None, ("rock",))
    plan = {(r, x): hit for r in (1, 2) for x in "abc"}
    log = fight([a, b, c], [rock], ScriptedPolicy(Forced(plan=plan), opening_ids=("a", "b")), max_rounds=2)
    r1 = actions(log, 1, "red")
    assert [x.streak for x in r1] == [1, 2] and r1[1].targets[0].breakdown.streak == 1
    assert r1[1].targets[0].breakdown.raw == r1[0].targets[0].breakdown.raw + 1
    r2 = actions(log, 2, "red")
    assert [x.streak for x in r2] == [1, 2, 1]          # a new turn starts a new run; matter breaks it


# -- effects from items and abilities -------------------------------------------------------------------------

def test_P_EFFECT_a_weapons_effect_goes_on_the_first_target_of_damaging_attacks_only():
    zapper = Fighter.new("z", "red", Stats(2, 0, 4, 6), items=(BUILTIN_ITEMS["shock-prism"],),
                         abilities=(BUILTIN_ABILITIES["ether-wave"], BUILTIN_ABILITIES["hex"]))
    row = [beast("b0", stats=TOUGH), beast("b1", stats=TOUGH)]
    log = fight([zapper], row, Forced(plan={(1, "z"): Action("ability", "Ether Wave", ("b0", "b1"))}), max_rounds=1)
    t0, t1 = actions(log, 1, "red")[0].targets
    assert [str(e.effect) for e in t0.effects] == ["shock"] and t1.effects == ()
    log2 = fight([zapper], row, Forced(plan={(1, "z"): Action("ability", "Hex", ("b0",))}), max_rounds=1)
    assert [(e.effect, e.source) for e in actions(log2, 1, "red")[0].targets[0].effects] == [("powerless", "ability")]


def test_P_EFFECT_immunity_and_a_creatures_effect_on_every_target():
    charmed = char("charmed", stats=(0, 6, 6, 0), items=["grounding-charm"])
    plain = char("plain", stats=(0, 6, 6, 0))
    eel = beast("eel", stats=(1, 6, 6, 0), targets=2, attack_effect=BUILTIN_ABILITIES["jolt"].effect)
    log = fight([charmed, plain], [eel], Forced(plan={(1, "eel"): Action("attack", None, ("charmed", "plain"))}),
                max_rounds=1)
    hit = actions(log, 1, "creatures")[0]
    assert {t.target: [e.outcome for e in t.effects] for t in hit.targets} == {"charmed": ["immune"], "plain": ["applied"]}


def test_P_EFFECT_restoring_energy_removes_shock():
    battery = char("bat", stats=(0, 6, 6, 2), abilities=["recharge"])
    shocked = char("sh", stats=(0, 6, 6, 4), effects=("shock",)).with_energy(0)
    plan = {(1, "bat"): Action("ability", "Recharge", ("sh",))}
    log = fight([battery, shocked], [beast("rock", stats=TOUGH)], Forced(plan=plan), max_rounds=1,
                )
    t = actions(log, 1, "red")[0].targets[0]
    assert t.restored == 2 and [e.outcome for e in t.effects] == ["removed"]


# -- P-HEAL in a fight ---------------------------------------------------------------------------------------

def test_P_HEAL_heals_no_more_than_the_missing_health():
    medic = char("medic", stats=(0, 6, 6, 4), items=["ether-shard"], abilities=["mend"])
    hurt = char("hurt", stats=(0, 0, 4, 0)).with_health(3)
    log = fight([medic, hurt], [beast("rock", stats=TOUGH)], Forced(plan={(1, "medic"): Action("ability", "Mend", ("hurt",))}),
                max_rounds=1)
    t = actions(log, 1, "red")[0].targets[0]
    assert t.breakdown.total == 4 and t.healed == 1 and t.health_after == 4


# -- P-REINF ---------------------------------------------------------------------------------------------------

def test_P_REINF_newcomers_skip_their_first_turn_but_can_be_attacked():
    late = char("late", stats=(2, 0, 4, 0), items=["void-shard"])
    plan = {(2, "wolf"): Action("attack", None, ("late",))}
    log = fight([char("h", stats=(0, 6, 6, 0))], [beast("wolf", stats=(2, 6, 6, 0))], Forced(plan=plan),
                att_kw={"reinforcements": (Reinforcement(late, 2, (0, 0)),)}, max_rounds=3)
    join = notes(log, "join")[0]
    assert (join.actor, join.round, join.place, join.room) == ("late", 2, 2, (0, 0))
    assert any(n.actor == "late" and n.reason == "newcomer" and n.round == 2 for n in notes(log, "skip"))
    assert not actions(log, 2, "red") or all(a.actor != "late" for a in actions(log, 2, "red"))
    assert actions(log, 2, "creatures")[0].targets[0].target == "late"          # attackable while new
    assert any(a.actor == "late" for a in actions(log, 3, "red"))


def test_P_REINF_a_side_fights_with_at_most_four_living_characters():
    four = [char(f"h{i}", stats=(0, 6, 6, 0)) for i in range(3)] + [char("frail", stats=(0, 0, 1, 0))]
    fifth = char("fifth", stats=(0, 6, 6, 0))
    plan = {(1, "wolf"): Action("attack", None, ("frail",))}
    log = fight(four, [beast("wolf", stats=(3, 6, 6, 0))], Forced(plan=plan),
                att_kw={"reinforcements": (Reinforcement(fifth, 1),)}, max_rounds=3)
    assert notes(log, "wait")[0].actor == "fifth" and notes(log, "wait")[0].round == 1
    assert notes(log, "join")[0].round == 2                                    # after frail fell
    with pytest.raises(RuleInputError, match="at most 4"):
        SideSetup("red", tuple(char(f"x{i}") for i in range(5)))


# -- retreat, the end, rewards ------------------------------------------------------------------------------------

def test_retreat_declared_then_leaving_on_the_next_turn():
    runner = char("runner", stats=(0, 0, 4, 0))
    log = fight([runner], [beast("wolf", stats=(1, 0, 6, 0))], ScriptedPolicy(retreat={"runner": 1}),
                att_kw={"exits": (Exit((0, 0)),)})
    assert notes(log, "retreat")[0].round == 1 and notes(log, "leave")[0].round == 2
    assert not actions(log, side="red")                                     # retreating: no actions
    assert actions(log, 1, "creatures")                                     # but it can be attacked
    assert log.retreated == {"runner": (0, 0)} and log.winner == "creatures" and "retreated" in log.reason
    assert log.final["wolf"].health == log.final["wolf"].max_health         # creatures that hold the room recover
    assert log.rewards is None                                              # creatures take nothing


def test_retreat_needs_a_free_adjacent_room():
    with pytest.raises(IllegalActionError, match="no free adjacent room"):
        fight([char("r")], [beast("w")], ScriptedPolicy(retreat={"r": 1}))
    with pytest.raises(IllegalActionError, match="no free"):
        fight([char("r")], [beast("w")], ScriptedPolicy(retreat={"r": 1}), att_kw={"exits": (Exit((0, 0), {"blue": 1}),)})
    assert Exit((0, 0), {"red": 3}).free_for("red") and not Exit((0, 0), {"red": 4}).free_for("red")


def test_greedy_retreats_below_a_health_threshold():
    log = fight([char("r", stats=(0, 0, 3, 0))], [beast("w", stats=(1, 0, 6, 0))], GreedyPolicy(retreat_below=2),
                att_kw={"exits": (Exit((1, 1)),)})
    assert "r" in log.retreated


def test_rewards_for_creatures_and_players():
    uniq = beast("boss", stats=(0, 0, 1, 0), unique=True)
    minions = [beast(f"m{i}", stats=(0, 0, 1, 0)) for i in range(2)]
    team = [char(f"h{i}", items=["void-shard"]) for i in range(2)]
    log = fight(team, [uniq, *minions])
    assert log.winner == "red" and (log.rewards.abilities, log.rewards.items) == (2, 3)
    pvp = fight(team, [char("b", side="blue", stats=(0, 0, 1, 0))])
    assert pvp.winner == "red" and (pvp.rewards.abilities, pvp.rewards.items) == (1, 0)


def test_the_end_of_a_fight_restores_energy():
    h = char("h", stats=(3, 0, 4, 3), items=["void-shard"], abilities=["void-arrow"])
    log = fight([h], [beast("b", stats=(0, 0, 1, 0))], Forced(plan={(1, "h"): Action("ability", "Void Arrow", ("b",))}))
    assert actions(log)[0].energy_after == 2 and log.final["h"].energy == 3


def test_a_fight_nobody_can_win_stops_undecided():
    log = fight([char("a", stats=TOUGH)], [beast("b", stats=TOUGH)], max_rounds=4)
    assert log.winner is None and log.outcome == "stalemate" and log.rounds == 4 and log.rewards is None


# -- the log ------------------------------------------------------------------------------------------------------

def test_the_same_seed_gives_the_same_log_and_the_log_is_json():
    team = [char("a", items=["void-shard"], abilities=["void-arrow", "ether-wave"]),
            char("b", items=["ether-shard"], abilities=["mend", "jolt"])]
    row = [beast("x", stats=(2, 1, 4, 2), targets=2), beast("y", stats=(2, 0, 3, 1), element=V)]
    one, two = fight(team, row, seed=9), fight(team, row, seed=9)
    assert one == two
    doc = one.to_json()
    json.dumps(doc, allow_nan=False)
    assert doc["events"][0]["event"] == "action" and {"breakdown", "absorption"} <= set(doc["events"][0]["targets"][0])


def test_the_setup_refuses_impossible_fights():
    with pytest.raises(RuleInputError, match="both sides"):
        FightSetup(SideSetup("red", (char("a"),)), SideSetup("red", (char("b"),)))
    with pytest.raises(RuleInputError, match="twice"):
        FightSetup(SideSetup("red", (char("a"),)), SideSetup("blue", (char("a", "blue"),)))
    with pytest.raises(RuleInputError, match="no living"):
        SideSetup("red", (char("a").with_health(0),))
    with pytest.raises(RuleInputError, match="random.Random"):
        resolve_fight(FightSetup(SideSetup("red", (char("a"),)), SideSetup("blue", (char("b", "blue"),))), 4)


FIGHTERS = st.builds(
    lambda i, a, d, h, e, w, ab: char(f"h{i}", stats=(a, d, h, e), items=w, abilities=ab),
    st.integers(), st.integers(0, 6), st.integers(0, 3), st.integers(1, 6), st.integers(0, 6),
    st.sampled_from([(), ("void-shard",), ("matter-shard", "void-shield"), ("ether-shard", "grounding-charm")]),
    st.sampled_from([(), ("void-arrow",), ("mend", "ether-wave"), ("drain", "jolt"), ("void-sweep", "rally")]))
BEASTS = st.builds(
    lambda a, d, h, e, el, n, eff, u: beast("?", stats=(a, d, h, e), element=el, targets=n, attack_effect=eff, unique=u),
    st.integers(0, 6), st.integers(0, 3), st.integers(1, 6), st.integers(0, 3), st.sampled_from([M, E, V]),
    st.integers(1, 3), st.sampled_from([None, BUILTIN_ABILITIES["jolt"].effect, BUILTIN_ABILITIES["hex"].effect]),
    st.booleans())


@settings(max_examples=40, deadline=None)
@given(st.lists(FIGHTERS, min_size=1, max_size=4), st.lists(BEASTS, min_size=1, max_size=4), st.integers(0, 99))
def test_any_fight_keeps_every_number_in_range_and_ends(team, row, seed):
    team = [Fighter.new(f"h{i}", "red", f.base, items=f.items, abilities=f.abilities) for i, f in enumerate(team)]
    row = [Fighter.new(f"c{i}", "creatures", b.base, kind="creature", attack_element=b.attack_element,
                       targets=b.targets, attack_effect=b.attack_effect, unique=b.unique) for i, b in enumerate(row)]
    log = fight(team, row, seed=seed, max_rounds=12)
    assert log.rounds <= 12 and (log.winner is None) == (log.outcome == "stalemate")
    for f in log.final.values():
        assert 0 <= f.health <= f.max_health <= 6 and 0 <= f.energy <= f.max_energy <= 6
        assert 0 <= f.attack <= 6 and 0 <= f.defense <= 6
    for a in log.actions():
        assert 0 <= a.energy_after <= a.energy_before or a.action.kind == "rest"
        for t in a.targets:
            if t.absorption is not None:
                x = t.absorption
                assert x.damage == t.breakdown.total >= 0
                assert x.health_lost + x.shielded <= x.damage and x.health_after >= 0
    if log.winner == "red":
        assert all(not log.final[c.id].alive for c in row)
    assert log == fight(team, row, seed=seed, max_rounds=12)
