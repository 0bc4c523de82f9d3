"""Chaos Party rules by ID: C-TOKENS, C-BUILD, C-CLASS, C-ATTACK, C-DEFENCE, C-RESOLVE,
C-OVERLOAD, C-ABSORB, C-FLOW, C-FIRST, C-TURN."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import IllegalActionError, RuleInputError
from skirmish.rules.chaosparty import Attack, Character, Faces, Player, Tokens, Variants, potential_class, resolve
from skirmish.rules.chaosparty.attack import parse_boosts
from skirmish.rules.chaosparty.build import Duel, check_character
from skirmish.rules.chaosparty.classes import roll_die
from skirmish.rules.chaosparty.flow import FlowMove, apply_move, legal_moves
from skirmish.rules.chaosparty.tokens import SLOTS
from skirmish.rules.chaosparty.turn import aspect, has_advantage, legal_bids, open_targets, return_time


def four(prefix: str, **kw: int) -> tuple[Character, ...]:
    base = dict(time=3, form=3, attack=3, defence=3)
    base.update(kw)
    return tuple(Character(f"{prefix}{i}", **base) for i in range(4))


# ------------------------------------------------------------------ C-CLASS


def test_c_class_table():
    assert [potential_class(p) for p in range(7)] == [0, 1, 1, 2, 2, 3, 3]
    assert [roll_die(potential_class(p)) for p in (0, 1, 3, 5)] == [4, 6, 8, 10]


def test_c_class_four_only_with_unlimited():
    assert potential_class(7, unlimited=True) == potential_class(8, unlimited=True) == 4
    assert roll_die(4) == 12 and roll_die(4, raised=True) == 20
    with pytest.raises(RuleInputError, match="Unlimited"):
        potential_class(7)


def test_c_class_zero_uses_the_d4_just_rolled_as_its_number():
    """Damage of a class-0 attack is the attack d4's face; a class-0 absorb blocks the defence d4's face."""
    a = Attack(0, 0)
    assert resolve(a, Faces(3, 1)).damage == 3
    assert resolve(a, Faces(4, 2, overload_d20=1)).damage == 4          # top face: overload rolled, fails
    assert resolve(a, Faces(4, 2, overload_d20=20)).damage == 8         # 20 - 2 - 0 > 0: doubled
    hit = resolve(Attack(0, 0, defence_boosts=frozenset()), Faces(3, 2))
    assert hit.damage == 3 and hit.absorb is None


# ------------------------------------------------------------------ C-ATTACK / C-DEFENCE


def test_c_attack_raise_takes_the_next_die_and_keeps_the_class():
    a = Attack(3, 1, frozenset({"raise"}))
    assert a.attack_die == 10 and a.attack_class == 2
    assert resolve(a, Faces(9, 1)).damage == 2          # damage = class 2, not the d10's class


def test_c_attack_raise_forbidden_for_class_zero():
    with pytest.raises(RuleInputError, match="class 0 cannot be raised"):
        Attack(0, 2, frozenset({"raise"}))
    with pytest.raises(RuleInputError, match="class 0 cannot be raised"):
        Attack(2, 0, defence_boosts=frozenset({"raise"}))


def test_c_attack_floor_lifts_a_low_face_to_the_potential():
    a = Attack(4, 2, frozenset({"floor"}))
    assert a.attack_value(2) == 4 and a.attack_value(7) == 7
    assert Attack(4, 2).attack_value(2) == 2


def test_c_attack_time_costs():
    """C-ATTACK / C-DEFENCE: 1 Time to attack, +1 per Time boost; the plain defence is free."""
    a = Attack(3, 3, frozenset({"raise", "floor", "overload"}), frozenset({"raise", "floor", "counter", "absorb"}))
    assert a.attacker_time == 3 and a.defender_time == 3
    assert Attack(3, 3).attacker_time == 1 and Attack(3, 3).defender_time == 0


def test_c_attack_unknown_boosts_are_refused():
    with pytest.raises(RuleInputError, match="attack boost 'counter' does not exist"):
        parse_boosts("raise,counter", ("raise", "floor", "overload"), "attack")
    with pytest.raises(RuleInputError, match="defence boost 'overload'"):
        Attack(2, 2, defence_boosts=frozenset({"overload"}))


def test_c_defence_floor_and_counter():
    a = Attack(4, 3, defence_boosts=frozenset({"floor", "counter"}), defender_attack_potential=5)
    r = resolve(a, Faces(3, 1))           # defence d8 shows 1, floor makes it 3 ≥ 3: repelled
    assert r.defence_value == 3 and r.repelled and r.counter_damage == 3 and r.damage == 0


def test_c_defence_counter_of_class_zero():
    """Interpretation: a class-0 counter uses the target's defence d4 when it rolled one, else a fresh d4."""
    a = Attack(1, 0, defence_boosts=frozenset({"counter"}))
    assert resolve(a, Faces(2, 3)).counter_damage == 3
    b = Attack(1, 3, defence_boosts=frozenset({"counter"}))
    assert b.counter_needs_d4
    assert resolve(b, Faces(2, 5, counter_d4=4)).counter_damage == 4
    with pytest.raises(RuleInputError, match="counter_d4 is needed"):
        resolve(b, Faces(2, 5))


