"""The grid of rooms as a map: P-GRID, P-MOVE, P-CAP, P-REINF, P-LINE (geometry side)."""

from __future__ import annotations

import json
import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish import IllegalActionError, SkirmishError, UnknownIdError
from skirmish.maps.grid import Grid, Piece, Reinforce, RoomCard, square
from skirmish.rules.partyhard import Element, Fighter, Stats

from conftest import SCENARIOS

MAZE = SCENARIOS / "party-hard-maze.toml"


@pytest.fixture(scope="module")
def maze() -> Grid:
    return skirmish.load(MAZE)


def fighter(fid: str, side: str = "red", creature: bool = False) -> Fighter:
    if creature:
        return Fighter.new(fid, "creatures", Stats(1, 0, 2, 0), kind="creature", attack_element=Element.MATTER)
    return Fighter.new(fid, side, Stats(1, 0, 2, 1))


def grid_of(drawing: list[str], pieces: list[tuple[str, str, tuple[int, int]]] = ()) -> Grid:
    """A grid from a drawing ('.' rooms) and (id, side, room) pieces, placed in list order."""
    rooms = [RoomCard((c, r)) for r, line in enumerate(drawing) for c, ch in enumerate(line) if ch == "."]
    places: dict = {}
    out = []
    for fid, side, room in pieces:
        places[(room, side)] = places.get((room, side), 0) + 1
        out.append(Piece(fighter(fid, side, side == "creatures"), room, places[(room, side)]))
    return Grid(tuple(rooms), tuple(out))


# -- P-GRID: adjacency and steps ----------------------------------------------------------------

def test_P_GRID_rooms_are_adjacent_when_their_cards_share_a_side():
    g = grid_of([".#.", "..."])
    assert g.neighbours((0, 0)) == ((0, 1),)
    assert set(g.neighbours((1, 1))) == {(0, 1), (2, 1)}
    assert not g.adjacent((0, 0), (1, 1))              # diagonal: corners touch, sides do not
    assert g.walls((1, 1)) == ("north", "south")


def test_P_GRID_a_maze_is_not_a_square(maze):
    """Steps go round the walls: rogue to ooze is 8 steps, their rooms 6 apart as the crow walks."""
    (c1, r1), (c2, r2) = maze.room_of("rogue"), maze.room_of("ooze")
    assert abs(c1 - c2) + abs(r1 - r2) == 6
    assert maze.distance("rogue", "ooze") == 8
    path = maze.path(maze.room_of("rogue"), maze.room_of("ooze"))
    assert len(path) == 9 and all(maze.adjacent(a, b) for a, b in zip(path, path[1:]))


def test_P_GRID_contact_and_sight_mean_the_same_room(maze):
    assert maze.in_contact("knight", "shade") and maze.line_of_sight("knight", "shade").visible
    los = maze.line_of_sight("cleric", "shade")           # next door
    assert not los.visible and los.reason == "blocked" and los.witness is None
    assert not maze.in_contact("cleric", "shade") and maze.distance("cleric", "shade") == 1


def layouts() -> st.SearchStrategy[list[str]]:
    return st.integers(1, 6).flatmap(lambda w: st.lists(
        st.lists(st.booleans(), min_size=w, max_size=w).map(lambda row: "".join(".#"[not b] for b in row)),
        min_size=1, max_size=6))


def connected_part(drawing: list[str]) -> list[str]:
    """Keep the rooms connected to the first room (the loader refuses the others)."""
    cells = {(c, r) for r, line in enumerate(drawing) for c, ch in enumerate(line) if ch == "."}
    if not cells:
        return ["."]
    start = min(cells, key=lambda x: (x[1], x[0]))
    seen, queue = {start}, deque([start])
    while queue:
        c, r = queue.popleft()
        for nb in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return ["".join("." if (c, r) in seen else "#" for c in range(len(line))) for r, line in enumerate(drawing)]


