"""The Party Hard game loop: P-SETUP, P-FIELD, P-REINF, P-LOOT, P-ANIMA, P-FIGHT-END, P-RETREAT,
P-WIN, the invariants over seeded games, and determinism."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish.errors import IllegalActionError, RuleInputError
from skirmish.game import Decision, RandomPolicy, load_policy
from skirmish.game.partyhard import GameState, play_game
from skirmish.maps.grid import CREATURES
from skirmish.rules.partyhard.decks import RESTORE, TELEPORT
from skirmish.scenario.load import loads

from conftest import SCENARIOS

MAZE = skirmish.load(SCENARIOS / "party-hard-maze.toml")
STATS = "stats = { attack = 2, defense = 1, health = 4, energy = 3 }"
WEAK = "stats = { attack = 0, defense = 0, health = 1, energy = 0 }"


class Checked:
    """Plays as ``base`` and checks the invariants on every state it is shown."""

    def __init__(self, base: Any, seen: list[GameState] | None = None):
        self.base, self.seen = base, seen if seen is not None else []

    def choose(self, game: GameState, decision: Decision[Any], rng: random.Random) -> Any:
        check_invariants(game, decision)
        self.seen.append(game)
        return self.base.choose(game, decision, rng)


def check_invariants(game: GameState, decision: Decision[Any] | None = None) -> None:
    for r in game.grid.rooms:
        for p in game.players:
            assert game.grid.characters(r.at, p) <= 4, f"P-CAP broken in {r.at} for {p}"
    assert all(v >= 0 for v in game.anima.values()), f"negative Anima {dict(game.anima)}"
    for cid in game.owner:
        f = game.fighter(cid)
        assert len(f.abilities) <= 2
        kinds = [i.kind for i in f.items]
        assert len(kinds) == len(set(kinds))
        assert (cid in game.fallen) != (cid in game.grid.model_ids)
    for cid in game.fallen:
        assert cid not in game.grid.model_ids
    if decision is not None and decision.actor in game.owner:
        assert game.alive(decision.actor), f"{decision.actor} is defeated and asked to {decision.kind}"
    if decision is not None and decision.kind.startswith("fight-") and decision.actor in game.owner:
        assert decision.context["fight"].fighter(decision.actor).alive


class Script:
    """Answers with ``rule(game, decision)`` where it returns something, else the first option."""

    def __init__(self, rule: Callable[[GameState, Decision[Any]], Any]):
        self.rule = rule
        self.asked: list[Decision[Any]] = []

    def choose(self, game: GameState, decision: Decision[Any], rng: random.Random) -> Any:
        self.asked.append(decision)
        pick = self.rule(game, decision)
        return decision.options[0] if pick is None else pick


def game_text(rooms: str, chars: str, game: str = "", legend: str = "") -> str:
    return f'format = 1\nmap = "grid"\n[grid]\nrooms = {rooms}\n{legend}\n{chars}\n{game}\n'


def char(cid: str, player: str, room: str, stats: str = STATS, extra: str = "") -> str:
    return f'[[characters]]\nid = "{cid}"\nplayer = "{player}"\nroom = {room}\n{stats}\n{extra}\n'


def events(result, kind: str) -> list:
    return [e for e in result.events if e.kind == kind]


# -- invariants over seeded games -------------------------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_invariants_hold_over_seeded_random_games(seed):
    """P-CAP, Anima never negative, at most 2 abilities and one item of each kind, and a defeated
    character is never asked anything until it is restored."""
    seen: list[GameState] = []
    policies = {p: Checked(RandomPolicy(), seen) for p in MAZE.players}
    r = play_game(MAZE, policies, random.Random(seed))
    check_invariants(r.final)
    assert seen and r.turns <= 50
    assert_defeated_act_only_after_restore(r)


@pytest.mark.parametrize("seed", [0, 3])
def test_invariants_hold_over_seeded_greedy_games(seed):
    seen: list[GameState] = []
    r = play_game(MAZE, {p: Checked(load_policy("greedy", "partyhard"), seen) for p in MAZE.players},
                  random.Random(seed))
    check_invariants(r.final)
    assert_defeated_act_only_after_restore(r)


def assert_defeated_act_only_after_restore(result) -> None:
    down: set[str] = set()
    owners = result.final.owner
    for e in result.events:
        for obj in e.json_lines():
            actor = obj.get("actor")
            kind = obj["event"]
            if kind == "fight-note" and obj["note"] == "defeated" and actor in owners:
                down.add(actor)
            elif kind == "restore":
                assert actor in down
                down.discard(actor)
            elif kind in ("move", "skip", "attack", "teleport", "fight-action") and actor in owners:
                assert actor not in down, f"{actor} acts ({kind}) while defeated"
    assert down == {c for c in owners if not result.final.alive(c)}


# -- determinism -----------------------------------------------------------------------------------------

def test_the_same_seed_gives_the_same_game():
    a = play_game(MAZE, {p: load_policy("greedy", "partyhard") for p in MAZE.players}, random.Random(7))
    b = play_game(MAZE, {p: load_policy("greedy", "partyhard") for p in MAZE.players}, random.Random(7))
    assert [o for e in a.events for o in e.json_lines()] == [o for e in b.events for o in e.json_lines()]
    assert a.summary() == b.summary()


def test_games_report_is_identical_for_any_worker_count(capsys):
    from skirmish.cli import main
    outs = []
    for workers in ("1", "2"):
        assert main(["play", str(SCENARIOS / "party-hard-maze.toml"), "--games", "4", "--seed", "11", "--workers",
                     workers, "--policy", "random", "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0]["games"] == 4
    assert sum(outs[0]["wins"].values()) + outs[0]["draws"] == 4


# -- P-SETUP, P-FIELD, P-REINF ---------------------------------------------------------------------------

LAIR = ('[game]\nlairs = [{ room = [1, 0], creatures = 2 }]\n[game.creatures.rat]\ncopies = 3\n'
        f'{WEAK}\nattack_element = "matter"\n')


def test_P_FIELD_entering_a_lair_lays_out_its_creatures_and_starts_a_fight():
    g = loads(game_text('["..."]', char("a", "red", "[0, 0]") + char("b", "blue", "[2, 0]"), LAIR))
    red = Script(lambda s, d: ("move", (1, 0)) if d.kind == "field" and ("move", (1, 0)) in d.options else
                 ("skip",) if d.kind == "field" else None)
    r = play_game(g, {"red": red, "blue": Script(lambda s, d: ("skip",) if d.kind == "field" else None)},
                  random.Random(1), turns=1)
    lay = events(r, "lay-out")
    assert len(lay) == 1 and lay[0].data["room"] == [1, 0] and len(lay[0].data["creatures"]) == 2
    fight = events(r, "fight")[0]
    assert fight.log.attackers == "red" and fight.log.defenders == CREATURES and fight.data["why"] == "entered"
    assert len(r.final.creature_deck) + len(r.final.creature_discard) + len(r.final.creatures_in((1, 0))) == 3
    assert (1, 0) not in r.final.lairs


def test_P_SETUP_starting_in_a_lair_starts_a_fight_at_once():
    g = loads(game_text('["..."]', char("a", "red", "[1, 0]") + char("b", "blue", "[2, 0]"), LAIR))
    r = play_game(g, {p: Script(lambda s, d: None) for p in ("red", "blue")}, random.Random(2), turns=1)
    first = [e.kind for e in r.events][:3]
    assert first == ["start", "lay-out", "fight"] and r.events[2].turn == 0


def test_P_FIELD_skipping_out_of_a_fight_heals_to_full_health():
    g = loads(game_text('["...."]', char("a", "red", "[0, 0]") + char("b", "blue", "[3, 0]")))
    hurt = g.fighter("a").with_health(1)
    from dataclasses import replace
    g = replace(g, pieces=tuple(replace(p, fighter=hurt) if p.id == "a" else p for p in g.pieces))
    skip = Script(lambda s, d: ("skip",) if d.kind == "field" else None)
    r = play_game(g, {"red": skip, "blue": skip}, random.Random(0), turns=1)
    s = events(r, "skip")[0]
    assert s.data["actor"] == "a" and s.data["healed"] == 3 and r.final.grid.fighter("a").health == 4


def test_P_REINF_a_character_that_skipped_next_door_joins_the_fight():
    chars = char("a", "red", "[0, 0]") + char("helper", "red", "[1, 1]") + char("b", "blue", "[2, 0]")
    g = loads(game_text('["...", "#.#"]', chars, LAIR))

    def rule(s, d):
        if d.kind == "field":
            return ("move", (1, 0)) if d.actor == "a" else ("skip",)
        if d.kind == "reinforce":
            return True
        return None

    r_policy = Script(rule)
    r = play_game(g, {"red": r_policy, "blue": Script(lambda s, d: ("skip",) if d.kind == "field" else None)},
                  random.Random(3), turns=1)
    log = events(r, "fight")[0].log
    assert any(getattr(n, "kind", "") == "join" and n.actor == "helper" for n in log.events)
    assert any(d.kind == "reinforce" and d.actor == "helper" for d in r_policy.asked)
    assert r.final.grid.room_of("helper") == (1, 0)   # it stands in the fight's room afterwards


def test_P_FIELD_players_share_a_room_in_peace_until_one_attacks():
    chars = char("a", "red", "[0, 0]") + char("b", "blue", "[0, 0]")
    g = loads(game_text('[".."]', chars))
    peace = Script(lambda s, d: ("skip",) if d.kind == "field" else None)
    r = play_game(g, {"red": peace, "blue": peace}, random.Random(0), turns=3)
    assert not events(r, "fight") and r.winner is None
    war = Script(lambda s, d: ("attack", "blue") if d.kind == "field" and ("attack", "blue") in d.options else None)
    r = play_game(g, {"red": war, "blue": peace}, random.Random(0), turns=3)
    fight = events(r, "fight")[0]
    assert fight.log.attackers == "red" and fight.log.defenders == "blue" and fight.data["why"] == "attack"


def test_P_FIELD_a_room_holds_one_fight_a_turn_the_second_attacker_joins_the_first_attack():
    """(interpretation 32) With three players in a room, r2 was offered an attack on green
    after r1 attacked blue; it was logged attacking green and then fought blue."""
    chars = char("r1", "red", "[1, 0]") + char("r2", "red", "[1, 0]") + char("b1", "blue", "[1, 0]") + \
        char("g1", "green", "[1, 0]")
    g = loads(game_text('["...", "..."]', chars))
    want = {"r1": ("attack", "blue"), "r2": ("attack", "green")}
    split = Script(lambda s, d: want[d.actor] if d.kind == "field" and want.get(d.actor) in d.options else
                   (("skip",) if d.kind == "field" else None))
    peace = Script(lambda s, d: ("skip",) if d.kind == "field" else None)
    r = play_game(g, {"red": split, "blue": peace, "green": peace}, random.Random(0), turns=1)
    asked = {d.actor: d.options for d in split.asked if d.kind == "field"}
    assert ("attack", "green") in asked["r1"] and ("attack", "green") not in asked["r2"]
    assert ("attack", "blue") in asked["r2"]
    attacks = [(e.data["actor"], e.data["defender"]) for e in events(r, "attack")]
    fights = [(f.log.attackers, f.log.defenders) for f in events(r, "fight")]
    assert attacks == [("r1", "blue")] and fights == [("red", "blue")]  # (r2, refused green, skipped)


# -- P-RETREAT, P-FIGHT-END -------------------------------------------------------------------------------

def test_P_RETREAT_retreating_characters_end_in_a_free_room_next_door():
    tough = "stats = { attack = 2, defense = 6, health = 6, energy = 0 }"
    beast = f'[[creatures]]\nid = "ogre"\nroom = [1, 0]\n{tough}\nattack_element = "void"\n'
    g = loads(game_text('["..."]', char("a", "red", "[1, 0]") + char("b", "blue", "[2, 0]") + beast))

    def rule(s, d):
        if d.kind == "fight-retreat":
            return max(d.options, key=len)
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(rule), "blue": Script(rule)}, random.Random(0), turns=1)
    log = events(r, "fight")[0].log
    assert log.retreated == {"a": (0, 0)} and r.final.grid.room_of("a") == (0, 0)
    ogre = r.final.grid.fighter("ogre")
    assert ogre.health == ogre.max_health   # P-FIGHT-END: the creatures heal fully and stay
    lines = [o for e in r.events for o in e.json_lines()]
    assert [o["stage"] for o in lines if o["event"] == "retreat"] == ["declared", "left"]


# -- P-LOOT, P-ANIMA ---------------------------------------------------------------------------------------

def test_P_LOOT_rewards_are_attached_or_turned_into_anima():
    g = loads(game_text('["..."]', char("a", "red", "[0, 0]", extra='abilities = ["void-arrow"]')
                        + char("b", "blue", "[2, 0]"), LAIR.replace("[game]\n", '[game]\nitems = ["void-shard", "void-shield"]\n'
                                                 'abilities = ["hex", "mend"]\n')))

    def rule(s, d):
        if d.kind == "field":
            return ("move", (1, 0)) if ("move", (1, 0)) in d.options and s.turn == 1 else ("skip",)
        if d.kind == "loot":
            card = d.context["card"]
            return ("anima",) if card.name in ("Hex", "Void Shield") else next(o for o in d.options if o[0] == "attach")
        return None

    r = play_game(g, {"red": Script(rule), "blue": Script(lambda s, d: ("skip",) if d.kind == "field" else None)},
                  random.Random(5), turns=1)
    rew = events(r, "rewards")[0]
    assert (rew.data["items"], rew.data["abilities"]) == (2, 1)   # two ordinary rats: 2 items, 1 ability
    loot = events(r, "loot")
    gained = sum(e.data.get("anima_gained") or 0 for e in loot)
    assert r.final.anima["red"] == gained
    a = r.final.fighter("a")
    assert len(a.items) + len(a.abilities) - 1 + len([e for e in loot if e.data["to"] is None]) == 3


def test_P_ANIMA_discard_buy_back_restore_and_teleport_prices():
    chars = (char("a", "red", "[0, 0]", extra='items = ["void-shard"]\nabilities = ["hex", "mend"]')
             + char("b", "blue", "[3, 0]"))
    g = loads(game_text('["...."]', chars, "[game]\nanima = 3\n"))
    plan = iter([("anima", "discard"), ("discard", ("a", "ability", "Hex")), ("anima", "discard"),
                 ("discard", ("a", "item", "Void Shard")), ("anima", "buy"), ("buy", ("item", "Void Shard", "a")),
                 ("anima", "teleport"), ("teleport", ("a", (2, 0))), ("anima", "done")])

    def rule(s, d):
        if d.kind in ("anima", "discard", "buy", "teleport"):
            want_kind, want = next(plan)
            assert d.kind == want_kind and want in d.options, (d, want)
            return want
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(rule), "blue": Script(lambda s, d: ("skip",) if d.kind == "field" else None)},
                  random.Random(0), turns=1)
    spend = [(e.kind, e.anima["red"]) for e in r.events if e.kind in ("discard", "buy", "teleport")]
    assert spend == [("discard", 5), ("discard", 6), ("buy", 4), ("teleport", 4 - TELEPORT)]
    assert r.final.grid.room_of("a") == (2, 0) and [i.name for i in r.final.fighter("a").items] == ["Void Shard"]
    assert [c.name for c in r.final.ability_discard] == ["Hex"] and not r.final.item_discard


def test_P_ANIMA_a_defeated_character_is_restored_for_3():
    strong = "stats = { attack = 6, defense = 6, health = 6, energy = 0 }"
    beast = f'[[creatures]]\nid = "ogre"\nroom = [1, 0]\n{strong}\nattack_element = "void"\n'
    chars = char("a", "red", "[1, 0]", stats=WEAK) + char("a2", "red", "[3, 0]") + char("b", "blue", "[4, 0]")
    g = loads(game_text('["....."]', chars + beast, "[game]\nanima = 4\n"))

    def rule(s, d):
        if d.kind == "anima":
            return "restore" if "restore" in d.options else "done"
        if d.kind == "restore":
            return next(o for o in d.options if o[1] == (3, 0))
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(rule), "blue": Script(lambda s, d: ("skip",) if d.kind == "field" else None)},
                  random.Random(0), turns=1)
    assert events(r, "fight")[0].log.defeated == ("a",)
    rest = events(r, "restore")[0]
    assert rest.data == {"actor": "a", "room": [3, 0], "spent": RESTORE} and rest.anima["red"] == 1
    a = r.final.grid.fighter("a")
    assert r.final.alive("a") and a.health == a.max_health and r.restored["a"] == 1


def test_P_ANIMA_restore_rooms_keep_P_CAP_and_avoid_other_players():
    chars = "".join(char(f"r{i}", "red", "[0, 0]") for i in range(4)) + char("b", "blue", "[1, 0]")
    g = loads(game_text('["..."]', chars))
    st = play_game(g, {p: Script(lambda s, d: ("skip",) if d.kind == "field" else None) for p in ("red", "blue")},
                   random.Random(0), turns=1).final
    assert st.free_rooms("red") == ((2, 0),)      # (0, 0) is full, (1, 0) holds blue
    assert st.free_rooms("blue") == ((1, 0), (2, 0))


# -- P-WIN ---------------------------------------------------------------------------------------------

def test_P_WIN_the_last_player_with_characters_or_anima_wins():
    strong = "stats = { attack = 6, defense = 6, health = 6, energy = 3 }"
    g = loads(game_text('[".."]', char("a", "red", "[0, 0]", stats=strong, extra='items = ["void-shard"]')
                        + char("b", "blue", "[0, 0]", stats=WEAK)))
    war = Script(lambda s, d: ("attack", "blue") if d.kind == "field" and ("attack", "blue") in d.options else None)
    r = play_game(g, {"red": war, "blue": Script(lambda s, d: None)}, random.Random(0))
    assert r.winner == "red" and r.turns == 1 and events(r, "out")[0].player == "blue"
    assert r.summary()["characters"]["b"] == {"player": "blue", "alive": False, "abilities": [], "items": []}


def test_P_WIN_a_defeated_player_with_the_anima_to_restore_is_not_out():
    strong = "stats = { attack = 6, defense = 6, health = 6, energy = 3 }"
    g = loads(game_text('[".."]', char("a", "red", "[0, 0]", stats=strong, extra='items = ["void-shard"]')
                        + char("b", "blue", "[0, 0]", stats=WEAK), "[game]\nanima = 3\n"))
    war = Script(lambda s, d: ("attack", "blue") if d.kind == "field" and ("attack", "blue") in d.options else
                 ("skip",) if d.kind == "field" else None)
    idle = Script(lambda s, d: "done" if d.kind == "anima" else None)
    r = play_game(g, {"red": war, "blue": idle}, random.Random(0), turns=3)
    assert r.winner is None and not events(r, "out") and r.turns == 3   # the turn limit: a draw


def test_the_turn_limit_defaults_to_the_scenario_and_ends_in_a_draw():
    g = loads(game_text('["...."]', char("a", "red", "[0, 0]") + char("b", "blue", "[3, 0]"), "[game]\nturns = 2\n"))
    r = play_game(g, {p: Script(lambda s, d: ("skip",) if d.kind == "field" else None) for p in ("red", "blue")},
                  random.Random(0))
    assert r.winner is None and r.turns == 2 and events(r, "end")[0].data["reason"].startswith("the turn limit (2)")


# -- bad input --------------------------------------------------------------------------------------------

def test_an_illegal_choice_is_refused():
    class Cheat:
        def choose(self, game, decision, rng):
            return ("move", (9, 9)) if decision.kind == "field" else decision.options[0]
    with pytest.raises(IllegalActionError, match=r"red-1.s policy answered \(.move., \(9, 9\)\) to field: not one of its 2 legal"):
        g = loads(game_text('["..."]', char("red-1", "red", "[0, 0]") + char("b", "blue", "[2, 0]")))
        play_game(g, {"red": Cheat(), "blue": Cheat()}, random.Random(0))


def test_a_game_needs_a_policy_per_player_and_two_players():
    with pytest.raises(RuleInputError, match="no policy for player 'blue'"):
        play_game(MAZE, {"red": RandomPolicy()}, random.Random(0))
    one = loads(game_text('[".."]', char("a", "red", "[0, 0]")))
    with pytest.raises(RuleInputError, match="two players"):
        play_game(one, {"red": RandomPolicy()}, random.Random(0))


def test_P_RETREAT_a_retreat_never_goes_into_a_face_down_lair():
    """Retreating characters cannot start a fight: the only room next door is a lair, so no retreat."""
    tough = "stats = { attack = 2, defense = 6, health = 6, energy = 0 }"
    beast = f'[[creatures]]\nid = "ogre"\nroom = [1, 0]\n{tough}\nattack_element = "void"\n'
    g = loads(game_text('["..", "#."]', char("a", "red", "[1, 0]") + char("b", "blue", "[1, 1]") + beast,
                        LAIR.replace("room = [1, 0]", "room = [0, 0]")))
    asked: list = []

    def rule(s, d):
        asked.append(d.kind)
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(rule), "blue": Script(rule)}, random.Random(0), turns=1)
    assert events(r, "fight") and "fight-retreat" not in asked   # no free room: the lair is not one
    assert (0, 0) in r.final.lairs and not r.final.grid.occupants((0, 0))


# -- invariants over generated scenarios (2-3 players, lairs, decks) ---------------------------------------

ITEM_KEYS = ["void-shard", "matter-shard", "ether-shard", "shock-prism", "matter-shield", "void-shield",
             "ether-shield", "grounding-charm", "hungry-crown"]
ABILITY_KEYS = ["void-arrow", "matter-blast", "ether-wave", "void-sweep", "mend", "drain", "hex", "expose", "jolt",
                "rally", "bulwark", "recharge"]


def generated(rng: random.Random) -> str:
    """A small random game: up to 4x3 rooms, 2-3 players of 1-4 characters, lairs and decks."""
    def stats(h: int) -> str:
        return (f"stats = {{ attack = {rng.randint(0, 4)}, defense = {rng.randint(0, 2)}, health = {h}, "
                f"energy = {rng.randint(0, 4)} }}")
    w, h = rng.randint(2, 4), rng.randint(1, 3)
    rooms = [(c, r) for r in range(h) for c in range(w)]
    text, n = "", 0
    for p in ["red", "blue", "green"][:rng.randint(2, 3)]:
        for _ in range(rng.randint(1, 4)):
            c, r = rng.choice(rooms)
            extra = (f"abilities = {json.dumps(rng.sample(ABILITY_KEYS, rng.randint(0, 2)))}\n"
                     f"items = {json.dumps(rng.sample(ITEM_KEYS, 1) if rng.random() < .5 else [])}")
            text += char(f"{p}{n}", p, f"[{c}, {r}]", stats(rng.randint(1, 5)), extra)
            n += 1
    lairs = ", ".join(f"{{ room = [{c}, {r}], creatures = {rng.randint(1, 2)} }}"
                      for c, r in rng.sample(rooms, rng.randint(0, min(3, len(rooms)))))
    game = (f"[game]\nanima = {rng.randint(0, 6)}\nturns = {rng.randint(3, 15)}\n"
            f"items = {json.dumps(rng.choices(ITEM_KEYS, k=rng.randint(0, 6)))}\n"
            f"abilities = {json.dumps(rng.choices(ABILITY_KEYS, k=rng.randint(0, 6)))}\nlairs = [{lairs}]\n"
            f"[game.creatures.rat]\ncopies = 6\n{stats(rng.randint(1, 4))}\nattack_element = \"matter\"\n"
            f"unique = {str(rng.random() < .3).lower()}\n")
    return game_text("[" + ", ".join('"' + "." * w + '"' for _ in range(h)) + "]", text, game)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_invariants_hold_over_generated_games(seed):
    g = loads(generated(random.Random(seed)))
    r = play_game(g, {p: Checked(RandomPolicy()) for p in g.players}, random.Random(seed))
    check_invariants(r.final)
    assert_defeated_act_only_after_restore(r)
    assert r.winner is None or r.winner in g.players and r.final.out == set(g.players) - {r.winner}


def test_P_REINF_a_third_player_helps_one_side_and_acts_by_its_own_policy():
    """Composite groups: a third player's skipped characters next door may join one side."""
    chars = (char("a", "red", "[0, 0]") + char("g1", "green", "[1, 1]", extra='items = ["void-shard"]')
             + char("g2", "green", "[1, 1]") + char("b", "blue", "[2, 0]"))
    g = loads(game_text('["...", "#.#"]', chars, LAIR))
    green_asked: list[Decision] = []

    def red(s, d):
        if d.kind == "field":
            return ("move", (1, 0)) if d.actor == "a" and s.turn == 2 else ("skip",)
        return None

    def green(s, d):
        green_asked.append(d)
        if d.kind == "reinforce":
            assert d.options == (False, "red")      # the creatures' side is never offered
            return "red"
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(red), "green": Script(green), "blue": Script(red)}, random.Random(4), turns=2)
    log = events(r, "fight")[0].log
    joined = {n.actor for n in log.events if getattr(n, "kind", "") == "join"}
    assert joined == {"g1", "g2"} and log.attackers == "red"
    acted = {d.actor for d in green_asked if d.kind.startswith("fight-")}
    assert acted == {"g1"} and log.winner == "red"   # g1 hits by green's policy; red wins, green helped