# ------------------------------------------------------------------ C-RESOLVE


def test_c_resolve_ties_are_repelled():
    r = resolve(Attack(2, 2), Faces(4, 4))
    assert r.repelled and r.damage == 0


def test_c_resolve_damage_is_the_attackers_class():
    r = resolve(Attack(5, 1), Faces(6, 2))
    assert not r.repelled and r.damage == 3


def test_c_resolve_token_loss_order():
    c = Character("x", time=2, form=1, attack=2, defence=1)
    left, lost = c.lose(3)
    assert left == Character("x", time=2, form=0, attack=1, defence=0)
    assert lost == Tokens(form=1, potential=2)
    left, lost = c.lose(6)
    assert left == Character("x", time=0) and left.lost and lost.time == 2


@settings(max_examples=50, deadline=None)
@given(t=st.integers(0, 6), f=st.integers(0, 6), a=st.integers(0, 6), d=st.integers(0, 6), dmg=st.integers(0, 30))
def test_c_resolve_loss_conserves_tokens_and_follows_the_order(t, f, a, d, dmg):
    c = Character("x", time=t, form=f, attack=a, defence=d)
    left, lost = c.lose(dmg)
    assert left.total + lost.total == c.total and lost.total == min(dmg, c.total)
    order = ["form", "defence", "attack", "time"]
    emptied = [s for s in order if left.slot(s) < c.slot(s)]
    for s in emptied[:-1]:          # every slot before the last one touched is empty
        assert left.slot(s) == 0


# ------------------------------------------------------------------ C-OVERLOAD / C-ABSORB


def test_c_overload_on_the_top_face_doubles():
    a = Attack(3, 2)                                  # d8 against d6
    assert resolve(a, Faces(8, 3, overload_d20=6)).damage == 4       # 6 - 3 - 2 = 1 > 0
    assert resolve(a, Faces(8, 3, overload_d20=5)).damage == 2       # 5 - 3 - 2 = 0: not above
    assert resolve(a, Faces(7, 3)).overload is None                  # not the top face, not bought


def test_c_overload_bought_with_an_attack_token():
    a = Attack(3, 2, frozenset({"overload"}))
    r = resolve(a, Faces(7, 3, overload_d20=20))
    assert r.overload and r.damage == 4 and r.overload_bought
    assert not resolve(a, Faces(8, 3, overload_d20=20)).overload_bought     # the top face needs no token
    with pytest.raises(RuleInputError, match="costs 1 attack Potential"):
        Attack(0, 2, frozenset({"overload"}))


def test_c_absorb_on_the_top_face_blocks_the_defence_class():
    a = Attack(4, 3)                                  # d8 against d8, defence class 2
    r = resolve(a, Faces(8, 8))
    assert r.repelled
    a = Attack(5, 3)                                  # d10 against d8
    r = resolve(a, Faces(9, 8, absorb_d20=15))        # 15 - 9 - 5 = 1 > 0: block 2 of 3
    assert r.absorb and r.damage == 1 and r.blocked == 2
    assert resolve(a, Faces(9, 8, absorb_d20=14)).damage == 3