@settings(max_examples=60, deadline=None)
@given(layouts(), st.randoms(use_true_random=False))
def test_P_GRID_steps_are_a_metric_and_never_shorter_than_the_crow_walks(drawing, rnd):
    g = grid_of(connected_part(drawing))
    rooms = [r.at for r in g.rooms]
    sample = [rnd.choice(rooms) for _ in range(6)]
    for a in sample:
        assert g.steps(a, a) == 0
        for b in sample:
            d = g.steps(a, b)
            assert d == g.steps(b, a) and (d == 0) == (a == b)
            assert d >= abs(a[0] - b[0]) + abs(a[1] - b[1])
            assert (d == 1) == g.adjacent(a, b)
            assert len(g.path(a, b)) == d + 1
            for c in sample:
                assert g.steps(a, c) <= d + g.steps(b, c)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5))
def test_P_GRID_on_a_full_rectangle_steps_are_the_manhattan_distance(w, h):
    g = grid_of(["." * w] * h)
    for a in [r.at for r in g.rooms]:
        for b in [r.at for r in g.rooms]:
            assert g.steps(a, b) == abs(a[0] - b[0]) + abs(a[1] - b[1])


def test_distance_matrix_is_room_steps(maze):
    ids, m = maze.distance_matrix()
    i, j = ids.index("rogue"), ids.index("ooze")
    assert m[i, j] == 8 and m.dtype == float


# -- P-MOVE --------------------------------------------------------------------------------------

def test_P_MOVE_one_room_per_turn_towards_the_target(maze):
    plan = maze.plan_move("rogue", "ooze")
    assert plan.legal and plan.length == 1 and plan.budget == 1
    start, step = plan.points
    assert start == (4, 1) and maze.steps(step, maze.room_of("ooze")) == 7
    assert "8 steps" in plan.notes[0]


def test_P_MOVE_to_an_adjacent_room_from_cli_coordinates(maze):
    plan = maze.plan_move("rogue", (3.0, 1.0))             # as `--to 3,1` parses
    assert plan.legal and plan.points == ((4, 1), (3, 1))
    with pytest.raises(SkirmishError, match="whole numbers"):
        maze.plan_move("rogue", (3.5, 1))
    with pytest.raises(SkirmishError, match=r"no room at \(3, 0\)"):
        maze.plan_move("rogue", (3, 0))


def test_P_MOVE_a_declared_path_of_two_rooms_is_one_too_many(maze):
    plan = maze.check_move("rogue", [(3, 1), (2, 1)])
    assert not plan.legal and [v.at for v in plan.violations] == [1]
    assert "one room per turn (P-MOVE)" in plan.violations[0].what
    jump = maze.check_move("rogue", [(2, 1)])
    assert not jump.legal and "do not share a side" in jump.violations[0].what
    assert maze.check_move("rogue", []).legal and maze.check_move("rogue", []).length == 0


def test_P_MOVE_entering_creatures_starts_a_fight(maze):
    plan = maze.check_move("ranger", [(3, 1)])
    assert plan.legal and plan.stopped_at_contact is None
    g = maze.moved("ranger", (3, 1))
    into = g.plan_move("ranger", (2, 1))
    assert into.legal and into.stopped_at_contact == "wisp"
    assert any("starts a fight" in n for n in into.notes)


def test_P_MOVE_range_is_the_room_and_its_enterable_neighbours(maze):
    r = maze.movement_range("rogue")
    rooms = {(int(reg[0][0][0]), int(reg[0][0][1])) for reg in r.regions}
    assert rooms == {(4, 1), *maze.neighbours((4, 1))} and r.area == len(rooms)
    assert r.regions[0][0] == square((4, 1))
    json.dumps(r.to_json())


def test_P_MOVE_creatures_hold_their_room(maze):
    plan = maze.plan_move("ooze", (0, 2))
    assert not plan.legal and "creatures do not move" in plan.violations[0].what
    assert maze.movement_range("ooze").area == 1


def test_P_MOVE_leaving_a_fight_is_a_retreat_into_a_free_room():
    g = grid_of(["..."], [("hero", "red", (1, 0)), ("rat", "creatures", (1, 0)), ("bat", "creatures", (2, 0)),
                          ("elf", "blue", (0, 0))])
    assert not g.plan_move("hero", (2, 0)).legal        # creatures there
    to_blue = g.plan_move("hero", (0, 0))
    assert not to_blue.legal and "free room" in to_blue.violations[0].what
    assert g.plan_move("elf", (1, 0)).legal             # walking in is not retreating


