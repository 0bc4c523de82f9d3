"""E-FALL for small drops: a drop no taller than the hitbox still rolls when it is more
than half the Speed (the seed text), as the movement checker and planner report it."""

from __future__ import annotations

import pytest

from skirmish.rules.eldfall.movement import fall_rolls
from skirmish.scenario.load import loads


def _table(size: str, spd: int, height: float):
    return loads(f"""format = 1
[table]
size = [20, 20]
[[scenery]]
id = "deck"
rect = [2, 2, 8, 8]
height = {height}
walkable = true
[[models]]
id = "big"
side = "red"
size = "{size}"
at = [5, 5]
z = {height}
attributes = {{ AGI = 5, SPD = {spd}, STA = 1, HP = 3 }}
""")


def test_e_fall_size_c_spd_4_stepping_down_3_makes_one_roll():
    t = _table("C", 4, 3.0)  # C is 80 mm (3.15 in) tall: the 3" drop is no taller than its hitbox
    plan = t.check_move("big", [(12.0, 5.0, 0.0)], kind="walk", budget=10, declared=True)
    assert plan.legal and plan.fall_rolls == 1 == fall_rolls(3.0, 4)
    assert any("E-FALL" in n for n in plan.notes)


@pytest.mark.parametrize("spd,rolls", [(6, 0), (4, 1), (2, 3)])
def test_e_fall_small_drop_rolls_follow_half_speed(spd, rolls):
    t = _table("C", spd, 3.0)
    plan = t.plan_move("big", (12.0, 5.0, 0.0), kind="walk", budget=12, declared=True)
    assert plan.legal and plan.fall_rolls == rolls == fall_rolls(3.0, spd)