def test_c_absorb_after_overload_and_never_below_zero():
    a = Attack(1, 6, frozenset({"overload"}), frozenset({"absorb"}))    # d6 against d10
    r = resolve(a, Faces(6, 5, overload_d20=20, absorb_d20=20))        # doubled to 2, absorb blocks 3 → 0
    assert r.overload and r.absorb and r.damage == 0 and r.blocked == 2


# ------------------------------------------------------------------ C-BUILD / C-TOKENS


def test_c_build_twelve_tokens_six_of_a_colour():
    check_character(Character("a", time=6, form=3, attack=2, defence=1), Variants())
    with pytest.raises(RuleInputError, match="exactly 12"):
        check_character(Character("a", time=6, form=3), Variants())
    with pytest.raises(RuleInputError, match="7 potential tokens"):
        check_character(Character("a", time=2, form=3, attack=4, defence=3), Variants())
    check_character(Character("a", time=2, form=2, attack=8), Variants(unlimited=True))


def test_c_build_four_slots_and_c_tokens_equal_shares():
    """C-BUILD: 4 slots; C-TOKENS: the bag is split equally, so every player holds as many tokens."""
    p = Player("red", four("r"), Tokens(time=2))
    q = Player("blue", four("b"), Tokens(form=2))
    Duel("ok", (p, q))
    with pytest.raises(RuleInputError, match="exactly 4 slots"):
        Duel("x", (Player("red", four("r")[:3]), q))
    with pytest.raises(RuleInputError, match="C-TOKENS"):
        Duel("x", (p, Player("blue", four("b"), Tokens(form=3))))
    with pytest.raises(RuleInputError, match="ids are unique"):
        Duel("x", (p, Player("blue", four("r"), Tokens(form=2))))


def test_c_build_a_character_with_no_tokens_is_lost():
    p = Player("red", (Character("a", time=1), Character("b")))
    assert [c.id for c in p.alive] == ["a"] and not p.defeated
    assert Player("red", (Character("b"),)).defeated


# ------------------------------------------------------------------ C-FLOW


def test_c_flow_moves():
    p = Player("red", (Character("a", time=5, form=4, attack=2), Character("b", time=3, form=3, attack=3, defence=3)),
               Tokens(time=1, potential=1))
    v = Variants()
    shifted, _ = apply_move(p, Tokens(), FlowMove("shift", "b", give="attack"), None)
    assert shifted.character("b").defence == 4
    added, _ = apply_move(p, Tokens(), FlowMove("add", "a", take="defence"), None)
    assert added.character("a").defence == 1 and added.store == Tokens(time=1)
    swapped, _ = apply_move(p, Tokens(), FlowMove("store_swap", "b", give="form", take="time"), None)
    assert swapped.character("b").time == 4 and swapped.store == Tokens(form=1, potential=1)
    traded, _ = apply_move(p, Tokens(), FlowMove("swap", "a", give="form", take="defence", other="b"), None)
    assert traded.character("a").defence == 1 and traded.character("b").form == 4
    drawn, bag = apply_move(p, Tokens(form=3), FlowMove("discard", "a", give="time"), random.Random(0))
    assert drawn.character("a").time == 4 and drawn.store.total == 3 and bag.total == 3
    assert FlowMove("swap", "a", give="form", take="defence", other="b") in legal_moves(p, v)


def test_c_flow_caps_and_lost_characters():
    p = Player("red", (Character("a", time=6, form=6), Character("b", time=1)), Tokens(time=1, form=1))
    moves = legal_moves(p, Variants())
    assert FlowMove("add", "a", take="time") not in moves            # 12 tokens already
    assert FlowMove("store_swap", "a", give="form", take="time") not in moves   # 7 time
    assert FlowMove("store_swap", "a", give="time", take="form") not in moves   # 7 form
    with pytest.raises(IllegalActionError, match="at most 6"):
        apply_move(p, Tokens(), FlowMove("store_swap", "a", give="form", take="time"), None)
    gone, _ = apply_move(p, Tokens(), FlowMove("discard", "b", give="time"), random.Random(1))
    assert gone.character("b").lost
    assert all(m.character != "b" and m.other != "b" for m in legal_moves(gone, Variants()))