def test_moved_gives_a_new_grid_and_refuses_illegal_moves(maze):
    g = maze.moved("rogue", (3, 1))
    assert g.room_of("rogue") == (3, 1) and maze.room_of("rogue") == (4, 1)
    assert g.distance("rogue", "knight") == 1
    with pytest.raises(IllegalActionError, match="P-MOVE"):
        maze.moved("rogue", (2, 0))


# -- P-CAP ---------------------------------------------------------------------------------------------

def test_P_CAP_no_fifth_character_of_one_player_in_a_room():
    four = [(f"r{i}", "red", (1, 0)) for i in range(4)]
    g = grid_of(["..."], four + [("r4", "red", (0, 0)), ("b", "blue", (2, 0))])
    plan = g.plan_move("r4", (1, 0))
    assert not plan.legal and "P-CAP" in plan.violations[0].what
    assert g.movement_range("r4").area == 1 and "P-CAP" in g.movement_range("r4").notes[1]
    assert g.plan_move("b", (1, 0)).legal                # the cap counts one player's characters
    with pytest.raises(IllegalActionError, match="P-CAP"):
        g.moved("r4", (1, 0))


def test_P_CAP_creatures_do_not_count():
    g = grid_of([".."], [(f"c{i}", "creatures", (1, 0)) for i in range(5)] + [("r", "red", (0, 0))])
    assert g.plan_move("r", (1, 0)).legal


# -- P-REINF and P-LINE -----------------------------------------------------------------------------------

def test_P_REINF_reinforcements_come_from_adjacent_rooms(maze):
    assert maze.can_reinforce("cleric", (2, 1))
    assert not maze.can_reinforce("rogue", (2, 1))       # two rooms away
    assert not maze.can_reinforce("ooze", (0, 2))        # creatures never reinforce
    assert maze.reinforcements((2, 1), "red") == ("cleric",)
    setup = maze.fight_setup((2, 1), reinforcements=["cleric"])
    assert [r.fighter.id for r in setup.attackers.reinforcements] == ["cleric"]
    with pytest.raises(SkirmishError, match="P-REINF"):
        maze.fight_setup((2, 1), reinforcements=["rogue"])
    with pytest.raises(UnknownIdError):
        maze.fight_setup((2, 1), reinforcements=["nobody"])


def test_P_REINF_a_third_player_picks_one_side():
    g = grid_of(["..."], [("r", "red", (1, 0)), ("b", "blue", (1, 0)), ("g1", "green", (0, 0)),
                          ("g2", "green", (2, 0)), ("r2", "red", (0, 0))])
    with pytest.raises(SkirmishError, match="name the side"):
        g.fight_setup((1, 0), attacker="red", reinforcements=["g1"])
    setup = g.fight_setup((1, 0), attacker="red", reinforcements=[Reinforce("g1", 1, "red")])
    assert setup.attackers.reinforcements[0].fighter.id == "g1"
    with pytest.raises(SkirmishError, match="one side only"):
        g.fight_setup((1, 0), attacker="red", reinforcements=[Reinforce("g1", 1, "red"), Reinforce("g2", 1, "blue")])
    with pytest.raises(SkirmishError, match="r2 belongs to red, which fights here, so it can only join red"):
        g.fight_setup((1, 0), attacker="red", reinforcements=[Reinforce("r2", 1, "blue")])


def test_P_REINF_a_third_player_never_joins_the_creatures_and_is_told_whom_it_may_help():
    g = grid_of(["..."], [("r", "red", (1, 0)), ("ogre", "creatures", (1, 0)), ("g1", "green", (0, 0)),
                          ("b1", "blue", (2, 0))])
    with pytest.raises(SkirmishError, match=r"name the side it helps, g1:red$"):
        g.fight_setup((1, 0), reinforcements=["g1"])
    with pytest.raises(SkirmishError, match=r"g1 \(green\) cannot join creatures: characters never join the "
                                            r"creatures; it may help red \(g1:red\)"):
        g.fight_setup((1, 0), reinforcements=[Reinforce("g1", 1, "creatures")])
    with pytest.raises(SkirmishError, match="cannot join blue: blue does not fight here"):
        g.fight_setup((1, 0), reinforcements=[Reinforce("g1", 1, "blue")])
    assert g.fight_setup((1, 0), reinforcements=[Reinforce("g1", 1, "red")]).attackers.reinforcements