def test_P_ANIMA_passes_between_players_sharing_a_room():
    g = loads(game_text('["..."]', char("a", "red", "[0, 0]") + char("b", "blue", "[0, 0]") + char("c", "blue", "[2, 0]"),
                        "[game]\nanima = 2\n"))
    gifts = iter(["give", "done"])   # one option, ("blue", 1): the "give" decision itself is not asked

    def red(s, d):
        if d.kind == "anima":
            assert "give" in d.options and d.context["choices"]["give"] == (("blue", 1),)
            return next(gifts)
        return ("skip",) if d.kind == "field" else None

    r = play_game(g, {"red": Script(red), "blue": Script(lambda s, d: "done" if d.kind == "anima" else
                                                         ("skip",) if d.kind == "field" else None)},
                  random.Random(0), turns=1)
    give = events(r, "give")[0]
    assert give.data == {"to": "blue", "amount": 1} and dict(r.final.anima) == {"red": 1, "blue": 3}


# -- P-DMG: damage 0 is no damage; P-LOOT: fight-end reports what is paid -----------------------------------------

class _Uses:
    """A fight policy: each actor uses its named ability on the first enemy (else greedy)."""

    def __init__(self, script: dict[str, str]):
        from skirmish.rules.partyhard import ScriptedPolicy
        self.script, self.base = script, ScriptedPolicy(opening_ids=tuple(script)[:2], shields={"ogre": "none"})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)

    def act(self, state, actor, rng):
        from skirmish.rules.partyhard import legal_actions
        want = self.script.get(actor)
        return next((a for a in legal_actions(state, actor) if a.ability == want and a.targets == ("ogre",)),
                    None) or self.base.act(state, actor, rng)