def _all_candidates(p: Player):
    ids = [c.id for c in p.characters]
    for cid, g, t in product(ids, SLOTS, SLOTS):
        yield FlowMove("store_swap", cid, give=g, take=t)
        for o in ids:
            yield FlowMove("swap", cid, give=g, take=t, other=o)
    for cid, s in product(ids, SLOTS):
        yield FlowMove("add", cid, take=s)
        yield FlowMove("discard", cid, give=s)
        if s in ("attack", "defence"):
            yield FlowMove("shift", cid, give=s)
    for colour in ("time", "form", "potential"):
        yield FlowMove("discard", None, give=colour)


counts = st.integers(0, 4)


@settings(max_examples=40, deadline=None)
@given(chars=st.lists(st.tuples(counts, counts, counts, counts), min_size=1, max_size=3),
       store=st.tuples(counts, counts, counts), unlimited=st.booleans())
def test_c_flow_legal_moves_are_exactly_the_moves_that_apply(chars, store, unlimited):
    """The fast move list against trying every conceivable move; moves conserve tokens."""
    p = Player("p", tuple(Character(f"c{i}", *c) for i, c in enumerate(chars)), Tokens(*store))
    v = Variants(unlimited=unlimited)
    legal = set(legal_moves(p, v))
    for m in set(_all_candidates(p)):
        try:
            after, bag = apply_move(p, Tokens(), m, random.Random(0), v)
        except IllegalActionError:
            assert m not in legal, m
            continue
        assert m in legal, m
        before = sum(c.total for c in p.characters) + p.store.total
        assert sum(c.total for c in after.characters) + after.store.total + bag.total == before


# ------------------------------------------------------------------ C-FIRST / C-TURN


def test_c_first_bids_and_returning_time():
    assert legal_bids(None, 3) == (0, 1, 2, 3) and legal_bids(1, 3) == (2, 3) and legal_bids(3, 3) == ()
    p = Player("red", (Character("a", time=2, form=1),))
    q = return_time(p, "a")
    assert q.character("a").time == 1 and q.store == Tokens(time=1)
    with pytest.raises(IllegalActionError, match="no Time"):
        return_time(Player("red", (Character("a", form=1),)), "a")


def test_c_turn_superiority_aspects():
    pot = Character("p", time=2, form=2, attack=4, defence=4)
    form = Character("f", time=2, form=6, attack=2, defence=2)
    time_ = Character("t", time=6, form=2, attack=2, defence=2)
    tie = Character("n", time=4, form=4, attack=2, defence=2)
    assert (aspect(pot), aspect(form), aspect(time_), aspect(tie)) == ("potential", "form", "time", None)
    assert has_advantage(pot, pot) and has_advantage(form, time_) and has_advantage(time_, form)
    assert not has_advantage(form, pot) and not has_advantage(tie, form) and not has_advantage(pot, tie)
    assert Attack(3, 2, advantage=True).attack_die == 10 and Attack(3, 2, advantage=True).attack_class == 2
    assert Attack(3, 2, frozenset({"raise"}), advantage=True).attack_die == 12
    assert Attack(0, 2, advantage=True).attack_die == 4       # interpretation: class 0 takes no step
    with pytest.raises(RuleInputError, match="past d20"):
        Attack(8, 2, frozenset({"raise"}), advantage=True, unlimited=True)


def test_c_turn_multiplayer_no_one_attacked_twice_a_round():
    ps = [Player(n, (Character(n + "1", time=1),)) for n in ("a", "b", "c")]
    assert open_targets(ps, "a", frozenset(), True) == ("b", "c")
    assert open_targets(ps, "c", frozenset({"b"}), True) == ("a",)
    assert open_targets(ps[:2], "a", frozenset({"b"}), False) == ("b",)