def test_P_FIELD_a_room_with_one_player_and_no_creatures_holds_no_fight():
    g = grid_of(["..."], [("r", "red", (1, 0)), ("r2", "red", (1, 0))])
    for who in ({}, {"attacker": "red"}):
        with pytest.raises(SkirmishError, match="no fight here"):
            g.fight_setup((1, 0), **who)


def test_P_LINE_area_effects_hit_consecutive_places_of_a_row(maze):
    assert maze.row((2, 1), "creatures") == ("wisp", "shade")
    assert maze.area_effect("wisp", 2) == ("wisp", "shade")
    assert maze.area_effect("shade", 3) == ("shade",)       # the row ends there
    g = grid_of(["."], [(f"c{i}", "creatures", (0, 0)) for i in range(4)])
    assert g.area_effect("c1", 2) == ("c1", "c2")
    assert "c0" not in g.area_effect("c1", 4) and g.area_effect("c0", 4) == ("c0", "c1", "c2", "c3")
    with pytest.raises(SkirmishError):
        g.area_effect("c0", 0)


def test_reach_is_the_room(maze):
    near = maze.reach("knight", "shade", "Void Arrow")
    far = maze.reach("cleric", "shade", "Mending Light")
    assert near.in_reach and near.distance == 0 and not far.in_reach and far.distance == 1
    assert maze.reach("knight", "shade").weapon == "Void Shard"
    assert [r.weapon for r in maze.reaches("shade", "knight")] == ["attack"]


# -- fights and the viewer's data -----------------------------------------------------------------------

def test_fight_setup_defaults_and_refusals(maze):
    s = maze.fight_setup((2, 1))
    assert (s.attackers.name, s.defenders.name) == ("red", "creatures")
    assert [f.id for f in s.attackers.fighters] == ["knight", "mage"]
    assert {e.room for e in s.attackers.exits} == {(2, 0), (3, 1)} and s.defenders.exits == ()
    with pytest.raises(SkirmishError, match="no characters"):
        maze.fight_setup((0, 3))
    with pytest.raises(SkirmishError, match="creatures never start"):
        maze.fight_setup((2, 1), attacker="creatures")
    two = grid_of([".."], [("r", "red", (0, 0)), ("b", "blue", (0, 0))])
    with pytest.raises(SkirmishError, match="name the attacking player"):
        two.fight_setup((0, 0))
    assert two.fight_setup((0, 0), attacker="blue").defenders.name == "red"


def test_fight_on_the_map_is_seeded(maze):
    a = maze.fight((2, 1), random.Random(4))
    assert a == maze.fight((2, 1), random.Random(4))
    assert a.winner in ("red", "creatures") and a.room == (2, 1)


def test_layout_gives_a_drawing_everything(maze):
    lay = maze.layout()
    json.dumps(lay, allow_nan=False)
    assert lay["size"] == [6, 4] and lay["drawing"][0] == "...#V."
    by_at = {tuple(r["at"]): r for r in lay["rooms"]}
    for at, r in by_at.items():
        assert len(r["neighbours"]) + len(r["walls"]) == 4
        assert r["square"][0] == list(at)
    assert by_at[(2, 1)]["rows"] == {"red": ["knight", "mage"], "creatures": ["wisp", "shade"]}
    assert by_at[(4, 0)]["name"] == "Vault of Echoes" and by_at[(4, 0)]["treasure"] == 3
    assert lay["fights"] == [[2, 1]] and len(lay["pieces"]) == len(maze.pieces)


def test_grid_value_checks_itself():
    with pytest.raises(SkirmishError, match="at least one room"):
        Grid(())
    with pytest.raises(SkirmishError, match="not a room"):
        Grid((RoomCard((0, 0)),), (Piece(fighter("x"), (1, 0), 1),))