def test_P_DMG_a_damage_0_ability_deals_no_damage_only_its_effect():
    """Interpretation 20: ``damage = 0`` (Jolt, Drain) says "no damage": no weapon bonus, +1 match,
    relation or streak is added (before, Drain with a Void Shard dealt 2), it is no attack of a
    streak (P-STREAK) and does not carry the weapon's effect (P-EFFECT: damaging attacks only)."""
    from skirmish.rules.partyhard import (BUILTIN_ABILITIES as AB, BUILTIN_ITEMS as IT, Element, Fighter, FightSetup,
                                          Item, ItemKind, SideSetup, Stats, attack_breakdown, parse_effect,
                                          resolve_fight)
    hex_shard = Item("Hex Shard", ItemKind.WEAPON, Element.ETHER, 1, effect=parse_effect("powerless"))
    a = Fighter.new("a", "red", Stats(1, 0, 4, 5), items=(IT["void-shard"],), abilities=(AB["drain"],))
    b = Fighter.new("b", "red", Stats(1, 0, 4, 5), items=(hex_shard,), abilities=(AB["jolt"],))
    c = Fighter.new("c", "red", Stats(1, 0, 4, 5), items=(IT["void-shard"],), abilities=(AB["void-arrow"],))
    ogre = Fighter.new("ogre", CREATURES, Stats(0, 0, 6, 4), kind="creature", attack_element=Element.MATTER)
    assert attack_breakdown(a, ogre, AB["drain"]).total == 0 and attack_breakdown(b, ogre, AB["jolt"]).total == 0
    setup = FightSetup(SideSetup("red", (a, c, b)), SideSetup(CREATURES, (ogre,)), max_rounds=2)
    log = resolve_fight(setup, random.Random(0), {"red": _Uses({"a": "Drain", "b": "Jolt", "c": "Void Arrow"}),
                                                   CREATURES: _Uses({})})
    acts = {(x.round, x.actor): x for x in log.actions() if x.side == "red"}
    drain, jolt, arrow = acts[(1, "a")], acts[(1, "b")], acts[(2, "c")]
    assert [x.name for x in (drain, jolt, arrow)] == ["Drain", "Jolt", "Void Arrow"]
    assert drain.streak == 0 and jolt.streak == 0
    assert acts[(2, "a")].name == "Drain" and arrow.streak == 1   # Drain just before it started no void run
    for x in (drain, jolt):
        t = x.targets[0]
        assert t.breakdown is None and t.absorption is None and t.health_after == 6
    assert drain.targets[0].burned == 2
    assert [(e.effect, e.source) for e in jolt.targets[0].effects] == [("shock", "ability")]
    # the Void Arrow after them: 1 (Attack) + 1 (weapon) + 1 (match), no streak bonus
    assert arrow.targets[0].breakdown.total == 3 and arrow.targets[0].health_after == 3


