"""Flying (E-STATE-OTHER): SPD doubled, over scenery. A Flying model's movement passes over
every scenery piece (as a walker passes a piece no taller than its hitbox), may not end on
one, and comes down from a top without an E-FALL roll; a walker goes round and falls."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from skirmish.scenario.load import loads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "game"))
from eldfall_fixtures import WEAPONS, model, piece  # noqa: E402


def _table(states: str, at: tuple[float, float] = (5, 10), z: float = 0):
    return loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [20, 20]\n" + piece("wall", (9, 2, 10, 18), 4)
                 + piece("roof", (13, 8, 17, 12), 3, walkable=True)
                 + model("f", "red", at, 0, extra=f"states = {states}\nz = {z:g}") + model("b", "blue", (18, 2), 180))


def test_e_state_other_flying_passes_over_a_wall_a_walker_goes_round():
    fly, walk = _table('["Flying"]'), _table("[]")
    to = (12.0, 10.0)
    pf = fly.plan_move("f", to, kind="walk", budget=20)
    pw = walk.plan_move("f", to, kind="walk", budget=20)
    assert pf.legal and pw.legal
    assert pf.length == pytest.approx(math.dist((5, 10), to), abs=1e-6) and len(pf.points) == 2
    assert pw.length > pf.length + 10  # round the 16" wall's end
    assert fly.check_move("f", [to], kind="walk", budget=20).legal
    bad = walk.check_move("f", [to], kind="walk", budget=20)
    assert not bad.legal and any("through wall" in v.what for v in bad.violations)


def test_e_state_other_flying_never_ends_on_a_piece():
    c = _table('["Flying"]').check_move("f", [(9.5, 10.0)], kind="walk", budget=20)
    assert not c.legal and any("ends on wall" in v.what for v in c.violations)


def test_e_state_other_flying_comes_down_without_a_fall():
    """Off a 3" roof (SPD 4: a walker makes 1 Agility roll, E-FALL); Flying: none."""
    fly = _table('["Flying"]', (15, 10), 3).check_move("f", [(15.0, 14.5, 0.0)], kind="walk", budget=20)
    walk = _table("[]", (15, 10), 3).check_move("f", [(15.0, 14.5, 0.0)], kind="walk", budget=20)
    assert fly.legal and walk.legal
    assert fly.fall_rolls == 0 and any("Flying" in n for n in fly.notes)
    assert walk.fall_rolls == 1


def test_e_state_other_flying_model_in_a_game_crosses_the_wall():
    """In a game the Flying model's Walk (SPD doubled) goes over the wall, and the move
    passes the movement checker."""
    from skirmish.game.eldfall import EldfallGame, Move, parse_settings

    from eldfall_policies import Driven  # noqa: E402

    t = _table('["Flying"]')
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t),
                    {"red": Driven(["f"], moves={"f": Move("walk", (12.0, 10.0, 0.0))}), "blue": Driven()},
                    random.Random(1))
    assert g.budget("f", "walk") == 8  # SPD 4 doubled
    ev = next(e for e in g.play().events if e["role"] == "activation")
    assert ev["movement"]["kind"] == "walk" and len(ev["movement"]["path"]) == 2
    assert ev["movement"]["length"] == pytest.approx(7.0, abs=1e-6)
    via = [tuple(p) for p in ev["movement"]["path"][1:]]
    assert t.check_move("f", via, kind="walk", budget=8).legal