@pytest.mark.parametrize("seed", [4, 28])
def test_P_LOOT_fight_end_reports_the_rewards_paid_for_a_room_cleared_over_several_fights(seed):
    """Interpretation 24: a room's group cleared over several fights pays for every creature beaten
    there; fight-end.rewards says the same as the rewards event that pays it (it counted only the
    last fight's creatures)."""
    r = play_game(MAZE, {p: load_policy("greedy", "partyhard") for p in MAZE.players}, random.Random(seed))
    lines = [o for e in r.events for o in e.json_lines()]
    paid = [(a, b) for a, b in zip(lines, lines[1:]) if a["event"] == "fight-end" and a["rewards"] is not None]
    assert paid and all(b["event"] == "rewards" for _, b in paid)
    for end, rew in paid:
        assert end["rewards"] == {"items": rew["items"], "abilities": rew["abilities"], "reason": rew["reason"]}
    over_several = [end for end, _ in paid if end["rewards"]["items"] > len(end["defeated"])]
    assert over_several, "the seed clears a room over two fights"
    assert all("beaten in an earlier fight here" in e["rewards"]["reason"] for e in over_several)


def test_P_LOOT_one_creature_reads_in_the_singular():
    from skirmish.rules.partyhard import Element, Fighter, Stats
    from skirmish.rules.partyhard.decks import creature_rewards
    rat = Fighter.new("rat", CREATURES, Stats(), kind="creature", attack_element=Element.VOID)
    assert creature_rewards([rat]).reason.startswith("1 creature defeated (0 unique)")
    assert creature_rewards([rat, rat]).reason.startswith("2 creatures defeated")
